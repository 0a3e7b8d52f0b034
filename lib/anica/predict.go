package anica

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/sim"
)

// Prediction is one predictor's answer for one block: cycles per
// iteration, or the message of its failure (a crash, a rejected block, a
// timeout), which makes the block interesting (thesis §8.1.1).
//
// Outside marks a failure that is the limit of how the predictor answers,
// not an answer: the host's harness cannot run a block whose addresses it
// cannot keep inside its buffer (see Limited). Such a block is left out of
// the campaign, as the thesis leaves out blocks a predictor does not
// support (§8.2.2): it is neither interesting nor a counter-example.
type Prediction struct {
	Cycles  float64 `json:"cycles"`
	Err     string  `json:"err,omitempty"`
	Outside bool    `json:"outside,omitempty"`
}

// Limited is implemented by predictors that cannot be asked about some
// blocks at all, for a reason of their own rather than a wrong or failed
// prediction: the host's block measurement (measure.HostBlocks) cannot
// run a block whose address registers hold what the block computed.
// Outside reports whether b is such a block, and why. The cache asks it
// about every block the predictor failed on; those failures become
// Outside predictions.
type Limited interface {
	Outside(b *block.Block) (reason string, outside bool)
}

func (p Prediction) String() string {
	if p.Err != "" {
		return "crash: " + p.Err
	}
	return fmt.Sprintf("%.2f", p.Cycles)
}

// Cache asks a predictor about blocks, each block once: answers are kept
// by the block's text, so that a campaign never asks a predictor twice for
// the same block. It is safe for concurrent use.
type Cache struct {
	p  sim.BlockPredictor
	mu sync.Mutex
	m  map[string]Prediction
	// Asked counts the blocks handed to the predictor, Hits the answers
	// taken from the cache.
	Asked, Hits int
	// OnNew, when set, is called with every new answer (to journal it).
	OnNew func(key string, p Prediction)
	// Timeout, when not zero, bounds the predictor's time per block: a
	// batch of n blocks gets n×Timeout, and a block that does not get an
	// answer in Timeout when asked alone is a failure ("did not answer
	// within …", interesting as a crash is, thesis §8.1.1). A predictor
	// that ignores its context is left running in the background; the
	// campaign goes on.
	Timeout time.Duration
}

// NewCache returns an empty cache in front of p.
func NewCache(p sim.BlockPredictor) *Cache {
	return &Cache{p: p, m: map[string]Prediction{}}
}

// Name returns the predictor's name.
func (c *Cache) Name() string { return c.p.Name() }

// Put records an answer without asking (a journalled one).
func (c *Cache) Put(key string, p Prediction) {
	c.mu.Lock()
	c.m[key] = p
	c.mu.Unlock()
}

// Len returns the number of answers cached.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Predict returns the predictions for blocks, asking the predictor once,
// in one batch, for the blocks not cached. A block the predictor cannot
// predict gets its failure message. When the batch fails as a whole, each
// block is asked alone, and a block that fails alone gets the error. Only
// a cancelled ctx or an infrastructure failure of the predictor
// (oracle.IsInfrastructure: the host's measurement worker does not start,
// say) ends Predict with an error: that is no answer about any block, and
// is never cached as one.
func (c *Cache) Predict(ctx context.Context, blocks []*block.Block) ([]Prediction, error) {
	out := make([]Prediction, len(blocks))
	keys := make([]string, len(blocks))
	var miss []*block.Block
	var missAt []int
	seen := map[string]int{}
	c.mu.Lock()
	for i, b := range blocks {
		keys[i] = blockKey(b)
		if p, ok := c.m[keys[i]]; ok {
			out[i] = p
			c.Hits++
			continue
		}
		if _, dup := seen[keys[i]]; dup {
			continue
		}
		seen[keys[i]] = len(miss)
		miss = append(miss, b)
		missAt = append(missAt, i)
	}
	c.Asked += len(miss)
	c.mu.Unlock()
	if len(miss) > 0 {
		got, err := c.ask(ctx, miss)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		for k, p := range got {
			c.m[keys[missAt[k]]] = p
			if c.OnNew != nil {
				c.OnNew(keys[missAt[k]], p)
			}
		}
		c.mu.Unlock()
		for i := range blocks {
			if k, ok := seen[keys[i]]; ok {
				out[i] = got[k]
			}
		}
	}
	return out, nil
}

func (c *Cache) ask(ctx context.Context, blocks []*block.Block) ([]Prediction, error) {
	vals, err := c.predict(ctx, blocks)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if oracle.IsInfrastructure(err) {
		// The machinery failed (a measurement worker that does not
		// start, a CPU it cannot be pinned to): no property of any
		// block, and every other block would fail alike.
		return nil, fmt.Errorf("anica: %s: %w", c.p.Name(), err)
	}
	var te *timeoutError
	if errors.As(err, &te) && len(blocks) == 1 {
		return []Prediction{{Cycles: math.NaN(), Err: err.Error()}}, nil
	}
	var ue *oracle.UnsupportedError
	switch {
	case err == nil || errors.As(err, &ue):
		if len(vals) != len(blocks) {
			return nil, fmt.Errorf("anica: %s returned %d predictions for %d blocks", c.p.Name(), len(vals), len(blocks))
		}
		out := make([]Prediction, len(blocks))
		for i, v := range vals {
			out[i] = Prediction{Cycles: v}
			if math.IsNaN(v) {
				out[i].Err = "no prediction"
			}
		}
		if ue != nil {
			lim, _ := c.p.(Limited)
			for _, f := range ue.Failures {
				if f.Index >= 0 && f.Index < len(out) {
					out[f.Index] = Prediction{Cycles: math.NaN(), Err: f.Reason}
					if lim != nil {
						if why, ok := lim.Outside(blocks[f.Index]); ok {
							out[f.Index] = Prediction{Cycles: math.NaN(), Err: why, Outside: true}
						}
					}
				}
			}
		}
		return out, nil
	case len(blocks) > 1:
		out := make([]Prediction, len(blocks))
		for i, b := range blocks {
			p, err := c.ask(ctx, []*block.Block{b})
			if err != nil {
				return nil, err
			}
			out[i] = p[0]
		}
		return out, nil
	}
	return []Prediction{{Cycles: math.NaN(), Err: err.Error()}}, nil
}

// timeoutError is a predictor's batch that did not end within the
// Cache's Timeout.
type timeoutError struct {
	name  string
	limit time.Duration
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("%s did not answer within %v", e.name, e.limit)
}

// predict asks the predictor, bounded by Timeout per block when set.
func (c *Cache) predict(ctx context.Context, blocks []*block.Block) ([]float64, error) {
	if c.Timeout <= 0 {
		return c.p.PredictBlocks(ctx, blocks)
	}
	limit := c.Timeout * time.Duration(len(blocks))
	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	type answer struct {
		vals []float64
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		v, err := c.p.PredictBlocks(tctx, blocks)
		done <- answer{v, err}
	}()
	select {
	case a := <-done:
		if ctx.Err() == nil && tctx.Err() != nil {
			return nil, &timeoutError{c.p.Name(), limit}
		}
		return a.vals, a.err
	case <-tctx.Done():
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &timeoutError{c.p.Name(), limit}
	}
}

// Outside reports whether a predictor could not be asked about the block
// (Prediction.Outside): the block is left out of the campaign.
func Outside(ps []Prediction) bool {
	return slices.ContainsFunc(ps, func(p Prediction) bool { return p.Outside })
}

// Score is the interestingness of one block's predictions (thesis
// §8.1.1): the relative difference |a−b| / mean(a, b), generalised to n
// predictors as (max−min)/sum·n, or with absolute the difference max−min
// in cycles. It is NaN, never interesting, when a block is outside what a
// predictor can be asked (Outside). It is +Inf when a predictor failed or gave a negative or
// undefined value, or when the predictions sum to (nearly) zero.
func Score(ps []Prediction, absolute bool) float64 {
	if Outside(ps) {
		return math.NaN()
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, p := range ps {
		if p.Err != "" || math.IsNaN(p.Cycles) || p.Cycles < 0 {
			return math.Inf(1)
		}
		lo, hi, sum = min(lo, p.Cycles), max(hi, p.Cycles), sum+p.Cycles
	}
	if absolute {
		return hi - lo
	}
	if sum <= 0.001 {
		return math.Inf(1)
	}
	return (hi - lo) / sum * float64(len(ps))
}
