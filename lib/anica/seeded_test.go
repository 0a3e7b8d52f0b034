package anica_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/anica"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/sim"
)

// seededClass is a class of forms whose port usage one of two otherwise
// identical simulators changes.
type seededClass struct {
	name  string
	in    func(isa.Form) bool
	usage string // the changed port usage of every form of the class
}

var seededClasses = []seededClass{
	{"memory-operand add", func(f isa.Form) bool {
		return f.Mnemonic == "add" && (f.ReadsMemory() || f.WritesMemory())
	}, "24*p9"},
	{"vpmullw", func(f isa.Form) bool { return f.Mnemonic == "vpmullw" }, "24*p0"},
}

// seededSetup returns the domain over the zenplus-like machine's forms and
// two caches: the machine's simulator and one of a copy whose class forms
// have the changed usage.
func seededSetup(t testing.TB, cl seededClass) (*anica.Domain, []*anica.Cache, []string) {
	t.Helper()
	m, err := machine.Lookup(machine.ZenPlusLikeName)
	if err != nil {
		t.Fatal(err)
	}
	forms, err := anica.MachineForms(m)
	if err != nil {
		t.Fatal(err)
	}
	changed := *m
	changed.Name = m.Name + " (" + cl.name + " changed)"
	changed.Mapping = m.Mapping.Clone()
	var class []string
	for _, f := range forms {
		if cl.in(f) {
			class = append(class, f.Key())
			if err := changed.Mapping.SetUsage(f.Key(), cl.usage); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(class) == 0 {
		t.Fatalf("no form of class %s", cl.name)
	}
	a, err := sim.New(m, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := sim.New(&changed, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := anica.NewDomain(forms, anica.DefaultEditDistance)
	if err != nil {
		t.Fatal(err)
	}
	return d, []*anica.Cache{anica.NewCache(a), anica.NewCache(b)}, class
}

// seededResult is the outcome of one seeded campaign.
type seededResult struct {
	discoveries, inClass, exact int
	recalled, classSize         int
	soundness                   []float64
	sampled                     int
	elapsed                     time.Duration
}

func (r seededResult) precision() float64 { return float64(r.inClass) / float64(r.discoveries) }
func (r seededResult) recall() float64    { return float64(r.recalled) / float64(r.classSize) }

// runSeeded runs a campaign of budget blocks and scores it: a discovery
// is in the class when one of its abstract instructions stands only for
// forms of the class (every block it describes has one); a class form is
// recalled when a single instruction of it is subsumed by a discovery.
func runSeeded(t testing.TB, cl seededClass, seed uint64, budget, samples int) seededResult {
	t.Helper()
	start := time.Now()
	d, preds, class := seededSetup(t, cl)
	c, err := anica.NewCampaign(d, preds, anica.Config{Seed: seed, Samples: samples})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Run(ctx, anica.Budget{Blocks: budget}); err != nil {
		t.Fatal(err)
	}
	ds := c.Filter(c.Discoveries)
	r := seededResult{discoveries: len(ds), classSize: len(class), sampled: c.Sampled}
	classIdx := map[int]bool{}
	for i, f := range d.Forms() {
		if slices.Contains(class, f.Key()) {
			classIdx[i] = true
		}
	}
	for k, disc := range ds {
		in, exact := false, false
		for _, ai := range disc.Block.Insns {
			fs := d.Feasible(ai)
			all := len(fs) > 0
			for _, i := range fs {
				all = all && classIdx[i]
			}
			in = in || all
			exact = exact || all && len(fs) == len(classIdx) && len(disc.Block.Insns) == 1
		}
		if in {
			r.inClass++
		} else {
			t.Logf("seed %d: discovery outside the class:\n%s", seed, disc.Block.Text())
		}
		if exact {
			r.exact++
		}
		s, err := c.Soundness(ctx, disc.Block, 200, uint64(k))
		if err != nil {
			t.Fatal(err)
		}
		r.soundness = append(r.soundness, s)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := range d.Forms() {
		if !classIdx[i] {
			continue
		}
		b, err := d.Sample(&anica.Block{Insns: []anica.Insn{exactInsn(d, i)}}, rng)
		if err != nil {
			t.Fatal(err)
		}
		for _, disc := range ds {
			if c.SubsumesConcrete(disc.Block, b) {
				r.recalled++
				break
			}
		}
	}
	r.elapsed = time.Since(start)
	return r
}

// exactInsn returns the abstract instruction of form i alone.
func exactInsn(d *anica.Domain, i int) anica.Insn {
	in := anica.Top(1).Insns[0]
	in[anica.FeatForm] = anica.Value{Str: d.Forms()[i].Key()}
	return in
}

// TestSeeded is the seeded check: two simulators that differ exactly in
// the port usage of one class of forms. AnICA must report that class and
// nothing else, and fresh samples of every discovery must be interesting
// again. The full check (5 seeds per class, the thesis' 100 samples per
// check) runs with ANICA_SEEDED=1 and writes bench/results/anica-seeded.txt;
// the short one runs one seed with 30 samples per check.
func TestSeeded(t *testing.T) {
	seeds, samples, budget := []uint64{1}, 30, 100
	full := os.Getenv("ANICA_SEEDED") != ""
	if full {
		seeds, samples, budget = []uint64{1, 2, 3, 4, 5}, anica.DefaultSamples, 300
	}
	out := fmt.Sprintf("AnICA seeded check: zenplus-like simulator vs a copy with one class changed; %d sampled blocks per campaign, %d samples per check\n", budget, samples)
	for _, cl := range seededClasses {
		for _, seed := range seeds {
			r := runSeeded(t, cl, seed, budget, samples)
			if r.discoveries == 0 {
				t.Errorf("%s, seed %d: no discovery", cl.name, seed)
				continue
			}
			if r.inClass != r.discoveries {
				t.Errorf("%s, seed %d: %d of %d discoveries outside the class", cl.name, seed, r.discoveries-r.inClass, r.discoveries)
			}
			if r.recalled != r.classSize {
				t.Errorf("%s, seed %d: %d of %d class forms covered", cl.name, seed, r.recalled, r.classSize)
			}
			minSound := 1.0
			for _, s := range r.soundness {
				minSound = min(minSound, s)
			}
			if minSound < 0.95 {
				t.Errorf("%s, seed %d: soundness %v, want ≥ 0.95 for every discovery", cl.name, seed, r.soundness)
			}
			line := fmt.Sprintf("%-20s seed %d: %d discoveries, precision %.2f, recall %.2f (%d/%d forms), exactly the class: %d, soundness min %.3f over %d, %s\n",
				cl.name, seed, r.discoveries, r.precision(), r.recall(), r.recalled, r.classSize, r.exact, minSound, len(r.soundness), r.elapsed.Round(time.Millisecond))
			out += line
			t.Log(line)
		}
	}
	if full {
		if err := os.WriteFile("../../bench/results/anica-seeded.txt", []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_ = strconv.Itoa
}
