package anica

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/machine"
)

// Config holds every parameter of a campaign. Its zero fields take the
// defaults of Ritter's thesis, Ch. 8, named at each field.
type Config struct {
	// Threshold is the interestingness threshold: a block is interesting
	// when its Score exceeds it (thesis §8.1.1; §8.2.2 uses a relative
	// difference of 0.5). With Absolute the score is the difference in
	// cycles (the Zen+ case study of §8.3.3 uses 2 cycles).
	Threshold float64
	Absolute  bool
	// Samples is the number of concrete blocks sampled from an abstract
	// block to check that it is interesting (§8.1.3, §8.2.2: 100), and
	// Ratio the fraction of them that must be interesting (§8.1.3: all,
	// 1.0).
	Samples int
	Ratio   float64
	// MinLength and MaxLength bound the length of the blocks sampled to
	// find inconsistencies (§8.2.2: at most 5; AnICA's reference
	// implementation draws 3 to 5).
	MinLength, MaxLength int
	// Generalisations is the number of generalisations, in random
	// expansion orders, of every minimised block (§8.2.2: 5).
	Generalisations int
	// BatchSize is the number of blocks sampled and predicted together
	// while looking for inconsistencies (AnICA's reference
	// implementation: 50).
	BatchSize int
	// EditDistance bounds the mnemonic's edit distance (§8.1.4, footnote
	// 9: 3).
	EditDistance int
	// TestSize and TestLength describe the random test set coverage is
	// measured on (§8.2.3: 10,000 blocks of 4 instructions).
	TestSize, TestLength int
	// Ordered requires a subsuming block's instructions to map to a
	// rotation of its order (Definition 8.7, condition C4; default true).
	// Unordered leaves C4 out, as the subsumption check of AnICA's
	// reference implementation does.
	Unordered bool
	// MaxDiscoveries ends a campaign after that many discoveries (0: no
	// limit; §8.2.3 stopped at about 150).
	MaxDiscoveries int
	// Seed makes the campaign deterministic.
	Seed uint64
}

// The defaults of Config (see there for their sources).
const (
	DefaultThreshold       = 0.5
	DefaultSamples         = 100
	DefaultRatio           = 1.0
	DefaultMinLength       = 3
	DefaultMaxLength       = 5
	DefaultGeneralisations = 5
	DefaultBatchSize       = 50
	DefaultEditDistance    = 3
	DefaultTestSize        = 10000
	DefaultTestLength      = 4
)

// WithDefaults returns c with its zero fields set to the defaults.
func (c Config) WithDefaults() Config {
	set := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	if c.Threshold == 0 {
		c.Threshold = DefaultThreshold
	}
	if c.Ratio == 0 {
		c.Ratio = DefaultRatio
	}
	set(&c.Samples, DefaultSamples)
	set(&c.MinLength, DefaultMinLength)
	set(&c.MaxLength, DefaultMaxLength)
	set(&c.Generalisations, DefaultGeneralisations)
	set(&c.BatchSize, DefaultBatchSize)
	set(&c.EditDistance, DefaultEditDistance)
	set(&c.TestSize, DefaultTestSize)
	set(&c.TestLength, DefaultTestLength)
	return c
}

// Check reports the first field of c (after WithDefaults) out of range.
func (c Config) Check() error {
	switch {
	case !(c.Threshold > 0) || math.IsInf(c.Threshold, 0):
		return fmt.Errorf("anica: threshold %v: must be > 0 and finite", c.Threshold)
	case !(c.Ratio > 0 && c.Ratio <= 1):
		return fmt.Errorf("anica: interesting ratio %v: must be in (0, 1]", c.Ratio)
	case c.Samples < 1:
		return fmt.Errorf("anica: samples per check %d: must be ≥ 1", c.Samples)
	case c.MinLength < 1 || c.MaxLength < c.MinLength:
		return fmt.Errorf("anica: block lengths %d..%d: need 1 ≤ min ≤ max", c.MinLength, c.MaxLength)
	case c.Generalisations < 1, c.BatchSize < 1, c.TestSize < 0, c.TestLength < 1, c.MaxDiscoveries < 0:
		return fmt.Errorf("anica: generalisations %d, batch size %d, test set %d×%d, max discoveries %d: must be positive",
			c.Generalisations, c.BatchSize, c.TestSize, c.TestLength, c.MaxDiscoveries)
	case c.EditDistance < 0:
		return fmt.Errorf("anica: edit distance %d: must be ≥ 0", c.EditDistance)
	}
	return nil
}

// Witness is a concrete block with each predictor's answer.
type Witness struct {
	Block       string       `json:"block"`
	Predictions []Prediction `json:"predictions"`
	Score       float64      `json:"score"`
}

// Decision is one step of a generalisation (thesis Figure 8.3): an
// expansion tried, whether the expanded block was interesting, and a
// sample that shows it — for a rejection, a block that is not
// interesting.
type Decision struct {
	Expansion string   `json:"expansion"`
	Accepted  bool     `json:"accepted"`
	Unchecked bool     `json:"unchecked,omitempty"` // applied without sampling: same forms
	Example   *Witness `json:"example,omitempty"`
}

// Discovery is a generalised inconsistency: an abstract block all of
// whose sampled blocks were interesting.
type Discovery struct {
	Block *Block `json:"block"`
	// Origin is the minimised block it was generalised from.
	Origin Witness `json:"origin"`
	// Witnesses are samples of the final check.
	Witnesses []Witness `json:"witnesses"`
	// Score is the mean interestingness of the samples of the final check
	// (thesis §8.1.7; +Inf when a predictor failed).
	Score float64 `json:"score"`
	// Generality is the fewest forms any of its abstract instructions
	// stands for (§8.1.7).
	Generality int        `json:"generality"`
	Decisions  []Decision `json:"decisions"`
	Batch      int        `json:"batch"`
	// Stopped says the campaign's Deadline ended the generalisation: the
	// abstract block passed every check made, but expansions were left
	// untried, so it may not be maximal (Theorem 8.5).
	Stopped bool `json:"stopped,omitempty"`
}

// Campaign finds and generalises inconsistencies between predictors
// (thesis Algorithm 8.1).
type Campaign struct {
	Domain     *Domain
	Predictors []*Cache
	Config     Config
	// Discoveries found so far, in the order found.
	Discoveries []*Discovery
	// Batches done, blocks Sampled and found Interesting so far, and the
	// time spent in Run (over all runs of a resumed campaign).
	Batches, Sampled, Interesting int
	Elapsed                       time.Duration
	// Unfinished counts the interesting blocks of the last batch that
	// the Deadline or a time budget left without minimising and
	// generalising them. A batch cut short so (Unfinished > 0, or a
	// generalisation Stopped) counts in this run's numbers but is not
	// passed to OnBatch: a resumed campaign runs it again from its start
	// (its predictions come from the journal), as it would have run.
	Unfinished int
	// Progress, when set, is called after every batch.
	Progress func(c *Campaign)
	// OnBatch, when set, is called after every batch with the discoveries
	// it added (to journal them).
	OnBatch func(batch int, sampled, interesting int, found []*Discovery) error
	// Deadline, when not zero, is when the campaign starts no new work:
	// Run ends (its batch counts the blocks it sampled without
	// generalising those left), a generalisation ends with the block it
	// has reached (Discovery.Stopped), Soundness returns NaN and Coverage
	// counts the test blocks predicted by then (Coverage.Stopped). The
	// work under way when it passes — one prediction of a batch of
	// blocks — is finished.
	Deadline time.Time
}

// past reports whether the Deadline has passed.
func (c *Campaign) past() bool { return !c.Deadline.IsZero() && time.Now().After(c.Deadline) }

// NewCampaign checks cfg and returns a campaign over d comparing the
// predictors (at least one: a single predictor finds its crashes, §8.3.2).
func NewCampaign(d *Domain, preds []*Cache, cfg Config) (*Campaign, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if d == nil || len(preds) == 0 {
		return nil, errors.New("anica: a domain and at least one predictor are needed")
	}
	if n := float64(len(preds)); !cfg.Absolute && n > 1 && cfg.Threshold >= n {
		// (hi - lo) over the mean of n answers is at most n.
		return nil, fmt.Errorf("anica: threshold %v: the relative difference of %d predictors is at most %d, so no block but a crash could be interesting; give a threshold in (0, %d)",
			cfg.Threshold, len(preds), len(preds), len(preds))
	}
	return &Campaign{Domain: d, Predictors: preds, Config: cfg}, nil
}

// Budget ends a campaign: after Blocks sampled blocks or Duration spent
// in Run, whichever comes first (zero: no limit of that kind). Both count
// from the campaign's start, so that a resumed campaign ends where the
// uninterrupted one would have.
type Budget struct {
	Blocks   int
	Duration time.Duration
}

// rng returns the random source of one stream of the campaign.
func (c *Campaign) rng(stream, n uint64) *rand.Rand {
	return rand.New(rand.NewPCG(c.Config.Seed^0x616e696361, stream<<40|n))
}

const (
	streamDiscover = 1
	streamTest     = 2
	streamSound    = 3
)

// predict asks every predictor about blocks.
func (c *Campaign) predict(ctx context.Context, blocks []*block.Block) ([][]Prediction, error) {
	per := make([][]Prediction, len(c.Predictors))
	for k, p := range c.Predictors {
		ps, err := p.Predict(ctx, blocks)
		if err != nil {
			return nil, err
		}
		per[k] = ps
	}
	out := make([][]Prediction, len(blocks))
	for i := range blocks {
		for k := range c.Predictors {
			out[i] = append(out[i], per[k][i])
		}
	}
	return out, nil
}

func (c *Campaign) score(ps []Prediction) float64 { return Score(ps, c.Config.Absolute) }

func (c *Campaign) interesting(s float64) bool { return s > c.Config.Threshold }

// sampleN draws up to n blocks from γ(a), in at most 2n attempts (as
// AnICA's reference implementation does).
func (c *Campaign) sampleN(a *Block, n int, rng *rand.Rand) []*block.Block {
	var out []*block.Block
	for try := 0; try < 2*n && len(out) < n; try++ {
		if b, err := c.Domain.Sample(a, rng); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// Check samples Config.Samples blocks from γ(a) and reports whether the
// required ratio of them is interesting (the sampled check of §8.1.3),
// with the samples and a sample that is not interesting, if any. A block
// that cannot be sampled is not interesting. Samples outside what a
// predictor can be asked (Outside) are left out of the check and of the
// samples returned; with none left the block is not interesting.
func (c *Campaign) Check(ctx context.Context, a *Block, rng *rand.Rand) (ok bool, all []Witness, counter *Witness, err error) {
	blocks := c.sampleN(a, c.Config.Samples, rng)
	if len(blocks) < c.Config.Samples {
		return false, nil, nil, nil
	}
	preds, err := c.predict(ctx, blocks)
	if err != nil {
		return false, nil, nil, err
	}
	good, asked := 0, 0
	for i, b := range blocks {
		if Outside(preds[i]) {
			continue // not a sample the predictors can be compared on
		}
		asked++
		w := Witness{Block: blockKey(b), Predictions: preds[i], Score: c.score(preds[i])}
		all = append(all, w)
		if c.interesting(w.Score) {
			good++
		} else if counter == nil {
			counter = &all[len(all)-1]
		}
	}
	if asked == 0 {
		return false, nil, nil, nil
	}
	return float64(good) >= c.Config.Ratio*float64(asked), all, counter, nil
}

// Minimize removes instructions from an interesting block, one pass in
// random order, each removal kept when the block stays interesting
// (thesis Algorithm 8.1, line 6); the last instruction stays.
func (c *Campaign) Minimize(ctx context.Context, b *block.Block, rng *rand.Rand) (*block.Block, []Prediction, error) {
	preds, err := c.predict(ctx, []*block.Block{b})
	if err != nil {
		return nil, nil, err
	}
	cur, curP := b, preds[0]
	for _, i := range rng.Perm(len(b.Insns)) {
		if len(cur.Insns) == 1 {
			break
		}
		// i indexes the original block; find it in cur.
		at := slices.IndexFunc(cur.Insns, func(in block.Insn) bool { return in.Line == b.Insns[i].Line })
		if at < 0 {
			continue
		}
		try := &block.Block{Insns: slices.Delete(slices.Clone(cur.Insns), at, at+1)}
		p, err := c.predict(ctx, []*block.Block{try})
		if err != nil {
			return nil, nil, err
		}
		if c.interesting(c.score(p[0])) {
			cur, curP = try, p[0]
		}
	}
	return renumber(cur), curP, nil
}

// renumber gives the instructions lines 1…n.
func renumber(b *block.Block) *block.Block {
	n := &block.Block{Insns: slices.Clone(b.Insns)}
	for i := range n.Insns {
		n.Insns[i].Line = i + 1
	}
	return n
}

// Generalize generalises a concrete interesting block (thesis Algorithm
// 8.2): starting from β(b), it tries the expansions in random order,
// keeps each whose result passes the sampled check and never retries a
// rejected one. An expansion that leaves the forms an abstract
// instruction stands for unchanged is applied without sampling (the
// check could not differ). It returns nil when β(b) itself fails the
// check or the Deadline has passed before it is checked; a Deadline
// passing during the generalisation ends it (Discovery.Stopped).
func (c *Campaign) Generalize(ctx context.Context, b *block.Block, rng *rand.Rand) (*Discovery, error) {
	a, err := c.Domain.Beta(b)
	if err != nil || c.past() {
		return nil, err
	}
	ok, ws, _, err := c.Check(ctx, a, rng)
	if err != nil || !ok {
		return nil, err
	}
	d := &Discovery{Witnesses: ws}
	rejected := map[string]bool{}
	for {
		var avail []Expansion
		for _, e := range c.Domain.Expansions(a) {
			if !rejected[c.Domain.Describe(a, e)] {
				avail = append(avail, e)
			}
		}
		if len(avail) == 0 {
			break
		}
		if c.past() {
			d.Stopped = true
			break
		}
		e := avail[rng.IntN(len(avail))]
		desc := c.Domain.Describe(a, e)
		t := c.Domain.Apply(a, e)
		if e.Alias < 0 && slices.Equal(c.Domain.Feasible(a.Insns[e.Insn]), c.Domain.Feasible(t.Insns[e.Insn])) {
			d.Decisions = append(d.Decisions, Decision{Expansion: desc, Accepted: true, Unchecked: true})
			a = t
			continue
		}
		ok, ws, counter, err := c.Check(ctx, t, rng)
		if err != nil {
			return nil, err
		}
		dec := Decision{Expansion: desc, Accepted: ok}
		if ok {
			a, d.Witnesses = t, ws
			if len(ws) > 0 {
				dec.Example = &ws[0]
			}
		} else {
			rejected[desc] = true
			dec.Example = counter
		}
		d.Decisions = append(d.Decisions, dec)
	}
	d.Block = a
	c.finish(d)
	return d, nil
}

// finish sets a discovery's score and generality.
func (c *Campaign) finish(d *Discovery) {
	sum := 0.0
	for _, w := range d.Witnesses {
		sum += w.Score
	}
	if len(d.Witnesses) > 0 {
		d.Score = sum / float64(len(d.Witnesses))
	}
	d.Generality = math.MaxInt
	for _, in := range d.Block.Insns {
		d.Generality = min(d.Generality, len(c.Domain.Feasible(in)))
	}
	if len(d.Witnesses) > 3 {
		d.Witnesses = d.Witnesses[:3]
	}
}

// Run continues the campaign until the budget, the Deadline,
// Config.MaxDiscoveries or ctx ends it (thesis Algorithm 8.1). The end
// of a time budget or the Deadline also ends the generalisation under
// way (Discovery.Stopped). Every batch samples
// Config.BatchSize blocks from ⊤, predicts them, and minimises and
// generalises each interesting block not subsumed by a discovery. Batches
// are deterministic given the seed and the batch number, so that a
// campaign resumed from its journal continues as it would have. Run
// returns ctx's error when ctx ends it.
func (c *Campaign) Run(ctx context.Context, budget Budget) error {
	start, before := time.Now(), c.Elapsed
	for {
		c.Elapsed = before + time.Since(start)
		if budget.Blocks > 0 && c.Sampled >= budget.Blocks ||
			budget.Duration > 0 && c.Elapsed >= budget.Duration || c.past() ||
			c.Config.MaxDiscoveries > 0 && len(c.Discoveries) >= c.Config.MaxDiscoveries {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		n := c.Config.BatchSize
		if budget.Blocks > 0 {
			n = min(n, budget.Blocks-c.Sampled)
		}
		deadline := c.Deadline
		if budget.Duration > 0 {
			if d := start.Add(budget.Duration - before); deadline.IsZero() || d.Before(deadline) {
				deadline = d
			}
		}
		saved := c.Deadline
		c.Deadline = deadline
		found, interesting, unfinished, err := c.batch(ctx, c.Batches, n, deadline)
		c.Deadline = saved
		if err != nil {
			return err
		}
		c.Batches++
		c.Elapsed = before + time.Since(start)
		c.Sampled += n
		c.Interesting += interesting
		c.Discoveries = append(c.Discoveries, found...)
		c.Unfinished = unfinished
		cut := unfinished > 0 || slices.ContainsFunc(found, func(d *Discovery) bool { return d.Stopped })
		if c.OnBatch != nil && !cut {
			if err := c.OnBatch(c.Batches-1, n, interesting, found); err != nil {
				return err
			}
		}
		if c.Progress != nil {
			c.Progress(c)
		}
	}
}

// batch samples and predicts n blocks and minimises and generalises the
// interesting ones; after deadline (when not zero) it counts the rest
// without generalising them (unfinished), so that a time budget is kept
// within a batch too.
func (c *Campaign) batch(ctx context.Context, k, n int, deadline time.Time) (found []*Discovery, interesting, unfinished int, err error) {
	rng := c.rng(streamDiscover, uint64(k))
	var blocks []*block.Block
	for len(blocks) < n {
		length := c.Config.MinLength + rng.IntN(c.Config.MaxLength-c.Config.MinLength+1)
		if b, err := c.Domain.Sample(Top(length), rng); err == nil {
			blocks = append(blocks, b)
		}
	}
	preds, err := c.predict(ctx, blocks)
	if err != nil {
		return nil, 0, 0, err
	}
	known := slices.Clone(c.Discoveries)
	for i, b := range blocks {
		if !c.interesting(c.score(preds[i])) {
			continue
		}
		interesting++
		if c.Config.MaxDiscoveries > 0 && len(known) >= c.Config.MaxDiscoveries {
			continue
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			unfinished++
			continue
		}
		m, mp, err := c.Minimize(ctx, b, rng)
		if err != nil {
			return nil, 0, 0, err
		}
		beta, err := c.Domain.Beta(m)
		if err != nil {
			return nil, 0, 0, err
		}
		if c.subsumedBy(known, beta) {
			continue
		}
		origin := Witness{Block: blockKey(m), Predictions: mp, Score: c.score(mp)}
		var mine []*Discovery
		for range c.Config.Generalisations {
			d, err := c.Generalize(ctx, m, rng)
			if err != nil {
				return nil, 0, 0, err
			}
			if d == nil {
				break // β(m) itself is not uniformly interesting
			}
			if c.subsumedBy(mine, d.Block) {
				continue
			}
			mine = slices.DeleteFunc(mine, func(o *Discovery) bool { return c.Subsumes(d.Block, o.Block) })
			d.Origin, d.Batch = origin, k
			mine = append(mine, d)
		}
		known = append(known, mine...)
		found = append(found, mine...)
	}
	return found, interesting, unfinished, nil
}

func (c *Campaign) subsumedBy(ds []*Discovery, a *Block) bool {
	for _, d := range ds {
		if c.Subsumes(d.Block, a) {
			return true
		}
	}
	return false
}

// Subsumes reports whether general subsumes specific (thesis Definition
// 8.7): an injective map of general's instructions into specific's with
// every image at least as specific (C1, C2), general's aliasing
// constraints present in specific on the mapped operands (C3) and, unless
// Config.Unordered, the images in a rotation of general's order (C4).
// specific may have more instructions.
func (c *Campaign) Subsumes(general, specific *Block) bool {
	n, m := len(general.Insns), len(specific.Insns)
	if n > m {
		return false
	}
	d := c.Domain
	can := make([][]bool, n)
	for i, gi := range general.Insns {
		can[i] = make([]bool, m)
		g := d.Feasible(gi)
		for j, sj := range specific.Insns {
			can[i][j] = subsetInts(d.Feasible(sj), g)
		}
	}
	alias := map[[2]OpRef]bool{}
	for _, a := range specific.Alias {
		alias[[2]OpRef{a.A, a.B}] = a.Must
	}
	mapping := make([]int, n)
	used := make([]bool, m)
	var try func(i int) bool
	try = func(i int) bool {
		if i == n {
			return c.checkMapped(general, mapping, alias)
		}
		for j := range m {
			if used[j] || !can[i][j] {
				continue
			}
			mapping[i], used[j] = j, true
			if try(i + 1) {
				return true
			}
			used[j] = false
		}
		return false
	}
	return try(0)
}

func (c *Campaign) checkMapped(general *Block, mapping []int, alias map[[2]OpRef]bool) bool {
	for _, a := range general.Alias {
		p := OpRef{mapping[a.A.Insn], a.A.Op}
		q := OpRef{mapping[a.B.Insn], a.B.Op}
		if q.less(p) {
			p, q = q, p
		}
		must, ok := alias[[2]OpRef{p, q}]
		if !ok || must != a.Must {
			return false
		}
	}
	if c.Config.Unordered || len(mapping) < 2 {
		return true
	}
	descents := 0
	for i := range mapping {
		if mapping[(i+1)%len(mapping)] < mapping[i] {
			descents++
		}
	}
	return descents <= 1
}

func subsetInts(sub, set []int) bool {
	for _, x := range sub {
		if _, ok := slices.BinarySearch(set, x); !ok {
			return false
		}
	}
	return true
}

// SubsumesConcrete reports whether discovery block a subsumes the
// concrete block b, through β(b) (Definition 8.7).
func (c *Campaign) SubsumesConcrete(a *Block, b *block.Block) bool {
	beta, err := c.Domain.Beta(b)
	return err == nil && c.Subsumes(a, beta)
}

// Filter returns the discoveries no other discovery subsumes (thesis
// Algorithm 8.1, last line); of two that subsume each other, the first.
func (c *Campaign) Filter(ds []*Discovery) []*Discovery {
	var out []*Discovery
	for i, d := range ds {
		sub := false
		for j, o := range ds {
			if i != j && c.Subsumes(o.Block, d.Block) && (j < i || !c.Subsumes(d.Block, o.Block)) {
				sub = true
				break
			}
		}
		if !sub {
			out = append(out, d)
		}
	}
	return out
}

// Rank sorts discoveries by interestingness (mean score, failures first),
// then by generality (thesis §8.1.7), most general first.
func Rank(ds []*Discovery) {
	slices.SortStableFunc(ds, func(a, b *Discovery) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		case a.Generality > b.Generality:
			return -1
		case a.Generality < b.Generality:
			return 1
		}
		return 0
	})
}

// Supported returns the domain restricted to the forms every predictor
// supports: a block of one instruction of the form gets a positive
// prediction from each (thesis §8.2.2, footnote 20), so that a campaign
// does not rediscover that a predictor lacks a form. The forms dropped
// are added to Excluded with the reason.
func Supported(ctx context.Context, d *Domain, preds []*Cache, seed uint64) (*Domain, error) {
	rng := rand.New(rand.NewPCG(seed, 0x737570))
	var blocks []*block.Block
	var forms []string
	why := map[string]string{}
	for _, f := range d.forms {
		one := &Block{Insns: []Insn{d.betaInsn(d.byKey[f.Key()])}}
		b, err := d.Sample(one, rng)
		if err != nil {
			why[f.Key()] = err.Error()
			continue
		}
		blocks = append(blocks, b)
		forms = append(forms, f.Key())
	}
	for _, p := range preds {
		ps, err := p.Predict(ctx, blocks)
		if err != nil {
			return nil, err
		}
		for i, r := range ps {
			if _, bad := why[forms[i]]; bad {
				continue
			}
			switch {
			case r.Err != "":
				why[forms[i]] = p.Name() + ": " + r.Err
			case !(r.Cycles > 0):
				why[forms[i]] = fmt.Sprintf("%s: predicts %v cycles", p.Name(), r.Cycles)
			}
		}
	}
	nd, err := d.Restrict(func(f isa.Form) bool { _, bad := why[f.Key()]; return !bad })
	if err != nil {
		return nil, err
	}
	for _, f := range d.forms {
		if w, bad := why[f.Key()]; bad {
			nd.Excluded = append(nd.Excluded, f.Key()+": "+w)
		}
	}
	return nd, nil
}

// MachineForms returns the forms a machine's port mapping maps, in its
// order: the universe of a campaign with a simulator of that machine.
func MachineForms(m *machine.Machine) ([]isa.Form, error) {
	var out []isa.Form
	for _, name := range m.Mapping.Instructions() {
		f, err := isa.ParseScheme(name)
		if err != nil {
			return nil, fmt.Errorf("anica: machine %s: %w", m.Name, err)
		}
		out = append(out, f)
	}
	return out, nil
}
