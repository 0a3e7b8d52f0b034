package source

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/predict/llvmmca"
	"github.com/portlab/portlab/lib/sim"
)

// blockPredictorForms lists the valid block-predictor names, for errors.
const blockPredictorForms = "want sim:MACHINE (the block simulator of a built-in machine such as sim:zenplus-like, a machine file or a mapping name), llvm-mca:CPU (llvm-mca's -mcpu, e.g. llvm-mca:znver3; LLVM 14 has no model newer than znver3 and icelake) or host[:CPU] (blocks measured on this machine, on CPU number CPU, several joined by +, e.g. host:0+1)"

// BlockPredictor is a checked name of a basic-block predictor:
//
//   - sim:MACHINE, the block simulator (package sim) of a machine: a
//     built-in one, with or without its "portlab:" prefix
//     (sim:zenplus-like), a machine file, or any mapping name a
//     simulated machine takes (sim:pmevo:SKL/uops_info);
//   - llvm-mca:CPU, llvm-mca with -mcpu=CPU (llvm-mca:znver3);
//   - host or host:CPU, the blocks measured on this machine
//     (measure.HostBlocks) on the CPU given (a CPU number, several
//     joined by "+", "affinity" or -1 as ParseCPUs takes them; without
//     one measure.DefaultCPU). Blocks the harness cannot run are failures
//     with the reason, marked as outside the predictor
//     (measure.HostBlocks.Outside).
type BlockPredictor struct {
	// Name is the name as given; Kind is "sim", "llvm-mca" or "host", Arg
	// the machine, the CPU for llvm-mca or the CPUs for host.
	Name, Kind, Arg string
	// CPUs are the CPUs a host predictor measures on.
	CPUs []int
	// Journal, when not empty, is a campaign journal (measure.Campaign)
	// the host's measurements go through, so that no block is measured
	// twice across runs; Version is the portlab version its header
	// records. Host only.
	Journal, Version string

	close func() error
}

// ParseBlockPredictor checks a block-predictor name without loading a
// machine or starting llvm-mca.
func ParseBlockPredictor(name string) (*BlockPredictor, error) {
	kind, arg, ok := strings.Cut(name, ":")
	var cpus []int
	switch {
	case kind == "host":
		spec := strings.ReplaceAll(arg, "+", ",")
		if !ok {
			cpu, err := measure.DefaultCPU()
			if err != nil {
				return nil, fmt.Errorf("predictor %q: %w (or name the CPU: host:0)", name, err)
			}
			spec = strconv.Itoa(cpu)
		}
		c, err := ParseCPUs(spec)
		if err != nil {
			return nil, fmt.Errorf("predictor %q: %w (join several CPUs by +: host:0+1)", name, err)
		}
		cpus, arg = c, spec
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
	return &BlockPredictor{Name: name, Kind: kind, Arg: arg, CPUs: cpus}, nil
}

// Open returns the predictor, and for sim: the machine simulated (nil
// otherwise). llvm-mca is neither looked for nor run: its first
// prediction reports a missing binary or an unknown CPU. host opens the
// hardware on its CPUs (OpenHardware, which writes to notes when not nil)
// and, with a Journal, the campaign journal; Close releases them.
func (p *BlockPredictor) Open(ctx context.Context, notes io.Writer) (sim.BlockPredictor, *machine.Machine, error) {
	switch p.Kind {
	case "llvm-mca":
		mca := llvmmca.New(p.Arg)
		// A check of 100 sampled blocks then runs as several llvm-mca
		// processes in parallel.
		mca.BatchSize = 25
		return mca, nil, nil
	case "host":
		return p.openHost(ctx, notes)
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

func (p *BlockPredictor) openHost(ctx context.Context, notes io.Writer) (sim.BlockPredictor, *machine.Machine, error) {
	if p.close != nil {
		return nil, nil, fmt.Errorf("predictor %q: already open", p.Name)
	}
	hw, err := OpenHardware(ctx, p.CPUs, notes)
	if err != nil {
		return nil, nil, fmt.Errorf("predictor %q: %w", p.Name, err)
	}
	if p.Journal == "" {
		p.close = hw.Close
		return measure.NewHostBlocks(hw, nil), nil, nil
	}
	camp, err := measure.OpenHostCampaign(ctx, p.Journal, hw, p.Version, nil)
	if err != nil {
		hw.Close()
		return nil, nil, fmt.Errorf("predictor %q: %w", p.Name, err)
	}
	p.close = func() error {
		err := camp.Close()
		if e := hw.Close(); err == nil {
			err = e
		}
		return err
	}
	return measure.NewHostBlocks(hw, camp), nil, nil
}

// Close releases what Open opened for a host predictor (the hardware's
// workers, the journal); for the others it does nothing.
func (p *BlockPredictor) Close() error {
	if p.close == nil {
		return nil
	}
	err := p.close()
	p.close = nil
	return err
}
