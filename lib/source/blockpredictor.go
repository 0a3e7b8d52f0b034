package source

import (
	"fmt"
	"slices"
	"strings"

	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/predict/llvmmca"
	"github.com/portlab/portlab/lib/sim"
)

// blockPredictorForms lists the valid block-predictor names, for errors.
const blockPredictorForms = "want sim:MACHINE (the block simulator of a built-in machine such as sim:zenplus-like, a machine file or a mapping name) or llvm-mca:CPU (llvm-mca's -mcpu, e.g. llvm-mca:znver3; LLVM 14 has no model newer than znver3 and icelake)"

// BlockPredictor is a checked name of a basic-block predictor:
//
//   - sim:MACHINE, the block simulator (package sim) of a machine: a
//     built-in one, with or without its "portlab:" prefix
//     (sim:zenplus-like), a machine file, or any mapping name a
//     simulated machine takes (sim:pmevo:SKL/uops_info);
//   - llvm-mca:CPU, llvm-mca with -mcpu=CPU (llvm-mca:znver3).
//
// Block measurement on the host is not a block predictor yet; its name
// ("host") is refused with the list of the available ones.
type BlockPredictor struct {
	// Name is the name as given; Kind is "sim" or "llvm-mca", Arg the
	// machine or the CPU.
	Name, Kind, Arg string
}

// ParseBlockPredictor checks a block-predictor name without loading a
// machine or starting llvm-mca.
func ParseBlockPredictor(name string) (*BlockPredictor, error) {
	kind, arg, ok := strings.Cut(name, ":")
	switch {
	case name == "host" || kind == "host":
		return nil, fmt.Errorf("predictor %q: block measurement on the host is not available yet (%s)", name, blockPredictorForms)
	case !ok || arg == "":
		return nil, fmt.Errorf("predictor %q: %s", name, blockPredictorForms)
	case kind == "sim":
		if !strings.Contains(arg, ":") && slices.Contains(machine.Names(), "portlab:"+arg) {
			arg = "portlab:" + arg
		}
		if _, err := ParseSimulation(arg, 0, 0); err != nil {
			return nil, fmt.Errorf("predictor %q: %w", name, err)
		}
	case kind == "llvm-mca":
		if strings.ContainsAny(arg, " \t=") {
			return nil, fmt.Errorf("predictor %q: CPU %q is no -mcpu value (e.g. llvm-mca:znver3)", name, arg)
		}
	default:
		return nil, fmt.Errorf("predictor %q: unknown kind %q (%s)", name, kind, blockPredictorForms)
	}
	return &BlockPredictor{Name: name, Kind: kind, Arg: arg}, nil
}

// Open returns the predictor, and for sim: the machine simulated (nil for
// llvm-mca). llvm-mca is neither looked for nor run: its first prediction
// reports a missing binary or an unknown CPU.
func (p *BlockPredictor) Open() (sim.BlockPredictor, *machine.Machine, error) {
	if p.Kind == "llvm-mca" {
		mca := llvmmca.New(p.Arg)
		// A check of 100 sampled blocks then runs as several llvm-mca
		// processes in parallel.
		mca.BatchSize = 25
		return mca, nil, nil
	}
	m, err := machine.Lookup(p.Arg)
	if err != nil {
		return nil, nil, fmt.Errorf("predictor %q: %w", p.Name, err)
	}
	s, err := sim.New(m, sim.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("predictor %q: %w", p.Name, err)
	}
	return s, m, nil
}
