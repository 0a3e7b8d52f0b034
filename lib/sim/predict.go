package sim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// BlockPredictor predicts the cycles per iteration of blocks: ordered
// instructions with their operands, where an oracle.Predictor sees
// multisets of instruction names. *Simulator is one, and so is the
// llvm-mca predictor of package llvmmca.
//
// PredictBlocks follows the contract of oracle.Predictor: one value per
// block, in order; for blocks it cannot predict, NaN, and an
// *oracle.UnsupportedError listing them (Failure.Index is the block's
// position); every other error comes with a nil slice.
type BlockPredictor interface {
	Name() string
	PredictBlocks(ctx context.Context, blocks []*block.Block) ([]float64, error)
}

// PredictBlocks simulates every block (Simulate) and returns its cycles
// per iteration. A block the simulator cannot simulate (a form the
// machine does not map) or whose steady state it does not find within
// MaxIterations is not predicted: NaN and an *oracle.UnsupportedError
// naming the reason. ctx is checked between blocks.
func (s *Simulator) PredictBlocks(ctx context.Context, blocks []*block.Block) ([]float64, error) {
	values := make([]float64, len(blocks))
	var failures []portmap.Failure
	for i, b := range blocks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := s.Simulate(b)
		switch {
		case err != nil:
			failures = append(failures, failure(i, b, err.Error()))
		case !r.Converged:
			failures = append(failures, failure(i, b, "no steady state: "+r.Detection))
		default:
			values[i] = r.Cycles
		}
	}
	return oracle.Unsupported(s.Name(), values, failures)
}

func failure(i int, b *block.Block, reason string) portmap.Failure {
	f := portmap.Failure{Index: i, Reason: reason}
	if b != nil && len(b.Insns) > 0 {
		f.Experiment = b.Experiment()
	}
	return f
}

// BlockSet is a set of blocks with their measured cycles per iteration:
// the data a BlockPredictor is evaluated on.
type BlockSet struct {
	// Name names the data, e.g. the file it was read from.
	Name   string
	Blocks []*block.Block
	// Cycles holds the measured cycles per iteration of each block.
	Cycles []float64
}

// Len returns the number of blocks.
func (s *BlockSet) Len() int { return len(s.Blocks) }

// Add appends a block with its measured cycles per iteration.
func (s *BlockSet) Add(b *block.Block, cycles float64) {
	s.Blocks = append(s.Blocks, b)
	s.Cycles = append(s.Cycles, cycles)
}

// ReadBHive reads a BHive-style CSV file, one block a line "hex,cycles"
// (block.ReadBHiveCSV, which decodes with objdump), into a set named
// name. The second column is divided by per: BHive's files give cycles
// per 100 iterations, so per is 100 for them, 1 for files that give
// cycles per iteration. A line with an empty cycles column is a block
// not measured: its cycles are NaN. Lines that do not decode are left out and
// reported by the *block.ParseError returned with the set of the others;
// any other error comes with a nil set.
func ReadBHive(ctx context.Context, r io.Reader, name string, per float64) (*BlockSet, error) {
	if !(per > 0) || math.IsInf(per, 0) {
		return nil, fmt.Errorf("sim: reading %s: iterations per measurement must be > 0, not %v", name, per)
	}
	rows, err := block.ReadBHiveCSV(ctx, r)
	var pe *block.ParseError
	if err != nil && !errors.As(err, &pe) {
		return nil, err
	}
	set := &BlockSet{Name: name}
	for _, row := range rows {
		set.Add(row.Block, row.Cycles/per)
	}
	if pe != nil {
		pe.Source = name
		return set, pe
	}
	return set, nil
}

// Evaluate predicts the blocks of set with p and compares the
// predictions with the measurements, as metrics.Evaluate does for
// experiments: blocks p cannot predict are left out and listed in the
// evaluation's Failures; when the prediction fails as a whole, the
// evaluation carries the error (Err). Its Experiments are the blocks'
// multisets of forms, for labels.
func Evaluate(ctx context.Context, p BlockPredictor, set *BlockSet) *metrics.Evaluation {
	data := ""
	if set != nil {
		data = set.Name
	}
	if set == nil || set.Len() == 0 {
		return metrics.FailedEvaluation(p.Name(), data, fmt.Errorf("sim: evaluating %s: no measured blocks", p.Name()))
	}
	if len(set.Cycles) != len(set.Blocks) {
		return metrics.FailedEvaluation(p.Name(), data, fmt.Errorf("sim: evaluating %s: %d blocks but %d measurements", p.Name(), len(set.Blocks), len(set.Cycles)))
	}
	pred, err := p.PredictBlocks(ctx, set.Blocks)
	var failures []portmap.Failure
	var ue *oracle.UnsupportedError
	if errors.As(err, &ue) {
		failures = ue.Failures
	} else if err != nil {
		return metrics.FailedEvaluation(p.Name(), data, fmt.Errorf("sim: evaluating %s: %w", p.Name(), err))
	}
	if len(pred) != len(set.Blocks) {
		return metrics.FailedEvaluation(p.Name(), data, fmt.Errorf("sim: evaluating %s: %d predictions for %d blocks", p.Name(), len(pred), len(set.Blocks)))
	}
	ev := metrics.EvaluationOf(p.Name(), set.Cycles, pred)
	ev.Data = data
	// The predictor's reasons rather than "no prediction".
	why := make(map[int]portmap.Failure, len(failures))
	for _, f := range failures {
		why[f.Index] = f
	}
	for k, f := range ev.Failures {
		if w, ok := why[f.Index]; ok {
			ev.Failures[k] = w
		}
	}
	if ev.Err() == nil {
		for i, b := range set.Blocks {
			if !math.IsNaN(pred[i]) {
				ev.Experiments = append(ev.Experiments, b.Experiment())
			}
		}
	}
	return ev
}
