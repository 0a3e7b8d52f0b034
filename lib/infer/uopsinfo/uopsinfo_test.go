package uopsinfo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// inferFrom infers truth's mapping from its simulation with port counters.
func inferFrom(t *testing.T, truth *portmap.Mapping, noise float64, m *Method) (*infer.Result, *Report) {
	t.Helper()
	p := infer.Problem{Oracle: oracle.SimulateWithPortCounters(truth, noise, 1), Instructions: truth.Instructions(),
		Ports: truth.NumPorts(), PortNames: truth.Ports()}
	res, err := infer.Infer(t.Context(), p, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res, res.Report.(*Report)
}

// sameUops reports whether insn has the same µops in a and b.
func sameUops(a, b *portmap.Mapping, insn string) bool {
	ua, _ := a.Uops(insn)
	ub, _ := b.Uops(insn)
	return portmap.FormatUsage(ua, a.Arch()) == portmap.FormatUsage(ub, b.Arch())
}

// handleable returns the instructions of truth the algorithm can map with
// nanoBench's number of copies, and for the others why not: a µop on a
// port set that no single-µop instruction has and that is not one of the
// store blocker's port sets store, or too many µops to flood the largest
// blocked port set with at most 100 copies (Constraint 6.1). hidden are
// the instructions with a µop on an unblocked port set within a blocked
// one: Algorithm 6.1 counts it as a µop of the larger set, and no
// measurement with these blocking instructions shows otherwise.
func handleable(truth *portmap.Mapping, store ...portmap.PortSet) (ok map[string]bool, why map[string]string, hidden map[string]bool) {
	hidden = map[string]bool{}
	blocked := map[portmap.PortSet]bool{}
	largest := 0
	for _, q := range store {
		blocked[q] = true
		largest = max(largest, q.Len())
	}
	for _, insn := range truth.Instructions() {
		if u, _ := truth.Uops(insn); len(u) == 1 && u[0].Count == 1 {
			blocked[u[0].Ports] = true
			largest = max(largest, u[0].Ports.Len())
		}
	}
	ok, why = map[string]bool{}, map[string]string{}
	for _, insn := range truth.Instructions() {
		uops, _ := truth.Uops(insn)
		var unblocked []string
		for _, u := range uops {
			if !blocked[u.Ports] {
				unblocked = append(unblocked, fmt.Sprint(truth.Arch().PortNames(u.Ports)))
				for q := range blocked {
					if u.Ports != q && u.Ports.SubsetOf(q) {
						hidden[insn] = true
					}
				}
			}
		}
		switch n := truth.NumUops(insn); {
		case len(unblocked) > 0:
			why[insn] = "no blocking instruction for µops on " + strings.Join(unblocked, ", ")
		case n > 1 && largest*n > 100:
			why[insn] = fmt.Sprintf("%d µops: 100 copies cannot flood %d ports (Constraint 6.1)", n, largest)
		default:
			ok[insn] = true
		}
	}
	return ok, why, hidden
}

// TestRecoversUopsInfoMappings checks that on exact simulated per-port
// counters the method maps every instruction of the uops.info SKL and ICL
// mappings it can handle exactly as the truth does (equivalent without
// renaming: the counters name the ports), maps no instruction wrongly, and
// says why it leaves the others out.
func TestRecoversUopsInfoMappings(t *testing.T) {
	datasettest.Need(t)
	// The store blockers' port sets: store-address and store-data ports.
	// On ICL both µops spread over two ports each, so the counts allow
	// three splits and the test names one; on SKL they allow one.
	for _, c := range []struct {
		uarch, data string
		split       []string
		store       [2][]string
	}{
		{"SKL", "uops.info:SKL", nil, [2][]string{{"4"}, {"2", "3", "7"}}},
		{"ICL", "uops.info:ICL", []string{"4", "9"}, [2][]string{{"4", "9"}, {"7", "8"}}},
		{"PMEvo-SKL", "pmevo:SKL/uops_info", nil, [2][]string{{"4"}, {"2", "3", "7"}}},
	} {
		uarch := c.uarch
		t.Run(uarch, func(t *testing.T) {
			truth, err := dataset.Mapping(c.data)
			if err != nil {
				t.Fatal(err)
			}
			var store []portmap.PortSet
			for _, names := range c.store {
				q, err := truth.Arch().PortSet(names...)
				if err != nil {
					t.Fatal(err)
				}
				store = append(store, q)
			}
			m := New()
			m.StoreSplit = c.split
			res, rep := inferFrom(t, truth, 0, m)
			if rep.Store == nil || rep.Store.Insn == "" {
				t.Fatalf("no store blocker: %+v", rep.Store)
			}
			if got := rep.Store.Ports; !(got[0] == store[0] && got[1] == store[1] || got[0] == store[1] && got[1] == store[0]) {
				t.Errorf("store blocker %s on %v, want %v", rep.Store.Insn, got, store)
			}
			t.Logf("%s: store blocker %s (%d candidates): %s", uarch, rep.Store.Insn, rep.Store.Candidates, rep.Store.Note)
			ok, why, hidden := handleable(truth, store...)
			var wrong, missed, mapped []string
			for _, insn := range truth.Instructions() {
				in, _ := rep.Lookup(insn)
				if res.Mapping.Has(insn) != in.Outcome.Mapped() {
					t.Fatalf("%s: outcome %v, in the mapping: %v", insn, in.Outcome, res.Mapping.Has(insn))
				}
				if res.Mapping.Has(insn) && !sameUops(res.Mapping, truth, insn) && hidden[insn] {
					t.Logf("wrong, as Algorithm 6.1 must be without a blocking instruction for a port set within another: %s: inferred %s, truth %s", insn, res.Mapping.Usage(insn), truth.Usage(insn))
				} else if res.Mapping.Has(insn) && !sameUops(res.Mapping, truth, insn) {
					wrong = append(wrong, fmt.Sprintf("%s: inferred %s, truth %s", insn, res.Mapping.Usage(insn), truth.Usage(insn)))
				}
				if !in.Outcome.Mapped() && in.Why == "" {
					t.Errorf("%s: outcome %v without a reason", insn, in.Outcome)
				}
				if ok[insn] {
					if !res.Mapping.Has(insn) {
						missed = append(missed, fmt.Sprintf("%s (%s): %v: %s", insn, truth.Usage(insn), in.Outcome, in.Why))
						continue
					}
					mapped = append(mapped, insn)
				}
			}
			for _, w := range wrong {
				t.Error("silently wrong: " + w)
			}
			for i, m := range missed {
				if i == 10 {
					t.Errorf("… %d more handleable instructions not mapped", len(missed)-i)
					break
				}
				t.Error("handleable but not mapped: " + m)
			}
			handled, inferred := restrict(t, truth, mapped), restrict(t, res.Mapping, mapped)
			if perm, equal := portmap.EquivalentByRenaming(handled, inferred); !equal {
				t.Errorf("the inferred mapping of the %d handleable forms is not equivalent to the truth", handled.Len())
			} else {
				for k, q := range perm {
					if k != q {
						t.Errorf("port %d renamed to %d: per-port counters name the ports", k, q)
					}
				}
			}
			// The forms it cannot handle, grouped by why, in the test log.
			byWhy := map[string][]string{}
			for insn, w := range why {
				byWhy[w] = append(byWhy[w], insn)
			}
			reasons := make([]string, 0, len(byWhy))
			for w := range byWhy {
				reasons = append(reasons, w)
			}
			sort.Slice(reasons, func(a, b int) bool { return len(byWhy[reasons[a]]) > len(byWhy[reasons[b]]) })
			t.Logf("%s: %d forms, %d handleable (all mapped exactly), %d not:", uarch, truth.Len(), handled.Len(), len(why))
			for _, w := range reasons {
				sort.Strings(byWhy[w])
				t.Logf("  %4d  %s, e.g. %s", len(byWhy[w]), w, byWhy[w][0])
			}
			// The store forms: a µop on a store blocker's port set.
			stores, exact := 0, 0
			notMapped := map[string]int{}
			for _, insn := range truth.Instructions() {
				uops, _ := truth.Uops(insn)
				isStore := false
				for _, u := range uops {
					isStore = isStore || u.Ports == store[0] || u.Ports == store[1]
				}
				if !isStore {
					continue
				}
				stores++
				if res.Mapping.Has(insn) && sameUops(res.Mapping, truth, insn) {
					exact++
				} else if in, _ := rep.Lookup(insn); !res.Mapping.Has(insn) {
					notMapped[fmt.Sprintf("%v (%s)", in.Outcome, why[insn])]++
				}
			}
			t.Logf("%s: %d store forms, %d mapped exactly, not mapped: %v", uarch, stores, exact, notMapped)
			if exact < stores*9/10 {
				t.Errorf("only %d of %d store forms mapped exactly", exact, stores)
			}
			counts := map[Outcome]int{}
			for _, in := range rep.Unmapped() {
				counts[in.Outcome]++
				if !ok[in.Insn] && why[in.Insn] == "" {
					t.Errorf("%s not mapped (%v) though handleable", in.Insn, in.Outcome)
				}
			}
			t.Logf("%s: the method's outcomes: %d blocking, %d store blocking, %d resolved, %d incomplete, %d inconsistent, %d failed; %d queries",
				uarch, rep.Count(Blocking), rep.Count(StoreBlocking), rep.Count(Resolved), counts[Incomplete], counts[Inconsistent], counts[Failed], res.Queries)
			if len(rep.Unmapped()) != len(why)-(res.Mapping.Len()-handled.Len()) {
				t.Errorf("%d instructions unmapped, %d not handleable of which %d mapped anyway", len(rep.Unmapped()), len(why), res.Mapping.Len()-handled.Len())
			}
		})
	}
}

// restrict returns m with only the instructions insns.
func restrict(t *testing.T, m *portmap.Mapping, insns []string) *portmap.Mapping {
	t.Helper()
	a, err := portmap.NewArchitecture(m.Name(), m.Ports(), insns)
	if err != nil {
		t.Fatal(err)
	}
	out := portmap.NewMappingFor(a)
	for _, insn := range insns {
		u, _ := m.Uops(insn)
		if err := out.Set(insn, u...); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// appendixE1 is the mapping of thesis App. E.1: an instruction with six
// µops and a blocking instruction for each of its port sets and for
// {P1,P2}.
func appendixE1() *portmap.Mapping {
	m := portmap.MustMapping("E.1", "P0", "P1", "P2")
	m.MustSetUsage("I", "1*[P1]+1*[P0,P1]+4*[P0,P2]")
	m.MustSetUsage("B1", "1*[P1]").MustSetUsage("B01", "1*[P0,P1]").MustSetUsage("B02", "1*[P0,P2]").MustSetUsage("B12", "1*[P1,P2]")
	return m
}

// TestAppendixE1 reproduces thesis App. E.1: with the paper's k = 3 ports ·
// latency 2 = 6 copies, one µop of I that could run on P0 runs on P2 while
// B12 floods {P1,P2}, so the counters show a {P1,P2} µop I does not have;
// uops.info's implementation floods with 12 copies and gets I right.
func TestAppendixE1(t *testing.T) {
	truth := appendixE1()
	q12, _ := truth.Arch().PortSet("P1", "P2")
	if k := NanoBenchCopies(2, 2, 6); k != 12 {
		t.Errorf("NanoBenchCopies for |Q| = 2, 2 cycles, 6 µops: %d, want 12 (Constraint 6.1: |Q|·µops)", k)
	}
	if k := NanoBenchCopies(1, 2, 6); k != 10 {
		t.Errorf("NanoBenchCopies for |Q| = 1, 2 cycles, 6 µops: %d, want 10 (at least 10)", k)
	}
	step := func(rep *Report) Step {
		in, _ := rep.Lookup("I")
		for _, st := range in.Evidence {
			if st.Ports == q12 {
				return st
			}
		}
		t.Fatalf("no measurement of I with B12:\n%s", rep.Explain("I"))
		return Step{}
	}

	// The paper's k, every blocking instruction (Algorithm 6.1 as printed).
	res, rep := inferFrom(t, truth, 0, &Method{Copies: FixedCopies(6), Exhaustive: true})
	in, _ := rep.Lookup("I")
	st := step(rep)
	if st.Copies != 6 || st.OnPorts != 8 || st.Uops != 1 {
		t.Errorf("with 6 × B12: %d copies, %v µops on {P1,P2}, %d µops of I found there; want 6, 8 and the wrong 1\n%s", st.Copies, st.OnPorts, st.Uops, rep.Explain("I"))
	}
	if in.Outcome != Inconsistent || !strings.Contains(in.Why, "found 7 µops") || !strings.Contains(in.Why, "it retires 6") || res.Mapping.Has("I") {
		t.Errorf("paper k: outcome %v (%s), mapped %v; want inconsistent, 7 of 6 µops, not mapped", in.Outcome, in.Why, res.Mapping.Has("I"))
	}
	t.Logf("paper k = 6:\n%s", rep.Explain("I"))

	// With nanoBench's early exit the {P0,P2} blocker (taken before
	// {P1,P2}, same size, lower ports) completes I first: the paper's k
	// goes unnoticed on this instruction.
	res, rep = inferFrom(t, truth, 0, &Method{Copies: FixedCopies(6)})
	if in, _ := rep.Lookup("I"); in.Outcome != Resolved || !sameUops(res.Mapping, truth, "I") || len(in.Evidence) != 3 {
		t.Errorf("paper k with early exit: %v after %d steps, I = %s", in.Outcome, len(in.Evidence), res.Mapping.Usage("I"))
	}

	// uops.info's implementation, with and without early exit.
	for _, exhaustive := range []bool{false, true} {
		res, rep := inferFrom(t, truth, 0, &Method{Exhaustive: exhaustive})
		for _, insn := range truth.Instructions() {
			if !sameUops(res.Mapping, truth, insn) {
				t.Errorf("exhaustive %v: %s = %s, want %s\n%s", exhaustive, insn, res.Mapping.Usage(insn), truth.Usage(insn), rep.Explain(insn))
			}
		}
		if exhaustive {
			if st := step(rep); st.Copies != 12 || st.OnPorts != 13 || st.Uops != 0 {
				t.Errorf("with 12 × B12: %d copies, %v µops on {P1,P2}, %d found; want 12, 13, 0", st.Copies, st.OnPorts, st.Uops)
			}
			t.Logf("nanoBench k:\n%s", rep.Explain("I"))
		}
	}
}

// TestFig61 is thesis Example 6.2 (Fig. 6.1) with k = |Q|·µops: the counts
// 4, 3 and 9 on {p2}, {p3} and {p1,p2} give fma = 1×{p2} + 2×{p1,p2}.
func TestFig61(t *testing.T) {
	truth := fig61()
	res, rep := inferFrom(t, truth, 0, &Method{Copies: func(q int, _ float64, n int) int { return q * n }, Exhaustive: true})
	in, _ := rep.Lookup("fma")
	var on []float64
	for _, st := range in.Evidence {
		on = append(on, st.OnPorts)
	}
	if fmt.Sprint(on) != "[4 3 9]" || res.Mapping.Usage("fma") != truth.Usage("fma") {
		t.Errorf("counts %v, fma = %s; want [4 3 9], %s\n%s", on, res.Mapping.Usage("fma"), truth.Usage("fma"), rep.Explain("fma"))
	}
	if len(rep.Blockers) != 3 {
		t.Errorf("blocking instructions %+v, want mul, ld, add", rep.Blockers)
	}
}

func fig61() *portmap.Mapping {
	m := portmap.MustMapping("fig6.1", "p1", "p2", "p3")
	m.MustSetUsage("add", "1*[p1,p2]").MustSetUsage("fma", "2*[p1,p2]+1*[p2]").MustSetUsage("mul", "1*[p2]").MustSetUsage("ld", "1*[p3]")
	return m
}

// TestSmallNoise checks that counts off by a little noise still round to
// the truth, and that the report is valid JSON with outcome names.
func TestSmallNoise(t *testing.T) {
	truth := fig61()
	truth.MustSetUsage("big", "3*[p2]+4*[p1,p2]+2*[p3]")
	res, rep := inferFrom(t, truth, 0.001, New())
	for _, insn := range truth.Instructions() {
		if !sameUops(res.Mapping, truth, insn) {
			t.Errorf("%s = %s, want %s\n%s", insn, res.Mapping.Usage(insn), truth.Usage(insn), rep.Explain(insn))
		}
	}
	data, err := json.Marshal(rep)
	if err != nil || !strings.Contains(string(data), `"Outcome":"resolved"`) {
		t.Errorf("report JSON: %v, %.200s", err, data)
	}
}

// TestCountersDisagree feeds counts that fit no mapping: the instruction
// is reported inconsistent with the values, not mapped.
func TestCountersDisagree(t *testing.T) {
	truth := fig61()
	o := &skewed{Simulated: oracle.SimulateWithPortCounters(truth, 0, 1), insn: "fma", by: 0.5}
	p := infer.Problem{Oracle: o, Instructions: truth.Instructions(), Ports: 3, PortNames: truth.Ports()}
	res, err := infer.Infer(t.Context(), p, New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report.(*Report)
	in, _ := rep.Lookup("fma")
	if in.Outcome != Inconsistent || res.Mapping.Has("fma") || !strings.Contains(in.Why, "not a whole number") {
		t.Errorf("skewed counts: %v (%s), mapped %v", in.Outcome, in.Why, res.Mapping.Has("fma"))
	}
	if !strings.Contains(rep.String(), "1 inconsistent") || !strings.Contains(rep.String(), "inconsistent fma: ") {
		t.Errorf("summary lacks the inconsistent instruction:\n%s", rep)
	}
}

// skewed adds by µops to port 0's count of experiments with insn and a
// blocking instruction.
type skewed struct {
	*oracle.Simulated
	insn string
	by   float64
}

func (s *skewed) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	m, err := s.Simulated.Measure(ctx, e)
	if err == nil && e.Count(s.insn) > 0 && e.Distinct() > 1 {
		m.PortUops[0] += s.by
	}
	return m, err
}

// TestNeedsPortCounters checks that Infer switches a simulation's
// per-port counters on, and refuses before any query an oracle that has
// none and data measured without them.
func TestNeedsPortCounters(t *testing.T) {
	truth := fig61()
	sim := oracle.Simulate(truth, 0, 1)
	p := infer.Problem{Oracle: sim, Instructions: truth.Instructions(), Ports: 3}
	if res, err := infer.Infer(t.Context(), p, New(), nil); err != nil || !sim.PortCounters || res.Mapping.Len() == 0 {
		t.Errorf("a simulation without port counters: %v, counters on %v", err, sim.PortCounters)
	}
	p.Oracle = oracle.AsOracle(oracle.FromMapping(truth))
	res, err := infer.Infer(t.Context(), p, New(), nil)
	if res != nil || !errors.Is(err, ErrNoPortCounters) || !strings.Contains(err.Error(), "SimulateWithPortCounters") || !strings.Contains(err.Error(), "this host") {
		t.Errorf("an oracle without port counters: %v", err)
	}
	set, _, _ := oracle.MeasureAll(t.Context(), oracle.Simulate(truth, 0, 1), []portmap.Experiment{portmap.NewExperiment("add")}, nil)
	_, err = infer.Infer(t.Context(), infer.Problem{Data: set, Ports: 3}, New(), nil)
	if !errors.Is(err, ErrNoPortCounters) || !strings.Contains(err.Error(), "no stored measurement has PortUops") {
		t.Errorf("data without port counters: %v", err)
	}
	p = infer.Problem{Oracle: oracle.SimulateWithPortCounters(truth, 0, 1), Instructions: truth.Instructions(), Ports: 4}
	if _, err = infer.Infer(t.Context(), p, New(), nil); err == nil || !strings.Contains(err.Error(), "4 ports") {
		t.Errorf("4 ports asked, 3 counted: %v", err)
	}
	if !New().Uses().PortCounters {
		t.Error("the method does not tell that it uses port counters")
	}
}

// TestCancel checks that a cancelled run returns what it mapped so far,
// with the rest pending and ctx's error.
func TestCancel(t *testing.T) {
	truth := fig61()
	for i := range 20 {
		truth.MustSetUsage(fmt.Sprintf("x%d", i), fmt.Sprintf("%d*[p2]+1*[p3]", 1+i%3))
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stages []string
	s := &infer.Settings{Progress: func(st infer.Progress) {
		if len(stages) == 0 || stages[len(stages)-1] != st.Stage {
			stages = append(stages, st.Stage)
		}
		if st.Stage == "blocking" && st.Done == 5 {
			cancel()
		}
	}}
	p := infer.Problem{Oracle: oracle.SimulateWithPortCounters(truth, 0, 1), Instructions: truth.Instructions(), Ports: 3}
	res, err := infer.Infer(ctx, p, New(), s)
	if !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("cancelled: %v, %v", res, err)
	}
	rep := res.Report.(*Report)
	if n := rep.Count(Resolved); n != 5 {
		t.Errorf("%d resolved before the cancel after 5, want 5", n)
	}
	if n := rep.Count(pending); n != 21-5 || !strings.Contains(rep.Unmapped()[0].Why, "interrupted") {
		t.Errorf("%d pending, want 16; first unmapped %+v", n, rep.Unmapped()[0])
	}
	if fmt.Sprint(stages) != "[alone blocking]" {
		t.Errorf("progress stages %v", stages)
	}
}

// TestNoisyCountersMapNothingWrong runs the method on the uops.info
// Skylake mapping with 2 % noise on every timing and port count: many
// instructions are reported inconsistent, but every one it maps is mapped
// as in the truth.
func TestNoisyCountersMapNothingWrong(t *testing.T) {
	datasettest.Need(t)
	truth, err := dataset.Mapping("uops.info:SKL")
	if err != nil {
		t.Fatal(err)
	}
	res, rep := inferFrom(t, truth, 0.02, New())
	wrong := 0
	for _, insn := range truth.Instructions() {
		if res.Mapping.Has(insn) && !sameUops(res.Mapping, truth, insn) {
			if wrong++; wrong <= 5 {
				t.Errorf("%s = %s, truth %s\n%s", insn, res.Mapping.Usage(insn), truth.Usage(insn), rep.Explain(insn))
			}
		}
		if in, _ := rep.Lookup(insn); !in.Outcome.Mapped() && in.Why == "" {
			t.Errorf("%s: %v without a reason", insn, in.Outcome)
		}
	}
	if rep.Count(Inconsistent) == 0 {
		t.Error("2 % noise on the counters and no instruction inconsistent")
	}
	t.Logf("2 %% noise: %d of %d mapped (%d wrong), %d inconsistent, %d incomplete", res.Mapping.Len(), truth.Len(), wrong, rep.Count(Inconsistent), rep.Count(Incomplete))
}

// TestStoreBlocker checks the store blocker on small machines: chosen from
// the counts when they split its ports one way only; when they allow
// several splits (both µops on two ports each, as on Ice Lake) no store
// blocker and the stores incomplete, with the splits named; a given split
// maps them; a store blocker that does not fit is an error.
func TestStoreBlocker(t *testing.T) {
	skl := portmap.MustMapping("skl-like", "0", "1", "2", "3", "4")
	skl.MustSetUsage("alu", "1*p01").MustSetUsage("ld", "1*p2").MustSetUsage("st", "1*p23+1*p4").
		MustSetUsage("addm", "1*p01+1*p2+1*p23+1*p4").MustSetUsage("st2", "1*p23+1*p4")
	res, rep := inferFrom(t, skl, 0, New())
	if rep.Store == nil || rep.Store.Insn != "st" || rep.Store.Split != "from its counts" || rep.Store.Candidates != 2 {
		t.Fatalf("store blocker: %+v", rep.Store)
	}
	for _, insn := range skl.Instructions() {
		if !sameUops(res.Mapping, skl, insn) {
			t.Errorf("%s: %s, want %s\n%s", insn, res.Mapping.Usage(insn), skl.Usage(insn), rep.Explain(insn))
		}
	}
	if in, _ := rep.Lookup("st"); in.Outcome != StoreBlocking || !strings.Contains(in.Why, "assumed") {
		t.Errorf("st: %v %q", in.Outcome, in.Why)
	}
	if s := rep.String(); !strings.Contains(s, "store blocker st: assumed to be one µop on [2 3] and one on [4]") {
		t.Errorf("report:\n%s", s)
	}

	icl := portmap.MustMapping("icl-like", "0", "1", "2", "3", "4")
	icl.MustSetUsage("alu", "1*p0").MustSetUsage("st", "1*p12+1*p34").MustSetUsage("push", "1*p0+1*p12+1*p34")
	_, rep = inferFrom(t, icl, 0, New())
	if rep.Store.Insn != "" || !strings.Contains(rep.Store.Note, "[1 2]+[3 4]") || !strings.Contains(rep.Store.Note, "several splits") {
		t.Errorf("ambiguous split: %+v", rep.Store)
	}
	if in, _ := rep.Lookup("push"); in.Outcome != Incomplete {
		t.Errorf("push without a store blocker: %v", in.Outcome)
	}
	m := New()
	m.StoreSplit = []string{"2", "1"}
	res, rep = inferFrom(t, icl, 0, m)
	if rep.Store.Split != "given" {
		t.Errorf("split given: %+v", rep.Store)
	}
	for _, insn := range icl.Instructions() {
		if !sameUops(res.Mapping, icl, insn) {
			t.Errorf("split given: %s: %s, want %s", insn, res.Mapping.Usage(insn), icl.Usage(insn))
		}
	}
	// A wrong split is an assumption the counters cannot refute: the
	// stores come out consistently wrong (as they would for uops.info).
	m.StoreSplit = []string{"1", "3"}
	res, _ = inferFrom(t, icl, 0, m)
	if got := res.Mapping.Usage("push"); got != "1*p0+1*p13+1*p24" {
		t.Errorf("wrong split: push %s", got)
	}

	for _, c := range []struct {
		blocker string
		split   []string
		want    string
	}{
		{"nope", nil, `store blocker "nope" is not one of the 3 instructions`},
		{"alu", nil, `store blocker "alu" does not fit: alone it has 1 µops`},
		{"st", nil, "allow 3 splits"},
		{"st", []string{"1", "9"}, `unknown port "9"`},
	} {
		m := New()
		m.StoreBlocker, m.StoreSplit = c.blocker, c.split
		p := infer.Problem{Oracle: oracle.SimulateWithPortCounters(icl, 0, 1), Instructions: icl.Instructions(), Ports: 5, PortNames: icl.Ports()}
		if _, err := infer.Infer(t.Context(), p, m, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("store blocker %q split %v: %v, want %q", c.blocker, c.split, err, c.want)
		}
	}
}
