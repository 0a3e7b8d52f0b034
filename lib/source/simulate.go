package source

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/oracle"
)

// Simulation is a checked simulated machine: a machine or mapping name
// with the relative noise and the seed of its measurements.
type Simulation struct {
	// Machine names the machine: portlab:zenplus-like, a mapping name
	// (pmevo:ARCH/WHICH, uops.info:UARCH) or a mapping file.
	Machine string
	// Noise is the relative standard deviation of the simulated
	// measurements (0.02 for 2 %), Seed the seed of their noise.
	Noise float64
	Seed  uint64
	// InstructionsPerCycle, when positive, is the front-end peak given to
	// a machine that has none (a mapping): the simulation then has the
	// peak an inference method is told.
	InstructionsPerCycle float64
}

// ParseSimulation checks a simulated machine without loading it: the
// name's prefix must be known and a file must exist; the noise must be in
// [0, 1).
func ParseSimulation(name string, noise float64, seed uint64) (*Simulation, error) {
	if err := CheckNoise(noise); err != nil {
		return nil, err
	}
	switch prefix := prefixOf(name); {
	case name == "":
		return nil, fmt.Errorf("machine: no name given (%s)", machineForms)
	case prefix == "portlab":
		if !slices.Contains(machine.Names(), name) {
			return nil, fmt.Errorf("machine %q: unknown simulated machine (have %s)", name, strings.Join(machine.Names(), ", "))
		}
	case prefix == "pmevo":
		if arch, which, ok := strings.Cut(strings.TrimPrefix(name, "pmevo:"), "/"); !ok || arch == "" || which == "" {
			return nil, fmt.Errorf("machine %q: want pmevo:ARCH/WHICH, e.g. pmevo:SKL/uops_info", name)
		}
	case prefix == "uops.info":
		if strings.TrimPrefix(name, "uops.info:") == "" {
			return nil, fmt.Errorf("machine %q: want uops.info:UARCH, e.g. uops.info:SKL", name)
		}
	case isFile(name):
	case prefix == "random":
		return nil, fmt.Errorf("machine %q: names experiments, not a machine (%s)", name, machineForms)
	case prefix != "":
		return nil, fmt.Errorf("machine %q: unknown data-set prefix %q (known: portlab:, pmevo:, uops.info:; or a mapping or machine file)", name, prefix+":")
	default:
		if err := checkFile("machine", name, machineForms); err != nil {
			return nil, err
		}
	}
	return &Simulation{Machine: name, Noise: noise, Seed: seed}, nil
}

// CheckNoise checks the relative noise of simulated measurements: a
// standard deviation in [0, 1), e.g. 0.02 for 2 %.
func CheckNoise(noise float64) error {
	if !(noise >= 0 && noise < 1) {
		return fmt.Errorf("noise %g: want a relative standard deviation in [0, 1), e.g. 0.02 for 2 %%", noise)
	}
	return nil
}

// Open loads the machine (machine.Lookup), gives it the
// front-end peak of InstructionsPerCycle when it has none, and returns it
// with its simulated oracle. A machine with a front-end peak or a µop
// counter of its own is described on notes (when not nil).
func (s *Simulation) Open(notes io.Writer) (*machine.Machine, *oracle.Simulated, error) {
	m, err := machine.Lookup(s.Machine)
	if err != nil {
		return nil, nil, err
	}
	if m.InstructionsPerCycle == 0 && s.InstructionsPerCycle > 0 {
		m.InstructionsPerCycle = s.InstructionsPerCycle
	}
	if notes != nil && (m.InstructionsPerCycle > 0 || m.Counted() != nil) {
		fmt.Fprintf(notes, "simulating %v\n", m)
	}
	return m, m.Oracle(s.Noise, s.Seed), nil
}

// Simulate opens a simulated machine's oracle by name: ParseSimulation,
// then Open.
func Simulate(name string, noise float64, seed uint64) (*oracle.Simulated, error) {
	s, err := ParseSimulation(name, noise, seed)
	if err != nil {
		return nil, err
	}
	_, o, err := s.Open(nil)
	return o, err
}
