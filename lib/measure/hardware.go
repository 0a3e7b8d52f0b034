package measure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/operands"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/pmu"
	"github.com/portlab/portlab/lib/portmap"
)

// Hardware is the Oracle that measures experiments on this machine: each
// experiment's instructions are parsed as instruction forms (iwho scheme
// syntax such as "add RW:GPR:64, R:GPR:64", or PMEvo names), unrolled to a
// loop body of about BodySize instructions, instantiated without
// read-after-write dependencies, assembled — many experiments per assembler
// run, see Prepare — and timed by a Timer in an isolated worker. The result
// is core cycles per execution of the experiment's multiset.
type Hardware struct {
	// Timer times on the first CPU; more are the timers on the others
	// (NewHardwareOn).
	Timer *Timer
	more  []*Timer
	// BodySize is the loop body length to unroll to (default 100).
	BodySize int
	// Vector is the host's widest vector extension (see HostVector).
	Vector Vector
	// Passes is how many times at least each experiment is timed, apart in
	// time: Measure and MeasureBatch visit the experiments in passes, each
	// in a new order, and an experiment's value is its fastest pass (a
	// slow period of a shared machine only adds time). An experiment gets
	// another pass, up to MaxPasses, while its two fastest passes differ
	// by more than Agreement. Defaults DefaultPasses, DefaultMaxPasses and
	// DefaultAgreement; Passes 1 times each experiment once.
	Passes, MaxPasses int
	Agreement         float64
	// Layout places the operands (the zero Layout is the default; see
	// CheckLayouts for the others' use).
	Layout operands.Layout
	// Kernels, when set, builds the kernel of each experiment instead of
	// the throughput benchmark of its multiset (Body): the loop body and
	// its set-up, and how many executions of the experiment the body
	// holds (the cycles are per execution). LatencyKernel builds latency
	// chains, BlockKernels blocks as written.
	Kernels func(e portmap.Experiment) (k Kernel, copies int, err error)
	// AllowSSEAVXMix measures experiments that mix legacy-SSE and VEX
	// forms even where the host penalises the switch (see SSEAVXPenalty).
	AllowSSEAVXMix bool

	mu     sync.Mutex
	forms  map[string]isa.Form
	loaded map[string]int    // experiment key → kernel index in the loaded batch
	unroll map[string]int    // experiment key → copies in its body
	failed map[string]string // experiment key → why it could not be built

	mixPenalty float64 // SSEAVXPenalty, 0 until probed
	mixProbe   string  // what the probe measured
}

// NewHardware returns a hardware oracle whose worker is pinned to cpu.
func NewHardware(cpu int) (*Hardware, error) {
	vec, err := HostVector()
	if err != nil {
		return nil, err
	}
	t := NewTimer(cpu)
	t.Target = 250 * time.Microsecond // ~10⁶ cycles: ample resolution
	t.Samples = 5
	return &Hardware{Timer: t, BodySize: 100, Vector: vec, Passes: DefaultPasses, MaxPasses: DefaultMaxPasses,
		Agreement: DefaultAgreement, forms: map[string]isa.Form{}}, nil
}

// NewHardwareOn returns a hardware oracle with one worker on each of cpus:
// MeasureBatch splits a batch between them and times the parts at once,
// so a campaign on two CPUs takes about half the time. Every CPU keeps its
// own clock calibration. CPUs that share a physical core (SMT siblings,
// which a VM may not show as such) disturb each other's timings; check
// with Interference before trusting such a setup.
func NewHardwareOn(cpus []int) (*Hardware, error) {
	if len(cpus) == 0 {
		return nil, fmt.Errorf("measure: no CPU to measure on")
	}
	seen := map[int]bool{}
	for _, c := range cpus {
		if c < 0 && !(c == -1 && len(cpus) == 1) {
			return nil, fmt.Errorf("measure: CPU %d: not a CPU number (-1, a worker not pinned, only alone)", c)
		}
		if seen[c] {
			return nil, fmt.Errorf("measure: CPU %d listed twice", c)
		}
		seen[c] = true
	}
	h, err := NewHardware(cpus[0])
	if err != nil {
		return nil, err
	}
	for _, c := range cpus[1:] {
		h.more = append(h.more, NewTimer(c)) // settings taken from h.Timer by timers()
	}
	return h, nil
}

// CPUs returns the CPUs the oracle's workers are pinned to.
func (h *Hardware) CPUs() []int {
	var cpus []int
	for _, t := range h.timers() {
		cpus = append(cpus, t.Runner.CPU)
	}
	return cpus
}

// timers returns the timers of all CPUs, the first one's first. Timers
// other than the first take its settings.
func (h *Hardware) timers() []*Timer {
	for _, t := range h.more {
		t.Target, t.Samples, t.Repeats = h.Timer.Target, h.Timer.Samples, h.Timer.Repeats
	}
	return append([]*Timer{h.Timer}, h.more...)
}

// Count makes the oracle read the perf events specs (see package pmu) in
// its worker around every timed loop: the measurements then carry the
// counts per execution of the experiment's multiset, the event named
// pmu.UopsName in Measurement.Uops and the others in
// Measurement.Counters; Cycles stays the calibrated TSC time. It opens the
// events here first, so that a host that has not got them (no PMU: these
// virtual machines) gives an error naming the event and the cause at once,
// not at the first measurement. Count() with no events turns counting off.
func (h *Hardware) Count(specs ...pmu.Spec) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(specs) > 0 {
		runtime.LockOSThread()
		g, err := pmu.Open(specs...)
		runtime.UnlockOSThread()
		if err != nil {
			return fmt.Errorf("measure: counters: %w", err)
		}
		g.Close()
	}
	for _, t := range h.timers() {
		t.Runner.Counters = append([]pmu.Spec(nil), specs...)
	}
	return nil
}

// CountUops makes the oracle count retired µops, instructions and core
// cycles (Count with pmu.RetiredUops, pmu.Instructions, pmu.Cycles), so
// that methods that need a total µop counter (infer/explainable) can run
// on it. Untested on hardware: portlab's development machines have no PMU,
// where it returns the error that says so.
func (h *Hardware) CountUops() error {
	uops, err := pmu.RetiredUops()
	if err != nil {
		return fmt.Errorf("measure: counting µops: %w", err)
	}
	return h.Count(uops, pmu.Instructions, pmu.Cycles)
}

// load assembles kernels once and loads them into the worker of every CPU.
func (h *Hardware) load(ctx context.Context, kernels []Kernel) error {
	if err := h.Timer.Load(ctx, kernels, h.Vector); err != nil {
		return err
	}
	for _, t := range h.more {
		if err := t.loadObject(h.Timer.obj); err != nil {
			return err
		}
	}
	return nil
}

// HostVector returns the widest vector extension the host supports.
func HostVector() (Vector, error) {
	h, err := isa.HostSupport()
	if err != nil {
		return NoVector, err
	}
	switch {
	case h.Flags["avx512f"]:
		return AVX512, nil
	case h.Flags["avx"]:
		return AVX, nil
	}
	return NoVector, nil
}

// Close stops the worker.
func (h *Hardware) Close() error {
	var first error
	for _, t := range h.timers() {
		if err := t.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Form returns the instruction form an experiment's instruction name
// stands for.
func (h *Hardware) Form(name string) (isa.Form, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.form(name)
}

func (h *Hardware) form(name string) (isa.Form, error) {
	if f, ok := h.forms[name]; ok {
		return f, nil
	}
	f, err := isa.ParseName(name)
	if err != nil {
		return isa.Form{}, &oracle.InsnError{Insn: name, Err: fmt.Errorf("measure: %w", err)}
	}
	h.forms[name] = f
	return f, nil
}

// Body returns the loop body for e and the number of copies of e in it.
func (h *Hardware) Body(e portmap.Experiment) ([]string, int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.body(e, h.Layout)
}

func (h *Hardware) body(e portmap.Experiment, layout operands.Layout) ([]string, int, error) {
	if e.Len() == 0 {
		return nil, 0, fmt.Errorf("measure: empty experiment")
	}
	// One copy of e in round-robin order: {a ↦ 2, b ↦ 1} is a, b, a.
	items := e.Items()
	var seq []isa.Form
	for left := true; left; {
		left = false
		for i := range items {
			if items[i].Count > 0 {
				f, err := h.form(items[i].Insn)
				if err != nil {
					return nil, 0, err
				}
				seq = append(seq, f)
				items[i].Count--
				left = left || items[i].Count > 0
			}
		}
	}
	size := h.BodySize
	if size <= 0 {
		size = 100
	}
	copies := max(1, int(math.Round(float64(size)/float64(len(seq)))))
	forms := make([]isa.Form, 0, copies*len(seq))
	for c := 0; c < copies; c++ {
		forms = append(forms, seq...)
	}
	body, err := operands.InstantiateLayout(forms, layout)
	return body, copies, err
}

// Prepare assembles and loads the kernels of exps with one assembler run,
// so that measuring them does not assemble each one alone. Experiments
// that cannot be built (unknown or unsupported forms, assembler errors) are
// remembered and fail when measured. The previously prepared experiments
// are dropped.
func (h *Hardware) Prepare(ctx context.Context, exps []portmap.Experiment) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.prepare(ctx, exps)
}

func (h *Hardware) prepare(ctx context.Context, exps []portmap.Experiment) error {
	h.loaded, h.unroll, h.failed = map[string]int{}, map[string]int{}, map[string]string{}
	var kernels []Kernel
	var keys []string
	for _, e := range exps {
		key := e.Key()
		if _, dup := h.unroll[key]; dup {
			continue
		}
		if h.Kernels != nil {
			k, copies, err := h.Kernels(e)
			if err != nil {
				h.failed[key] = err.Error()
				continue
			}
			if k.Name == "" {
				k.Name = e.String()
			}
			h.unroll[key] = copies
			kernels = append(kernels, k)
			keys = append(keys, key)
			continue
		}
		var forms []isa.Form
		for _, it := range e.Items() {
			if f, err := h.form(it.Insn); err == nil {
				forms = append(forms, f)
			}
		}
		if why, err := h.checkMix(ctx, forms); err != nil {
			return err
		} else if why != "" {
			h.failed[key] = why
			continue
		}
		body, copies, err := h.body(e, h.Layout)
		if err != nil {
			h.failed[key] = err.Error()
			continue
		}
		h.unroll[key] = copies
		kernels = append(kernels, Kernel{Name: e.String(), Body: body, Init: operands.X86Init()})
		keys = append(keys, key)
	}
	if len(kernels) == 0 {
		return nil
	}
	err := h.load(ctx, kernels)
	var ae *AssemblyError
	if err != nil && len(kernels) == 1 && errors.As(err, &ae) {
		h.failed[keys[0]] = err.Error() // the experiment fails, not the run
		return nil
	}
	if err != nil && len(kernels) > 1 && errors.As(err, &ae) {
		// Assemble one by one to find the culprits, then the rest together.
		var good []portmap.Experiment
		for i, k := range kernels {
			if _, err1 := Assemble(ctx, []Kernel{k}, h.Vector); err1 != nil {
				h.failed[keys[i]] = err1.Error()
			} else {
				good = append(good, exps[indexOfKey(exps, keys[i])])
			}
		}
		failed := h.failed
		err = h.prepare(ctx, good)
		for k, v := range failed {
			h.failed[k] = v
		}
		return err
	}
	if err != nil {
		return err
	}
	for i, key := range keys {
		h.loaded[key] = i
	}
	return nil
}

func indexOfKey(exps []portmap.Experiment, key string) int {
	for i, e := range exps {
		if e.Key() == key {
			return i
		}
	}
	return -1
}

// Measure implements oracle.Oracle: it measures e (preparing it alone if
// it was not prepared) in passes and returns cycles per execution of its
// multiset: the fastest pass, with the spread of the samples, the
// contention seen and the agreement of the passes.
func (h *Hardware) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	var m portmap.Measurement
	var err error
	if berr := h.MeasureBatch(ctx, []portmap.Experiment{e}, func(_ int, m1 portmap.Measurement, err1 error) { m, err = m1, err1 }); berr != nil {
		return portmap.Measurement{}, berr
	}
	return m, err
}

// MeasureBatch implements oracle.BatchMeasurer: it measures exps in
// interleaved passes (see Passes), preparing them together if they were
// not prepared, and calls done for each as soon as its value is final.
func (h *Hardware) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range exps {
		key := e.Key()
		if _, ok := h.loaded[key]; !ok && h.failed[key] == "" {
			if err := h.prepare(ctx, exps); err != nil {
				return err
			}
			break
		}
	}
	passes, maxPasses := h.Passes, h.MaxPasses
	if passes <= 0 {
		passes, maxPasses = DefaultPasses, max(maxPasses, DefaultMaxPasses)
	}
	agreement := h.Agreement
	if agreement <= 0 {
		agreement = DefaultAgreement
	}
	timeOn := func(t *Timer, i int) (Timing, error) {
		key := exps[i].Key()
		if why, bad := h.failed[key]; bad {
			return Timing{}, fmt.Errorf("%s", why)
		}
		return h.timeKernelOn(ctx, t, h.loaded[key], h.unroll[key])
	}
	final := func(i int, ts []Timing, err error) {
		if err != nil {
			done(i, portmap.Measurement{}, err)
			return
		}
		m, err := fromPasses(exps[i], ts)
		done(i, m, err)
	}
	timers := h.timers()
	if len(timers) == 1 || len(exps) == 1 {
		return inPasses(ctx, len(exps), passes, maxPasses, agreement, uint64(len(exps)),
			func(i int) (Timing, error) { return timeOn(h.Timer, i) }, final)
	}
	// One part per CPU, every len(timers)-th experiment, timed at once;
	// done is called by one part at a time.
	var mu sync.Mutex
	errs := make([]error, len(timers))
	var wg sync.WaitGroup
	for p, t := range timers {
		var part []int
		for i := p; i < len(exps); i += len(timers) {
			part = append(part, i)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = inPasses(ctx, len(part), passes, maxPasses, agreement, uint64(len(exps)+p),
				func(j int) (Timing, error) { return timeOn(t, part[j]) },
				func(j int, ts []Timing, err error) {
					mu.Lock()
					defer mu.Unlock()
					final(part[j], ts, err)
				})
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err // once, not once per CPU
	}
	return errors.Join(errs...)
}

// Timing times e once — one pass of Measure — and returns the whole
// timing — every sample, the iterations and the calibration — per
// execution of e's multiset.
func (h *Hardware) Timing(ctx context.Context, e portmap.Experiment) (Timing, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	key := e.Key()
	if why, bad := h.failed[key]; bad {
		return Timing{}, fmt.Errorf("%s", why)
	}
	k, ok := h.loaded[key]
	if !ok {
		if err := h.prepare(ctx, []portmap.Experiment{e}); err != nil {
			return Timing{}, err
		}
		if why, bad := h.failed[key]; bad {
			return Timing{}, fmt.Errorf("%s", why)
		}
		k = h.loaded[key]
	}
	return h.timeKernel(ctx, k, h.unroll[key])
}

// timeKernel times loaded kernel k, which holds copies copies of its
// experiment, once, and returns the timing per copy.
func (h *Hardware) timeKernel(ctx context.Context, k, copies int) (Timing, error) {
	return h.timeKernelOn(ctx, h.Timer, k, copies)
}

// timeKernelOn is timeKernel with timer t.
func (h *Hardware) timeKernelOn(ctx context.Context, t *Timer, k, copies int) (Timing, error) {
	m, err := t.Measure(ctx, k)
	if err != nil {
		return Timing{}, err
	}
	c := float64(copies)
	for name := range m.Counts {
		m.Counts[name] /= c
	}
	m.Cycles /= c
	m.Median /= c
	m.Min /= c
	m.Max /= c
	for i := range m.Samples {
		m.Samples[i] /= c
	}
	return m, nil
}
