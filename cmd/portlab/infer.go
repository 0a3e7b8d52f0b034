package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/pmu"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/source"

	// The inference methods register themselves with package infer.
	_ "github.com/portlab/portlab/lib/infer/cegis"
	_ "github.com/portlab/portlab/lib/infer/classes"
	_ "github.com/portlab/portlab/lib/infer/explainable"
	_ "github.com/portlab/portlab/lib/infer/palmed"
	_ "github.com/portlab/portlab/lib/infer/pmevo"
	_ "github.com/portlab/portlab/lib/infer/uopsinfo"
)

const inferUsage = `portlab infer NAME — infer a port mapping with the inference method NAME

  portlab infer NAME -experiments E [-ports N] [flags]
  portlab infer NAME -simulate M [-noise σ] [flags]
  portlab infer NAME -measure -insns FILE -ports N [-campaign FILE.jsonl] [flags]
  portlab infer NAME (-measure … | -simulate M) -stored FILES [flags]

Methods: %s

  -experiments  measurements to learn from: a portlab or PMEvo JSON file, a
                portlab measure campaign (.jsonl or .jsonl.gz) or a data-set
                name; a comma-separated list is merged (an experiment in
                several files keeps the last file's value); methods that ask
                for more experiments get them from the data or fail
  -simulate     instead, ask a simulation of mapping M (file or data-set
                name, e.g. pmevo:SKL/uops_info) with relative noise σ (e.g.
                0.02) about all of M's instructions; with a total µop
                counter, and per-port µop counters for methods that read
                them (uopsinfo); a simulated
                machine (portlab:zenplus-like) brings its front-end peak
                and its µop counter (macro-ops)
  -measure      instead, measure on this machine what the method asks, the
                instructions of -insns (as portlab measure reads them), with
                results kept in -campaign so that a rerun resumes
  -stored       with -measure or -simulate: answer the experiments these
                measurements hold (files or data sets as for -experiments;
                the exact multiset matches) from them and ask the oracle
                only for the rest; the files are not modified — with
                -measure, give -campaign to keep the new measurements. The
                count of both is printed, and the stored passes' spread is
                the noise figure of methods that estimate one (palmed)
  -ports        number of ports to infer (default with -simulate: M's)
  -ipc          front-end bound in instructions per cycle (0: none, or with
                -simulate of a machine that has a front end, its peak); with
                -simulate of a mapping file also the simulated machine's
  -eval         experiments to evaluate the result on (file or data-set
                name), or random:LENGTH:COUNT[:SEED] with -simulate; a
                comma-separated list evaluates on each. After an interrupt
                the best result found so far is evaluated
  -heldout      learn only from the experiments of one or two distinct
                instructions and evaluate on the others (e.g. a campaign's
                random length-5 set)
  -out          write PREFIX.json, PREFIX.pmevo.json (the port mapping; for
                palmed the equivalent port mapping when there is one),
                PREFIX.report.json, and for palmed PREFIX.resources.json,
                PREFIX.resources-nn.json and PREFIX.resources.txt
  -seed, -workers  random seed, parallel workers (0: all cores)

A result that comes with an error (an interrupt; for palmed a core mapping
that leaves some of its kernels sub-saturated by more than -fit-tol, listed
under WARNING in the report) is still printed, written and evaluated, and the
command then exits with status 1 and the error.
`

func cmdInfer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	methods := strings.Join(infer.Methods(), ", ")
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprintf(stdout, inferUsage, methods)
		return nil
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(stderr, inferUsage, methods)
		return fmt.Errorf("infer: name a method (%s)", methods)
	}
	method, err := infer.New(args[0])
	if err != nil {
		return fmt.Errorf("infer: unknown method %q (want %s; portlab infer -h)", args[0], methods)
	}
	fs := flag.NewFlagSet("infer "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, inferUsage, methods)
		fmt.Fprintf(stderr, "\nFlags of %s:\n", args[0])
		fs.PrintDefaults()
	}
	var f inferFlags
	f.register(fs)
	if m, ok := method.(infer.FlagSetter); ok {
		m.SetFlags(fs)
	}
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if n, ok := method.(interface{ SetNotes(io.Writer) }); ok {
		// The method's plan and measurement-time estimates.
		n.SetNotes(stderr)
	}
	if f.live {
		if err := checkDefaultCPU(fs); err != nil {
			return err
		}
	}
	if f.workers < 0 {
		return fmt.Errorf("infer %s: -workers %d: want ≥ 0 (0: all cores)", method.Name(), f.workers)
	}
	if n := btoi(f.exps != "") + btoi(f.simulate != "") + btoi(f.live); n != 1 {
		fs.Usage()
		return fmt.Errorf("infer %s needs exactly one of -experiments, -simulate and -measure", method.Name())
	}
	// Every name is checked before anything is loaded, measured or inferred.
	src, evals, err := f.sources(method)
	if err != nil {
		return err
	}
	op, err := src.Open(ctx, stderr)
	if err != nil {
		return err
	}
	defer op.Close()
	// Infer switches on the counters the method reads (infer.Needs), or
	// refuses with what is missing, before it asks anything.
	if err := op.Complete(ctx); err != nil {
		return err
	}
	p := infer.Problem{Ports: f.ports, InstructionsPerCycle: f.ipc, Oracle: op.Oracle, Instructions: op.Instructions, Data: op.Data}
	if c, ok := method.(interface{ ChoosesPorts() bool }); p.Ports == 0 && op.Machine != nil && !(ok && c.ChoosesPorts()) {
		p.Ports = op.Machine.Mapping.NumPorts()
	}
	if p.InstructionsPerCycle == 0 && op.Machine != nil && op.Machine.InstructionsPerCycle > 0 {
		// The simulated machine's front end is part of what it is: the
		// method is told its peak, as -ipc would.
		p.InstructionsPerCycle = op.Machine.InstructionsPerCycle
		fmt.Fprintf(stderr, "the method is told the simulated machine's front-end peak, %g instructions per cycle (-ipc)\n", p.InstructionsPerCycle)
	}
	evalSets := make([]*portmap.ExperimentSet, len(evals))
	truth := op.Truth(f.seed, stderr)
	for i, e := range evals {
		if evalSets[i], err = e.Load(ctx, truth); err != nil {
			return fmt.Errorf("-eval: %w", err)
		}
	}
	if p.Data != nil {
		fmt.Fprintf(stderr, "training: %d experiments\n", p.Data.Len())
	}
	bar := newProgressBar(stderr)
	settings := &infer.Settings{Seed: f.seed, Workers: f.workers, Progress: func(s infer.Progress) {
		bar.update(s.Message, int64(s.Done), int64(s.Total))
	}}
	res, err := infer.Infer(ctx, p, method, settings)
	bar.finish()
	if res == nil {
		return err
	}
	if s, ok := res.Report.(fmt.Stringer); ok {
		fmt.Fprintln(stdout, strings.TrimRight(s.String(), "\n"))
	}
	fmt.Fprintln(stdout, res)
	if op.StoredFirst != nil {
		fmt.Fprintf(stdout, "stored first: %v\n", op.StoredFirst)
	}
	if ctx.Err() != nil {
		// Interrupted (or out of time).
		fmt.Fprintln(stdout, "interrupted: the result is the best found so far")
		// Evaluate and save what was found; a second interrupt stops that.
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
	}
	if f.out != "" {
		names, werr := res.WriteFiles(f.out)
		if werr != nil {
			return werr
		}
		fmt.Fprintf(stdout, "wrote %s\n", strings.Join(names, ", "))
	}
	if heldOut := op.HeldOut; heldOut != nil && heldOut.Len() > 0 {
		if eerr := evaluate(ctx, stdout, res.Predictor, fmt.Sprintf("the %d held-out experiments", heldOut.Len()), heldOut); eerr != nil {
			return fmt.Errorf("held-out experiments: %w", eerr)
		}
	}
	for i, e := range evals {
		if eerr := evaluate(ctx, stdout, res.Predictor, e.String(), evalSets[i]); eerr != nil {
			return eerr
		}
	}
	return err
}

// inferFlags are the flags of portlab infer that every method has.
type inferFlags struct {
	exps, simulate, insns, campaign, cpu, stored, eval, out string
	noise, ipc                                              float64
	live, heldOut                                           bool
	ports, workers                                          int
	seed                                                    uint64
}

// register defines the flags in fs.
func (f *inferFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.exps, "experiments", "", "measurements to learn from")
	fs.StringVar(&f.simulate, "simulate", "", "simulate measurements with this mapping")
	fs.Float64Var(&f.noise, "noise", 0, "relative noise of simulated measurements")
	fs.BoolVar(&f.live, "measure", false, "measure on this machine")
	fs.StringVar(&f.insns, "insns", "", "instructions to measure with -measure")
	fs.StringVar(&f.campaign, "campaign", "", "campaign file for -measure")
	fs.StringVar(&f.cpu, "cpu", defaultCPU(), cpuUsage+", with -measure")
	fs.StringVar(&f.stored, "stored", "", "measurements to answer from before asking the -measure or -simulate oracle")
	fs.IntVar(&f.ports, "ports", 0, "number of ports")
	fs.Float64Var(&f.ipc, "ipc", 0, "front-end bound in instructions per cycle (0: none)")
	fs.StringVar(&f.eval, "eval", "", "evaluation experiments")
	fs.BoolVar(&f.heldOut, "heldout", false, "learn from experiments of one or two distinct instructions, evaluate on the rest")
	fs.StringVar(&f.out, "out", "", "output prefix")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed")
	fs.IntVar(&f.workers, "workers", 0, "parallel workers (0: all cores)")
}

// sources checks the names of the flags — the oracle's and the -eval
// sets — and their combinations, and returns them parsed.
func (f *inferFlags) sources(method infer.Method) (*source.Oracle, []*source.Experiments, error) {
	src := &source.Oracle{Campaign: f.campaign, HoldOut: f.heldOut, Version: versionString()}
	var err error
	switch {
	case f.simulate != "":
		if err := source.CheckNoise(f.noise); err != nil {
			return nil, nil, flagError("noise", err)
		}
		if src.Simulation, err = source.ParseSimulation(f.simulate, f.noise, f.seed); err != nil {
			return nil, nil, flagError("simulate", err)
		}
		// A mapping file has no front end: -ipc gives it one, so that the
		// simulated machine has the peak the method is told.
		src.Simulation.InstructionsPerCycle = f.ipc
	case f.live:
		if f.insns == "" {
			return nil, nil, fmt.Errorf("infer %s -measure needs -insns", method.Name())
		}
		if src.Forms, err = source.ParseForms(f.insns); err != nil {
			return nil, nil, flagError("insns", err)
		}
		if src.CPUs, err = source.ParseCPUs(f.cpu); err != nil {
			return nil, nil, flagError("cpu", err)
		}
		if method.Uses().PortCounters {
			return nil, nil, fmt.Errorf("infer %s -measure: the hardware oracle reads no per-port µop counters (model-specific events portlab does not program); this host: %v; simulate instead (-simulate M) or replay measurements made with them (-experiments)", method.Name(), pmu.Detect())
		}
	default:
		if src.Replay, err = source.ParseExperiments(f.exps); err != nil {
			return nil, nil, flagError("experiments", err)
		}
	}
	if f.stored != "" {
		if f.exps != "" {
			return nil, nil, fmt.Errorf("-stored needs -measure or -simulate (with -experiments, list the files there)")
		}
		if src.Stored, err = source.ParseExperiments(f.stored); err != nil {
			return nil, nil, flagError("stored", err)
		}
	}
	for _, c := range []struct {
		flag string
		e    *source.Experiments
	}{{"experiments", src.Replay}, {"stored", src.Stored}} {
		if c.e != nil && c.e.NeedsTruth() {
			return nil, nil, fmt.Errorf("-%s %q: random experiments are for -eval (measured with the truth of -simulate)", c.flag, c.e)
		}
	}
	if f.heldOut && f.exps == "" {
		return nil, nil, fmt.Errorf("-heldout needs -experiments")
	}
	var evals []*source.Experiments
	for _, spec := range strings.Split(f.eval, ",") {
		if spec == "" {
			continue
		}
		e, err := source.ParseExperiments(spec)
		if err != nil {
			return nil, nil, flagError("eval", err)
		}
		if e.NeedsTruth() && src.Simulation == nil {
			return nil, nil, fmt.Errorf("-eval %q: random experiments need -simulate (the truth to measure them with)", spec)
		}
		evals = append(evals, e)
	}
	return src, evals, nil
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// summaryLine is an evaluation's metrics and what it left out.
func summaryLine(ev *metrics.Evaluation) string {
	s := ev.Summary.String()
	if len(ev.Failures) > 0 {
		s += fmt.Sprintf(" (%d not predicted; first: %s)", len(ev.Failures), ev.Failures[0])
	}
	return s
}

// evaluate prints the accuracy of p on the experiments of set, named name.
func evaluate(ctx context.Context, w io.Writer, p oracle.Predictor, name string, set *portmap.ExperimentSet) error {
	ev, err := source.Evaluate(ctx, "", p, set)
	if err != nil {
		return fmt.Errorf("evaluating on %s: %w", name, err)
	}
	fmt.Fprintf(w, "on %s: %v\n", name, summaryLine(ev))
	return nil
}
