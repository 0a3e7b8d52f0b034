// Command palmedcost estimates what a PALMED run on the host would have to
// measure live when its kernels are answered from stored measurements
// first (oracle.StoredFirst, `portlab infer palmed -measure -stored`): it
// runs PALMED with a simulation of a mapping of the host (e.g. portlab's
// PMEvo host mapping) standing in for the hardware behind the stored data,
// and counts the kernels the stored data answers and those the
// simulation has to, by stage, with the live time they would take at a
// given rate. Kernels that mix legacy-SSE and VEX forms are refused, as
// the hardware oracle refuses them on hosts that penalise the switch
// (measure.Hardware.SSEAVXPenalty): they cost no time and are skipped.
//
// Usage:
//
//	go run ./bench/cmd/palmedcost -simulate MAPPING -stored FILES [-insns FILE] [-rate R] [-allow-mix] [-noise σ]
//
// The instructions are -insns (curated, curated:N or a file of forms, one
// a line, # comments; see package source) or the mapping's; -stored is a
// comma-separated list of experiment files or data sets, merged. The
// count is an estimate, not a bound: the quadratic kernels' proportions and the later stages follow the measured values,
// so the host run asks for other kernels (on the Zen 3 VM of
// notebooks/data: 7,114 estimated, 8,982 measured).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/palmed"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/source"
)

func main() {
	simulate := flag.String("simulate", "", "mapping to simulate the live oracle with (file or data-set name)")
	storedArg := flag.String("stored", "", "comma-separated campaign files answered first")
	insnsArg := flag.String("insns", "", "file of instruction forms (default: the mapping's instructions)")
	rate := flag.Float64("rate", 6.5, "live measurements per second")
	allowMix := flag.Bool("allow-mix", false, "do not refuse kernels that mix legacy-SSE and VEX forms")
	noise := flag.Float64("noise", 0, "relative noise of the simulation")
	flag.Parse()
	if err := run(*simulate, *storedArg, *insnsArg, *rate, *allowMix, *noise); err != nil {
		fmt.Fprintln(os.Stderr, "palmedcost:", err)
		os.Exit(1)
	}
}

func run(simulate, storedArg, insnsArg string, rate float64, allowMix bool, noise float64) error {
	if simulate == "" || storedArg == "" {
		return errors.New("give -simulate and -stored")
	}
	// Every name is checked before anything is loaded.
	sim, err := source.ParseSimulation(simulate, noise, 1)
	if err != nil {
		return err
	}
	storedSrc, err := source.ParseExperiments(storedArg)
	if err != nil {
		return fmt.Errorf("-stored: %w", err)
	}
	if storedSrc.NeedsTruth() {
		return fmt.Errorf("-stored %q: random experiments are not stored measurements", storedArg)
	}
	var forms *source.Forms
	if insnsArg != "" {
		if forms, err = source.ParseForms(insnsArg); err != nil {
			return fmt.Errorf("-insns: %w", err)
		}
	}
	machine, simulated, err := sim.Open(nil)
	if err != nil {
		return err
	}
	insns := machine.Mapping.Instructions()
	if forms != nil {
		if insns, err = forms.Load(); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	stored, err := storedSrc.Load(ctx, &source.Options{Notes: os.Stderr})
	if err != nil {
		return err
	}
	live := &stageOracle{inner: simulated, refuseMix: !allowMix, byStage: map[string]int{}, refused: map[string]int{}}
	sf := oracle.NewStoredFirst(stored, storedArg, live)
	start := time.Now()
	res, err := infer.Infer(ctx, infer.Problem{Oracle: sf, Instructions: insns}, palmed.New(), &infer.Settings{Progress: func(s infer.Progress) {
		live.stage = s.Stage
	}})
	if res == nil {
		return err
	}
	fmt.Printf("PALMED on %d instructions, stored-first (%s) with %s simulated behind it, in %v\n", len(insns), storedArg, simulate, time.Since(start).Round(time.Second))
	if err != nil {
		fmt.Printf("  the run ended with: %v\n", err)
	}
	fmt.Printf("  %v\n", sf)
	var stages []string
	for s := range live.byStage {
		stages = append(stages, s)
	}
	sort.Strings(stages)
	measured := 0
	for _, s := range stages {
		fmt.Printf("  live, stage %-24s %6d measured, %6d refused (SSE/VEX mix)\n", s+":", live.byStage[s], live.refused[s])
		measured += live.byStage[s]
	}
	fmt.Printf("  live measurements: %d (%d refused at no cost) ≈ %v at %.3g per second\n", measured, sf.Asked()-measured,
		(time.Duration(float64(measured)/rate) * time.Second).Round(time.Second), rate)
	return nil
}

// stageOracle is the simulated live oracle: it counts what it measures by
// the stage PALMED is in and refuses SSE/VEX mixes like the hardware.
type stageOracle struct {
	inner     oracle.Oracle
	refuseMix bool
	stage     string
	byStage   map[string]int
	refused   map[string]int
}

func (o *stageOracle) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	if o.refuseMix && mixes(e) {
		o.refused[o.stage]++
		return portmap.Measurement{}, errors.New("mixes legacy-SSE and VEX forms")
	}
	o.byStage[o.stage]++
	return o.inner.Measure(ctx, e)
}

// mixes reports whether e holds a legacy-SSE and a VEX form.
func mixes(e portmap.Experiment) bool {
	sse, vex := false, false
	for _, it := range e.Items() {
		f, err := isa.ParseName(it.Insn)
		if err != nil {
			continue
		}
		switch measure.EncodingOf(f) {
		case measure.LegacySSE:
			sse = true
		case measure.VEXEncoded:
			vex = true
		}
	}
	return sse && vex
}
