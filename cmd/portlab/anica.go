package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/anica"
	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/source"
)

const anicaUsage = `portlab anica — find and generalise where throughput predictors disagree (AnICA)

  portlab anica -predictors A,B -budget N|DURATION -out DIR [flags]

Samples random basic blocks, keeps those on which the predictors disagree
by more than -threshold (or on which one fails), minimises them and
generalises each into an abstract block whose sampled members all
disagree: a discovery (Ritter's thesis, Ch. 8). Predictors:

  sim:MACHINE   the block simulator of a machine: sim:zenplus-like (built
                in), a machine file, or a mapping name (sim:pmevo:SKL/uops_info)
  llvm-mca:CPU  llvm-mca with -mcpu=CPU, e.g. llvm-mca:znver3 (LLVM 14 has
                no model newer than znver3 and icelake)
  host[:CPU]    the blocks measured on this machine (BHive-style, as
                portlab measure -blocks), on CPU (default $PORTLAB_CPU or
                0; several joined by +: host:0+1)

A predictor that fails on a block — llvm-mca crashing, any predictor not
answering within -timeout a block (a batch of n blocks gets n times it;
the blocks of a batch that timed out are asked again alone; llvm-mca
has its own bound of 5 min a run), the host's worker faulting on it (a
signal inside the buffer, e.g. SIGFPE of a division) — makes the block
interesting with the predictor's message: a crash, as the thesis counts
them (§8.1.1); it never ends the campaign. A failure of the measuring
machinery itself (the host's worker cannot start or be pinned to its
CPU) is no answer about any block: the run stops with it and exits
non-zero; the same command run again goes on from the journal. A block
the host's harness cannot run (an address register holding what the
block computed, a rip-relative address, ...) is the harness's limit,
not a disagreement: it is left out of the campaign — neither
interesting nor a counter-example, as the thesis leaves out what a
predictor does not support (§8.2.2) — and forms whose lone instruction
cannot be run are left out of the domain. Every measurement is in the journal, so a
resumed campaign measures no block again.

The instruction forms are those every simulated machine maps (the curated
x86-64 forms without AVX-512 when no simulator takes part), less those a
predictor cannot predict alone; the report lists them with the reason.

The budget is a number of sampled blocks (-budget 2000) or a time
(-budget 30m). A time bounds the whole run, the checks at its end
included: discovery stops -check-time before the end (default: a quarter
of the budget), leaving that time for the soundness of each discovery
and the coverage of the test set; what the time does not allow is left
out and the report says so (a generalisation ended early, soundness not
measured, coverage on fewer test blocks). A batch the time cuts short
(interesting blocks not yet generalised) counts in the report, which
says so, and is not journalled as done: a resumed campaign runs it again
from its start, with its predictions from the journal. A resumed
campaign counts the time of its earlier runs' finished batches. With a
number of blocks, -check-time, when given, bounds the checks alone. DIR/journal.jsonl records every
prediction and batch: run the same command again to continue a stopped
campaign. At the end DIR/report.txt lists the discoveries, ranked, with
witnesses, the soundness of each (fresh samples interesting again) and
the coverage of a random test set; DIR/discoveries.json has them as JSON.

`

// The host's blocks outside its harness are left out of campaigns.
var _ anica.Limited = (*measure.HostBlocks)(nil)

func cmdAnica(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("anica", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preds := fs.String("predictors", "", "comma-separated block predictors: sim:MACHINE, llvm-mca:CPU, host[:CPU]")
	budgetFlag := fs.String("budget", "", "sampled blocks (e.g. 2000) or time (e.g. 30m)")
	out := fs.String("out", "", "campaign directory (journal, report)")
	seed := fs.Uint64("seed", 1, "random seed")
	threshold := fs.Float64("threshold", anica.DefaultThreshold, "interestingness threshold (relative difference, below the number of predictors; cycles with -absolute)")
	absolute := fs.Bool("absolute", false, "interestingness is the absolute difference in cycles")
	samples := fs.Int("samples", anica.DefaultSamples, "samples per check of an abstract block")
	test := fs.Int("test", anica.DefaultTestSize, "size of the random test set for coverage (0: none)")
	maxDisc := fs.Int("max-discoveries", 0, "stop after this many discoveries (0: no limit)")
	gens := fs.Int("generalisations", anica.DefaultGeneralisations, "generalisations (random expansion orders) per minimised block")
	timeout := fs.Duration("timeout", time.Minute, "longest a predictor may take per block before the block counts as its failure (0: no bound)")
	checkTime := fs.Duration("check-time", 0, "time for soundness and coverage at the end (default: a quarter of a time -budget; with a number of blocks: no bound)")
	fs.Usage = func() { fmt.Fprint(stderr, anicaUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	runStart := time.Now()
	// Everything is checked before any work.
	if *preds == "" || *budgetFlag == "" || *out == "" {
		return errors.New("anica needs -predictors, -budget and -out (see portlab anica -h)")
	}
	var names []*source.BlockPredictor
	for _, n := range strings.Split(*preds, ",") {
		p, err := source.ParseBlockPredictor(strings.TrimSpace(n))
		if err != nil {
			return flagError("predictors", err)
		}
		names = append(names, p)
	}
	budget, err := parseBudget(*budgetFlag)
	if err != nil {
		return flagError("budget", err)
	}
	switch {
	case !(*threshold > 0) || math.IsInf(*threshold, 0):
		return fmt.Errorf("-threshold %v: must be > 0 and finite", *threshold)
	case *samples < 1:
		return fmt.Errorf("-samples %d: must be ≥ 1", *samples)
	case *test < 0:
		return fmt.Errorf("-test %d: must be ≥ 0", *test)
	case *gens < 1:
		return fmt.Errorf("-generalisations %d: must be ≥ 1", *gens)
	case *maxDisc < 0:
		return fmt.Errorf("-max-discoveries %d: must be ≥ 0", *maxDisc)
	case *checkTime < 0:
		return fmt.Errorf("-check-time %v: must be ≥ 0", *checkTime)
	case *timeout < 0:
		return fmt.Errorf("-timeout %v: must be ≥ 0 (0: no bound)", *timeout)
	case budget.Duration > 0 && *checkTime >= budget.Duration:
		return fmt.Errorf("-check-time %v: must be less than -budget %v, which bounds the whole run", *checkTime, budget.Duration)
	}
	reserve := *checkTime
	if budget.Duration > 0 && reserve == 0 {
		reserve = budget.Duration / 4
	}
	cfg := anica.Config{Seed: *seed, Threshold: *threshold, Absolute: *absolute, Samples: *samples,
		MaxDiscoveries: *maxDisc, Generalisations: *gens}.WithDefaults()
	if err := cfg.Check(); err != nil {
		return flagError("threshold", err)
	}
	if len(names) < 2 {
		return fmt.Errorf("-predictors %q: want at least two predictors to compare (e.g. sim:zenplus-like,llvm-mca:znver3)", *preds)
	}
	if n := len(names); !*absolute && *threshold >= float64(n) {
		return fmt.Errorf("-threshold %v: the relative difference of %d predictors is at most %d, so only a crash could be interesting; give a value in (0, %d) or -absolute cycles", *threshold, n, n, n)
	}
	for i, p := range names {
		for _, q := range names[:i] {
			if p.Name == q.Name {
				return fmt.Errorf("-predictors %q: %s is named twice: a predictor never disagrees with itself", *preds, p.Name)
			}
		}
	}
	if st, err := os.Stat(*out); err == nil && !st.IsDir() {
		return fmt.Errorf("-out %q: a file, not a directory", *out)
	}

	var caches []*anica.Cache
	var forms []isa.Form
	haveSim := false
	for _, n := range names {
		p, m, err := n.Open(ctx, stderr)
		if err != nil {
			return err
		}
		defer n.Close()
		if n.Kind == "llvm-mca" {
			// An unknown CPU fails every prediction: say so now, not as
			// "no form supported" after the support check, and before the
			// journal is created with this configuration.
			b, err := block.Parse("add rax, rcx", block.Intel)
			if err != nil {
				return err
			}
			if _, err := p.PredictBlocks(ctx, []*block.Block{b}); err != nil {
				return flagError("predictors", err)
			}
		}
		cache := anica.NewCache(p)
		cache.Timeout = *timeout
		caches = append(caches, cache)
		if m != nil {
			mf, err := anica.MachineForms(m)
			if err != nil {
				return err
			}
			if !haveSim {
				forms = mf
			} else {
				keys := map[string]bool{}
				for _, f := range mf {
					keys[f.Key()] = true
				}
				forms = slices.DeleteFunc(forms, func(f isa.Form) bool { return !keys[f.Key()] })
			}
			haveSim = true
		}
	}
	if !haveSim {
		for _, f := range isa.X86Forms() {
			if !strings.Contains(f.Extension, "AVX512") {
				forms = append(forms, f)
			}
		}
	}
	if annotated, err := anica.WithUopsInfo(forms); err != nil {
		fmt.Fprintf(stderr, "anica: no uops.info categories and extensions (%v); forms keep their own\n", err)
	} else {
		forms = annotated
	}
	dom, err := anica.NewDomain(forms, cfg.EditDistance)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	journalPath := filepath.Join(*out, "journal.jsonl")
	// The campaign over the supported forms is made after the journal is
	// read, so that the support check is answered from it.
	probe, err := anica.NewCampaign(dom, caches, cfg)
	if err != nil {
		return err
	}
	resumed := 0
	if f, err := os.Open(journalPath); err == nil {
		resumed, err = probe.Resume(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", journalPath, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := trimTornTail(journalPath); err != nil {
		return fmt.Errorf("%s: %w", journalPath, err)
	}
	jf, err := os.OpenFile(journalPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer jf.Close()
	st, _ := jf.Stat()
	if err := probe.Journal(jf, st.Size() == 0); err != nil {
		return err
	}

	// A time budget ends this run at wall: the budget less the time of
	// earlier runs; discovery ends reserve before.
	var wall time.Time
	if budget.Duration > 0 {
		wall = runStart.Add(budget.Duration - probe.Elapsed)
	}
	fmt.Fprintf(stderr, "anica: checking which of %d forms every predictor supports\n", len(dom.Forms()))
	supported, err := anica.Supported(ctx, dom, caches, cfg.Seed)
	if err != nil {
		return err
	}
	dropped := len(dom.Forms()) - len(supported.Forms())
	if len(supported.Forms()) == 0 || dropped == len(dom.Forms()) {
		return fmt.Errorf("anica: the predictors support none of the %d forms together (first: %s)", len(dom.Forms()), firstOr(supported.Excluded))
	}
	fmt.Fprintf(stderr, "anica: %d forms, %d left out that a predictor cannot predict alone\n", len(supported.Forms()), dropped)
	c, err := anica.NewCampaign(supported, caches, cfg)
	if err != nil {
		return err
	}
	c.Batches, c.Sampled, c.Interesting, c.Discoveries, c.Elapsed = probe.Batches, probe.Sampled, probe.Interesting, probe.Discoveries, probe.Elapsed
	if err := c.Journal(jf, false); err != nil {
		return err
	}
	if resumed > 0 {
		fmt.Fprintf(stderr, "anica: resuming after %d batches (%d blocks, %d discoveries) from %s\n", resumed, c.Sampled, len(c.Discoveries), journalPath)
	}
	runBudget := anica.Budget{Blocks: budget.Blocks}
	if !wall.IsZero() {
		runBudget.Duration = budget.Duration - reserve
		c.Deadline = wall.Add(-reserve)
	}
	bar := newProgressBar(stderr)
	c.Progress = func(c *anica.Campaign) {
		label := fmt.Sprintf("%d blocks, %d interesting, %d discoveries", c.Sampled, c.Interesting, len(c.Discoveries))
		if budget.Blocks > 0 {
			bar.update(label, int64(c.Sampled), int64(budget.Blocks))
		} else {
			bar.update(label, int64(c.Elapsed/time.Second), int64(runBudget.Duration/time.Second))
		}
	}
	runErr := c.Run(ctx, runBudget)
	bar.finish()
	if runErr != nil {
		return fmt.Errorf("anica: campaign stopped after %d blocks (resume with the same command): %w", c.Sampled, runErr)
	}

	ds := c.Filter(c.Discoveries)
	anica.Rank(ds)
	var rep strings.Builder
	fmt.Fprintf(&rep, "AnICA campaign: %s\n", strings.Join(predictorNames(caches), " vs "))
	fmt.Fprintf(&rep, "forms %d, seed %d, threshold %g (%s), %d samples per check\n", len(supported.Forms()), cfg.Seed, cfg.Threshold,
		map[bool]string{true: "absolute cycles", false: "relative"}[cfg.Absolute], cfg.Samples)
	fmt.Fprintf(&rep, "%d blocks sampled, %d interesting, %d discoveries (%d after subsumption) in %s of campaign\n",
		c.Sampled, c.Interesting, len(c.Discoveries), len(ds), c.Elapsed.Round(time.Second))
	stopped := 0
	for _, d := range c.Discoveries {
		if d.Stopped {
			stopped++
		}
	}
	if c.Unfinished > 0 || stopped > 0 {
		fmt.Fprintf(&rep, "the time ran out in the last batch: interesting blocks not minimised or generalised %d, generalisations cut short %d; "+
			"the same command with a larger -budget runs that batch again from its start\n", c.Unfinished, stopped)
	}
	if c.Sampled == 0 && !wall.IsZero() {
		fmt.Fprintf(&rep, "no block sampled: the discovery time of the budget ended before the first batch (checking which forms every predictor supports takes it on a slow predictor); give a larger -budget\n")
	}
	for _, p := range caches {
		fmt.Fprintf(&rep, "  %s: %d blocks predicted, %d answers from the cache\n", p.Name(), p.Asked, p.Hits)
	}
	switch {
	case !wall.IsZero():
		fmt.Fprintf(&rep, "budget %s for the whole run: discovery until %s before its end, then soundness and coverage\n", budget.Duration, reserve)
	case reserve > 0:
		fmt.Fprintf(&rep, "budget %d blocks; %s for soundness and coverage\n", budget.Blocks, reserve)
	}
	if len(supported.Excluded) > 0 {
		fmt.Fprintf(&rep, "forms left out (a predictor cannot predict them alone):\n")
		for _, x := range supported.Excluded {
			fmt.Fprintf(&rep, "  %s\n", x)
		}
	}
	// The checks: until the end of a time budget, or for -check-time.
	switch {
	case !wall.IsZero():
		c.Deadline = wall
	case reserve > 0:
		c.Deadline = time.Now().Add(reserve)
	default:
		c.Deadline = time.Time{}
	}
	pastDeadline := func() bool { return !c.Deadline.IsZero() && time.Now().After(c.Deadline) }
	var sound []string
	soundSamples := max(cfg.Samples, anica.DefaultSamples)
	for k, d := range ds {
		if pastDeadline() {
			sound = append(sound, "not measured: the time budget ended")
			continue
		}
		s, err := c.Soundness(ctx, d.Block, soundSamples, uint64(k))
		if err != nil {
			return err
		}
		if math.IsNaN(s) {
			sound = append(sound, "not measured: no sample could be drawn or asked")
		} else {
			sound = append(sound, fmt.Sprintf("%.3f", s))
		}
	}
	rep.WriteString("\n" + c.Report(ds))
	fmt.Fprintf(&rep, "\nsoundness (of %d fresh samples of each discovery, the fraction interesting again):\n", soundSamples)
	for k, s := range sound {
		note := ""
		if ds[k].Stopped {
			note = " (generalisation ended by the time budget)"
		}
		fmt.Fprintf(&rep, "  #%d %s%s\n", k+1, s, note)
	}
	if *test > 0 {
		fmt.Fprintf(stderr, "anica: coverage on %d random test blocks\n", *test)
		tc := c.Config
		tc.TestSize = *test
		c.Config = tc
		cov, err := c.TestCoverage(ctx, ds, 10)
		if err != nil {
			return err
		}
		fmt.Fprintf(&rep, "\ncoverage: %s\n", cov)
	}
	fmt.Fprintf(&rep, "\ntotal time %s (this run)\n", time.Since(runStart).Round(time.Second))
	if err := os.WriteFile(filepath.Join(*out, "report.txt"), []byte(rep.String()), 0o644); err != nil {
		return err
	}
	data, err := json.MarshalIndent(ds, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "discoveries.json"), append(data, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprint(stdout, rep.String())
	return nil
}

func predictorNames(cs []*anica.Cache) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name())
	}
	return out
}

func firstOr(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return xs[0]
}

// parseBudget reads a number of blocks (2000) or a duration (30m, 1h).
func parseBudget(s string) (anica.Budget, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 {
			return anica.Budget{}, fmt.Errorf("%d blocks: must be ≥ 1", n)
		}
		return anica.Budget{Blocks: n}, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return anica.Budget{}, fmt.Errorf("%q: want a number of blocks (e.g. 2000) or a positive duration (e.g. 30m)", s)
	}
	return anica.Budget{Duration: d}, nil
}

// trimTornTail cuts a journal's last line when a kill left it without its
// newline (Resume ignores it), so that the records appended next start on
// a line of their own. A file that does not exist is left so.
func trimTornTail(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	end := st.Size()
	buf := make([]byte, 64<<10)
	for pos := end; pos > 0; {
		n := int64(len(buf))
		if pos < n {
			n = pos
		}
		pos -= n
		if _, err := f.ReadAt(buf[:n], pos); err != nil {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			if keep := pos + int64(i) + 1; keep < end {
				return f.Truncate(keep)
			}
			return nil
		}
	}
	return f.Truncate(0)
}
