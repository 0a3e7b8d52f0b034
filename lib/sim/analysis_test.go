package sim

import (
	"context"
	"strings"
	"testing"
)

// On the latency-bound FMA loop the time is linear in the FMA's latency
// and flat in the load ports' throughput.
func TestSensitivityFMA(t *testing.T) {
	s := newSim(t, Options{})
	b := parse(t, fmaLoop)
	key := b.Insns[0].Form.Key()
	changes := []Change{
		{Form: key, Latency: 0.5}, {Form: key, Latency: 2}, {Form: key, LatencyAdd: -1}, {Form: key, LatencyAdd: 1},
		{Resources: []string{"load"}, Throughput: 2}, {Resources: []string{"load"}, Throughput: 0.5},
		{Resources: []string{"0", "1"}, Throughput: 2},
	}
	want := []float64{2, 8, 3, 5, 4, 4, 4}
	xs, err := s.Sensitivities(context.Background(), b, changes)
	if err != nil {
		t.Fatal(err)
	}
	for k, x := range xs {
		if !near(x.Changed, want[k]) || !near(x.Speedup, 4/want[k]) {
			t.Errorf("%v, want %v cycles/iteration", x, want[k])
		}
	}
}

// On the port-bound mix the FP ports matter and the latencies do not.
func TestSensitivityPortBound(t *testing.T) {
	s := newSim(t, Options{})
	b := parse(t, portMix)
	xs, err := s.Sensitivities(context.Background(), b, s.SweepChanges(b))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		fast := x.Speedup > 1+1e-9
		ports := len(x.Change.Resources) == 1 && (x.Change.Resources[0] == "0" || x.Change.Resources[0] == "1" || x.Change.Resources[0] == "5")
		if x.Change.Form != "" && fast {
			t.Errorf("%v: a latency matters on a port-bound mix", x)
		}
		if x.Change.Resources != nil && x.Change.Resources[0] == "4" && fast {
			t.Errorf("%v: the unused store port matters", x)
		}
		if ports && !fast {
			t.Errorf("%v: a bottleneck port does not matter", x)
		}
	}
}

func TestBadChanges(t *testing.T) {
	for _, c := range []Change{{}, {Resources: []string{"9"}, Throughput: 2}, {Form: "nop", Latency: 2}, {Resources: []string{"0"}, Throughput: -1}} {
		if _, err := New(TestMachine(), Options{Changes: []Change{c}}); err == nil {
			t.Errorf("change %v accepted", c)
		}
	}
}

// On the FMA loop the FMA's latency is the whole critical path; on the
// chain through memory the three instructions share it by latency.
func TestCritical(t *testing.T) {
	s := newSim(t, Options{})
	shares, r, err := s.Critical(parse(t, fmaLoop))
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.Cycles, 4) || len(shares) != 1 || shares[0].Latency < 0.99 {
		t.Errorf("FMA loop: %v\n%s", r, CriticalTable(shares))
	}
	shares, _, err = s.Critical(parse(t, memChain))
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{4.0 / 6, 1.0 / 6, 1.0 / 6}
	for k, c := range shares {
		if d := c.Latency - want[k]; d > 0.02 || d < -0.02 {
			t.Errorf("memory chain: %s\nwant latency shares %v", CriticalTable(shares), want)
			break
		}
	}
	shares, _, err = s.Critical(parse(t, portMix))
	if err != nil {
		t.Fatal(err)
	}
	var res float64
	for _, c := range shares {
		res += c.Resource
	}
	if res < 0.9 || !strings.Contains(CriticalTable(shares), "1*p01") {
		t.Errorf("port-bound mix: resources %.2f of the critical path\n%s", res, CriticalTable(shares))
	}
}

// The shares add up to the whole window, also when the reorder buffer
// or the front end binds, and an instruction that reads what it writes
// (imul rax, rax writes rax and the flags) does not wait for itself.
func TestCriticalSharesAddUp(t *testing.T) {
	m := TestMachine()
	m.ReorderBuffer = 8
	small, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		s   *Simulator
		src string
	}{
		{newSim(t, Options{}), benchBody},
		{small, "imul rax, rax\n" + strings.Repeat("mov rbx, [rsi]\n", 8)},
		{newSim(t, Options{}), "lea rax, [rdi+8]\nlea rbx, [rdi+8]\nxor ecx, ecx\nxor edx, edx\nxor esi, esi"},
		{newSim(t, Options{}), imulChain},
	} {
		shares, r, err := x.s.Critical(parse(t, x.src))
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, c := range shares {
			sum += c.Share
		}
		if sum < 0.999 || sum > 1.001 {
			t.Errorf("%q: %v: shares add up to %v\n%s", x.src, r, sum, CriticalTable(shares))
		}
	}
	shares, _, err := newSim(t, Options{}).Critical(parse(t, imulChain))
	if err != nil || !near(shares[0].Latency, 1) {
		t.Errorf("imul chain: %v\n%s", err, CriticalTable(shares))
	}
}

// imul rax, rax completes with its result: 3 cycles after it starts, not
// 3 more for the flags computed from the new rax.
func TestOwnWritesAreNotInputs(t *testing.T) {
	tl, err := newSim(t, Options{}).Timeline(parse(t, imulChain), 2)
	if err != nil {
		t.Fatal(err)
	}
	if !near(tl[0], 3) || !near(tl[1], 6) {
		t.Errorf("imul chain retires at %v, want 3, 6", tl)
	}
}
