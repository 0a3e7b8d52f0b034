package measure

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

// TestInPasses drives the pass protocol with scripted timings: an item is
// final once its two fastest passes agree (after at least three), or after
// the sixth; its value is the fastest pass; a failing item is visited no
// more; every pass visits each pending item once, in a new order.
func TestInPasses(t *testing.T) {
	script := [][]float64{
		{1.3, 1.0, 1.005},              // agrees after the third pass
		{1, 1, 1, 1, 1, 1},             // agrees at once, but three passes at least
		{1.0, 1.5, 1.4, 1.3, 1.2, 1.1}, // never agrees: six passes, spread 10 %
		{2, 1.5, 1.7, 1.505, 9, 9},     // agrees in the fourth pass
		{1, math.NaN(), 1, 1, 1, 1},    // fails in its second pass
	}
	const fillers = 20 // items that agree, to see the orders change
	n := len(script) + fillers
	visits := make([]int, n)
	var orders [][]int
	var order []int
	pass := 0
	timeOne := func(i int) (Timing, error) {
		if visits[i] != pass {
			// A new pass starts when an item is visited again.
			pass++
			orders, order = append(orders, order), nil
		}
		order = append(order, i)
		v := 1.0
		if i < len(script) {
			v = script[i][visits[i]]
		}
		visits[i]++
		if math.IsNaN(v) {
			return Timing{}, errors.New("the worker died")
		}
		return Timing{Cycles: v, Min: v * 0.99, Max: v * 1.02}, nil
	}
	type outcome struct {
		ts  []Timing
		err error
	}
	got := map[int]outcome{}
	final := func(i int, ts []Timing, err error) {
		if _, twice := got[i]; twice {
			t.Errorf("item %d final twice", i)
		}
		got[i] = outcome{slices.Clone(ts), err}
	}
	if err := inPasses(context.Background(), n, 3, 6, 0.01, 1, timeOne, final); err != nil {
		t.Fatal(err)
	}
	orders = append(orders, order)
	wantPasses := []int{3, 3, 6, 4, 1}
	for i, w := range wantPasses {
		o := got[i]
		if len(o.ts) != w {
			t.Errorf("item %d: %d passes, want %d", i, len(o.ts), w)
		}
		if (o.err != nil) != (i == 4) {
			t.Errorf("item %d: error %v", i, o.err)
		}
	}
	for i := len(script); i < n; i++ {
		if len(got[i].ts) != 3 || got[i].err != nil {
			t.Errorf("filler %d: %d passes, %v", i, len(got[i].ts), got[i].err)
		}
	}
	if len(orders) != 6 || len(orders[0]) != n || len(orders[1]) != n || len(orders[2]) != n-1 || len(orders[3]) != 2 || len(orders[5]) != 1 {
		t.Fatalf("pass sizes: %v", orders)
	}
	if slices.Equal(orders[0], orders[1]) || slices.Equal(orders[1], orders[2]) {
		t.Errorf("two passes in the same order: %v", orders[:3])
	}
	m, err := fromPasses(portmap.NewExperiment("a"), got[2].ts)
	if err != nil || m.Cycles != 1.0 || m.Passes != 6 || math.Abs(m.Spread-0.1) > 1e-12 ||
		m.Min != 0.99 || math.Abs(m.Max-1.5*1.02) > 1e-12 {
		t.Errorf("summary of the six passes: %+v, %v", m, err)
	}
	m, _ = fromPasses(portmap.NewExperiment("a"), got[0].ts)
	if m.Cycles != 1.0 || math.Abs(m.Spread-0.005) > 1e-12 {
		t.Errorf("summary of 1.3, 1.0, 1.005: %+v", m)
	}

	// Cancelled: inPasses stops and says so.
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err = inPasses(ctx, 10, 3, 6, 0.01, 1, func(int) (Timing, error) {
		if calls++; calls == 5 {
			cancel()
		}
		return Timing{Cycles: 1}, nil
	}, func(int, []Timing, error) {})
	if !errors.Is(err, context.Canceled) || calls != 5 {
		t.Errorf("cancelled after 5 timings: %d timings, %v", calls, err)
	}
}

// TestContendedPasses checks that a pass during which another tenant used
// the core's ports (contention above MaxContention) neither counts towards
// the agreement nor becomes the value while uncontended passes exist.
func TestContendedPasses(t *testing.T) {
	type pass struct{ v, contention float64 }
	script := [][]pass{
		{{1.5, 0.6}, {1.0, 0}, {1.01, 0.02}},                                        // a slow contended pass: 1.0 after 3
		{{1.5, 0.6}, {1.5, 0.5}, {1.0, 0}, {1.005, 0}},                              // two contended passes agree: not final
		{{1.2, 0.3}, {1.3, 0.3}, {1.3, 0.3}, {1.2, 0.3}, {1.2, 0.3}, {1.2, 0.3}},    // all contended: the fastest
		{{0.25, 0.3}, {0.26, 0.3}, {0.5, 0}, {0.25, 0.3}, {0.25, 0.3}, {0.25, 0.3}}, // one uncontended pass agrees with nothing
	}
	got := make([][]Timing, len(script))
	seen := make([]int, len(script))
	err := inPasses(context.Background(), len(script), 3, 6, 0.02, 1, func(i int) (Timing, error) {
		p := script[i][seen[i]]
		seen[i]++
		return Timing{Cycles: p.v, Min: p.v, Max: p.v, Contention: p.contention}, nil
	}, func(i int, ts []Timing, err error) {
		if err != nil {
			t.Fatal(err)
		}
		got[i] = slices.Clone(ts)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		passes             int
		cycles, contention float64
	}{{3, 1.0, 0}, {4, 1.0, 0}, {6, 1.2, 0.3}, {6, 0.5, 0}}
	for i, w := range want {
		m, err := fromPasses(portmap.NewExperiment("a"), got[i])
		if err != nil || len(got[i]) != w.passes || m.Cycles != w.cycles || m.Contention != w.contention {
			t.Errorf("item %d: %d passes, %v cycles, contention %v (%v); want %d, %v, %v", i, len(got[i]), m.Cycles, m.Contention, err, w.passes, w.cycles, w.contention)
		}
		if i == 3 && math.Abs(m.Spread-0.48) > 1e-9 {
			t.Errorf("a lone uncontended pass of 0.5 among contended ones of 0.25–0.26: spread %v, want 0.48", m.Spread)
		}
	}
}

// TestInPassesInterrupted: an interrupt makes final every item that has
// its minimum number of passes (the values its passes gave), and no item
// with fewer; nothing is made final twice.
func TestInPassesInterrupted(t *testing.T) {
	const n, minPasses = 6, 2
	for _, stopAfter := range []int{n + 3, 2*n + 2} { // in the second pass; in the third
		ctx, cancel := context.WithCancel(t.Context())
		calls := 0
		visits := make([]int, n)
		timeOne := func(i int) (Timing, error) {
			calls++
			if calls > stopAfter {
				cancel()
				return Timing{}, ctx.Err()
			}
			visits[i]++
			// Passes that never agree: 1.0, 1.5, 2.0, …
			return Timing{Cycles: 1 + 0.5*float64(visits[i]-1)}, nil
		}
		finals := map[int]int{}
		err := inPasses(ctx, n, minPasses, 6, 0.01, 1, timeOne, func(i int, ts []Timing, err error) {
			finals[i]++
			if err != nil || len(ts) < minPasses {
				t.Errorf("stop after %d: item %d final with %d timings, %v", stopAfter, i, len(ts), err)
			}
		})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("stop after %d: %v", stopAfter, err)
		}
		for i := range n {
			want := 0
			if visits[i] >= minPasses {
				want = 1
			}
			if finals[i] != want {
				t.Errorf("stop after %d: item %d with %d passes final %d times, want %d", stopAfter, i, visits[i], finals[i], want)
			}
		}
		if stopAfter > 2*n && len(finals) != n {
			t.Errorf("stop in the third pass: %d of %d items kept", len(finals), n)
		}
	}
}
