// Command repeatability measures how well portlab's measurements on this
// machine agree with themselves: the same singletons and random
// experiments are measured twice, a gap apart, with the settings of
// `portlab measure`, and the relative differences between the two runs
// are summarised (median and 90th percentile), with the runs' median
// dispersion and contention.
//
// Usage:
//
//	go run ./bench/cmd/repeatability [-forms N] [-random COUNT] [-length L] [-gap D] [-out PREFIX] [-cpu C]
//
// The forms are the first N benchmarkable curated x86-64 forms without
// AVX-512 (as `portlab measure -insns curated:N`); the random experiments
// are length-L multisets of them. With -out, each run is written as a
// portlab experiment set, PREFIX.run1.json and PREFIX.run2.json.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/operands"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

func main() {
	measure.RunWorkerIfRequested()
	forms := flag.Int("forms", 120, "number of curated forms")
	random := flag.Int("random", 1000, "number of random experiments")
	length := flag.Int("length", 5, "length of the random experiments")
	gap := flag.Duration("gap", 30*time.Minute, "time between the two runs")
	out := flag.String("out", "", "write the runs to `PREFIX`.run1.json and PREFIX.run2.json")
	cpu := flag.Int("cpu", 0, "CPU to pin the worker to")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *forms, *random, *length, *gap, *out, *cpu); err != nil {
		fmt.Fprintln(os.Stderr, "repeatability:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, nforms, nrandom, length int, gap time.Duration, out string, cpu int) error {
	var forms []string
	for _, f := range isa.X86Forms() {
		if ok, _ := operands.Benchmarkable(f); ok && !strings.HasPrefix(f.Extension, "AVX512") && len(forms) < nforms {
			forms = append(forms, f.Scheme())
		}
	}
	exps := design.Singletons(forms)
	exps = append(exps, design.Random(forms, length, nrandom, 1)...)
	host, err := isa.HostSupport()
	if err != nil {
		return err
	}
	fmt.Printf("%s %s family %d model %d; %d singletons and %d random length-%d experiments, measured twice %v apart\n",
		host.Vendor, host.ModelName, host.Family, host.Model, len(forms), nrandom, length, gap)
	hw, err := measure.NewHardware(cpu)
	if err != nil {
		return err
	}
	defer hw.Close()
	var runs [2]*portmap.ExperimentSet
	for i := range runs {
		if i == 1 {
			fmt.Printf("waiting %v\n", gap)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(gap):
			}
		}
		start := time.Now()
		set, failures, err := oracle.MeasureAll(ctx, hw, exps, nil)
		if err != nil {
			return err
		}
		runs[i] = set
		fmt.Printf("run %d at %s: %d measured, %d failed, %.1f s\n", i+1, start.Format("15:04:05"), set.Len(), len(failures), time.Since(start).Seconds())
		if out != "" {
			if err := portmap.WriteExperiments(fmt.Sprintf("%s.run%d.json", out, i+1), set); err != nil {
				return err
			}
		}
	}
	report("singletons", runs, func(e portmap.Experiment) bool { return e.Len() == 1 })
	report(fmt.Sprintf("random length-%d", length), runs, func(e portmap.Experiment) bool { return e.Len() > 1 })
	return nil
}

// report prints the agreement of the two runs on the experiments keep
// selects.
func report(name string, runs [2]*portmap.ExperimentSet, keep func(portmap.Experiment) bool) {
	second := map[string]portmap.Measurement{}
	for _, m := range runs[1].Measurements {
		second[m.Experiment.Key()] = m
	}
	var diff, disp, cont []float64
	for _, a := range runs[0].Measurements {
		b, ok := second[a.Experiment.Key()]
		if !ok || !keep(a.Experiment) || a.Cycles <= 0 {
			continue
		}
		diff = append(diff, math.Abs(b.Cycles/a.Cycles-1))
		disp = append(disp, a.Dispersion, b.Dispersion)
		cont = append(cont, a.Contention, b.Contention)
	}
	if len(diff) == 0 {
		fmt.Printf("%s: nothing measured twice\n", name)
		return
	}
	fmt.Printf("%s: n=%d, run-to-run difference median %.2f %%, p90 %.2f %%; dispersion median %.2f %%; contention median %.2f %%, p90 %.2f %%\n",
		name, len(diff), 100*quantile(diff, 0.5), 100*quantile(diff, 0.9), 100*quantile(disp, 0.5), 100*quantile(cont, 0.5), 100*quantile(cont, 0.9))
}

func quantile(v []float64, q float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	x := q * float64(len(s)-1)
	lo := int(x)
	hi := min(lo+1, len(s)-1)
	return s[lo] + (x-float64(lo))*(s[hi]-s[lo])
}
