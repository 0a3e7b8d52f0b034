package anica

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/portlab/portlab/lib/block"
)

// Coverage is how much of a random test set the discoveries explain
// (thesis §8.2.3, Table 8.3).
type Coverage struct {
	// Blocks is the size of the test set, Interesting how many of its
	// blocks are interesting, Covered how many of those some discovery
	// subsumes.
	Blocks, Interesting, Covered int
	// Outside counts the test blocks a predictor could not be asked about
	// (Prediction.Outside), left out of Interesting.
	Outside int
	// TopK is the number of interesting blocks the best K discoveries
	// cover together, chosen greedily (maximum coverage; §8.1.7 ranks by
	// an ILP, AnICA's reference implementation by the greedy heuristic).
	K, TopK int
	// ByDiscovery counts, per discovery (in the order given), the
	// interesting test blocks it subsumes.
	ByDiscovery []int
}

func (v Coverage) String() string {
	out := ""
	if v.Outside > 0 {
		out = fmt.Sprintf(" (%d outside what a predictor can be asked, left out)", v.Outside)
	}
	return fmt.Sprintf("%d test blocks%s, %d interesting (%s), %d of them covered (%s), top %d cover %d (%s)",
		v.Blocks, out, v.Interesting, pct(v.Interesting, v.Blocks-v.Outside), v.Covered, pct(v.Covered, v.Interesting),
		v.K, v.TopK, pct(v.TopK, v.Interesting))
}

func pct(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f %%", 100*float64(a)/float64(b))
}

// TestSet draws the campaign's random test set: Config.TestSize blocks of
// Config.TestLength instructions from ⊤, from a stream of the seed that
// discovery does not use.
func (c *Campaign) TestSet() []*block.Block {
	rng := c.rng(streamTest, 0)
	var out []*block.Block
	for tries := 0; len(out) < c.Config.TestSize && tries < 4*c.Config.TestSize; tries++ {
		if b, err := c.Domain.Sample(Top(c.Config.TestLength), rng); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// Coverage predicts the test set and counts the interesting blocks the
// discoveries ds subsume, and those the best k of them cover.
func (c *Campaign) Coverage(ctx context.Context, ds []*Discovery, test []*block.Block, k int) (Coverage, error) {
	v := Coverage{Blocks: len(test), K: k, ByDiscovery: make([]int, len(ds))}
	preds, err := c.predict(ctx, test)
	if err != nil {
		return v, err
	}
	sets := make([][]int, len(ds)) // per discovery: covered interesting blocks
	for i, b := range test {
		if Outside(preds[i]) {
			v.Outside++
			continue
		}
		if !c.interesting(c.score(preds[i])) {
			continue
		}
		v.Interesting++
		beta, err := c.Domain.Beta(b)
		if err != nil {
			return v, err
		}
		covered := false
		for j, d := range ds {
			if c.Subsumes(d.Block, beta) {
				covered = true
				v.ByDiscovery[j]++
				sets[j] = append(sets[j], i)
			}
		}
		if covered {
			v.Covered++
		}
	}
	done := map[int]bool{}
	for range min(k, len(ds)) {
		best, gain := -1, 0
		for j, s := range sets {
			g := 0
			for _, i := range s {
				if !done[i] {
					g++
				}
			}
			if g > gain {
				best, gain = j, g
			}
		}
		if best < 0 {
			break
		}
		for _, i := range sets[best] {
			done[i] = true
		}
		v.TopK += gain
	}
	return v, nil
}

// Soundness samples n fresh blocks from γ(a), from a stream of the seed
// the campaign does not otherwise use, and returns the fraction that is
// interesting: the soundness of a generalisation. Blocks outside what a
// predictor can be asked (Outside) are left out. It is NaN when no block
// could be sampled or asked.
func (c *Campaign) Soundness(ctx context.Context, a *Block, n int, stream uint64) (float64, error) {
	blocks := c.sampleN(a, n, c.rng(streamSound, stream))
	if len(blocks) == 0 {
		return math.NaN(), nil
	}
	preds, err := c.predict(ctx, blocks)
	if err != nil {
		return 0, err
	}
	good, asked := 0, 0
	for _, p := range preds {
		if Outside(p) {
			continue
		}
		asked++
		if c.interesting(c.score(p)) {
			good++
		}
	}
	if asked == 0 {
		return math.NaN(), nil
	}
	return float64(good) / float64(asked), nil
}

// Report writes discoveries as text: rank, the abstract block, score,
// generality, the block it came from and witnesses with every predictor's
// answer.
func (c *Campaign) Report(ds []*Discovery) string {
	var sb strings.Builder
	var names []string
	for _, p := range c.Predictors {
		names = append(names, p.Name())
	}
	for i, d := range ds {
		fmt.Fprintf(&sb, "#%d  score %.2f, generality %d (batch %d)\n", i+1, d.Score, d.Generality, d.Batch)
		for _, line := range strings.Split(strings.TrimRight(d.Block.Text(), "\n"), "\n") {
			sb.WriteString("    " + line + "\n")
		}
		fmt.Fprintf(&sb, "    from: %s  %s\n", d.Origin.Block, predText(names, d.Origin.Predictions))
		for _, w := range d.Witnesses {
			fmt.Fprintf(&sb, "    e.g.: %s  %s\n", w.Block, predText(names, w.Predictions))
		}
	}
	return sb.String()
}

func predText(names []string, ps []Prediction) string {
	var parts []string
	for i, p := range ps {
		parts = append(parts, names[i]+" "+p.String())
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Steps returns the generalisation's decisions as text (thesis Figure
// 8.3 as a list): every expansion tried, "+" when the expanded block was
// interesting and kept, "-" with a block that was not interesting when it
// was rejected, "=" when it was kept without sampling because the forms
// did not change.
func (d *Discovery) Steps() string {
	var sb strings.Builder
	for _, s := range d.Decisions {
		mark := "+"
		switch {
		case s.Unchecked:
			mark = "="
		case !s.Accepted:
			mark = "-"
		}
		sb.WriteString(mark + " " + s.Expansion)
		if !s.Accepted && s.Example != nil {
			var ps []string
			for _, p := range s.Example.Predictions {
				ps = append(ps, p.String())
			}
			fmt.Fprintf(&sb, "   (not interesting: %s → %s)", s.Example.Block, strings.Join(ps, " vs "))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
