package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/predict/llvmmca"
	"github.com/portlab/portlab/lib/source"
)

func cmdPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mapping := fs.String("mapping", "", "mapping file or data-set name")
	exps := fs.String("experiments", "", "experiment file or data-set name")
	ipc := fs.Float64("ipc", 0, "front-end bound in instructions per cycle (0: none)")
	out := fs.String("out", "", "write the predictions as a portlab experiment file")
	peer := fs.String("peer", "", "also predict with a peer tool: llvm-mca")
	mcpu := fs.String("mcpu", "", "the peer's CPU, e.g. skylake, icelake-server, znver1, cortex-a72, or host (the closest model llvm-mca has for this machine)")
	mcaBin := fs.String("llvm-mca", "", "the llvm-mca executable (default: llvm-mca or llvm-mca-NN on PATH)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*mapping == "" && *peer == "") || *exps == "" {
		return fmt.Errorf("predict needs -experiments and -mapping or -peer")
	}
	switch {
	case *peer != "" && *peer != "llvm-mca":
		return fmt.Errorf("unknown -peer %q (want llvm-mca)", *peer)
	case *peer == "llvm-mca" && *mcpu == "":
		return fmt.Errorf("-peer llvm-mca needs -mcpu, e.g. -mcpu skylake")
	}
	src, err := source.ParseExperiments(*exps)
	if err != nil {
		return flagError("experiments", err)
	}
	if src.NeedsTruth() {
		return fmt.Errorf("-experiments %q: random experiments need a truth to be measured with; predict reads experiment files and data sets", *exps)
	}
	var m *portmap.Mapping
	if *mapping != "" {
		mach, err := machine.Lookup(*mapping) // a machine's mapping, or any mapping dataset.Mapping reads
		if err != nil {
			return err
		}
		m = mach.Mapping
	}
	set, err := src.Load(ctx, &source.Options{Notes: stderr})
	if err != nil {
		return err
	}
	type column struct {
		name, id string // id: the key in -out files
		p        oracle.Predictor
	}
	var cols []column
	if m != nil {
		mp := oracle.FromMapping(m)
		mp.FrontEnd.InstructionsPerCycle = *ipc
		cols = append(cols, column{*mapping, "portlab:" + *mapping, mp})
	}
	if *peer == "llvm-mca" {
		mca := llvmmca.New(*mcpu)
		mca.Binary = *mcaBin
		if *mcpu == "host" {
			cpu, err := mca.HostCPU(ctx)
			if err != nil {
				return err
			}
			mca.CPU = cpu
			fmt.Fprintf(stderr, "llvm-mca: -mcpu %s for this host\n", cpu)
		}
		bar := newProgressBar(stderr)
		mca.Progress = func(done, total int) { bar.update(mca.Name(), int64(done), int64(total)) }
		defer bar.finish()
		cols = append(cols, column{mca.Name(), mca.Name(), mca})
	}
	measured := len(set.Measurements) > 0
	for _, mm := range set.Measurements {
		measured = measured && mm.Cycles > 0
	}
	// The predictions join the stored ones of each experiment (for -out,
	// and so that the table compares every column the same way).
	preds := make([][]float64, len(cols))
	res := &portmap.ExperimentSet{Arch: set.Arch}
	for _, mm := range set.Measurements {
		others := map[string]float64{}
		for id, v := range mm.Others {
			others[id] = v
		}
		res.Measurements = append(res.Measurements, portmap.Measurement{Experiment: mm.Experiment, Cycles: mm.Cycles, Others: others})
	}
	for i, c := range cols {
		pred, unsupported, err := oracle.Predict(ctx, c.p, set.Experiments())
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if len(unsupported) > 0 {
			fmt.Fprintf(stderr, "%s: %d of %d experiments not predicted, left out; first: %s\n", c.name, len(unsupported), len(pred), unsupported[0])
		}
		preds[i] = pred
		for k, v := range pred {
			if !math.IsNaN(v) {
				res.Measurements[k].Others[c.id] = v
			}
		}
	}
	if *out != "" {
		if err := portmap.WriteExperiments(*out, res); err != nil {
			return err
		}
	}
	if !measured {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for k, e := range set.Experiments() {
			for i := range cols {
				fmt.Fprintf(tw, "%.4f\t", preds[i][k])
			}
			fmt.Fprintf(tw, "%s\n", e)
		}
		return tw.Flush()
	}
	var evals []*metrics.Evaluation
	for _, c := range cols {
		evals = append(evals, metrics.Evaluate(ctx, oracle.Stored(res, c.id), res).Titled(c.name))
	}
	for _, id := range set.OtherIDs() {
		evals = append(evals, metrics.Evaluate(ctx, oracle.Stored(set, id), set))
	}
	for _, ev := range evals {
		ev.Data = "" // the data set is the command's argument
	}
	_, err = io.WriteString(stdout, metrics.Table(evals...).String())
	return err
}

func cmdReproduce(ctx context.Context, stdout io.Writer) error {
	fmt.Fprintln(stdout, "Bottleneck predictions of the PMEvo artifact's mappings vs measured inverse throughput")
	fmt.Fprintln(stdout, "(2,000 length-5 experiments per architecture; the paper used 40,000)")
	fmt.Fprintln(stdout)
	for _, c := range []struct{ mapping, exps string }{
		{"pmevo:SKL/uops_info", "pmevo:SKL/eval_small_annotated"},
		{"pmevo:SKL/pmevo", "pmevo:SKL/eval_small"},
		{"pmevo:ZEN/pmevo", "pmevo:ZEN/eval_small_annotated"},
		{"pmevo:A72/pmevo", "pmevo:A72/eval_small_annotated"},
	} {
		fmt.Fprintf(stdout, "%s on %s\n", c.mapping, c.exps)
		if err := cmdPredict(ctx, []string{"-mapping", c.mapping, "-experiments", c.exps}, stdout, io.Discard); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

func cmdData(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: portlab data dir|list|download")
	}
	switch args[0] {
	case "dir":
		d, err := dataset.Dir()
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, d)
	case "list":
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, f := range dataset.Files() {
			fmt.Fprintf(tw, "%s\t%d\t%s@%.8s\n", f.Rel, f.Size, f.Repo, f.Commit)
		}
		return tw.Flush()
	case "download":
		bar := newProgressBar(stderr)
		err := dataset.Download(ctx, func(file string, done, total int64) { bar.update(file, done, total) })
		bar.finish()
		return err
	default:
		return fmt.Errorf("unknown data command %q (want dir, list or download)", args[0])
	}
	return nil
}
