package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/sim"
	"github.com/portlab/portlab/lib/source"
)

// blockArgs are the flags of portlab predict -blocks.
type blockArgs struct {
	file, machine string
	per           float64
	peer, mcpu    string
	mcaBin        string
	aliasing      string
}

// predictBlocks predicts the blocks of a file with the simulator and
// llvm-mca (sim.BlockPredictor, the one seam for blocks), prints every
// block's cycles per iteration and the blocks each predictor left out
// with the reason, and, when blocks carry measured cycles, the metrics
// of each predictor (sim.Evaluate) and of both on the blocks both
// predicted.
func predictBlocks(ctx context.Context, a blockArgs, stdout, stderr io.Writer) error {
	switch {
	case a.machine == "" && a.peer == "":
		return fmt.Errorf("predict -blocks needs -machine (e.g. portlab:zenplus-like, uops.info:ZEN3 or a machine file) or -peer llvm-mca")
	case a.peer != "" && a.peer != "llvm-mca":
		return fmt.Errorf("unknown -peer %q (want llvm-mca)", a.peer)
	case a.peer == "llvm-mca" && a.mcpu == "":
		return fmt.Errorf("-peer llvm-mca: give -mcpu, e.g. -mcpu znver3 (or host)")
	}
	if !(a.per > 0) || math.IsInf(a.per, 0) {
		return flagError("per", fmt.Errorf("%v: the iterations a block's measured cycles are for must be a number > 0 (1, or 100 for BHive's files)", a.per))
	}
	var alias sim.Aliasing
	switch a.aliasing {
	case "", "expression":
	case "same-buffer":
		alias = sim.SameBuffer
	default:
		return fmt.Errorf("-aliasing %q: want expression or same-buffer", a.aliasing)
	}
	src, err := source.ParseBlocks(a.file, a.per)
	if err != nil {
		return flagError("blocks", err)
	}
	var preds []sim.BlockPredictor
	if a.machine != "" {
		m, err := machine.Lookup(a.machine)
		if err != nil {
			return flagError("machine", err)
		}
		s, err := sim.New(m, sim.Options{Aliasing: alias})
		if err != nil {
			return flagError("machine", err)
		}
		preds = append(preds, s)
	}
	if a.peer == "llvm-mca" {
		mca, done, err := newMCA(ctx, a.mcpu, a.mcaBin, stderr)
		if err != nil {
			return err
		}
		defer done()
		preds = append(preds, mca)
	}
	set, bad, err := src.Load(ctx, func(note string) { fmt.Fprintln(stderr, note) })
	if err != nil {
		return err
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "%s: %d lines not understood and left out (listed above)\n", a.file, bad)
	}
	values := make([][]float64, len(preds))
	failures := make([][]portmap.Failure, len(preds))
	for i, p := range preds {
		v, err := p.PredictBlocks(ctx, set.Blocks)
		var ue *oracle.UnsupportedError
		switch {
		case errors.As(err, &ue):
			failures[i] = ue.Failures
		case err != nil:
			return fmt.Errorf("%s: %w", p.Name(), err)
		}
		if len(v) != set.Len() {
			return fmt.Errorf("%s: %d predictions for %d blocks", p.Name(), len(v), set.Len())
		}
		if len(failures[i]) == set.Len() {
			f := failures[i][0]
			return fmt.Errorf("%s predicts none of the %d blocks of %s; first: %s: %s", p.Name(), set.Len(), a.file, blockName(set.Blocks[f.Index]), f.Reason)
		}
		values[i] = v
	}
	measured := 0
	for _, c := range set.Cycles {
		if !math.IsNaN(c) {
			measured++
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "block\tinsns\t")
	for _, p := range preds {
		fmt.Fprintf(tw, "%s\t", p.Name())
	}
	if measured > 0 {
		fmt.Fprint(tw, "measured\t")
	}
	fmt.Fprintln(tw)
	for k, b := range set.Blocks {
		fmt.Fprintf(tw, "%s\t%d\t", blockName(b), len(b.Insns))
		for i := range preds {
			fmt.Fprintf(tw, "%.3f\t", values[i][k])
		}
		if measured > 0 {
			fmt.Fprintf(tw, "%.3f\t", set.Cycles[k])
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, p := range preds {
		if len(failures[i]) == 0 {
			continue
		}
		fmt.Fprintf(stdout, "\n%s: %d of %d blocks not predicted (NaN above):\n", p.Name(), len(failures[i]), set.Len())
		for _, f := range failures[i] {
			fmt.Fprintf(stdout, "  %s: %s\n", blockName(set.Blocks[f.Index]), f.Reason)
		}
	}
	if measured == 0 {
		return nil
	}
	// The measured blocks, each predictor on those it predicted, then all
	// predictors on the blocks every one of them predicted.
	sub := &sim.BlockSet{Name: a.file}
	var idx []int
	for k, c := range set.Cycles {
		if !math.IsNaN(c) {
			sub.Add(set.Blocks[k], c)
			idx = append(idx, k)
		}
	}
	var evals []*metrics.Evaluation
	for i, p := range preds {
		ev := sim.Evaluate(ctx, storedBlocks(p.Name(), values[i], failures[i], idx), sub)
		ev.Data = ""
		evals = append(evals, ev)
	}
	fmt.Fprintf(stdout, "\n%d measured blocks, each predictor on the blocks it predicts:\n", sub.Len())
	table := metrics.Table(evals...)
	table.LeftOutBelow = true
	if _, err := io.WriteString(stdout, table.String()); err != nil {
		return err
	}
	if len(preds) < 2 {
		return nil
	}
	common := &sim.BlockSet{Name: a.file}
	var cidx []int
	for _, k := range idx {
		ok := true
		for i := range preds {
			ok = ok && !math.IsNaN(values[i][k])
		}
		if ok {
			common.Add(set.Blocks[k], set.Cycles[k])
			cidx = append(cidx, k)
		}
	}
	if common.Len() == 0 {
		fmt.Fprintln(stdout, "\nno measured block is predicted by all predictors")
		return nil
	}
	evals = evals[:0]
	for i, p := range preds {
		ev := sim.Evaluate(ctx, storedBlocks(p.Name(), values[i], failures[i], cidx), common)
		ev.Data = ""
		evals = append(evals, ev)
	}
	fmt.Fprintf(stdout, "\nthe %d measured blocks all predictors predict:\n", common.Len())
	_, err = io.WriteString(stdout, metrics.Table(evals...).String())
	return err
}

// blockName names a block by its line in a CSV file, else by its source.
func blockName(b *block.Block) string {
	if n, ok := strings.CutPrefix(b.Source, "BHive CSV line "); ok {
		return "line " + n
	}
	return b.Source
}

// stored is a BlockPredictor answering with predictions made before: the
// values of the blocks at idx, in order (NaN: not predicted, with the
// predictor's reason when it gave one).
type stored struct {
	name   string
	values []float64
	why    map[int]string // by position in values
}

func storedBlocks(name string, all []float64, failures []portmap.Failure, idx []int) *stored {
	reason := make(map[int]string, len(failures))
	for _, f := range failures {
		reason[f.Index] = f.Reason
	}
	s := &stored{name: name, why: map[int]string{}}
	for k, i := range idx {
		s.values = append(s.values, all[i])
		if r, ok := reason[i]; ok {
			s.why[k] = r
		}
	}
	return s
}

func (s *stored) Name() string { return s.name }

func (s *stored) PredictBlocks(_ context.Context, blocks []*block.Block) ([]float64, error) {
	if len(blocks) != len(s.values) {
		return nil, fmt.Errorf("%s: %d stored predictions for %d blocks", s.name, len(s.values), len(blocks))
	}
	v := append([]float64(nil), s.values...)
	var failures []portmap.Failure
	for k, x := range v {
		if math.IsNaN(x) {
			why := s.why[k]
			if why == "" {
				why = "not predicted"
			}
			failures = append(failures, portmap.Failure{Index: k, Reason: why})
		}
	}
	return oracle.Unsupported(s.name, v, failures)
}
