package anica_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/anica"
	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/sim"
)

func zenDomain(t testing.TB) (*anica.Domain, *sim.Simulator) {
	t.Helper()
	m, err := machine.Lookup(machine.ZenPlusLikeName)
	if err != nil {
		t.Fatal(err)
	}
	forms, err := anica.MachineForms(m)
	if err != nil {
		t.Fatal(err)
	}
	d, err := anica.NewDomain(forms, anica.DefaultEditDistance)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(m, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d, s
}

// TestDomainLaws checks requirements of Definition 8.2 on random blocks:
// soundness b ∈ γ(β(b)), expansions strictly ascending in γ (samples of
// a lie in γ(E(a))), and finite chains up to ⊤.
func TestDomainLaws(t *testing.T) {
	d, _ := zenDomain(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 12 {
		b, err := d.Sample(anica.Top(1+rng.IntN(4)), rng)
		if err != nil {
			continue
		}
		a, err := d.Beta(b)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Contains(a, b) {
			t.Fatalf("%s not in γ(β) =\n%s", anica.Text(b), a.Text())
		}
		steps := 0
		for es := d.Expansions(a); len(es) > 0; es = d.Expansions(a) {
			e := es[rng.IntN(len(es))]
			next := d.Apply(a, e)
			for range 2 {
				s, err := d.Sample(a, rng)
				if err != nil {
					continue
				}
				if !d.Contains(a, s) || !d.Contains(next, s) {
					t.Fatalf("sample %s of\n%snot in γ of it or of its expansion (%s)", anica.Text(s), a.Text(), d.Describe(a, e))
				}
			}
			a = next
			if steps++; steps > 500 {
				t.Fatal("no ⊤ after 500 expansions")
			}
		}
		if a.Text() != anica.Top(len(b.Insns)).Text() {
			t.Fatalf("no expansion left but not ⊤:\n%s", a.Text())
		}
	}
}

func parse(t testing.TB, src string) *block.Block {
	t.Helper()
	b, err := block.Parse(src, block.Intel)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSubsumption checks Definition 8.7 on the thesis' Example 8.1 kind
// of block: a rotation and an extra instruction are subsumed, a missing
// alias or (with C4) a reordering of three is not.
func TestSubsumption(t *testing.T) {
	d, s := zenDomain(t)
	c, err := anica.NewCampaign(d, []*anica.Cache{anica.NewCache(s)}, anica.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ab := parse(t, "mov rbx, qword ptr [rsi+64]\nadd qword ptr [rdi+64], rbx")
	a, err := d.Beta(ab)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"mov rbx, qword ptr [rsi+64]\nadd qword ptr [rdi+64], rbx", true},
		{"add qword ptr [rdi+64], rbx\nmov rbx, qword ptr [rsi+64]", true},               // rotation
		{"mov rbx, qword ptr [rsi+64]\nxor eax, ecx\nadd qword ptr [rdi+64], rbx", true}, // extra instruction
		{"mov rbx, qword ptr [rsi+64]\nadd qword ptr [rdi+64], rcx", false},              // rbx no longer shared
		{"mov rbx, qword ptr [rsi+64]\nadd qword ptr [rsi+64], rbx", false},              // memory now aliases
	} {
		if got := c.SubsumesConcrete(a, parse(t, tc.src)); got != tc.want {
			t.Errorf("β(%q) subsumes %q = %v, want %v", anica.Text(ab), tc.src, got, tc.want)
		}
	}
	// C4: three instructions, order 1 3 2 is no rotation of 1 2 3.
	three, _ := d.Beta(parse(t, "xor eax, ecx\nand edx, ebx\nor r8d, r9d"))
	three.Alias = nil
	swapped := parse(t, "xor eax, ecx\nor r8d, r9d\nand edx, ebx")
	rotated := parse(t, "or r8d, r9d\nxor eax, ecx\nand edx, ebx")
	if c.SubsumesConcrete(three, swapped) || !c.SubsumesConcrete(three, rotated) {
		t.Errorf("C4: swapped %v (want false), rotated %v (want true)", c.SubsumesConcrete(three, swapped), c.SubsumesConcrete(three, rotated))
	}
	c.Config.Unordered = true
	if !c.SubsumesConcrete(three, swapped) {
		t.Error("without C4 the swapped block is subsumed")
	}
}

func TestScore(t *testing.T) {
	p := func(x float64) anica.Prediction { return anica.Prediction{Cycles: x} }
	for _, tc := range []struct {
		ps   []anica.Prediction
		abs  bool
		want float64
	}{
		{[]anica.Prediction{p(1), p(3)}, false, 1},
		{[]anica.Prediction{p(2), p(2)}, false, 0},
		{[]anica.Prediction{p(1), p(3)}, true, 2},
		{[]anica.Prediction{p(1), {Cycles: math.NaN(), Err: "crash"}}, false, math.Inf(1)},
		{[]anica.Prediction{p(0), p(0)}, false, math.Inf(1)},
	} {
		if got := anica.Score(tc.ps, tc.abs); got != tc.want {
			t.Errorf("Score(%v, %v) = %v, want %v", tc.ps, tc.abs, got, tc.want)
		}
	}
}

// counting counts the blocks it is asked about and fails on blocks with
// a form of mnemonic fail.
type counting struct {
	s     *sim.Simulator
	fail  string
	asked int
}

func (c *counting) Name() string { return "counting " + c.s.Name() }

func (c *counting) PredictBlocks(ctx context.Context, bs []*block.Block) ([]float64, error) {
	c.asked += len(bs)
	vals, err := c.s.PredictBlocks(ctx, bs)
	if err != nil {
		return nil, err
	}
	var fails []portmap.Failure
	for i, b := range bs {
		for _, in := range b.Insns {
			if in.Form.Mnemonic == c.fail {
				vals[i] = math.NaN()
				fails = append(fails, portmap.Failure{Index: i, Reason: "assertion failed"})
				break
			}
		}
	}
	return oracle.Unsupported(c.Name(), vals, fails)
}

// TestCrashAndCache: a predictor that fails on every vpavgb block against
// one that does not: the failure is found as an inconsistency with score
// +Inf, the campaign goes on, and no block is asked about twice.
func TestCrashAndCache(t *testing.T) {
	d, s := zenDomain(t)
	a := &counting{s: s}
	b := &counting{s: s, fail: "vpavgb"}
	c, err := anica.NewCampaign(d, []*anica.Cache{anica.NewCache(a), anica.NewCache(b)}, anica.Config{Seed: 3, Samples: 20})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background(), anica.Budget{Blocks: 100}); err != nil {
		t.Fatal(err)
	}
	ds := c.Filter(c.Discoveries)
	if len(ds) != 1 || !math.IsInf(ds[0].Score, 1) || !strings.Contains(ds[0].Block.Text(), "vpavgb") {
		t.Fatalf("want one discovery of vpavgb with score +Inf, got %d:\n%s", len(ds), c.Report(ds))
	}
	if c.Sampled != 100 {
		t.Errorf("sampled %d blocks, want 100", c.Sampled)
	}
	if a.asked != c.Predictors[0].Asked || a.asked != c.Predictors[0].Len() {
		t.Errorf("predictor asked about %d blocks, %d distinct cached", a.asked, c.Predictors[0].Len())
	}
	if c.Predictors[0].Hits == 0 {
		t.Error("no answer came from the cache")
	}
}

// limited fails, as outside what it can be asked, on every block with a
// form of mnemonic fail (as the host's harness fails on blocks it cannot
// run).
type limited struct{ counting }

func (l *limited) Outside(b *block.Block) (string, bool) {
	for _, in := range b.Insns {
		if in.Form.Mnemonic == l.fail {
			return "not measurable: " + in.Text, true
		}
	}
	return "", false
}

// TestOutside: the same failure as in TestCrashAndCache, but one the
// predictor marks as outside what it can be asked: no discovery, the
// blocks are left out of interestingness, soundness and coverage, and the
// mark survives the journal.
func TestOutside(t *testing.T) {
	d, s := zenDomain(t)
	a := &counting{s: s}
	b := &limited{counting{s: s, fail: "vpavgb"}}
	c, err := anica.NewCampaign(d, []*anica.Cache{anica.NewCache(a), anica.NewCache(b)}, anica.Config{Seed: 3, Samples: 20})
	if err != nil {
		t.Fatal(err)
	}
	var journal bytes.Buffer
	if err := c.Journal(&journal, true); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Run(ctx, anica.Budget{Blocks: 100}); err != nil {
		t.Fatal(err)
	}
	if ds := c.Filter(c.Discoveries); len(ds) != 0 {
		t.Fatalf("blocks outside a predictor became %d discoveries:\n%s", len(ds), c.Report(ds))
	}
	if c.Interesting != 0 {
		t.Errorf("%d interesting blocks, want 0", c.Interesting)
	}
	one, err := block.Parse("vpavgb xmm1, xmm2, xmm3\nadd rax, rbx", block.Intel)
	if err != nil {
		t.Fatal(err)
	}
	preds, err := c.Predictors[1].Predict(ctx, []*block.Block{one})
	if err != nil {
		t.Fatal(err)
	}
	if p := preds[0]; !p.Outside || !strings.Contains(p.Err, "not measurable") || !math.IsNaN(anica.Score(preds, false)) {
		t.Errorf("prediction %+v, score %v: want outside, score NaN", p, anica.Score(preds, false))
	}
	cov, err := c.Coverage(ctx, nil, c.TestSet(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if cov.Outside == 0 || cov.Interesting != 0 {
		t.Errorf("coverage %v: want some blocks outside and none interesting", cov)
	}
	// The journal keeps the mark: a resumed campaign asks nothing again.
	b2 := &limited{counting{s: s, fail: "vpavgb"}}
	r, err := anica.NewCampaign(d, []*anica.Cache{anica.NewCache(&counting{s: s}), anica.NewCache(b2)}, anica.Config{Seed: 3, Samples: 20})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resume(bytes.NewReader(journal.Bytes())); err != nil {
		t.Fatal(err)
	}
	again, err := r.Predictors[1].Predict(ctx, []*block.Block{one})
	if err != nil {
		t.Fatal(err)
	}
	if b2.asked != 0 || !again[0].Outside {
		t.Errorf("resumed: asked %d blocks, prediction %+v: want 0 asked and outside", b2.asked, again[0])
	}
}

// TestResume: a campaign stopped after some batches and resumed from its
// journal ends with the discoveries of an uninterrupted one, and asks the
// predictors about no block again.
func TestResume(t *testing.T) {
	d, s := zenDomain(t)
	_, preds, _ := seededSetup(t, seededClasses[0])
	_ = s
	cfg := anica.Config{Seed: 4, Samples: 20, BatchSize: 20}
	run := func(c *anica.Campaign, blocks int) {
		if err := c.Run(context.Background(), anica.Budget{Blocks: blocks}); err != nil {
			t.Fatal(err)
		}
	}
	whole, err := anica.NewCampaign(d, preds, cfg)
	if err != nil {
		t.Fatal(err)
	}
	run(whole, 100)

	_, preds2, _ := seededSetup(t, seededClasses[0])
	var journal bytes.Buffer
	first, _ := anica.NewCampaign(d, preds2, cfg)
	if err := first.Journal(&journal, true); err != nil {
		t.Fatal(err)
	}
	run(first, 40)
	// A kill while writing leaves half a line.
	journal.WriteString(`{"kind":"predic`)

	_, preds3, _ := seededSetup(t, seededClasses[0])
	second, _ := anica.NewCampaign(d, preds3, cfg)
	n, err := second.Resume(bytes.NewReader(journal.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || second.Sampled != 40 {
		t.Fatalf("resumed %d batches, %d blocks; want 2, 40", n, second.Sampled)
	}
	cached := second.Predictors[0].Len()
	run(second, 100)
	if got, want := texts(second.Discoveries), texts(whole.Discoveries); !slices.Equal(got, want) {
		t.Errorf("resumed campaign found\n%v\nuninterrupted\n%v", got, want)
	}
	if second.Predictors[0].Asked != second.Predictors[0].Len()-cached {
		t.Errorf("asked %d blocks, but only %d were new", second.Predictors[0].Asked, second.Predictors[0].Len()-cached)
	}
	// Another configuration is refused.
	other, _ := anica.NewCampaign(d, preds3, anica.Config{Seed: 5})
	if _, err := other.Resume(bytes.NewReader(journal.Bytes())); err == nil || !strings.Contains(err.Error(), "Seed 4 in the journal, 5 now") {
		t.Errorf("resume with another seed: %v", err)
	}
}

func texts(ds []*anica.Discovery) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Block.Text())
	}
	return out
}

// TestDeadline: past its Deadline a campaign starts no new work: Run
// samples nothing, Soundness is NaN, and the coverage of the test set
// counts no block and says it was stopped.
func TestDeadline(t *testing.T) {
	d, s := zenDomain(t)
	c, err := anica.NewCampaign(d, []*anica.Cache{anica.NewCache(&counting{s: s}), anica.NewCache(&counting{s: s, fail: "vpavgb"})},
		anica.Config{Seed: 3, Samples: 20, TestSize: 500})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c.Deadline = time.Now().Add(-time.Second)
	if err := c.Run(ctx, anica.Budget{Blocks: 100}); err != nil || c.Sampled != 0 {
		t.Errorf("run past the deadline: %d blocks sampled, %v", c.Sampled, err)
	}
	if s, err := c.Soundness(ctx, anica.Top(1), 10, 0); !math.IsNaN(s) || err != nil {
		t.Errorf("soundness past the deadline: %v, %v", s, err)
	}
	cov, err := c.TestCoverage(ctx, nil, 1)
	if err != nil || !cov.Stopped || cov.Blocks != 0 || cov.Planned != 500 || !strings.Contains(cov.String(), "of 500 planned") {
		t.Errorf("coverage past the deadline: %v, %v", cov, err)
	}
	// Without it, the same campaign runs and covers the whole test set.
	c.Deadline = time.Time{}
	if err := c.Run(ctx, anica.Budget{Blocks: 100}); err != nil || c.Sampled != 100 {
		t.Errorf("run: %d blocks sampled, %v", c.Sampled, err)
	}
	cov, err = c.TestCoverage(ctx, c.Filter(c.Discoveries), 1)
	if err != nil || cov.Stopped || cov.Blocks != 500 || cov.Interesting == 0 || cov.Covered != cov.Interesting {
		t.Errorf("coverage: %v, %v", cov, err)
	}
}

// hanging answers like s, except that a batch holding a block with the
// mnemonic hang never returns (it ignores its context, as a stuck
// subprocess wrapper would).
type hanging struct {
	s    *sim.Simulator
	hang string
}

func (h *hanging) Name() string { return "hanging " + h.s.Name() }

func (h *hanging) PredictBlocks(ctx context.Context, bs []*block.Block) ([]float64, error) {
	for _, b := range bs {
		for _, in := range b.Insns {
			if in.Form.Mnemonic == h.hang {
				select {}
			}
		}
	}
	return h.s.PredictBlocks(ctx, bs)
}

// TestCacheTimeout: a predictor that never answers for one class of
// blocks is bounded by the Cache's Timeout. Those blocks are failures
// naming the limit, the other blocks of the same batch keep their
// answers, and a campaign against it finds the class as a crash instead
// of hanging.
func TestCacheTimeout(t *testing.T) {
	d, s := zenDomain(t)
	hang := &hanging{s: s, hang: "vpavgb"}
	c := anica.NewCache(hang)
	c.Timeout = 200 * time.Millisecond
	var blocks []*block.Block
	for _, src := range []string{"add rax, rbx", "vpavgb xmm1, xmm2, xmm3", "vpaddd xmm4, xmm5, xmm6"} {
		b, err := block.Parse(src, block.Intel)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, b)
	}
	want, err := s.PredictBlocks(t.Context(), blocks)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Predict(t.Context(), blocks)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Cycles != want[0] || got[2].Cycles != want[2] || got[0].Err != "" || got[2].Err != "" {
		t.Errorf("answered blocks: %v, want %v", got, want)
	}
	if !strings.Contains(got[1].Err, "did not answer within 200ms") || !math.IsNaN(got[1].Cycles) {
		t.Errorf("hanging block: %+v", got[1])
	}

	c = anica.NewCache(hang)
	c.Timeout = 20 * time.Millisecond
	camp, err := anica.NewCampaign(d, []*anica.Cache{anica.NewCache(s), c}, anica.Config{Seed: 3, Samples: 10, BatchSize: 10, Generalisations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := camp.Run(t.Context(), anica.Budget{Blocks: 30}); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, disc := range camp.Filter(camp.Discoveries) {
		if strings.Contains(disc.Block.Text(), "vpavgb") {
			found = true
		}
	}
	if camp.Sampled != 30 || !found {
		t.Errorf("campaign against a hanging predictor: %d sampled, discoveries %v", camp.Sampled, texts(camp.Discoveries))
	}
}

// brokenMachinery is a predictor whose machinery fails on every batch,
// as the host's does when its measurement worker cannot start.
type brokenMachinery struct{ calls int }

type machineryError struct{}

func (machineryError) Error() string        { return "worker did not start" }
func (machineryError) Infrastructure() bool { return true }

func (p *brokenMachinery) Name() string { return "broken" }

func (p *brokenMachinery) PredictBlocks(ctx context.Context, bs []*block.Block) ([]float64, error) {
	p.calls++
	return nil, fmt.Errorf("calibration: %w", machineryError{})
}

// TestCacheInfrastructure: an infrastructure failure of the predictor is
// no answer about any block. Predict ends with it after one call, instead
// of asking each block alone and caching the failure as the block's crash
// (which made every block interesting and took 10 s a block on the host).
func TestCacheInfrastructure(t *testing.T) {
	var blocks []*block.Block
	for _, src := range []string{"add rax, rbx", "vpaddd xmm4, xmm5, xmm6"} {
		b, err := block.Parse(src, block.Intel)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, b)
	}
	p := &brokenMachinery{}
	c := anica.NewCache(p)
	got, err := c.Predict(t.Context(), blocks)
	if !oracle.IsInfrastructure(err) || got != nil {
		t.Fatalf("Predict = %v, %v; want no predictions and the infrastructure error", got, err)
	}
	if !strings.Contains(err.Error(), "broken") || !strings.Contains(err.Error(), "worker did not start") {
		t.Errorf("error %q does not name the predictor and the cause", err)
	}
	if p.calls != 1 || c.Len() != 0 {
		t.Errorf("%d calls, %d answers cached; want 1 call and none cached", p.calls, c.Len())
	}
}

// TestTimeRunsOutInBatch: when a time budget ends after a batch's
// predictions, its interesting blocks are counted as unfinished, the
// batch is not journalled as done, and a resumed campaign runs it again
// from its start and finds what an uninterrupted campaign finds.
func TestTimeRunsOutInBatch(t *testing.T) {
	d, preds, _ := seededSetup(t, seededClasses[0])
	cfg := anica.Config{Seed: 4, Samples: 20, BatchSize: 50}
	whole, err := anica.NewCampaign(d, preds, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := whole.Run(t.Context(), anica.Budget{Blocks: 50}); err != nil {
		t.Fatal(err)
	}
	if whole.Interesting == 0 || len(whole.Discoveries) == 0 {
		t.Fatalf("seed %d: %d interesting blocks, %d discoveries; the test needs some", cfg.Seed, whole.Interesting, len(whole.Discoveries))
	}

	_, preds2, _ := seededSetup(t, seededClasses[0])
	var journal bytes.Buffer
	first, _ := anica.NewCampaign(d, preds2, cfg)
	if err := first.Journal(&journal, true); err != nil {
		t.Fatal(err)
	}
	// Predictions slower than the budget: the time ends in the batch.
	journalIt := preds2[0].OnNew
	preds2[0].OnNew = func(key string, p anica.Prediction) {
		journalIt(key, p)
		time.Sleep(2 * time.Millisecond)
	}
	if err := first.Run(t.Context(), anica.Budget{Duration: 20 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if first.Sampled != 50 || first.Interesting != whole.Interesting || first.Unfinished != whole.Interesting || len(first.Discoveries) != 0 {
		t.Errorf("time out in the batch: %d sampled, %d interesting, %d unfinished, %d discoveries; want 50, %d, %d, 0",
			first.Sampled, first.Interesting, first.Unfinished, len(first.Discoveries), whole.Interesting, whole.Interesting)
	}
	if strings.Contains(journal.String(), `"kind":"batch"`) {
		t.Errorf("the cut batch was journalled as done")
	}

	_, preds3, _ := seededSetup(t, seededClasses[0])
	second, _ := anica.NewCampaign(d, preds3, cfg)
	n, err := second.Resume(bytes.NewReader(journal.Bytes()))
	if err != nil || n != 0 {
		t.Fatalf("resumed %d batches, %v; want 0", n, err)
	}
	if err := second.Run(t.Context(), anica.Budget{Blocks: 50}); err != nil {
		t.Fatal(err)
	}
	if got, want := texts(second.Discoveries), texts(whole.Discoveries); !slices.Equal(got, want) || second.Unfinished != 0 {
		t.Errorf("resumed campaign found (%d unfinished)\n%v\nuninterrupted\n%v", second.Unfinished, got, want)
	}
	if second.Predictors[0].Hits == 0 {
		t.Errorf("the resumed batch asked its predictions again instead of taking them from the journal")
	}
}

// TestThresholdInRange: a relative threshold no difference of the
// predictors can exceed is refused (it would find crashes only); an
// absolute one in cycles is not bounded.
func TestThresholdInRange(t *testing.T) {
	d, preds, _ := seededSetup(t, seededClasses[0])
	if _, err := anica.NewCampaign(d, preds, anica.Config{Threshold: 2}); err == nil || !strings.Contains(err.Error(), "(0, 2)") {
		t.Errorf("relative threshold 2 of 2 predictors: %v, want an error naming the range (0, 2)", err)
	}
	for _, cfg := range []anica.Config{{Threshold: 1.9}, {Threshold: 5, Absolute: true}} {
		if _, err := anica.NewCampaign(d, preds, cfg); err != nil {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}
