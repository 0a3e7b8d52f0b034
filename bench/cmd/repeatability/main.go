// Command repeatability measures how well portlab's measurements on this
// machine agree with themselves: the same singletons and random
// experiments are measured twice, a gap apart, with the settings of
// `portlab measure`, and the relative differences between the two runs
// are summarised (median and 90th percentile), with the runs' median
// spread and contention.
//
// Usage:
//
//	go run ./bench/cmd/repeatability [-forms N] [-random COUNT] [-length L] [-gap D] [-out PREFIX] [-cpu C[,C…]]
//	    [-target D] [-repeats R] [-samples S] [-passes P] [-compare FILE]
//
// The last four change the measurement settings, to compare protocols.
// The forms are the first N benchmarkable curated x86-64 forms without
// AVX-512 (as `portlab measure -insns curated:N`); the random experiments
// are length-L multisets of them. With -out, each run is written as a
// campaign file (JSON lines), PREFIX.run1.jsonl and PREFIX.run2.jsonl; a
// run whose file exists resumes it. Each run goes through a campaign, as
// with portlab measure.
// -compare FILE measures one run instead and compares it with FILE, a run
// written earlier with -out (so the two runs can be taken by separate
// processes, e.g. each holding a lock on the CPU for just its own run).
// With several CPUs (-cpu 0,1) each run is split between them, timed at
// once, as `portlab measure -cpu 0,1` does.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/source"
)

func main() {
	measure.RunWorkerIfRequested()
	forms := flag.Int("forms", 120, "number of curated forms")
	random := flag.Int("random", 1000, "number of random experiments")
	length := flag.Int("length", 5, "length of the random experiments")
	gap := flag.Duration("gap", 30*time.Minute, "time between the two runs")
	out := flag.String("out", "", "write the runs to `PREFIX`.run1.jsonl and PREFIX.run2.jsonl")
	cpu := flag.String("cpu", "0", "CPU(s) to pin the workers to, comma-separated")
	target := flag.Duration("target", 0, "duration of one timing (default: portlab measure's)")
	repeats := flag.Int("repeats", 0, "repeats of each timing, fastest kept (default: portlab measure's)")
	samples := flag.Int("samples", 0, "samples per pass (default: portlab measure's)")
	passes := flag.Int("passes", 0, "minimum passes (default: portlab measure's)")
	compare := flag.String("compare", "", "measure one run and compare it with this earlier run (a file written with -out)")
	flag.Parse()
	tune = func(h *measure.Hardware) {
		if *target > 0 {
			h.Timer.Target = *target
		}
		if *repeats > 0 {
			h.Timer.Repeats = *repeats
		}
		if *samples > 0 {
			h.Timer.Samples = *samples
		}
		if *passes > 0 {
			h.Passes = *passes
			h.MaxPasses = max(h.MaxPasses, *passes)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *forms, *random, *length, *gap, *out, *cpu, *compare); err != nil {
		fmt.Fprintln(os.Stderr, "repeatability:", err)
		os.Exit(1)
	}
}

// tune applies the flags that change the measurement settings.
var tune = func(*measure.Hardware) {}

func run(ctx context.Context, nforms, nrandom, length int, gap time.Duration, out, cpuArg, compare string) error {
	cpus, err := source.ParseCPUs(cpuArg)
	if err != nil {
		return fmt.Errorf("-cpu: %w", err)
	}
	forms, err := source.LoadForms(fmt.Sprintf("curated:%d", nforms))
	if err != nil {
		return fmt.Errorf("-forms %d: %w", nforms, err)
	}
	var earlier *portmap.ExperimentSet
	if compare != "" {
		set, _, err := portmap.ReadCampaign(compare)
		if err != nil {
			return err
		}
		earlier = set
	}
	exps := design.Singletons(forms)
	exps = append(exps, design.Random(forms, length, nrandom, 1)...)
	host, err := isa.HostSupport()
	if err != nil {
		return err
	}
	if earlier == nil {
		fmt.Printf("%s %s family %d model %d; %d singletons and %d random length-%d experiments, measured twice %v apart\n",
			host.Vendor, host.ModelName, host.Family, host.Model, len(forms), nrandom, length, gap)
	} else {
		fmt.Printf("%s %s family %d model %d; %d singletons and %d random length-%d experiments, measured and compared with %s\n",
			host.Vendor, host.ModelName, host.Family, host.Model, len(forms), nrandom, length, compare)
	}
	// With several CPUs, those that slow each other down are refused.
	hw, err := source.OpenHardware(ctx, cpus, os.Stdout)
	if err != nil {
		return err
	}
	tune(hw)
	fmt.Printf("timings of %v, fastest of %d repeats; ", hw.Timer.Target, hw.Timer.Repeats)
	fmt.Printf("protocol: interleaved passes of %d samples each (value: the fastest run), at least %d and at most %d passes, until the two fastest uncontended agree within %.1f %%; value = the fastest\n",
		hw.Timer.Samples, hw.Passes, hw.MaxPasses, 100*hw.Agreement)
	defer hw.Close()
	tmp, err := os.MkdirTemp("", "repeatability")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var runs [2]*portmap.ExperimentSet
	first := 0
	if earlier != nil {
		runs[0], first = earlier, 1
		if len(earlier.Measurements) > 0 {
			fmt.Printf("run 1: %s, %d measurements\n", compare, earlier.Len())
		}
	}
	for i := first; i < len(runs); i++ {
		if i == 1 && earlier == nil {
			fmt.Printf("waiting %v\n", gap)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(gap):
			}
		}
		start := time.Now()
		// Through a campaign, as portlab measure does (the experiments
		// whose passes disagree are measured again at the end).
		path := filepath.Join(tmp, fmt.Sprintf("run%d.jsonl", i+1))
		if out != "" {
			path = fmt.Sprintf("%s.run%d.jsonl", out, i+1-first)
		}
		camp, err := measure.OpenCampaign(path, hw)
		if err != nil {
			return err
		}
		res, err := camp.Run(ctx, exps, nil)
		camp.Close()
		if err != nil {
			return err
		}
		set := res.Set
		runs[i] = set
		elapsed := time.Since(start).Seconds()
		passes := 0
		for _, m := range set.Measurements {
			passes += m.Passes
		}
		fmt.Printf("run %d at %s: %d measured (%d from an earlier attempt), %d failed, %.1f s (%.1f experiments/s, %.2f passes per experiment); %d measured again, %d better\n",
			i+1, start.Format("15:04:05"), set.Len(), res.Resumed, len(res.Failures), elapsed, float64(set.Len())/elapsed,
			float64(passes)/float64(max(1, set.Len())), res.Remeasured, res.Improved)
	}
	report("singletons", runs, func(e portmap.Experiment) bool { return e.Len() == 1 })
	report(fmt.Sprintf("random length-%d", length), runs, func(e portmap.Experiment) bool { return e.Len() > 1 })
	return nil
}

// report prints the agreement of the two runs on the experiments keep
// selects.
func report(name string, runs [2]*portmap.ExperimentSet, keep func(portmap.Experiment) bool) {
	ag := measure.CompareRuns(runs[0], runs[1], keep)
	fmt.Printf("%s: %v\n", name, ag)
	for _, d := range ag.Worst {
		fmt.Printf("  %v: %.4g vs %.4g cycles (%.1f %%)\n", d.Experiment, d.A, d.B, 100*d.Relative())
	}
}
