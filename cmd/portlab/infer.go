package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/infer/pmevo"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

const inferUsage = `portlab infer pmevo — infer a port mapping from throughputs (PMEvo)

  portlab infer pmevo -experiments E -ports N [flags]
  portlab infer pmevo -simulate M [-noise σ] [flags]

  -experiments  training experiments (singletons, pairs, ratio pairs): a
                portlab or PMEvo JSON file, or a portlab measure campaign
                (.jsonl or .jsonl.gz); a comma-separated list is merged (an
                experiment in several files keeps the last file's value)
  -simulate     instead, simulate the training experiments of all
                instructions of mapping M (file or data-set name, e.g.
                pmevo:SKL/uops_info), with relative noise σ (e.g. 0.02)
  -ports        number of ports to infer (default with -simulate: M's)
  -eval         experiments to evaluate the result on (file or data-set
                name), or random:LENGTH:COUNT with -simulate; a comma-
                separated list evaluates on each
  -heldout      train only on the experiments of one or two distinct
                instructions and evaluate on the others (e.g. a campaign's
                random length-5 set)
  -paper        the paper's hyperparameters (population 100,000, no
                mutation, no polish) instead of portlab's defaults
  -population, -generations, -stall, -mutation, -volume, -polish,
  -deep, -init-uops, -epsilon, -ipc, -seed, -workers   override single
                hyperparameters
  -out          write PREFIX.json, PREFIX.pmevo.json, PREFIX.report.json
`

func cmdInfer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "pmevo" {
		fmt.Fprint(stderr, inferUsage)
		return errors.New("infer: the only algorithm so far is pmevo")
	}
	fs := flag.NewFlagSet("infer pmevo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, inferUsage) }
	expsArg := fs.String("experiments", "", "training experiments")
	simulate := fs.String("simulate", "", "simulate training data from this mapping")
	noise := fs.Float64("noise", 0, "relative noise of simulated measurements")
	ports := fs.Int("ports", 0, "number of ports")
	evalArg := fs.String("eval", "", "evaluation experiments")
	holdOut := fs.Bool("heldout", false, "train on experiments of one or two distinct instructions, evaluate on the rest")
	paper := fs.Bool("paper", false, "the paper's hyperparameters")
	out := fs.String("out", "", "output prefix")
	pop := fs.Int("population", 0, "population size")
	gens := fs.Int("generations", 0, "generation limit")
	stall := fs.Int("stall", -1, "stop after this many generations without progress (0: never)")
	mut := fs.Float64("mutation", -1, "mutation probability per child")
	vol := fs.Float64("volume", -1, "weight of the µop volume in the fitness")
	polish := fs.Int("polish", -1, "sweeps of the extended local search (0: off)")
	deep := fs.Int("deep", -1, "sweeps of the deep local search on the best candidate (0: off)")
	initUops := fs.Int("init-uops", -1, "at most this many µops per instruction initially (0: ports)")
	eps := fs.Float64("epsilon", 0.05, "congruence tolerance (negative: no filtering)")
	quantile := fs.Float64("quantile", 1, "congruence: quantile of the context differences that must be below epsilon (1: all, PMEvo)")
	ipc := fs.Float64("ipc", 0, "front-end bound in instructions per cycle (0: none)")
	seed := fs.Uint64("seed", 1, "random seed")
	workers := fs.Int("workers", 0, "fitness workers (0: all cores)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if (*expsArg == "") == (*simulate == "") {
		fs.Usage()
		return errors.New("infer pmevo needs exactly one of -experiments and -simulate")
	}
	var truth *portmap.Mapping
	var train *portmap.ExperimentSet
	var err error
	if *simulate != "" {
		if truth, err = loadMapping(*simulate); err != nil {
			return err
		}
		if *ports == 0 {
			*ports = truth.NumPorts()
		}
		train, err = pmevo.Experiments(ctx, measure.NewSimulated(truth, *noise, *seed), truth.Instructions(), nil)
	} else {
		train, err = loadTrainingList(*expsArg, stderr)
	}
	if err != nil {
		return err
	}
	if *ports == 0 {
		return errors.New("infer pmevo needs -ports")
	}
	var heldOut *portmap.ExperimentSet
	if *holdOut {
		short := func(m portmap.Measurement) bool { return m.Experiment.Distinct() <= 2 }
		heldOut = train.Filter(func(m portmap.Measurement) bool { return !short(m) })
		train = train.Filter(short)
	}
	cfg := pmevo.DefaultConfig(*ports)
	if *paper {
		cfg = pmevo.PaperConfig(*ports)
	}
	set := func(dst *int, v int, ok bool) {
		if ok {
			*dst = v
		}
	}
	set(&cfg.Population, *pop, *pop > 0)
	set(&cfg.Generations, *gens, *gens > 0)
	set(&cfg.Stall, *stall, *stall >= 0)
	set(&cfg.Polish, *polish, *polish >= 0)
	set(&cfg.InitialUops, *initUops, *initUops >= 0)
	set(&cfg.Deep, *deep, *deep >= 0)
	set(&cfg.Workers, *workers, true)
	if *mut >= 0 {
		cfg.Mutation = *mut
	}
	if *vol >= 0 {
		cfg.VolumeFitness = *vol
	}
	cfg.Epsilon, cfg.CongruenceQuantile, cfg.InstructionsPerCycle, cfg.Seed = *eps, *quantile, *ipc, *seed
	bar := newProgressBar(stderr)
	cfg.Progress = func(g pmevo.Generation) {
		bar.update(fmt.Sprintf("generation %d/%d, best error %.2f%%, volume %d, %s", g.Index, cfg.Generations, 100*g.BestError, g.BestVolume, g.Elapsed.Round(time.Second)), int64(g.Index), int64(cfg.Generations))
	}
	fmt.Fprintf(stderr, "training: %d experiments\n", train.Len())
	res, err := pmevo.Infer(ctx, train, cfg)
	bar.finish()
	if res == nil {
		return err
	}
	r := res.Report
	fmt.Fprintf(stdout, "%d instructions in %d congruence classes, %d training experiments\n", r.Instructions, r.Representatives, r.Experiments)
	fmt.Fprintf(stdout, "%d generations (%s), population %d, seed %d, %s\n", r.Generations, r.Stopped, r.Population, r.Seed, r.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(stdout, "training MAPE %.3f%% (%.2f%% before local search), %d distinct µops, volume %d\n", r.TrainingMAPE, r.EvolvedMAPE, r.DistinctUops, r.Volume)
	if *out != "" {
		if werr := res.WriteFiles(*out); werr != nil {
			return werr
		}
		fmt.Fprintf(stdout, "wrote %s.json, %s.pmevo.json, %s.report.json\n", *out, *out, *out)
	}
	if heldOut != nil && heldOut.Len() > 0 {
		pred, perr := throughput.Predict(ctx, res.Mapping, heldOut.Experiments())
		if perr != nil {
			return fmt.Errorf("held-out experiments: %w", perr)
		}
		s, serr := metrics.Summarize(heldOut.Cycles(), pred)
		if serr != nil && !errors.Is(serr, metrics.ErrConstant) {
			return serr
		}
		fmt.Fprintf(stdout, "on the %d held-out experiments: %v\n", heldOut.Len(), s)
	}
	if *evalArg != "" {
		for _, spec := range strings.Split(*evalArg, ",") {
			if eerr := evaluate(ctx, stdout, res.Mapping, truth, spec, *seed); eerr != nil {
				return eerr
			}
		}
	}
	return err
}

// loadTrainingList reads a comma-separated list of training sets and merges
// them; an experiment measured in several keeps the value of the last.
func loadTrainingList(specs string, stderr io.Writer) (*portmap.ExperimentSet, error) {
	var sets []*portmap.ExperimentSet
	for _, spec := range strings.Split(specs, ",") {
		s, err := loadTraining(spec, stderr)
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	if len(sets) == 1 {
		return sets[0], nil
	}
	at := map[string]int{}
	out := &portmap.ExperimentSet{}
	for _, s := range sets {
		for _, m := range s.Measurements {
			if k, ok := at[m.Experiment.Key()]; ok {
				out.Measurements[k] = m
				continue
			}
			at[m.Experiment.Key()] = len(out.Measurements)
			out.Measurements = append(out.Measurements, m)
		}
	}
	return out, nil
}

// loadTraining reads a training set: a campaign file (reporting its failed
// experiments) or any experiment set.
func loadTraining(spec string, stderr io.Writer) (*portmap.ExperimentSet, error) {
	if strings.HasSuffix(spec, ".jsonl") || strings.HasSuffix(spec, ".jsonl.gz") {
		set, failures, err := measure.ReadCampaign(spec)
		if err == nil && len(failures) > 0 {
			fmt.Fprintf(stderr, "%s: %d failed experiments left out\n", spec, len(failures))
		}
		return set, err
	}
	return loadExperiments(spec)
}

// evaluate prints the accuracy of m on the -eval experiments.
func evaluate(ctx context.Context, w io.Writer, m, truth *portmap.Mapping, spec string, seed uint64) error {
	var exps []portmap.Experiment
	var measured []float64
	if rest, ok := strings.CutPrefix(spec, "random:"); ok {
		var length, n int
		if _, err := fmt.Sscanf(rest, "%d:%d", &length, &n); err != nil || truth == nil {
			return fmt.Errorf("-eval %q: want random:LENGTH:COUNT, with -simulate", spec)
		}
		exps = measure.RandomExperiments(truth.Instructions(), length, n, seed+1)
		var err error
		if measured, err = throughput.Predict(ctx, truth, exps); err != nil {
			return err
		}
	} else {
		set, err := loadTraining(spec, w)
		if err != nil {
			return err
		}
		exps, measured = set.Experiments(), set.Cycles()
	}
	pred, err := throughput.Predict(ctx, m, exps)
	if err != nil {
		return fmt.Errorf("evaluating on %s: %w", spec, err)
	}
	s, err := metrics.Summarize(measured, pred)
	if err != nil && !errors.Is(err, metrics.ErrConstant) {
		return err
	}
	fmt.Fprintf(w, "on %s: %v\n", spec, s)
	return nil
}
