package anica

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"text/tabwriter"

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
	// Stopped says the campaign's Deadline ended the prediction of the
	// test set: Blocks counts the test blocks predicted by then, of
	// Planned.
	Stopped bool
	Planned int
}

func (v Coverage) String() string {
	out := ""
	if v.Outside > 0 {
		out = fmt.Sprintf(" (%d outside what a predictor can be asked, left out)", v.Outside)
	}
	if v.Stopped {
		out += fmt.Sprintf(" (of %d planned: the time budget ended the rest)", v.Planned)
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
	return c.testSampler().next(c.Config.TestSize)
}

// testBlocks draws the test set in order, some blocks at a time.
type testBlocks struct {
	c     *Campaign
	rng   *rand.Rand
	drawn int
	tries int
}

func (c *Campaign) testSampler() *testBlocks {
	return &testBlocks{c: c, rng: c.rng(streamTest, 0)}
}

// next returns up to n more blocks of the test set: fewer at its end, or
// when sampling fails too often (4 attempts a block).
func (t *testBlocks) next(n int) []*block.Block {
	var out []*block.Block
	size := t.c.Config.TestSize
	for len(out) < n && t.drawn < size && t.tries < 4*size {
		t.tries++
		if b, err := t.c.Domain.Sample(Top(t.c.Config.TestLength), t.rng); err == nil {
			out = append(out, b)
			t.drawn++
		}
	}
	return out
}

// Coverage predicts the test set and counts the interesting blocks the
// discoveries ds subsume, and those the best k of them cover. The test
// set is predicted Config.BatchSize blocks at a time; when the Deadline
// passes, the blocks predicted by then are counted (Stopped).
func (c *Campaign) Coverage(ctx context.Context, ds []*Discovery, test []*block.Block, k int) (Coverage, error) {
	rest := test
	return c.coverage(ctx, ds, len(test), k, func(n int) []*block.Block {
		chunk := rest[:min(n, len(rest))]
		rest = rest[len(chunk):]
		return chunk
	})
}

// TestCoverage is Coverage on the campaign's test set (TestSet), drawn
// and predicted Config.BatchSize blocks at a time, so that a Deadline
// ends both: the coverage is then that of the first blocks of the test
// set, those predicted in time.
func (c *Campaign) TestCoverage(ctx context.Context, ds []*Discovery, k int) (Coverage, error) {
	return c.coverage(ctx, ds, c.Config.TestSize, k, c.testSampler().next)
}

func (c *Campaign) coverage(ctx context.Context, ds []*Discovery, planned, k int, next func(int) []*block.Block) (Coverage, error) {
	v := Coverage{Planned: planned, K: k, ByDiscovery: make([]int, len(ds))}
	var test []*block.Block
	var preds [][]Prediction
	for len(test) < planned {
		if c.past() {
			v.Stopped = true
			break
		}
		chunk := next(c.Config.BatchSize)
		if len(chunk) == 0 {
			break
		}
		ps, err := c.predict(ctx, chunk)
		if err != nil {
			return v, err
		}
		test, preds = append(test, chunk...), append(preds, ps...)
	}
	v.Blocks = len(test)
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
// could be sampled or asked, or the Deadline has passed.
func (c *Campaign) Soundness(ctx context.Context, a *Block, n int, stream uint64) (float64, error) {
	blocks := c.sampleN(a, n, c.rng(streamSound, stream))
	if len(blocks) == 0 || c.past() {
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

// Table writes discoveries as a table, one row each: rank, the abstract
// block on one line (its instructions and aliasing constraints joined by
// " | "), its witness — the minimised block it was generalised from, its
// instructions joined by "; " — and every predictor's answer for the
// witness under names (the predictors' names, in order).
func Table(ds []*Discovery, names []string) string {
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "#\tabstract block\twitness\t%s\n", strings.Join(names, "\t"))
	for i, d := range ds {
		lines := strings.Split(strings.TrimRight(d.Block.Text(), "\n"), "\n")
		for k := range lines {
			lines[k] = strings.TrimSuffix(lines[k], ";")
		}
		row := []string{fmt.Sprint(i + 1), strings.Join(lines, " | "), d.Origin.Block}
		for k := range names {
			v := "–"
			if k < len(d.Origin.Predictions) {
				v = d.Origin.Predictions[k].String()
			}
			row = append(row, v)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
	return sb.String()
}
