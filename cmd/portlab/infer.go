package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"

	// The inference methods register themselves with package infer.
	_ "github.com/portlab/portlab/lib/infer/cegis"
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
  -ipc          front-end bound in instructions per cycle (0: none); with
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
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(stderr, inferUsage, methods)
		return fmt.Errorf("infer: name a method (%s)", methods)
	}
	method, err := infer.New(args[0])
	if err != nil {
		fmt.Fprintf(stderr, inferUsage, methods)
		return err
	}
	fs := flag.NewFlagSet("infer "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, inferUsage, methods)
		fmt.Fprintf(stderr, "\nFlags of %s:\n", args[0])
		fs.PrintDefaults()
	}
	expsArg := fs.String("experiments", "", "measurements to learn from")
	simulate := fs.String("simulate", "", "simulate measurements with this mapping")
	noise := fs.Float64("noise", 0, "relative noise of simulated measurements")
	live := fs.Bool("measure", false, "measure on this machine")
	insnsArg := fs.String("insns", "", "instructions to measure with -measure")
	campaign := fs.String("campaign", "", "campaign file for -measure")
	cpu := fs.String("cpu", "0", cpuUsage+", with -measure")
	storedArg := fs.String("stored", "", "measurements to answer from before asking the -measure or -simulate oracle")
	ports := fs.Int("ports", 0, "number of ports")
	ipc := fs.Float64("ipc", 0, "front-end bound in instructions per cycle (0: none)")
	evalArg := fs.String("eval", "", "evaluation experiments")
	holdOut := fs.Bool("heldout", false, "learn from experiments of one or two distinct instructions, evaluate on the rest")
	out := fs.String("out", "", "output prefix")
	seed := fs.Uint64("seed", 1, "random seed")
	workers := fs.Int("workers", 0, "parallel workers (0: all cores)")
	if f, ok := method.(infer.FlagSetter); ok {
		f.SetFlags(fs)
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *workers < 0 {
		return fmt.Errorf("infer %s: -workers %d: want ≥ 0 (0: all cores)", method.Name(), *workers)
	}
	sources := 0
	for _, given := range []bool{*expsArg != "", *simulate != "", *live} {
		if given {
			sources++
		}
	}
	if sources != 1 {
		fs.Usage()
		return fmt.Errorf("infer %s needs exactly one of -experiments, -simulate and -measure", method.Name())
	}
	if *storedArg != "" && *expsArg != "" {
		return fmt.Errorf("-stored needs -measure or -simulate (with -experiments, list the files there)")
	}
	p := infer.Problem{Ports: *ports, InstructionsPerCycle: *ipc}
	var truth *portmap.Mapping
	var machine *dataset.Machine
	switch {
	case *simulate != "":
		if machine, err = dataset.SimulatedMachine(*simulate); err != nil {
			return err
		}
		truth = machine.Mapping
		if machine.InstructionsPerCycle == 0 && *ipc > 0 {
			// A mapping file has no front end: -ipc gives it one, so
			// that the simulated machine has the peak the method is told.
			machine.InstructionsPerCycle = *ipc
		}
		if p.Ports == 0 {
			p.Ports = truth.NumPorts()
		}
		if machine.InstructionsPerCycle > 0 || machine.Counted != nil {
			fmt.Fprintf(stderr, "simulating %v\n", machine)
		}
		// Infer turns on the counters the method reads (infer.Needs).
		p.Oracle, p.Instructions = machine.Oracle(*noise, *seed), truth.Instructions()
	case *live:
		if *insnsArg == "" {
			return fmt.Errorf("infer %s -measure needs -insns", method.Name())
		}
		if p.Instructions, err = loadInsns(*insnsArg); err != nil {
			return err
		}
		hw, err := openHardware(ctx, *cpu, stderr)
		if err != nil {
			return err
		}
		defer hw.Close()
		// Infer switches the hardware's µop counter on for the methods
		// that read it, and refuses the ones that read per-port counters.
		p.Oracle = hw
		if *campaign != "" {
			c, err := measure.OpenCampaign(*campaign, hw)
			if err != nil {
				return err
			}
			defer c.Close()
			p.Oracle = c
		}
	default:
		if p.Data, err = loadTrainingList(*expsArg, stderr); err != nil {
			return err
		}
		p.Oracle = oracle.NewReplay(*expsArg, p.Data)
	}
	var storedFirst *oracle.StoredFirst
	if *storedArg != "" {
		stored, err := loadTrainingList(*storedArg, stderr)
		if err != nil {
			return err
		}
		storedFirst = oracle.NewStoredFirst(stored, *storedArg, p.Oracle)
		p.Oracle = storedFirst
		sigma, n := storedFirst.Noise()
		fmt.Fprintf(stderr, "stored: %d measurements of %s answer first (noise from their passes: %.2f%%, %d measurements)\n", storedFirst.Stored(), *storedArg, 100*sigma, n)
	}
	var heldOut *portmap.ExperimentSet
	if *holdOut {
		if p.Data == nil {
			return fmt.Errorf("-heldout needs -experiments")
		}
		short := func(m portmap.Measurement) bool { return m.Experiment.Distinct() <= 2 }
		heldOut = p.Data.Filter(func(m portmap.Measurement) bool { return !short(m) })
		p.Data = p.Data.Filter(short)
		p.Oracle = oracle.NewReplay(*expsArg+" (training part)", p.Data)
	}
	if p.Data != nil {
		fmt.Fprintf(stderr, "training: %d experiments\n", p.Data.Len())
	}
	bar := newProgressBar(stderr)
	settings := &infer.Settings{Seed: *seed, Workers: *workers, Progress: func(s infer.Progress) {
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
	if storedFirst != nil {
		fmt.Fprintf(stdout, "stored first: %v\n", storedFirst)
	}
	if ctx.Err() != nil {
		// Interrupted (or out of time).
		fmt.Fprintln(stdout, "interrupted: the result is the best found so far")
		// Evaluate and save what was found; a second interrupt stops that.
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
	}
	if *out != "" {
		names, werr := res.WriteFiles(*out)
		if werr != nil {
			return werr
		}
		fmt.Fprintf(stdout, "wrote %s\n", strings.Join(names, ", "))
	}
	if heldOut != nil && heldOut.Len() > 0 {
		ev := metrics.Evaluate(ctx, res.Predictor, heldOut)
		if ev.Err() != nil {
			return fmt.Errorf("held-out experiments: %w", ev.Err())
		}
		fmt.Fprintf(stdout, "on the %d held-out experiments: %v\n", heldOut.Len(), summaryLine(ev))
	}
	for _, spec := range strings.Split(*evalArg, ",") {
		if spec == "" {
			continue
		}
		if eerr := evaluate(ctx, stdout, stderr, res.Predictor, machine, spec, *seed); eerr != nil {
			return eerr
		}
	}
	return err
}

// summaryLine is an evaluation's metrics and what it left out.
func summaryLine(ev *metrics.Evaluation) string {
	s := ev.Summary.String()
	if len(ev.Failures) > 0 {
		s += fmt.Sprintf(" (%d not predicted; first: %s)", len(ev.Failures), ev.Failures[0])
	}
	return s
}

// loadTrainingList reads a comma-separated list of training sets and merges
// them; an experiment measured in several keeps the value of the last. The
// failed experiments of campaign files are counted on stderr.
func loadTrainingList(specs string, stderr io.Writer) (*portmap.ExperimentSet, error) {
	var sets []*portmap.ExperimentSet
	for _, spec := range strings.Split(specs, ",") {
		var s *portmap.ExperimentSet
		var err error
		if portmap.IsCampaign(spec) {
			var failures []portmap.Failure
			s, failures, err = portmap.ReadCampaign(spec)
			if err == nil && len(failures) > 0 {
				fmt.Fprintf(stderr, "%s: %d failed experiments left out\n", spec, len(failures))
			}
		} else {
			s, err = dataset.Experiments(spec)
		}
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	if len(sets) == 1 {
		return sets[0], nil
	}
	return portmap.Merge(sets...), nil
}

// evaluate prints the accuracy of p on the -eval experiments spec: a data
// set, or a random design measured with the simulated truth.
func evaluate(ctx context.Context, w, stderr io.Writer, p oracle.Predictor, truth *dataset.Machine, spec string, seed uint64) error {
	var set *portmap.ExperimentSet
	if strings.HasPrefix(spec, "random:") {
		if truth == nil {
			return fmt.Errorf("-eval %q: random experiments need -simulate (the truth to measure them with)", spec)
		}
		length, n, s, err := design.ParseRandom(spec)
		if err != nil {
			return err
		}
		if strings.Count(spec, ":") == 2 {
			s = seed + 1 // not the training design's seed
		}
		set, _, err = oracle.MeasureAll(ctx, truth.Oracle(0, 1), design.Random(truth.Mapping.Instructions(), length, n, s), nil)
		if err != nil {
			return err
		}
	} else {
		var err error
		if set, err = loadTrainingList(spec, stderr); err != nil {
			return err
		}
	}
	ev := metrics.Evaluate(ctx, p, set)
	if ev.Err() != nil {
		return fmt.Errorf("evaluating on %s: %w", spec, ev.Err())
	}
	fmt.Fprintf(w, "on %s: %v\n", spec, summaryLine(ev))
	return nil
}
