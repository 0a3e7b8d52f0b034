package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/predict"
	"github.com/portlab/portlab/lib/throughput"
)

// loadMapping resolves a mapping argument: a file or a data-set name.
func loadMapping(spec string) (*portmap.Mapping, error) {
	switch {
	case strings.HasPrefix(spec, "pmevo:"):
		arch, which, ok := strings.Cut(strings.TrimPrefix(spec, "pmevo:"), "/")
		if !ok {
			return nil, fmt.Errorf("mapping %q: want pmevo:ARCH/WHICH, e.g. pmevo:SKL/uops_info", spec)
		}
		return dataset.PMEvoMapping(arch, which)
	case strings.HasPrefix(spec, "uops.info:"):
		return dataset.UopsInfo(strings.TrimPrefix(spec, "uops.info:"))
	}
	return portmap.ReadMapping(spec)
}

// loadExperiments resolves an experiment-set argument.
func loadExperiments(spec string) (*portmap.ExperimentSet, error) {
	if strings.HasPrefix(spec, "pmevo:") {
		arch, set, ok := strings.Cut(strings.TrimPrefix(spec, "pmevo:"), "/")
		if !ok {
			return nil, fmt.Errorf("experiments %q: want pmevo:ARCH/SET, e.g. pmevo:SKL/eval_small", spec)
		}
		var n int
		if _, err := fmt.Sscanf(set, "len_%d", &n); err == nil && strings.EqualFold(arch, "SKL") {
			return dataset.VaryingLength(n)
		}
		return dataset.PMEvoExperiments(arch, set)
	}
	if strings.HasSuffix(spec, ".jsonl") || strings.HasSuffix(spec, ".jsonl.gz") {
		set, _, err := measure.ReadCampaign(spec) // failed experiments have no cycles to compare
		return set, err
	}
	return portmap.ReadExperiments(spec)
}

func cmdPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mapping := fs.String("mapping", "", "mapping file or data-set name")
	exps := fs.String("experiments", "", "experiment file or data-set name")
	ipc := fs.Float64("ipc", 0, "front-end bound in instructions per cycle (0: none)")
	out := fs.String("out", "", "write the predictions as a portlab experiment file")
	peer := fs.String("peer", "", "also predict with a peer tool: llvm-mca")
	mcpu := fs.String("mcpu", "", "the peer's CPU, e.g. skylake, icelake-server, znver1, cortex-a72")
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
	var m *portmap.Mapping
	if *mapping != "" {
		var err error
		if m, err = loadMapping(*mapping); err != nil {
			return err
		}
	}
	set, err := loadExperiments(*exps)
	if err != nil {
		return err
	}
	type column struct {
		name, id string // id: the key in -out files
		pred     []float64
	}
	var cols []column
	if m != nil {
		mp := predict.FromMapping(m)
		mp.FrontEnd = throughput.FrontEnd{InstructionsPerCycle: *ipc}
		pred, unsupported, err := predict.Run(ctx, mp, set.Experiments())
		if err != nil {
			return fmt.Errorf("%s: %w", *exps, err)
		}
		if len(unsupported) > 0 {
			fmt.Fprintf(stderr, "%s: %d of %d experiments name unmapped instructions, left out; first: %s\n", *mapping, len(unsupported), len(pred), unsupported[0])
		}
		cols = append(cols, column{*mapping, "portlab:" + *mapping, pred})
	}
	if *peer == "llvm-mca" {
		mca := predict.NewLLVMMCA(*mcpu)
		mca.Binary = *mcaBin
		bar := newProgressBar(stderr)
		mca.Progress = func(done, total int) { bar.update(mca.Name(), int64(done), int64(total)) }
		pred, unsupported, err := predict.Run(ctx, mca, set.Experiments())
		bar.finish()
		if err != nil {
			return err
		}
		if len(unsupported) > 0 {
			fmt.Fprintf(stderr, "%s: %d of %d experiments not supported, left out; first: %s\n", mca.Name(), len(unsupported), len(pred), unsupported[0])
		}
		cols = append(cols, column{mca.Name(), mca.Name(), pred})
	}
	if *out != "" {
		res := &portmap.ExperimentSet{Arch: set.Arch}
		for i, mm := range set.Measurements {
			others := map[string]float64{}
			for _, c := range cols {
				if !math.IsNaN(c.pred[i]) {
					others[c.id] = c.pred[i]
				}
			}
			for k, v := range mm.Others {
				others[k] = v
			}
			res.Measurements = append(res.Measurements, portmap.Measurement{Experiment: mm.Experiment, Cycles: mm.Cycles, Others: others})
		}
		if err := portmap.WriteExperiments(*out, res); err != nil {
			return err
		}
	}
	measured := set.Cycles()
	hasMeasured := len(measured) > 0
	for _, c := range measured {
		if c <= 0 {
			hasMeasured = false
		}
	}
	if !hasMeasured {
		for i, e := range set.Experiments() {
			for _, c := range cols {
				fmt.Fprintf(stdout, "%.4f\t", c.pred[i])
			}
			fmt.Fprintf(stdout, "%s\n", e)
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "predictor\tn\tMAPE\tmedian APE\tPearson\tKendall τ-b\n")
	row := func(name string, p []float64) {
		var ms, ps []float64
		for i, v := range p {
			if v == v { // skip NaN: no stored prediction, or not supported
				ms, ps = append(ms, measured[i]), append(ps, v)
			}
		}
		s, err := metrics.Summarize(ms, ps)
		if err != nil && s.N == 0 {
			fmt.Fprintf(tw, "%s\t%d\t%v\n", name, len(ms), err)
			return
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f %%\t%.2f %%\t%.3f\t%.3f\n", name, s.N, s.MAPE, s.MedianAPE, s.Pearson, s.KendallTauB)
	}
	for _, c := range cols {
		row(c.name, c.pred)
	}
	for _, id := range set.OtherIDs() {
		row(id+" (stored)", set.Other(id))
	}
	return tw.Flush()
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
