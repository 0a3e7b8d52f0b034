package measure

import (
	"context"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/operands"
	"github.com/portlab/portlab/lib/portmap"
)

// TestCuratedFormsAssemble instantiates every benchmarkable curated form,
// unrolled, and assembles them all in one run.
func TestCuratedFormsAssemble(t *testing.T) {
	var kernels []Kernel
	skipped := map[string]int{}
	for _, f := range isa.X86Forms() {
		if ok, why := operands.Benchmarkable(f); !ok {
			skipped[why]++
			continue
		}
		body, err := operands.Instantiate([]isa.Form{f, f, f, f})
		if err != nil {
			t.Errorf("%s: %v", f.Scheme(), err)
			continue
		}
		kernels = append(kernels, Kernel{Name: f.Scheme(), Body: body})
	}
	if _, err := Assemble(context.Background(), kernels, AVX512); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d forms assembled; skipped: %v", len(kernels), skipped)
	if len(kernels) < 600 {
		t.Errorf("only %d of %d curated forms are benchmarkable", len(kernels), len(isa.X86Forms()))
	}
}

// TestHardwareSanity measures a few forms whose throughput and latency are
// the same on recent Intel and AMD cores.
func TestHardwareSanity(t *testing.T) {
	h, err := NewHardware(testCPU(t))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	check := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol*want {
			t.Errorf("%s: %.3f cycles, want %v ± %.0f%%", name, got, want, 100*tol)
		} else {
			t.Logf("%s: %.3f cycles", name, got)
		}
	}
	// cycles measures e: the fastest of at least three interleaved passes
	// (one timing can be off when another tenant shares the core while
	// the calibration chain or the kernel runs).
	cycles := func(e portmap.Experiment) float64 {
		t.Helper()
		m, err := h.Measure(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		if m.Passes < DefaultPasses || m.Spread < 0 || m.Min > m.Cycles || m.Max < m.Cycles {
			t.Errorf("%v: %d passes, spread %v, min %v, max %v", e, m.Passes, m.Spread, m.Min, m.Max)
		}
		return m.Cycles
	}
	host, err := isa.HostSupport()
	if err != nil {
		t.Fatal(err)
	}
	imul := portmap.NewExperiment("imul RW:GPR:64, R:GPR:64")
	c := cycles(imul)
	// One multiplier port on Intel cores (port 1); Zen 5 multiplies on three
	// of its six integer ALUs.
	switch {
	case host.Vendor == "GenuineIntel":
		check("imul r64, r64 throughput", c, 1, 0.15)
	case host.Vendor == "AuthenticAMD" && host.Family == 26:
		check("imul r64, r64 throughput", c, 1.0/3, 0.15)
	default:
		t.Logf("imul r64, r64 throughput: %.3f cycles (no reference for %s family %d)", c, host.Vendor, host.Family)
	}
	if m, err := h.Timing(ctx, imul); err != nil || m.Contention < 0 || m.Contention > 10 || m.TicksPerCycle <= 0 {
		t.Errorf("measurement detail: %+v, %v", m, err)
	}
	vadd := portmap.NewExperiment("vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15")
	c = cycles(vadd)
	check("vaddps ymm throughput", c, 0.5, 0.15)
	// Latency chains.
	for _, l := range []struct {
		scheme string
		want   float64
	}{{"add RW:GPR:64, R:GPR:64", 1}, {"imul RW:GPR:64, R:GPR:64", 3}} {
		body, err := operands.InstantiateChain(isa.MustParseSchemeISA(isa.X86, l.scheme), 50)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Timer.Load(ctx, []Kernel{{Name: l.scheme, Body: body}}, h.Vector); err != nil {
			t.Fatal(err)
		}
		var cs []float64
		for range 3 {
			m, err := h.Timer.Measure(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			cs = append(cs, m.Cycles/50)
		}
		slices.Sort(cs)
		check("latency of "+l.scheme, cs[1], l.want, 0.1)
	}
}

// TestCheckLayoutsFindsHiddenDependencies runs the self-check on forms
// whose declared write-only destination is really read (cmov keeps it when
// the condition is false, setcc merges into the full register): allocated
// as declared, every copy chains through the one write-only register — a
// latency of at least one cycle where the throughput is at most half a
// cycle on every recent x86 core — and the check must say so; with the
// default layout, which treats those writes as reads, nothing may change.
// The memory alternative, the same code for register-only forms, is not
// measured for them.
func TestCheckLayoutsFindsHiddenDependencies(t *testing.T) {
	h, err := NewHardware(testCPU(t))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	forms := []string{"cmove W:GPR:64, R:GPR:64", "setne W:al,bl,bpl,cl,dil,dl,r10b,r11b,r12b,r13b,r14b,r15b,r8b,r9b,sil,spl", "add RW:GPR:64, R:GPR:64"}
	hidden := map[string]bool{forms[0]: true, forms[1]: true}
	// A missing finding is looked for again (up to three runs): another
	// process on the sibling hardware thread can slow the fast layout
	// down to the slow one. A wrong finding is an error at once.
	for _, asDeclared := range []bool{true, false} {
		h.Layout = operands.Layout{AsDeclared: asDeclared}
		missing := map[string]bool{}
		for run := 0; run < 3 && (run == 0 || len(missing) > 0); run++ {
			checks, failures, err := h.CheckLayouts(ctx, append(forms, "jmp LABEL"), 0.15, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(failures) != 1 || failures[0].Insn != "jmp LABEL" {
				t.Errorf("failures %v, want the branch", failures)
			}
			if len(checks) != len(forms) {
				t.Fatalf("%d checks for %d forms", len(checks), len(forms))
			}
			for _, c := range checks {
				t.Logf("as declared %v, run %d: %v", asDeclared, run+1, c)
				want := asDeclared && hidden[c.Form]
				got := strings.Contains(c.Finding, "writes-read")
				switch {
				case got && !want:
					t.Errorf("as declared %v: %s: a writes-read finding", asDeclared, c)
				case want && !got && (run == 0 || missing[c.Form]):
					missing[c.Form] = true
				case want && got:
					delete(missing, c.Form)
				}
				if strings.Contains(c.Finding, "other-lines") || !c.SameCode[1] {
					t.Errorf("%s: the memory layout does not change a register-only form's code, so it must not be measured again", c)
				}
			}
		}
		for f := range missing {
			t.Errorf("as declared: %s: no writes-read finding in three runs", f)
		}
	}
}

// TestSSEAVXMix: an experiment that mixes legacy-SSE and VEX forms is
// refused, with the probe's numbers, where the host penalises the switch,
// and measured where it does not (or when allowed); either way the forms
// alone are measured.
func TestSSEAVXMix(t *testing.T) {
	for _, c := range []struct {
		scheme string
		want   VectorEncoding
	}{
		{"andps RW:XMM0..15, R:XMM0..15", LegacySSE},
		{"movq W:XMM0..15, R:GPR:64", LegacySSE},
		{"vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15", VEXEncoded},
		{"vmovups W:XMM0..15, xmmword ptr R:MEM(128)", VEXEncoded},
		{"add RW:GPR:64, R:GPR:64", NoVectorEncoding},
	} {
		if got := EncodingOf(isa.MustParseSchemeISA(isa.X86, c.scheme)); got != c.want {
			t.Errorf("%s: encoding %v, want %v", c.scheme, got, c.want)
		}
	}
	if hostVector() == NoVector {
		t.Skip("no AVX on this host")
	}
	h, err := NewHardware(testCPU(t))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	mixed := portmap.NewExperiment("pmulhw RW:XMM0..15, R:XMM0..15", "vpaddd W:YMM0..15, R:YMM0..15, R:YMM0..15")
	alone := portmap.NewExperiment("pmulhw RW:XMM0..15, R:XMM0..15")
	m, err := h.Measure(ctx, mixed)
	p, perr := h.SSEAVXPenalty(ctx)
	if perr != nil || p <= 0 {
		t.Fatalf("penalty %v, %v", p, perr)
	}
	if p > mixPenaltyLimit {
		if err == nil || !strings.Contains(err.Error(), "legacy-SSE (pmulhw)") || !strings.Contains(err.Error(), "andps and vaddps xmm together") {
			t.Errorf("penalty %.0f×: the mixed experiment gave %v, %v", p, m, err)
		}
	} else if err != nil || m.Cycles <= 0 {
		t.Errorf("penalty %.1f×: the mixed experiment gave %v, %v", p, m, err)
	}
	t.Logf("SSE/AVX penalty on this host: %.1f×", p)
	if m, err := h.Measure(ctx, alone); err != nil || m.Cycles <= 0 || m.Cycles > 10 {
		t.Errorf("pmulhw alone: %v, %v", m, err)
	}
	h.AllowSSEAVXMix = true
	if m, err := h.Measure(ctx, mixed); err != nil || m.Cycles <= 0 {
		t.Errorf("allowed: %v, %v", m, err)
	}
}

// TestHardwareOnTwoCPUs measures the same experiments on one CPU and split
// between two: the values must agree (each CPU keeps its own calibration),
// every experiment must be reported once, and the two CPUs must not be
// SMT siblings for the split to be trusted — which is reported, not
// assumed. Bad CPU lists are refused.
func TestHardwareOnTwoCPUs(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU")
	}
	for _, bad := range [][]int{nil, {0, 0}, {-2}, {0, -1}} {
		if h, err := NewHardwareOn(bad); err == nil {
			h.Close()
			t.Errorf("NewHardwareOn(%v): no error", bad)
		}
	}
	ctx := context.Background()
	h2, err := NewHardwareOn([]int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	if got := h2.CPUs(); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("CPUs() = %v", got)
	}
	slow, err := h2.Interference(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("CPUs 0 and 1 slow each other down by %.1f %%", 100*slow)
	if slow < -0.5 || slow > 10 {
		t.Errorf("interference %v", slow)
	}
	forms := []string{"add RW:GPR:64, R:GPR:64", "imul RW:GPR:64, R:GPR:64", "vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15",
		"popcnt W:GPR:64, R:GPR:64", "lea W:GPR:32, MEM(0)", "xor RW:GPR:64, R:GPR:64"}
	var exps []portmap.Experiment
	for _, f := range forms {
		exps = append(exps, portmap.NewExperiment(f))
	}
	exps = append(exps, portmap.NewExperiment(forms[0], forms[1]), portmap.NewExperiment(forms[2], forms[3], forms[3]))
	measureAll := func(h *Hardware) []float64 {
		got := make([]float64, len(exps))
		calls := make([]int, len(exps))
		if err := h.MeasureBatch(ctx, exps, func(i int, m portmap.Measurement, err error) {
			calls[i]++
			if err != nil {
				t.Errorf("%v: %v", exps[i], err)
			}
			got[i] = m.Cycles
		}); err != nil {
			t.Fatal(err)
		}
		for i, c := range calls {
			if c != 1 {
				t.Errorf("%v reported %d times", exps[i], c)
			}
		}
		return got
	}
	if slow > MaxInterference {
		measureAll(h2)
		t.Logf("CPUs 0 and 1 interfere (%.0f %%): not comparing the values", 100*slow)
		return
	}
	h1, err := NewHardware(testCPU(t))
	if err != nil {
		t.Fatal(err)
	}
	defer h1.Close()
	// Loose bounds: split over two CPUs, timings on this kind of VM repeat
	// within a median 2.5 % but single ones are off by up to a factor of
	// two while a co-tenant is busy (the repeatability study in bench/
	// checks the values); a batch split wrongly between the CPUs puts most
	// values off by factors (add for imul: 4×), in every attempt. So the
	// batches are measured up to three times, until at most one experiment
	// has no value on one CPU within 35 % of a value on two.
	one := make([][]float64, len(exps))
	two := make([][]float64, len(exps))
	dist := func(i int) float64 {
		d := math.Inf(1)
		for _, a := range one[i] {
			for _, b := range two[i] {
				d = min(d, math.Abs(b/a-1))
			}
		}
		return d
	}
	off := 0
	for attempt := 1; attempt <= 3; attempt++ {
		for i, c := range measureAll(h2) {
			two[i] = append(two[i], c)
		}
		for i, c := range measureAll(h1) {
			one[i] = append(one[i], c)
		}
		off = 0
		for i := range exps {
			if dist(i) > 0.35 {
				off++
			}
		}
		if off <= 1 {
			break
		}
		t.Logf("attempt %d: %d of %d experiments differ by more than 35 %%", attempt, off, len(exps))
	}
	for i := range exps {
		t.Logf("%v: %.3f on one CPU, %.3f on two", exps[i], one[i], two[i])
	}
	if off > 1 {
		t.Errorf("%d of %d experiments differ by more than 35 %% between one CPU and two", off, len(exps))
	}
}
