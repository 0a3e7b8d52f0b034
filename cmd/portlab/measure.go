package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"

	designs "github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/operands"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/source"
)

const measureUsage = `portlab measure — measure instruction throughput on this machine

  portlab measure -insns FILE|curated[:N] -design D -out FILE.jsonl [flags]
  portlab measure -insns … -design D -shard i/n -out SHARD.jsonl [flags]
  portlab measure -insns FILE|curated[:N] -check [-layout L]
  portlab measure -blocks FILE|DIR -out FILE.jsonl [-csv FILE.csv] [-cpu N]

  -insns     instruction forms, one per line (iwho schemes such as
             "add RW:GPR:64, R:GPR:64", or PMEvo names); "curated" takes the
             benchmarkable forms of portlab's x86 list that uops.info names,
             "curated:N" the first N of them
  -design    singletons | pairs | ratio | pmevo | latency |
             random:LENGTH:COUNT[:SEED], or a comma-separated list (ratio
             needs the singletons: they are measured first, into the same
             file). latency measures, for every register input and register
             output of a form, a chain of copies in which each output feeds
             the next copy's input: the latency of that operand pair in
             cycles (forms without such a pair are listed and skipped)
  -out       campaign file (JSON lines); results are appended as they come
             and a rerun skips what it holds, so an interrupted campaign
             resumes where it stopped. Experiments whose passes disagree or
             ran contended by more than 10 % are measured once more at the
             end (minutes later: a busy period of a shared machine can last
             that long) and the result with less doubt is kept. Ctrl-C
             keeps every experiment whose passes are complete, says how
             many, and exits with status 130; the same command resumes.
             A failure of the machinery (a worker that cannot start or be
             pinned, no assembler) is never recorded: the command stops
             with it (status 1), as it does when no experiment of a
             design could be measured
  -shard     i/n: measure only the i-th of n parts of the designs
             (0 ≤ i < n): the distinct experiments sorted by key, every
             n-th from the i-th — disjoint, balanced, the same on every
             machine. Each part goes to its own -out file, which resumes
             like any campaign; portlab campaign merge joins the parts.
             Not with ratio or pmevo, which choose experiments by
             measuring (measure their singletons and pairs sharded)
  -plan      with -shard: print how many experiments the shard holds
             (of how many in all) and measure nothing
  -pmevo     also write the results as a PMEvo ExperimentList
  -cpu       CPU(s) to pin the workers to (default: $PORTLAB_CPU, else 0);
             "affinity" takes the CPUs this process may run on (those a
             batch scheduler gave the job); "0,1" splits the
             campaign between CPUs 0 and 1, timed at once — about twice as
             fast where they are separate cores (checked first; CPUs that
             slow each other down by more than 25 % are refused) and
             nothing else runs on them
  -check     the measurement's self-check instead of a campaign: every form
             is measured under the operand layout and under alternatives
             (every written register treated as read; memory operands in
             one cache line per pool); forms whose result changes have a
             hidden dependency or a memory effect and are listed
  -blocks    time basic blocks and loop bodies as written instead: a BHive
             CSV file (hex,cycles; the cycles column is not used), an
             assembly file (Intel or AT&T, one block) or a directory of
             them. Address registers point into the benchmark's buffer, the
             block is unrolled to about 100 instructions and timed in its
             steady state like any experiment, journalled in -out (resumed
             by a rerun). A block that would access memory outside the
             buffer (its stack included: push and pop run on a stack in
             the buffer), calls, returns or branches inside is listed as
             not measurable with the reason, as is one that faults; the
             others are measured. A line that cannot be read is an error naming
             file and line before anything is measured
  -csv       with -blocks FILE.csv: also write the measured blocks there,
             hex,cycles a line with cycles per iteration (read with
             -per 1 by portlab predict -blocks)
  -layout    default | as-declared (write-only operands taken as declared,
             the allocation of earlier portlab versions) | one-line

The campaign file starts with a header line: the machine's fingerprint
(CPU vendor, family, model, stepping, microcode, calibrated core cycles
per TSC tick, portlab version), the measurement settings and the shard.
A rerun into a file measured on another machine, with other settings or
for another shard is refused. Files of earlier versions, without a
header, are read and resumed as before.
`

func cmdMeasure(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("measure", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, measureUsage) }
	insnsArg := fs.String("insns", "", "instruction forms")
	design := fs.String("design", "singletons", "experiment design")
	out := fs.String("out", "", "campaign file (JSON lines)")
	pmevo := fs.String("pmevo", "", "write a PMEvo ExperimentList here")
	cpu := fs.String("cpu", defaultCPU(), cpuUsage)
	check := fs.Bool("check", false, "self-check of the operand layout")
	layoutArg := fs.String("layout", "default", "operand layout")
	shardArg := fs.String("shard", "", "i/n: measure the i-th of n parts")
	planOnly := fs.Bool("plan", false, "print the shard's plan, measure nothing")
	blocksArg := fs.String("blocks", "", "blocks to time as written")
	csvOut := fs.String("csv", "", "with -blocks FILE.csv: write the measured blocks here as hex,cycles")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var shard *portmap.Shard
	if *shardArg != "" {
		s, err := portmap.ParseShard(*shardArg)
		if err != nil {
			return flagError("shard", err)
		}
		shard = &s
	}
	if err := checkDefaultCPU(fs); err != nil {
		return err
	}
	if *blocksArg != "" {
		if *insnsArg != "" || *check {
			return fmt.Errorf("-blocks: give either -blocks or -insns")
		}
		if *out == "" {
			return fmt.Errorf("-blocks needs -out, the journal of the measurements")
		}
		if *csvOut != "" && !strings.HasSuffix(*blocksArg, ".csv") {
			return fmt.Errorf("-csv: -blocks %s is not a CSV file; -csv writes the measured lines of one", *blocksArg)
		}
		cpus, err := source.ParseCPUs(*cpu)
		if err != nil {
			return flagError("cpu", err)
		}
		return measureBlocks(ctx, *blocksArg, *out, *csvOut, cpus, stdout, stderr)
	}
	var layout operands.Layout
	switch *layoutArg {
	case "default":
	case "as-declared":
		layout.AsDeclared = true
	case "one-line":
		layout.OneLine = true
	default:
		return fmt.Errorf("-layout %q: want default, as-declared or one-line", *layoutArg)
	}
	if *check && *insnsArg != "" {
		return checkLayouts(ctx, *insnsArg, *cpu, layout, stdout, stderr)
	}
	if *planOnly && shard == nil {
		return fmt.Errorf("-plan: give -shard i/n too (use -shard 0/1 for the whole design)")
	}
	if *insnsArg == "" || (*out == "" && !*planOnly) {
		fs.Usage()
		return fmt.Errorf("measure needs -insns and -out")
	}
	forms, cpus, err := parseMeasureFlags(*insnsArg, *cpu)
	if err != nil {
		return err
	}
	designList, err := source.ParseDesigns(*design)
	if err != nil {
		return flagError("design", err)
	}
	if shard != nil {
		for _, d := range designList {
			if d == "ratio" || d == "pmevo" {
				return flagError("shard", fmt.Errorf("design %s chooses its experiments by measuring the singletons first, so its parts would differ between machines; shard singletons, pairs or random designs", d))
			}
			if d == "latency" && len(designList) > 1 {
				return flagError("shard", fmt.Errorf("design latency times chains, not throughput: shard it on its own (-design latency), not together with %s", strings.Join(designList, ",")))
			}
		}
	}
	insns, err := forms.Load()
	if err != nil {
		return err
	}
	var plan *portmap.ShardPlan
	var part []portmap.Experiment // the shard's experiments
	latencyShard := false         // the shard is of the latency design
	if shard != nil {
		var whole []portmap.Experiment
		for _, d := range designList {
			exps, err := designs.Build(ctx, d, insns, nil)
			if err != nil {
				return err
			}
			whole = append(whole, exps...)
		}
		part = shard.Select(whole)
		plan = &portmap.ShardPlan{Shard: *shard, Design: strings.Join(designList, ","), Insns: *insnsArg,
			Planned: len(part), Digest: portmap.PlanDigest(part), Whole: portmap.PlanDigest(whole)}
		if designList[0] == "latency" {
			latencyShard = true
		}
		designList = []string{fmt.Sprintf("shard %s of %s", shard, plan.Design)}
		if *planOnly {
			fmt.Fprintf(stdout, "shard %s of %s over %s: %s of %d (digest %s)\n", shard, plan.Design, plan.Insns,
				portmap.Count(len(part), "experiment"), distinct(whole), plan.Digest)
			return nil
		}
	}
	hw, err := source.OpenHardware(ctx, cpus, stderr)
	if err != nil {
		return err
	}
	defer hw.Close()
	hw.Layout = layout
	camp, err := openHostCampaign(ctx, *out, hw, plan)
	if err != nil {
		return err
	}
	defer camp.Close()
	bar := newProgressBar(stderr)
	progress := func(p oracle.Progress) {
		label := fmt.Sprintf("%d/%d, %d failed, %.1f/s", p.Done, p.Total, p.Failed, float64(p.Done)/max(p.Elapsed.Seconds(), 1e-9))
		if p.Phase != "" {
			label = fmt.Sprintf("%s: %s (passes disagreed or ran contended by more than %.0f %%)", p.Phase, label, 100*measure.DefaultResettle)
		}
		bar.update(label, int64(p.Done), int64(p.Total))
	}
	all := &portmap.ExperimentSet{}
	var empty []string // designs of which no experiment could be measured
	for _, d := range designList {
		// Designs that measure first (ratio pairs need the singletons) do
		// it through the campaign, so those are kept and resumed too.
		exps := part
		if shard == nil {
			exps, err = designs.Build(ctx, d, insns, camp)
			if err != nil {
				return measureError(ctx, camp, err)
			}
		}
		hw.Kernels = nil
		if latencyShard {
			hw.Kernels = measure.LatencyKernel
		}
		if d == "latency" {
			var none []portmap.Failure
			exps, none = designs.Latency(insns)
			for i, f := range none {
				if i == 5 {
					fmt.Fprintf(stdout, "  … and %d more forms without a latency chain\n", len(none)-5)
					break
				}
				fmt.Fprintf(stdout, "  %s: %s\n", f.Experiment, f.Reason)
			}
			hw.Kernels = measure.LatencyKernel
		}
		res, err := camp.Run(ctx, exps, progress)
		bar.finish()
		if err != nil {
			return measureError(ctx, camp, err)
		}
		if res.Set.Len() == 0 && len(res.Failures) > 0 {
			empty = append(empty, d)
		}
		fmt.Fprintf(stdout, "%s: %d measured (%d from earlier runs), %d failed", d, res.Set.Len(), res.Resumed, len(res.Failures))
		if res.Remeasured > 0 {
			fmt.Fprintf(stdout, "; %d whose passes disagreed or ran contended (by more than %.0f %%) measured again, the second measurement kept for %d",
				res.Remeasured, 100*measure.DefaultResettle, res.Improved)
		}
		fmt.Fprintln(stdout)
		for i, f := range res.Failures {
			if i == 5 {
				fmt.Fprintf(stdout, "  … and %d more failures (see %s)\n", len(res.Failures)-5, *out)
				break
			}
			fmt.Fprintf(stdout, "  %s: %s\n", f.Experiment, f.Reason)
		}
		if d == "latency" {
			reportSubCycle(stdout, res.Set)
		}
		all.Measurements = append(all.Measurements, res.Set.Measurements...)
	}
	if *pmevo != "" {
		if err := portmap.WritePMEvoExperiments(*pmevo, all); err != nil {
			return err
		}
	}
	if len(empty) > 0 {
		return fmt.Errorf("measure: no experiment of %s could be measured (the failures are listed above and kept in %s)", strings.Join(empty, ", "), *out)
	}
	return nil
}

// reportSubCycle lists the latency measurements below one cycle: a chain
// through an operand pair that no execution unit runs (a move eliminated
// at renaming) measures the renamer's rate, not a latency. They are
// flagged rather than silently used; portlab machine rounds them to 0.
func reportSubCycle(w io.Writer, set *portmap.ExperimentSet) {
	var sub []string
	for _, m := range set.Measurements {
		items := m.Experiment.Items()
		if len(items) == 1 && m.Cycles > 0 && m.Cycles < 0.75 {
			sub = append(sub, fmt.Sprintf("%s (%.2f cycles)", items[0].Insn, m.Cycles))
		}
	}
	if len(sub) == 0 {
		return
	}
	sort.Strings(sub)
	fmt.Fprintf(w, "  %s below one cycle — no execution unit on the chain (e.g. a move eliminated at renaming); portlab machine takes them as 0 cycles: %s\n",
		portmap.Count(len(sub), "latency"), strings.Join(sub, "; "))
}

// interruptedError is an interrupt that says what was kept; it is a
// context.Canceled (exit status 130).
type interruptedError struct{ what string }

func (e *interruptedError) Error() string { return "interrupted: " + e.what }
func (e *interruptedError) Unwrap() error { return context.Canceled }

// measureError is the error of a campaign run that stopped: an interrupt
// says how many experiments this run kept and that a rerun resumes; an
// infrastructure failure says that nothing of it was recorded.
func measureError(ctx context.Context, camp *measure.Campaign, err error) error {
	switch {
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return &interruptedError{fmt.Sprintf("%s measured in this run kept in %s (every one whose passes were complete); run the same command again to resume",
			portmap.Count(camp.Measured(), "experiment"), camp.Path())}
	case oracle.IsInfrastructure(err):
		return fmt.Errorf("measuring on this machine failed, nothing recorded for it in %s: %w", camp.Path(), err)
	}
	return err
}

// openHostCampaign opens the campaign file path measured on this machine
// (measure.OpenHostCampaign); a failure to measure the machine's
// fingerprint says that nothing was recorded.
func openHostCampaign(ctx context.Context, path string, hw *measure.Hardware, plan *portmap.ShardPlan) (*measure.Campaign, error) {
	camp, err := measure.OpenHostCampaign(ctx, path, hw, versionString(), plan)
	if err != nil && oracle.IsInfrastructure(err) {
		return nil, fmt.Errorf("measuring on this machine failed, nothing recorded for it in %s: %w", path, err)
	}
	return camp, err
}

// parseMeasureFlags checks -insns and -cpu.
func parseMeasureFlags(insnsArg, cpuArg string) (*source.Forms, []int, error) {
	forms, err := source.ParseForms(insnsArg)
	if err != nil {
		return nil, nil, flagError("insns", err)
	}
	cpus, err := source.ParseCPUs(cpuArg)
	if err != nil {
		return nil, nil, flagError("cpu", err)
	}
	return forms, cpus, nil
}

// checkLayouts runs the self-check of the operand layout on the forms of
// insnsArg and prints the forms whose results change.
func checkLayouts(ctx context.Context, insnsArg, cpuArg string, layout operands.Layout, stdout, stderr io.Writer) error {
	forms, cpus, err := parseMeasureFlags(insnsArg, cpuArg)
	if err != nil {
		return err
	}
	insns, err := forms.Load()
	if err != nil {
		return err
	}
	hw, err := measure.NewHardware(cpus[0]) // the check times on one CPU
	if err != nil {
		return err
	}
	defer hw.Close()
	hw.Layout = layout
	bar := newProgressBar(stderr)
	checks, failures, err := hw.CheckLayouts(ctx, insns, 0.1, func(done, total int) {
		bar.update(fmt.Sprintf("%d/%d forms", done, total), int64(done), int64(total))
	})
	bar.finish()
	changed := 0
	for _, c := range checks {
		if c.Changed() {
			changed++
			fmt.Fprintln(stdout, c)
		}
	}
	fmt.Fprintf(stdout, "self-check: %s, %d changed under another layout (by > 10 %%, the fastest of three measurements of each), %d could not be built\n",
		portmap.Count(len(checks), "form"), changed, len(failures))
	for i, f := range failures {
		if i == 5 {
			fmt.Fprintf(stdout, "  … and %d more\n", len(failures)-5)
			break
		}
		fmt.Fprintf(stdout, "  %s: %s\n", f.Insn, f.Reason)
	}
	return err
}

// versionString is the portlab version with the source revision the
// binary was built from, when the build recorded it ("0.1.0-dev+1bcebda2f0c1",
// "+…-dirty" for uncommitted changes): campaign headers carry it.
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return version
	}
	v := version + "+" + rev[:min(12, len(rev))]
	if dirty {
		v += "-dirty"
	}
	return v
}

// distinct returns the number of distinct experiments of exps.
func distinct(exps []portmap.Experiment) int {
	keys := map[string]bool{}
	for _, e := range exps {
		keys[e.Key()] = true
	}
	return len(keys)
}
