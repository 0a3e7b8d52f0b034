package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/portmap"
)

const measureUsage = `portlab measure — measure instruction throughput on this machine

  portlab measure -insns FILE|curated[:N] -design D -out FILE.jsonl [flags]

  -insns     instruction forms, one per line (iwho schemes such as
             "add RW:GPR:64, R:GPR:64", or PMEvo names); "curated" takes the
             benchmarkable forms of portlab's x86 list that uops.info names,
             "curated:N" the first N of them
  -design    singletons | pairs | ratio | random:LENGTH:COUNT[:SEED], or a
             comma-separated list (ratio needs the singletons, measured first)
  -out       campaign file (JSON lines); results are appended as they come
             and a rerun skips what it holds, so an interrupted campaign
             resumes where it stopped
  -pmevo     also write the results as a PMEvo ExperimentList
  -cpu       CPU to pin the worker to (default 0)
`

func cmdMeasure(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("measure", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, measureUsage) }
	insnsArg := fs.String("insns", "", "instruction forms")
	design := fs.String("design", "singletons", "experiment design")
	out := fs.String("out", "", "campaign file (JSON lines)")
	pmevo := fs.String("pmevo", "", "write a PMEvo ExperimentList here")
	cpu := fs.Int("cpu", 0, "CPU to pin the worker to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *insnsArg == "" || *out == "" {
		fs.Usage()
		return fmt.Errorf("measure needs -insns and -out")
	}
	insns, err := loadInsns(*insnsArg)
	if err != nil {
		return err
	}
	hw, err := measure.NewHardware(*cpu)
	if err != nil {
		return err
	}
	defer hw.Close()
	bar := newProgressBar(stderr)
	camp := &measure.Campaign{Path: *out, Oracle: hw, Progress: func(p measure.Progress) {
		label := fmt.Sprintf("%d/%d, %d failed, %.0f/s", p.Done, p.Total, p.Failed, float64(p.Done)/max(p.Elapsed.Seconds(), 1e-9))
		bar.update(label, int64(p.Done), int64(p.Total))
	}}
	all := &portmap.ExperimentSet{}
	var singles map[string]float64
	for _, d := range strings.Split(*design, ",") {
		exps, err := designExperiments(ctx, strings.TrimSpace(d), insns, singles, camp)
		if err != nil {
			return err
		}
		res, err := camp.Run(ctx, exps)
		bar.finish()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d measured (%d from earlier runs), %d failed\n", d, res.Set.Len(), res.Resumed, len(res.Failures))
		for i, f := range res.Failures {
			if i == 5 {
				fmt.Fprintf(stdout, "  … and %d more failures (see %s)\n", len(res.Failures)-5, *out)
				break
			}
			fmt.Fprintf(stdout, "  %s: %s\n", f.Experiment, f.Error)
		}
		if d == "singletons" {
			singles = map[string]float64{}
			for _, m := range res.Set.Measurements {
				singles[m.Experiment.Items()[0].Insn] = m.Cycles
			}
		}
		all.Measurements = append(all.Measurements, res.Set.Measurements...)
	}
	if *pmevo != "" {
		return portmap.WritePMEvoExperiments(*pmevo, all)
	}
	return nil
}

// designExperiments builds the experiments of one design.
func designExperiments(ctx context.Context, d string, insns []string, singles map[string]float64, camp *measure.Campaign) ([]portmap.Experiment, error) {
	switch {
	case d == "singletons":
		return measure.Singletons(insns), nil
	case d == "pairs":
		return measure.Pairs(insns), nil
	case d == "ratio":
		if singles == nil {
			res, err := camp.Run(ctx, measure.Singletons(insns))
			if err != nil {
				return nil, err
			}
			singles = map[string]float64{}
			for _, m := range res.Set.Measurements {
				singles[m.Experiment.Items()[0].Insn] = m.Cycles
			}
		}
		var ok []string
		for _, s := range insns {
			if singles[s] > 0 {
				ok = append(ok, s)
			}
		}
		return measure.RatioPairs(ok, singles)
	case strings.HasPrefix(d, "random:"):
		f := strings.Split(d, ":")
		if len(f) < 3 || len(f) > 4 {
			return nil, fmt.Errorf("design %q: want random:LENGTH:COUNT[:SEED]", d)
		}
		length, err1 := strconv.Atoi(f[1])
		count, err2 := strconv.Atoi(f[2])
		seed := uint64(1)
		var err3 error
		if len(f) == 4 {
			seed, err3 = strconv.ParseUint(f[3], 10, 64)
		}
		if err1 != nil || err2 != nil || err3 != nil || length < 1 || count < 1 {
			return nil, fmt.Errorf("design %q: LENGTH, COUNT and SEED must be positive whole numbers", d)
		}
		return measure.RandomExperiments(insns, length, count, seed), nil
	}
	return nil, fmt.Errorf("unknown design %q (want singletons, pairs, ratio or random:LENGTH:COUNT[:SEED])", d)
}

// loadInsns reads instruction names from a file (one per line, # comments)
// or takes the curated list.
func loadInsns(arg string) ([]string, error) {
	if arg == "curated" || strings.HasPrefix(arg, "curated:") {
		limit := -1
		if n, ok := strings.CutPrefix(arg, "curated:"); ok {
			v, err := strconv.Atoi(n)
			if err != nil || v < 1 {
				return nil, fmt.Errorf("-insns %q: want curated:N with N ≥ 1", arg)
			}
			limit = v
		}
		var out []string
		for _, f := range isa.X86Forms() {
			if ok, _ := measure.Benchmarkable(f); ok && !strings.HasPrefix(f.Extension, "AVX512") {
				out = append(out, f.Scheme())
				if len(out) == limit {
					break
				}
			}
		}
		return out, nil
	}
	fh, err := os.Open(arg)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var out []string
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if _, err := isa.ParseScheme(line); err != nil {
			if _, err2 := isa.ParsePMEvo(line); err2 != nil {
				return nil, fmt.Errorf("%s:%d: %q is neither an iwho scheme nor a PMEvo name: %v", arg, n, line, err)
			}
		}
		out = append(out, line)
	}
	return out, sc.Err()
}
