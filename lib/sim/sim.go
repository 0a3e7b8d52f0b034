package sim

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/resource"
)

// The defaults of Options.
const (
	// DefaultLatency is the latency in cycles of a form the machine gives
	// none for, from each input to each output.
	DefaultLatency = 1
	// DefaultLoadLatency is added to DefaultLatency on the paths from a
	// memory input (the loaded value and the address registers) of a form
	// the machine gives no latency for.
	DefaultLoadLatency = 4
	// DefaultStoreLatency is the latency into a memory output of a form
	// the machine gives no latency for: the share of store-to-load
	// forwarding before the load's own latency.
	DefaultStoreLatency = 1
	// DefaultMaxIterations bounds the iterations simulated while looking
	// for the steady state.
	DefaultMaxIterations = 4000
	// DefaultMaxPeriod is the longest period of the per-iteration time
	// the steady-state detection looks for.
	DefaultMaxPeriod = 32
)

// Options tune a Simulator. The zero value uses the machine's port mapping
// and the defaults above.
type Options struct {
	// Resources, when set, replaces the machine's port mapping by a
	// conjunctive resource mapping (PALMED, package resource): every
	// instruction uses every resource it loads, for its load in cycles.
	Resources *resource.Mapping
	// DefaultLatency, LoadLatency and StoreLatency replace the package's
	// defaults for forms the machine gives no latency for (0: default).
	DefaultLatency, LoadLatency, StoreLatency float64
	// MaxIterations bounds the iterations simulated (0:
	// DefaultMaxIterations); MaxPeriod the period looked for (0:
	// DefaultMaxPeriod).
	MaxIterations, MaxPeriod int
	// Changes scale resources' throughputs and forms' latencies, for the
	// sensitivity analysis (see Change). They apply in order.
	Changes []Change
	// Aliasing says which earlier store a load reads from (the zero
	// value: ByExpression).
	Aliasing Aliasing
}

// Simulator simulates blocks and loop bodies on one machine. Its methods
// do not change it: one Simulator may serve several goroutines.
type Simulator struct {
	m   *machine.Machine
	opt Options
	// resources: ports of the mapping or resources of Options.Resources.
	resNames []string
	resIndex map[string]int
	resScale []float64 // cycles per use multiplier of each resource (1/throughput factor)
	feScale  float64   // front-end cost multiplier
	invIPC   float64   // front-end cycles per instruction (0: no bound)
	invUPC   float64   // issue cycles per µop (0: no bound)
	invRet   float64   // retire cycles per µop (0: no bound)
	rob      int
	// chainOf maps a form to its chain in the machine's Chains (the
	// first that names it).
	chainOf map[string]int
	// fuseFirst and fuseSecond map the forms of the machine's Fusions to
	// the fusions that name them first and second (bit i: Fusions[i]).
	fuseFirst, fuseSecond map[string]uint64
	// wakeForms are the forms of the machine's Wakeup.
	wakeForms map[string]bool
	// scratch holds *scratch: the buffers of a simulation, used again by
	// the next instead of left to the garbage collector.
	scratch sync.Pool
	// programs holds *program: Simulate compiles into the buffers of an
	// earlier block's program.
	programs sync.Pool
}

// scratch is the memory of one simulation (run).
type scratch struct {
	st  state
	buf []float64
}

// New returns a simulator of m. m needs a mapping of the forms of the
// blocks it will simulate (or Options.Resources); its latencies, front
// end, reorder buffer and issue and retire widths are used where given.
func New(m *machine.Machine, opt Options) (*Simulator, error) {
	if m == nil || m.Mapping == nil {
		return nil, errors.New("sim: a machine with a port mapping is needed")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	if opt.DefaultLatency < 0 || opt.LoadLatency < 0 || opt.StoreLatency < 0 {
		return nil, errors.New("sim: latencies must not be negative")
	}
	s := &Simulator{m: m, opt: opt, rob: m.ReorderBuffer, feScale: 1}
	if opt.Resources != nil {
		s.resNames = opt.Resources.Resources()
	} else {
		s.resNames = m.Mapping.Ports()
	}
	s.resIndex = map[string]int{}
	s.resScale = make([]float64, len(s.resNames))
	for i, n := range s.resNames {
		s.resIndex[n] = i
		s.resScale[i] = 1
	}
	ipc := m.InstructionsPerCycle
	if d := float64(m.DecodeWidth); d > 0 && (ipc == 0 || d < ipc) {
		ipc = d
	}
	if ipc > 0 {
		s.invIPC = 1 / ipc
	}
	upc := m.UopsPerCycle
	if w := float64(m.IssueWidth); w > 0 && (upc == 0 || w < upc) {
		upc = w
	}
	if upc > 0 {
		s.invUPC = 1 / upc
	}
	if m.RetireWidth > 0 {
		s.invRet = 1 / float64(m.RetireWidth)
	}
	for i, c := range m.Chains {
		for _, f := range c.Forms {
			if _, ok := s.chainOf[f]; !ok {
				if s.chainOf == nil {
					s.chainOf = map[string]int{}
				}
				s.chainOf[f] = i
			}
		}
	}
	if len(m.Fusions) > 64 {
		return nil, fmt.Errorf("sim: %d fusions, more than the 64 a machine may have", len(m.Fusions))
	}
	for i, u := range m.Fusions {
		if s.fuseFirst == nil {
			s.fuseFirst, s.fuseSecond = map[string]uint64{}, map[string]uint64{}
		}
		for _, f := range u.First {
			s.fuseFirst[f] |= 1 << i
		}
		for _, f := range u.Second {
			s.fuseSecond[f] |= 1 << i
		}
	}
	if w := m.Wakeup; w != nil {
		s.wakeForms = map[string]bool{}
		for _, f := range w.Forms {
			s.wakeForms[f] = true
		}
	}
	for _, c := range opt.Changes {
		if err := s.applyThroughput(c); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Machine returns the simulated machine.
func (s *Simulator) Machine() *machine.Machine { return s.m }

// Options returns the simulator's options.
func (s *Simulator) Options() Options { return s.opt }

// Name names the simulator: "sim:" and the machine's name, with the
// resource mapping's name when one is used.
func (s *Simulator) Name() string {
	n := "sim:" + s.m.Name
	if s.opt.Resources != nil {
		n += " (resources " + s.opt.Resources.Name() + ")"
	}
	return n
}

//go:embed testdata/skylake-like.json
var testMachine []byte

// TestMachineName is the name of the machine TestMachine returns.
const TestMachineName = "portlab:sim-test-skylake-like"

// TestMachine returns a small machine with latencies for tests and
// examples (testdata/skylake-like.json): eight Skylake-like ports, a front
// end of 4 instructions per cycle, latencies for its 14 forms, a
// 224-µop reorder buffer. It is no description of any host.
func TestMachine() *machine.Machine {
	m, err := machine.Parse(testMachine, "testdata/skylake-like.json")
	if err != nil {
		panic(err) // the embedded file is checked by the tests
	}
	return m
}

// Result is the outcome of a simulation.
type Result struct {
	// Cycles is the number of cycles per iteration in the steady state
	// (for a block: per execution of the block run back to back).
	Cycles float64
	// FirstPass is the number of cycles from the start of the simulation
	// to the retirement of the first iteration's last instruction: one
	// pass through an empty machine.
	FirstPass float64
	// Iterations is the number of iterations simulated.
	Iterations int
	// Period is the period p of the steady state: the retirement of
	// iteration i and i−p differ by p·Cycles for the last Window
	// iterations. 0 when no period was found.
	Period int
	// Window is the number of iterations over which the period held.
	Window int
	// Converged reports whether a steady state was found; when it was
	// not, Cycles is the average over the second half of the iterations
	// simulated and Detection says so.
	Converged bool
	// Detection says how the steady state was found.
	Detection string
	// Defaulted lists the forms of the block the machine gives no latency
	// for, which took the defaults (DefaultLatency and its kin), sorted.
	Defaulted []string
}

// String returns "4 cycles/iteration (period 1 over 16 iterations, 40
// simulated)".
func (r *Result) String() string {
	return fmt.Sprintf("%.4g cycles/iteration (%s)", r.Cycles, r.Detection)
}

// use is one µop's claim on a resource: one of choices[lo:hi], busy for
// cost cycles (times the resource's scale).
type use struct {
	lo, hi int32
	cost   float64
}

// op is an instruction of the compiled program.
type op struct {
	uops              int32
	uses0, uses1      int32 // into program.uses
	reads0, reads1    int32 // into program.reads: value slots read
	writes0, writes1  int32 // the value slots written (contiguous); writes0 is the completion slot
	lat0              int32 // into program.lat: (reads1-reads0) × (writes1-writes0), row per read
	base0             int32 // into program.base: latency per write without inputs
	feCost, feUopCost float64
	retCost           float64
	text              string
}

// program is a block compiled for a simulator.
type program struct {
	ops     []op
	uses    []use
	choices []int32
	reads   []int32
	lat     []float64
	base    []float64
	nslots  int
	uops    int
	nres    int
	// defaulted are the forms without a latency in the machine.
	defaulted []string
}

// compile turns b into a program: µops with their resources, value slots
// (slot 0 is the value nobody writes, ready at time 0), per instruction a
// completion slot and one per written location, and the latency from
// every read to every written slot.
func (s *Simulator) compile(b *block.Block) (*program, error) {
	return s.compileInto(b, nil)
}

// compileInto is compile into the buffers of p, a program compiled
// before and no longer used (nil: new buffers).
func (s *Simulator) compileInto(b *block.Block, p *program) (*program, error) {
	if b == nil || len(b.Insns) == 0 {
		return nil, errors.New("sim: empty block")
	}
	n := len(b.Insns)
	if p == nil {
		p = &program{ops: make([]op, 0, n), uses: make([]use, 0, 2*n), choices: make([]int32, 0, 4*n),
			reads: make([]int32, 0, 4*n), lat: make([]float64, 0, 8*n), base: make([]float64, 0, 3*n)}
	} else {
		*p = program{ops: p.ops[:0], uses: p.uses[:0], choices: p.choices[:0], reads: p.reads[:0], lat: p.lat[:0], base: p.base[:0]}
	}
	p.nres = len(s.resNames)
	deps := b.Deps(true)
	slot := 1
	var missing []string
	keys := make([]string, len(b.Insns))
	for i := range b.Insns {
		in := &b.Insns[i]
		key := in.Form.Key()
		keys[i] = key
		o := op{text: in.Text}
		o.uses0 = int32(len(p.uses))
		if s.opt.Resources != nil {
			loads, ok := s.opt.Resources.Loads(key)
			if !ok {
				missing = append(missing, fmt.Sprintf("line %d %q (form %q)", in.Line, in.Text, key))
				continue
			}
			for r, l := range loads {
				if l > 0 {
					p.uses = append(p.uses, use{lo: int32(len(p.choices)), hi: int32(len(p.choices) + 1), cost: l})
					p.choices = append(p.choices, int32(r))
				}
			}
			o.uops = 1
		} else {
			uops, ok := s.m.Mapping.Uops(key)
			if !ok {
				missing = append(missing, fmt.Sprintf("line %d %q (form %q)", in.Line, in.Text, key))
				continue
			}
			for _, u := range uops {
				lo := int32(len(p.choices))
				for x := uint64(u.Ports); x != 0; x &= x - 1 {
					p.choices = append(p.choices, int32(bits.TrailingZeros64(x)))
				}
				for range u.Count {
					p.uses = append(p.uses, use{lo: lo, hi: int32(len(p.choices)), cost: 1})
				}
				o.uops += int32(u.Count)
			}
		}
		o.uses1 = int32(len(p.uses))
		if s.rob > 0 && int(o.uops) > s.rob {
			return nil, fmt.Errorf("sim: line %d %q: %d µops do not fit the reorder buffer of %d", in.Line, in.Text, o.uops, s.rob)
		}
		o.feCost = s.feScale * s.invIPC
		o.feUopCost = s.feScale * float64(o.uops) * s.invUPC
		o.retCost = float64(o.uops) * s.invRet
		p.uops += int(o.uops)
		// Writes: the completion slot, then one per written location, in
		// the order of in.Writes (see slotOf).
		o.writes0 = int32(slot)
		slot += 1 + len(in.Writes)
		o.writes1 = int32(slot)
		p.ops = append(p.ops, o)
	}
	if len(missing) > 0 {
		what := "the machine's mapping " + s.m.Mapping.Name()
		if s.opt.Resources != nil {
			what = "the resource mapping " + s.opt.Resources.Name()
		}
		return nil, fmt.Errorf("sim: %s has no %s", what, strings.Join(missing, ", "))
	}
	p.nslots = slot
	if s.fuseFirst != nil {
		s.fuse(b, keys, p)
	}
	if s.wakeForms != nil {
		s.wakeup(deps, keys, p)
	}
	// slotOf returns the slot in which instruction i writes location
	// name, 0 when it does not write it; firstMem the slot of its first
	// memory write.
	slotOf := func(i int, name string) int32 {
		ws := b.Insns[i].Writes
		for w := len(ws) - 1; w >= 0; w-- {
			if ws[w].Name == name {
				return p.ops[i].writes0 + 1 + int32(w)
			}
		}
		return 0
	}
	firstMem := func(i int) (int32, bool) {
		ws := b.Insns[i].Writes
		for w := range ws {
			if ws[w].Kind == block.Mem {
				return p.ops[i].writes0 + 1 + int32(w), true
			}
		}
		return 0, false
	}
	// owner: the instruction that writes each value slot (for chains).
	var owner []int32
	if s.chainOf != nil {
		owner = make([]int32, slot)
		for i := range p.ops {
			for w := p.ops[i].writes0; w < p.ops[i].writes1; w++ {
				owner[w] = int32(i)
			}
		}
	}
	var bufSrc [][]memSource
	var bufOK [][]bool
	if s.opt.Aliasing == SameBuffer {
		bufSrc, bufOK = sameBufferSources(b, s.m.Memory.RenamingBy == machine.RenameByAddress)
	}
	// For the merges: the last writer's slot of each register over the
	// whole block, what an instruction reads before the block writes it
	// again (the previous iteration's value), and the current writer's.
	var final, cur map[string]int32
	merges := s.m.MergeLatency > 0 && (s.m.MergeWhen != machine.MergeDirtyUpper || dirtyUpper(b))
	if merges {
		final, cur = map[string]int32{}, map[string]int32{}
		for i := range b.Insns {
			for wi := range b.Insns[i].Writes {
				if w := &b.Insns[i].Writes[wi]; w.Kind != block.Mem {
					final[w.Name] = slotOf(i, w.Name)
				}
			}
		}
	}
	regSlot := func(name string) int32 {
		if sl, ok := cur[name]; ok {
			return sl
		}
		return final[name]
	}
	// Reads: the producer's slot of each read location; fwd marks the
	// memory reads that take a stored value (forwarded or renamed).
	type fwd struct {
		insn, read, store int
		renamed           bool
	}
	var fwds []fwd
	mem := s.m.Memory
	forwarding := mem.LoadLatency > 0 && (mem.StoreForwardLatency > 0 || mem.Renaming)
	// regRead returns the slot instruction i's read k of a register
	// takes its value from.
	regRead := func(i, k int) int32 { return p.reads[p.ops[i].reads0+int32(k)] }
	d0 := 0 // deps[d0:d1] are the dependencies of instruction i (Deps sorts them by reader)
	for i := range b.Insns {
		in := &b.Insns[i]
		o := &p.ops[i]
		for d0 < len(deps) && deps[d0].To < i {
			d0++
		}
		d1 := d0
		for d1 < len(deps) && deps[d1].To == i {
			d1++
		}
		depsTo := deps[d0:d1]
		o.reads0 = int32(len(p.reads))
		for k := range in.Reads {
			r := &in.Reads[k]
			var src int32 // 0: nobody writes it
			store := -1
			renamed := false
			if r.Kind == block.Mem && bufOK != nil && bufOK[i][k] {
				if ms := bufSrc[i][k]; ms.store >= 0 {
					store, renamed = ms.store, ms.renamed
					src, _ = firstMem(store)
				}
			} else {
				for di := range depsTo {
					d := &depsTo[di]
					if d.Via != r.Name {
						continue
					}
					if sl := slotOf(d.From, r.Name); sl != 0 {
						src = sl
					} else if sl, ok := firstMem(d.From); ok && r.Kind == block.Mem {
						src = sl // a store of another width that overlaps
					}
					if r.Kind == block.Mem && !r.Stack {
						store = d.From
						renamed = sameAddress(&b.Insns[d.From], r.Mem)
					}
				}
			}
			if forwarding && store >= 0 {
				fwds = append(fwds, fwd{i, k, store, renamed && mem.Renaming})
			}
			p.reads = append(p.reads, src)
		}
		// A legacy-SSE write of an XMM register merges into the old value.
		var merge int32 = -1
		if merges {
			if w, ok := mergesXMM(in); ok {
				merge = regSlot(w.Name)
				p.reads = append(p.reads, merge)
			}
		}
		o.reads1 = int32(len(p.reads))
		if cur != nil {
			for _, w := range in.Writes {
				if w.Kind != block.Mem {
					cur[w.Name] = slotOf(i, w.Name)
				}
			}
		}
		l, known := s.m.Latencies[keys[i]]
		if !known && !slices.Contains(p.defaulted, keys[i]) {
			p.defaulted = append(p.defaulted, keys[i])
		}
		lat0, base0 := len(p.lat), len(p.base)
		var err error
		p.lat, p.base, err = s.appendLatencies(p.lat, p.base, in, keys[i], l, known)
		if err != nil {
			return nil, fmt.Errorf("sim: line %d %q: %w", in.Line, in.Text, err)
		}
		lat := p.lat[lat0:]
		nw := len(in.Writes) + 1
		stackEngine(in, lat, nw)
		if s.m.AddressIncrementLatency > 0 {
			if r, ok := addressIncrement(b, in); ok {
				for k := range in.Reads {
					rd := &in.Reads[k]
					if rd.Name != r {
						continue
					}
					for w := 0; w < nw; w++ {
						if w == 0 || in.Writes[w-1].Name == r {
							lat[k*nw+w] = s.scaleLatency(keys[i], s.m.AddressIncrementLatency)
						}
					}
				}
			}
		}
		if s.m.ComplexLEALatency > 0 && complexLEA(in) {
			for k := range in.Reads {
				rd := &in.Reads[k]
				if rd.Kind == block.Mem || s.m.ComplexLEAFrom == machine.ComplexLEAFromBase && rd.Name != leaBase(in) {
					continue
				}
				for w := 0; w < nw; w++ {
					lat[k*nw+w] = s.scaleLatency(keys[i], s.m.ComplexLEALatency)
				}
			}
		}
		if ch, ok := s.chainOf[keys[i]]; ok {
			// An input another form of the chain wrote arrives faster.
			for k := range in.Reads {
				rd := &in.Reads[k]
				if rd.Kind == block.Mem {
					continue
				}
				src := regRead(i, k)
				if src == 0 {
					continue
				}
				if c, ok := s.chainOf[keys[owner[src]]]; !ok || c != ch {
					continue
				}
				for w := 0; w < nw; w++ {
					lat[k*nw+w] = s.scaleLatency(keys[i], s.m.Chains[ch].Cycles)
				}
			}
		}
		if merge >= 0 {
			for range nw {
				p.lat = append(p.lat, s.scaleLatency(keys[i], float64(s.m.MergeLatency)))
			}
		}
		o.lat0 = int32(lat0)
		o.base0 = int32(base0)
	}
	// A load of a stored value takes it from the store's data register:
	// the load's latency less the load-to-use latency, plus the
	// forwarding latency unless the load is renamed (a move then adds
	// nothing: its result is the stored register).
	for _, f := range fwds {
		st := &b.Insns[f.store]
		data := int32(-1)
		vector := false
		if storesOperand(st) {
			for k, r := range st.Reads {
				if r.Kind == block.Reg && !isAddressRegister(st, r.Name) {
					data = regRead(f.store, k)
					vector = isVectorRegister(r.Name)
					break
				}
			}
		}
		if data < 0 {
			// An immediate, or a value the store computes (add [m], r):
			// when the store completes.
			data = p.ops[f.store].writes0
		}
		ld := &b.Insns[f.insn]
		// The memory file renames 32- and 64-bit general-purpose registers
		// only: on the Zen 5 host a byte store and its load, written with
		// the same registers, take the forwarding latency
		// (bench/results/zen5-renaming-20261128).
		renamed := f.renamed && storeWidth(st) >= 32 && !vector && !writesVector(ld)
		extra := float64(mem.StoreForwardLatency)
		if writesVector(ld) && mem.VectorStoreForwardLatency > 0 {
			extra = float64(mem.VectorStoreForwardLatency)
		}
		if renamed {
			extra = 0
		}
		move := isMove(ld) || !renamed && widens(ld)
		o := &p.ops[f.insn]
		p.reads[o.reads0+int32(f.read)] = data
		nw := o.writes1 - o.writes0
		for w := int32(0); w < nw; w++ {
			l := &p.lat[o.lat0+int32(f.read)*nw+w]
			if move {
				*l = extra
				continue
			}
			*l = math.Max(0, *l-float64(mem.LoadLatency)) + extra
		}
	}
	slices.Sort(p.defaulted)
	return p, nil
}

// fuse applies the machine's Fusions to the compiled ops of b: the first
// instruction of a fused pair takes no front-end slot, the second takes
// the pair's. Pairs do not overlap; the last instruction of a loop body is
// followed by its first.
func (s *Simulator) fuse(b *block.Block, keys []string, p *program) {
	n := len(b.Insns)
	if n < 2 {
		return
	}
	fused := make([]bool, n)
	for i := range n {
		j := (i + 1) % n
		if fused[i] || fused[j] {
			continue
		}
		common := s.fuseFirst[keys[i]] & s.fuseSecond[keys[j]]
		if common == 0 {
			continue
		}
		reg := ""
		for _, w := range b.Insns[i].Writes {
			if w.Kind == block.Reg {
				reg = w.Name
				break
			}
		}
		if reg == "" || !touches(b.Insns[j].Reads, reg) || !touches(b.Insns[j].Writes, reg) {
			continue
		}
		fused[i], fused[j] = true, true
		p.ops[i].feCost, p.ops[i].feUopCost = 0, 0
	}
}

// wakeup applies the machine's Wakeup to the compiled ops: an instruction
// of its forms that reads a register a head wrote in the same iteration —
// an instruction of the forms reading no register another of them wrote
// before it in the iteration — occupies the resources of its µops
// Wakeup.Cost times as long.
func (s *Simulator) wakeup(deps []block.Dep, keys []string, p *program) {
	n := len(keys)
	head := make([]bool, n)
	for i := range n {
		head[i] = s.wakeForms[keys[i]]
	}
	for _, d := range deps {
		if d.Kind == block.Reg && !d.LoopCarried && s.wakeForms[keys[d.From]] {
			head[d.To] = false
		}
	}
	slow := make([]bool, n)
	for _, d := range deps {
		if d.Kind == block.Reg && !d.LoopCarried && head[d.From] && s.wakeForms[keys[d.To]] {
			slow[d.To] = true
		}
	}
	for j, sl := range slow {
		if !sl {
			continue
		}
		o := &p.ops[j]
		for u := o.uses0; u < o.uses1; u++ {
			p.uses[u].cost *= s.m.Wakeup.Cost
		}
	}
}

// touches reports whether locs holds the register reg.
func touches(locs []block.Location, reg string) bool {
	for _, l := range locs {
		if l.Kind == block.Reg && l.Name == reg {
			return true
		}
	}
	return false
}

// stackEngine makes the stack pointer that a push or pop writes depend on
// the one it reads only, with no latency: x86 cores adjust the stack
// pointer of push and pop in the front end, in a stack engine, so that a
// run of them is no chain through rsp, nor through the stack (Agner Fog,
// "The microarchitecture of Intel, AMD and VIA CPUs": "stack engine"; on
// the Zen 5 host four pushes and four pops take 2 cycles, the store
// ports' bound: bench/results/zen5-renaming-20261128, stack probes). lat
// is the instruction's latency table, a row per read of nw columns
// (completion, then a column per write); −∞ is no dependency.
func stackEngine(in *block.Insn, lat []float64, nw int) {
	if m := in.Form.Mnemonic; m != "push" && m != "pop" {
		return
	}
	for w, wr := range in.Writes {
		if wr.Kind != block.Reg || wr.Name != "rsp" {
			continue
		}
		for k, r := range in.Reads {
			if r.Kind == block.Reg && r.Name == "rsp" {
				lat[k*nw+w+1] = 0
			} else {
				lat[k*nw+w+1] = math.Inf(-1)
			}
		}
	}
}

// leaBase is the register alias of the base of lea in's address.
func leaBase(in *block.Insn) string {
	for _, o := range in.Operands {
		if o.Kind == isa.KindMem {
			return regAlias(o.Mem.Base)
		}
	}
	return ""
}

// complexLEA reports whether in is an x86 lea whose address adds base,
// index and displacement.
func complexLEA(in *block.Insn) bool {
	if in.Form.ISA != isa.X86 || in.Form.Mnemonic != "lea" {
		return false
	}
	for _, o := range in.Operands {
		if o.Kind != isa.KindMem {
			continue
		}
		m := o.Mem
		return m.Base != "" && m.Index != "" && (m.Disp != 0 || m.Symbol != "")
	}
	return false
}

// resourceNames describes the resources the instruction of form key
// uses: "1*p0156+1*p23" for ports, "ALU:0.25+LOAD:0.5" for a resource
// mapping's loads; "" when the machine does not map it.
func (s *Simulator) resourceNames(key string) string {
	var names []string
	if s.opt.Resources != nil {
		loads, _ := s.opt.Resources.Loads(key)
		for r, l := range loads {
			if l > 0 {
				names = append(names, fmt.Sprintf("%s:%.3g", s.resNames[r], l))
			}
		}
		return strings.Join(names, "+")
	}
	uops, _ := s.m.Mapping.Uops(key)
	for _, u := range uops {
		var ports []string
		for _, q := range u.Ports.Indices() {
			ports = append(ports, s.resNames[q])
		}
		names = append(names, fmt.Sprintf("%d*p%s", u.Count, strings.Join(ports, "")))
	}
	return strings.Join(names, "+")
}

// maxOperands is the most operands a form may have for the simulator: the
// sets of operands a location belongs to are bit masks.
const maxOperands = 64

// regOperands are the form operands that read and that write a register
// (bit i: operand i).
type regOperands struct {
	name        string
	read, write uint64
}

// operandMasks fills reads and writes, one a read and one a write of in,
// with the set of form operands (explicit operands in order, then
// implicit ones, as isa.ParseScheme lists them) each belongs to, as a bit
// mask: 0 when it belongs to none. An address register belongs to its
// memory operand; a register that is also an explicit operand (add rax,
// [rax]) belongs to both.
func operandMasks(in *block.Insn, reads, writes []uint64) error {
	f := in.Form
	if len(f.Operands) > maxOperands {
		return fmt.Errorf("form %q has %d operands, more than the %d the simulator handles", f.Key(), len(f.Operands), maxOperands)
	}
	// By register: the operands that read it and those that write it (a
	// write-only destination is no input, a read-only source no output).
	var buf [8]regOperands
	regs := buf[:0]
	add := func(name string, idx int, acc isa.Access) {
		k := 0
		for k < len(regs) && regs[k].name != name {
			k++
		}
		if k == len(regs) {
			regs = append(regs, regOperands{name: name})
		}
		if acc.Reads() {
			regs[k].read |= 1 << idx
		}
		if acc&isa.W != 0 {
			regs[k].write |= 1 << idx
		}
	}
	memIdx := -1
	k := 0 // concrete operand
	for idx := range f.Operands {
		o := &f.Operands[idx]
		if o.Implicit {
			if o.Kind == isa.KindReg && o.Fixed != "" {
				add(alias(o.Fixed), idx, o.Access)
			}
			continue
		}
		if o.Mask {
			continue
		}
		if k >= len(in.Operands) {
			continue
		}
		c := &in.Operands[k]
		k++
		switch c.Kind {
		case isa.KindReg:
			add(alias(c.Reg), idx, o.Access)
			if c.Mask != "" {
				add(alias(c.Mask), idx, isa.R)
			}
		case isa.KindMem:
			memIdx = idx
			if c.Mem.Base != "" {
				add(alias(c.Mem.Base), idx, isa.R)
			}
			if c.Mem.Index != "" {
				add(alias(c.Mem.Index), idx, isa.R)
			}
		}
	}
	find := func(l *block.Location, write bool) uint64 {
		if l.Kind == block.Mem {
			if l.Stack || memIdx < 0 {
				return 0
			}
			return 1 << memIdx
		}
		for _, r := range regs {
			if r.name != l.Name {
				continue
			}
			if write && r.write != 0 {
				return r.write
			}
			if !write && r.read != 0 {
				return r.read
			}
			// A read the form does not declare (a merge): every operand
			// of the register.
			return r.read | r.write
		}
		return 0
	}
	for i := range in.Reads {
		reads[i] = find(&in.Reads[i], false)
	}
	for i := range in.Writes {
		writes[i] = find(&in.Writes[i], true)
	}
	return nil
}

func alias(reg string) string {
	r, ok := isa.LookupRegister(isa.X86, reg)
	if !ok {
		return reg
	}
	if r.Class == isa.Flags {
		return "flags"
	}
	return r.Alias
}

// appendLatencies appends the latency table of in to lat: a row per read,
// a column per written slot (the completion first); and to base the
// latency of each slot when the instruction reads nothing. l is the
// machine's latency of in's form key, when it has one (known).
//
// A form the machine gives a latency for: the operand pair's cycles where
// given, the form's Cycles otherwise. A form it gives none for:
// DefaultLatency, plus LoadLatency from a memory input and its address
// registers, and StoreLatency into a memory output. A read or write that
// belongs to several operands takes the largest of their pairs'.
func (s *Simulator) appendLatencies(lat, base []float64, in *block.Insn, key string, l machine.Latency, known bool) ([]float64, []float64, error) {
	def := s.opt.DefaultLatency
	if def == 0 {
		def = DefaultLatency
	}
	load := s.opt.LoadLatency
	if load == 0 {
		load = DefaultLoadLatency
	}
	store := s.opt.StoreLatency
	if store == 0 {
		store = DefaultStoreLatency
	}
	var buf [16]uint64
	var masks []uint64
	if nm := len(in.Reads) + len(in.Writes); nm > len(buf) {
		masks = make([]uint64, nm)
	} else {
		masks = buf[:nm]
	}
	rMask, wMask := masks[:len(in.Reads)], masks[len(in.Reads):]
	if err := operandMasks(in, rMask, wMask); err != nil {
		return lat, base, err
	}
	var memRead uint64
	for k, r := range in.Reads {
		if r.Kind == block.Mem {
			memRead |= rMask[k]
		}
	}
	pair := func(from, to int, toMem bool) float64 {
		if known {
			for _, o := range l.Operands {
				if o.From == from && o.To == to {
					return float64(o.Cycles)
				}
			}
			return float64(l.Cycles)
		}
		if toMem {
			return store
		}
		if from >= 0 && memRead&(1<<from) != 0 {
			return def + load
		}
		return def
	}
	// first returns the lowest operand of mask; an empty mask stands for
	// operand -1, which no operand latency names.
	first := func(mask uint64) int {
		if mask == 0 {
			return -1
		}
		return bits.TrailingZeros64(mask)
	}
	// one is the latency from a read to a write: the largest over the
	// operands each belongs to.
	one := func(from, to uint64, toMem bool) float64 {
		best := math.Inf(-1)
		for fm, f := from, first(from); ; {
			for tm, t := to, first(to); ; {
				if x := pair(f, t, toMem); x > best {
					best = x // math.Max's result: latencies are never NaN or −0
				}
				if tm &= tm - 1; tm == 0 {
					break
				}
				t = bits.TrailingZeros64(tm)
			}
			if fm &= fm - 1; fm == 0 {
				break
			}
			f = bits.TrailingZeros64(fm)
		}
		return best
	}
	nw := len(in.Writes) + 1
	for k := range in.Reads {
		for w := 0; w < nw; w++ {
			toMem := w > 0 && in.Writes[w-1].Kind == block.Mem
			var to uint64
			if w > 0 {
				to = wMask[w-1]
			}
			lat = append(lat, s.scaleLatency(key, one(rMask[k], to, toMem)))
		}
	}
	for w := 0; w < nw; w++ {
		toMem := w > 0 && in.Writes[w-1].Kind == block.Mem
		c := def
		switch {
		case known:
			c = float64(l.Cycles)
		case toMem:
			c = store
		}
		base = append(base, s.scaleLatency(key, c))
	}
	return lat, base, nil
}

// state is the simulated machine's state: when each resource and value
// is next available.
type state struct {
	res      []float64 // resource → time it is next free
	vals     []float64 // value slot → time the value is ready
	rob      []float64 // reorder-buffer ring: retirement time per µop
	feI, feU float64   // front end: next instruction, next µop issue
	ret      float64   // retirement: next retire
	uopCount int
	robAt    int       // uopCount modulo len(rob): the ring's next entry
	retired  []float64 // per iteration: retirement of its last instruction
	tmp      []float64 // an instruction's outputs before they are stored
	ins      []float64 // an instruction's inputs, each at least its start
}

func newState(p *program, rob, iterations int) *state {
	st := &state{}
	st.init(p, rob, iterations, nil)
	return st
}

// init sets st to the start of a simulation of p, its buffers cut from buf
// (zeroed: from its start) when it is long enough, made otherwise; it
// returns what is left of buf.
func (st *state) init(p *program, rob, iterations int, buf []float64) []float64 {
	take := func(n int) []float64 {
		if n > len(buf) {
			return make([]float64, n)
		}
		x := buf[:n:n]
		buf = buf[n:]
		return x
	}
	most, reads := 0, 0
	for _, o := range p.ops {
		most = max(most, int(o.writes1-o.writes0))
		reads = max(reads, int(o.reads1-o.reads0))
	}
	*st = state{
		res:     take(p.nres),
		vals:    take(p.nslots),
		tmp:     take(most),
		ins:     take(reads),
		retired: take(min(iterations, 256))[:0], // grows when needed
	}
	if rob > 0 {
		st.rob = take(rob)
	}
	return buf
}

// iterate simulates one iteration of p on st and returns the retirement
// time of its last instruction. It allocates nothing.
func (s *Simulator) iterate(p *program, st *state) float64 {
	res, vals, choices, uses, reads, lat, base, ins := st.res, st.vals, p.choices, p.uses, p.reads, p.lat, p.base, st.ins
	resScale := s.resScale
	rob := st.rob
	nrob := len(rob)
	robAt := st.robAt
	// The front end, retirement and µop count in locals for the loop.
	feI, feU, ret, uopCount := st.feI, st.feU, st.ret, st.uopCount
	var retire float64
	for k := range p.ops {
		o := &p.ops[k]
		uops := int(o.uops)
		// Issue: in order, limited by the front end and by the reorder
		// buffer entry of the instruction's last µop.
		t := feI
		if feU > t {
			t = feU
		}
		if nrob > 0 && uopCount+uops-1 >= nrob {
			last := robAt + uops - 1 // no more than one turn ahead: uops ≤ nrob
			if last >= nrob {
				last -= nrob
			} else if last < 0 {
				last += nrob
			}
			if r := rob[last]; r > t {
				t = r
			}
		}
		feI = t + o.feCost
		feU = t + o.feUopCost
		// Resources: each µop takes the earliest free of its choices.
		start := t
		for u := o.uses0; u < o.uses1; u++ {
			us := &uses[u]
			best, bt := earliest(choices[us.lo:us.hi], res)
			if bt < t {
				bt = t
			}
			res[best] = bt + us.cost*resScale[best]
			if bt > start {
				start = bt
			}
		}
		// Values: every written slot is ready at the latest input's
		// time (at least the start) plus its latency to it.
		nw := o.writes1 - o.writes0
		complete := start
		out := vals[o.writes0:o.writes1]
		if o.reads1 == o.reads0 {
			for w := range out {
				ready := start + base[o.base0+int32(w)]
				if ready > complete {
					complete = ready
				}
				out[w] = ready
			}
		} else {
			in := ins[:o.reads1-o.reads0]
			for r, slot := range reads[o.reads0:o.reads1] {
				x := vals[slot]
				if x < start {
					x = start
				}
				in[r] = x
			}
			// The inputs are read: the outputs may overwrite them.
			for w := range out {
				ready := math.Inf(-1)
				row := o.lat0 + int32(w)
				for _, x := range in {
					if y := x + lat[row]; y > ready {
						ready = y
					}
					row += nw
				}
				if ready > complete {
					complete = ready
				}
				out[w] = ready
			}
		}
		// Retirement: in order, limited by the retire width.
		retire = ret
		if complete > retire {
			retire = complete
		}
		ret = retire + o.retCost
		if nrob > 0 {
			for range uops {
				rob[robAt] = retire
				if robAt++; robAt == nrob {
					robAt = 0
				}
			}
		}
		uopCount += uops
	}
	st.feI, st.feU, st.ret, st.uopCount, st.robAt = feI, feU, ret, uopCount, robAt
	return retire
}

// Simulate runs b as a loop body (or a block repeated back to back, as
// BHive measures it: the same thing for the simulator) until the time per
// iteration reaches a steady state, and returns the cycles per iteration.
//
// The steady state is a period: the smallest p ≤ MaxPeriod such that the
// retirement times of iterations i and i−p differ by the same amount for
// the last max(4p, 16) iterations (rounded up to a multiple of p), after
// at least enough iterations to fill the reorder buffer four times; and no
// part of the machine's state — a resource's next free time, a value's
// ready time, the front end, each taken as at least the next issue time —
// grew by more than the retirement (plus its largest single latency or
// cost) since a checkpoint at least half as old as the simulation (a part that grows faster would overtake the retirement
// later). Cycles is that amount divided by p.
// When MaxIterations pass without one, Cycles is the average of the
// second half and Result.Converged is false.
func (s *Simulator) Simulate(b *block.Block) (*Result, error) {
	old, _ := s.programs.Get().(*program)
	p, err := s.compileInto(b, old)
	if err != nil {
		if old != nil {
			s.programs.Put(old)
		}
		return nil, err
	}
	r := s.run(p)
	s.programs.Put(p)
	return r, nil
}

// Timeline simulates exactly n iterations of b, without looking for a
// steady state, and returns when each iteration's last instruction
// retires, in cycles from the start: the warm-up and the steady state as
// a curve.
func (s *Simulator) Timeline(b *block.Block, n int) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("sim: timeline of %d iterations (want at least 1)", n)
	}
	p, err := s.compile(b)
	if err != nil {
		return nil, err
	}
	st := newState(p, s.rob, n)
	for range n {
		st.retired = append(st.retired, s.iterate(p, st))
	}
	return st.retired, nil
}

// minIterations is the number of iterations simulated before looking for
// the steady state.
func (s *Simulator) minIterations(p *program) int {
	n := 16
	if s.rob > 0 && p.uops > 0 {
		n = max(n, 4*s.rob/p.uops+4)
	}
	return n
}

func (s *Simulator) run(p *program) *Result {
	maxIt := s.opt.MaxIterations
	if maxIt <= 0 {
		maxIt = DefaultMaxIterations
	}
	maxP := s.opt.MaxPeriod
	if maxP <= 0 {
		maxP = DefaultMaxPeriod
	}
	minIt := min(s.minIterations(p), maxIt)
	// The state and, after it, checkpoints of the machine's state
	// (resources, values, front end) at iterations 2^k−1: nothing in it
	// may grow faster than the retirement since the last but one, or it
	// would overtake it later.
	sc, _ := s.scratch.Get().(*scratch)
	if sc == nil {
		sc = new(scratch)
	}
	defer s.scratch.Put(sc)
	width := p.nres + p.nslots + 2
	need := p.nres + 2*p.nslots + len(p.reads) + min(maxIt, 256) + s.rob + 4*width // the state's buffers (an instruction's writes and reads at most all) and four of width
	if cap(sc.buf) < need {
		sc.buf = make([]float64, need)
	}
	buf := sc.buf[:need]
	clear(buf)
	st := &sc.st
	buf = st.init(p, s.rob, maxIt, buf)
	res := &Result{Defaulted: p.defaulted}
	take := func() []float64 {
		x := buf[:width:width]
		buf = buf[width:]
		return x
	}
	cur := take()
	ckpt := [2][]float64{take(), take()}
	ckptAt := [2]int{-1, -1}
	slack := s.slack(p, take())
	for n := 0; n < maxIt; n++ {
		st.retired = append(st.retired, s.iterate(p, st))
		if n == 0 {
			res.FirstPass = st.retired[0]
		}
		if n&(n+1) == 0 { // n+1 is a power of two
			st.snapshot(ckpt[0])
			ckpt[0], ckpt[1] = ckpt[1], ckpt[0]
			ckptAt[0], ckptAt[1] = ckptAt[1], n
		}
		if n+1 < minIt {
			continue
		}
		per, win, ok := period(st.retired, maxP)
		if !ok || ckptAt[0] < 0 {
			continue
		}
		st.snapshot(cur)
		if !bounded(cur, ckpt[0], st.retired[n]-st.retired[ckptAt[0]], slack) {
			continue
		}
		last := len(st.retired) - 1
		res.Cycles = (st.retired[last] - st.retired[last-per]) / float64(per)
		res.Iterations, res.Period, res.Window, res.Converged = n+1, per, win, true
		res.Detection = "period " + strconv.Itoa(per) + " over the last " + strconv.Itoa(win) + " of " + strconv.Itoa(n+1) + " iterations"
		return res
	}
	half := maxIt / 2
	r := st.retired
	res.Cycles = (r[len(r)-1] - r[half-1]) / float64(len(r)-half)
	res.Iterations = maxIt
	res.Detection = fmt.Sprintf("no period ≤ %d found in %d iterations: average of iterations %d–%d", maxP, maxIt, half+1, maxIt)
	return res
}

// window is the number of iterations over which a period p must hold: a
// multiple of p, at least 4p and 16.
func window(p int) int {
	if p >= 4 {
		return 4 * p
	}
	return p * ((16 + p - 1) / p)
}

// snapshot copies the state's resources, values and front end into x,
// each at least the next issue time: anything earlier acts as it.
func (st *state) snapshot(x []float64) {
	front := max(st.feI, st.feU)
	k := 0
	for _, v := range st.res {
		x[k] = max(v, front)
		k++
	}
	for _, v := range st.vals {
		x[k] = max(v, front)
		k++
	}
	x[k], x[k+1] = front, front
}

// slack returns, for each part of a snapshot, how much further than the
// issue front one use can push it: a resource's largest cost, a value's
// largest latency, the front end's largest cost. A part may jump by that
// much more than the retirement without growing faster.
func (s *Simulator) slack(p *program, sl []float64) []float64 {
	width := len(sl)
	for _, u := range p.uses {
		for c := u.lo; c < u.hi; c++ {
			r := p.choices[c]
			sl[r] = max(sl[r], u.cost*s.resScale[r])
		}
	}
	for k := range p.ops {
		o := &p.ops[k]
		nw := o.writes1 - o.writes0
		nr := o.reads1 - o.reads0
		for w := int32(0); w < nw; w++ {
			i := p.nres + int(o.writes0+w)
			sl[i] = max(sl[i], p.base[o.base0+w])
			for r := int32(0); r < nr; r++ {
				sl[i] = max(sl[i], p.lat[o.lat0+r*nw+w])
			}
		}
		sl[width-2] = max(sl[width-2], o.feCost, o.feUopCost)
	}
	sl[width-1] = sl[width-2]
	return sl
}

// bounded reports whether no part of the state grew by more than grown
// (and its slack) between the snapshots old and cur.
func bounded(cur, old []float64, grown float64, slack []float64) bool {
	tol := 1e-9 * math.Max(1, math.Abs(grown))
	for i, x := range cur {
		if x-old[i] > grown+slack[i]+tol {
			return false
		}
	}
	return true
}

// period looks for the smallest p ≤ maxP such that r[j]−r[j−p] is the
// same for the last window(p) iterations j.
func period(r []float64, maxP int) (int, int, bool) {
	n := len(r)
	// The periods looked at: up to the first without enough iterations,
	// window(p)+p+1 > n — all of them once n is at least 22 and
	// 5·maxP+1, the most any needs.
	if n < 22 || n < 5*maxP+1 {
		for p := 1; p <= maxP; p++ {
			if n < window(p)+p+1 {
				maxP = p - 1
			}
		}
	}
	if maxP == 0 {
		return 0, 0, false
	}
	last, prev := r[n-1], r[n-2]
	older, old := r[n-1-maxP:n-1], r[n-2-maxP:n-2] // r[n-1-p] is older[maxP-p]
	for p := 1; p <= maxP; p++ {
		d := last - older[maxP-p]
		// The newest iteration first: most p fail there. Then the
		// tolerance, 1e-9 · max(1, |d|), when 1e-9 is not enough.
		if x := math.Abs(prev - old[maxP-p] - d); x > 1e-9 && x > 1e-9*math.Abs(d) {
			continue
		}
		tol := 1e-9
		if a := math.Abs(d); a > 1 {
			tol *= a
		}
		win := window(p)
		ok := true
		for j := n - 3; j >= n-win; j-- {
			if math.Abs(r[j]-r[j-p]-d) > tol {
				ok = false
				break
			}
		}
		if ok {
			return p, win, true
		}
	}
	return 0, 0, false
}

// earliest returns the resource of choices that is free first, by res,
// and when it is free (the first such choice on a tie).
func earliest(choices []int32, res []float64) (int32, float64) {
	best := choices[0]
	bt := res[best]
	for _, r := range choices[1:] {
		if res[r] < bt {
			best, bt = r, res[r]
		}
	}
	return best, bt
}
