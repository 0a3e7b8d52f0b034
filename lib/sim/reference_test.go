package sim

// A frozen copy of the simulator's compile and run path before it was
// made faster (the form and dependency analysis of package block
// included), the reference TestSameAsReference compares the
// simulator with: the speed-ups must not change a result by a bit.

import (
	"errors"
	"fmt"
	"github.com/portlab/portlab/lib/machine"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/isa"
)

type refUse struct {
	lo, hi int32
	cost   float64
}

type refOp struct {
	uops              int32
	uses0, uses1      int32 // into refProgram.uses
	reads0, reads1    int32 // into refProgram.reads: value slots read
	writes0, writes1  int32 // the value slots written (contiguous); writes0 is the completion slot
	lat0              int32 // into refProgram.lat: (reads1-reads0) × (writes1-writes0), row per read
	base0             int32 // into refProgram.base: latency per write without inputs
	feCost, feUopCost float64
	retCost           float64
	text              string
}

type refProgram struct {
	ops       []refOp
	uses      []refUse
	choices   []int32
	reads     []int32
	lat       []float64
	base      []float64
	nslots    int
	uops      int
	nres      int
	defaulted []string
}

func (s *Simulator) refCompile(b *block.Block) (*refProgram, error) {
	if b == nil || len(b.Insns) == 0 {
		return nil, errors.New("sim: empty block")
	}
	n := len(b.Insns)
	p := &refProgram{nres: len(s.resNames), ops: make([]refOp, 0, n), uses: make([]refUse, 0, 2*n), choices: make([]int32, 0, 8*n),
		reads: make([]int32, 0, 4*n), lat: make([]float64, 0, 12*n), base: make([]float64, 0, 3*n)}
	deps := refDeps(b, true)
	slot := 1
	type wkey struct {
		insn int
		name string
	}
	slotOf := make(map[wkey]int32, 2*n)
	firstMem := map[int]int32{}
	var missing []string
	keys := make([]string, len(b.Insns))
	for i := range b.Insns {
		in := &b.Insns[i]
		key := in.Form.Key()
		keys[i] = key
		o := refOp{text: in.Text}
		o.uses0 = int32(len(p.uses))
		if s.opt.Resources != nil {
			loads, ok := s.opt.Resources.Loads(key)
			if !ok {
				missing = append(missing, fmt.Sprintf("line %d %q (form %q)", in.Line, in.Text, key))
				continue
			}
			for r, l := range loads {
				if l > 0 {
					p.uses = append(p.uses, refUse{lo: int32(len(p.choices)), hi: int32(len(p.choices) + 1), cost: l})
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
				for _, q := range u.Ports.Indices() {
					p.choices = append(p.choices, int32(q))
				}
				for range u.Count {
					p.uses = append(p.uses, refUse{lo: lo, hi: int32(len(p.choices)), cost: 1})
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
		o.writes0 = int32(slot)
		slot++
		for _, w := range in.Writes {
			slotOf[wkey{i, w.Name}] = int32(slot)
			if w.Kind == block.Mem {
				if _, ok := firstMem[i]; !ok {
					firstMem[i] = int32(slot)
				}
			}
			slot++
		}
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
	var owner []int32
	if s.chainOf != nil {
		owner = make([]int32, slot)
		for i := range p.ops {
			for w := p.ops[i].writes0; w < p.ops[i].writes1; w++ {
				owner[w] = int32(i)
			}
		}
	}
	depsTo := make([][]block.Dep, len(b.Insns))
	for _, d := range deps {
		depsTo[d.To] = append(depsTo[d.To], d)
	}
	var bufSrc [][]refMemSource
	var bufOK [][]bool
	if s.opt.Aliasing == SameBuffer {
		bufSrc, bufOK = refSameBufferSources(b, s.m.Memory.RenamingBy == machine.RenameByAddress)
	}
	final := map[string]int32{}
	for i := range b.Insns {
		for _, w := range b.Insns[i].Writes {
			if w.Kind != block.Mem {
				final[w.Name] = slotOf[wkey{i, w.Name}]
			}
		}
	}
	cur := map[string]int32{}
	regSlot := func(name string) int32 {
		if sl, ok := cur[name]; ok {
			return sl
		}
		return final[name]
	}
	type fwd struct {
		insn, read, store int
		renamed           bool
	}
	var fwds []fwd
	mem := s.m.Memory
	forwarding := mem.LoadLatency > 0 && (mem.StoreForwardLatency > 0 || mem.Renaming)
	regReads := make([][]int32, len(b.Insns)) // the register slots each instruction reads, per read
	for i := range b.Insns {
		in := &b.Insns[i]
		o := &p.ops[i]
		o.reads0 = int32(len(p.reads))
		regReads[i] = make([]int32, len(in.Reads))
		for k, r := range in.Reads {
			var src int32 // 0: nobody writes it
			store := -1
			renamed := false
			if r.Kind == block.Mem && bufOK != nil && bufOK[i][k] {
				if ms := bufSrc[i][k]; ms.store >= 0 {
					store, renamed = ms.store, ms.renamed
					src = firstMem[store]
				}
			} else {
				for _, d := range depsTo[i] {
					if d.Via != r.Name {
						continue
					}
					if sl, ok := slotOf[wkey{d.From, r.Name}]; ok {
						src = sl
					} else if sl, ok := firstMem[d.From]; ok && r.Kind == block.Mem {
						src = sl // a store of another width that overlaps
					}
					if r.Kind == block.Mem && !r.Stack {
						store = d.From
						renamed = refSameAddress(b.Insns[d.From], r.Mem)
					}
				}
			}
			if r.Kind != block.Mem {
				regReads[i][k] = src
			}
			if forwarding && store >= 0 {
				fwds = append(fwds, fwd{i, k, store, renamed && mem.Renaming})
			}
			p.reads = append(p.reads, src)
		}
		var merge int32 = -1
		if s.m.MergeLatency > 0 {
			if w, ok := refMergesXMM(in); ok {
				merge = regSlot(w.Name)
				p.reads = append(p.reads, merge)
			}
		}
		o.reads1 = int32(len(p.reads))
		for _, w := range in.Writes {
			if w.Kind != block.Mem {
				cur[w.Name] = slotOf[wkey{i, w.Name}]
			}
		}
		if _, ok := s.m.Latencies[keys[i]]; !ok && !slices.Contains(p.defaulted, keys[i]) {
			p.defaulted = append(p.defaulted, keys[i])
		}
		lat, base, err := s.refLatencies(in, keys[i])
		if err != nil {
			return nil, fmt.Errorf("sim: line %d %q: %w", in.Line, in.Text, err)
		}
		if m := in.Form.Mnemonic; m == "push" || m == "pop" {
			nw := len(in.Writes) + 1
			for k, rd := range in.Reads {
				for w, wr := range in.Writes {
					if wr.Kind == block.Reg && wr.Name == "rsp" {
						if rd.Kind == block.Reg && rd.Name == "rsp" {
							lat[k*nw+w+1] = 0
						} else {
							lat[k*nw+w+1] = math.Inf(-1)
						}
					}
				}
			}
		}
		if r, ok := refAddressIncrement(b, in); ok && s.m.AddressIncrementLatency > 0 {
			nw := len(in.Writes) + 1
			for k, rd := range in.Reads {
				if rd.Name != r {
					continue
				}
				for w := 0; w < nw; w++ {
					if w == 0 || in.Writes[w-1].Name == r {
						lat[k*nw+w] = s.refScaleLatency(keys[i], s.m.AddressIncrementLatency)
					}
				}
			}
		}
		if s.m.ComplexLEALatency > 0 && refComplexLEA(in) {
			nw := len(in.Writes) + 1
			base := ""
			for _, o := range in.Operands {
				if o.Kind == isa.KindMem {
					base = refRegAlias(o.Mem.Base)
				}
			}
			for k, rd := range in.Reads {
				if rd.Kind == block.Mem || s.m.ComplexLEAFrom == machine.ComplexLEAFromBase && rd.Name != base {
					continue
				}
				for w := 0; w < nw; w++ {
					lat[k*nw+w] = s.refScaleLatency(keys[i], s.m.ComplexLEALatency)
				}
			}
		}
		if ch, ok := s.chainOf[keys[i]]; ok {
			nw := len(in.Writes) + 1
			for k, rd := range in.Reads {
				src := regReads[i][k]
				if rd.Kind == block.Mem || src == 0 {
					continue
				}
				if c, ok := s.chainOf[keys[owner[src]]]; !ok || c != ch {
					continue
				}
				for w := 0; w < nw; w++ {
					lat[k*nw+w] = s.refScaleLatency(keys[i], s.m.Chains[ch].Cycles)
				}
			}
		}
		if merge >= 0 {
			for range len(in.Writes) + 1 {
				lat = append(lat, s.refScaleLatency(keys[i], float64(s.m.MergeLatency)))
			}
		}
		o.lat0 = int32(len(p.lat))
		p.lat = append(p.lat, lat...)
		o.base0 = int32(len(p.base))
		p.base = append(p.base, base...)
	}
	for _, f := range fwds {
		st := &b.Insns[f.store]
		data := int32(-1)
		vector := false
		operand := refMoves[st.Form.Mnemonic] && len(st.Operands) == 2 && st.Operands[0].Kind == isa.KindMem
		for k, r := range st.Reads {
			if operand && r.Kind == block.Reg && !refIsAddressRegister(st, r.Name) {
				data = regReads[f.store][k]
				vector = refIsVectorRegister(r.Name)
				break
			}
		}
		if data < 0 {
			data = p.ops[f.store].writes0 // an immediate or a computed value: when the store completes
		}
		width := 0
		for _, w := range st.Writes {
			if w.Kind == block.Mem && !w.Stack {
				width = w.Mem.Width
				break
			}
		}
		ld := &b.Insns[f.insn]
		renamed := f.renamed && width >= 32 && !vector && !refWritesVector(ld)
		extra := float64(mem.StoreForwardLatency)
		if refWritesVector(ld) && mem.VectorStoreForwardLatency > 0 {
			extra = float64(mem.VectorStoreForwardLatency)
		}
		if renamed {
			extra = 0
		}
		move := refIsMove(ld) || !renamed && (ld.Form.Mnemonic == "movzx" || ld.Form.Mnemonic == "movsx") && len(ld.Operands) == 2 && ld.Operands[0].Kind == isa.KindReg
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

func refComplexLEA(in *block.Insn) bool {
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

func refOperandIndex(in *block.Insn) (reads, writes [][]int) {
	f := in.Form
	readBy, writeBy := map[string][]int{}, map[string][]int{}
	add := func(name string, idx int, acc isa.Access) {
		if acc.Reads() {
			readBy[name] = append(readBy[name], idx)
		}
		if acc&isa.W != 0 {
			writeBy[name] = append(writeBy[name], idx)
		}
	}
	memIdx := -1
	k := 0 // concrete operand
	for idx, o := range f.Operands {
		if o.Implicit {
			if o.Kind == isa.KindReg && o.Fixed != "" {
				add(refAlias(o.Fixed), idx, o.Access)
			}
			continue
		}
		if o.Mask {
			continue
		}
		if k >= len(in.Operands) {
			continue
		}
		c := in.Operands[k]
		k++
		switch c.Kind {
		case isa.KindReg:
			add(refAlias(c.Reg), idx, o.Access)
			if c.Mask != "" {
				add(refAlias(c.Mask), idx, isa.R)
			}
		case isa.KindMem:
			memIdx = idx
			for _, r := range []string{c.Mem.Base, c.Mem.Index} {
				if r != "" {
					add(refAlias(r), idx, isa.R)
				}
			}
		}
	}
	find := func(l block.Location, by map[string][]int) []int {
		if l.Kind == block.Mem {
			if l.Stack || memIdx < 0 {
				return nil
			}
			return []int{memIdx}
		}
		if x := by[l.Name]; len(x) > 0 {
			return x
		}
		return append(append([]int(nil), readBy[l.Name]...), writeBy[l.Name]...)
	}
	for _, r := range in.Reads {
		reads = append(reads, find(r, readBy))
	}
	for _, w := range in.Writes {
		writes = append(writes, find(w, writeBy))
	}
	return reads, writes
}

func refAlias(reg string) string {
	r, ok := isa.LookupRegister(isa.X86, reg)
	if !ok {
		return reg
	}
	if r.Class == isa.Flags {
		return "flags"
	}
	return r.Alias
}

func (s *Simulator) refLatencies(in *block.Insn, key string) (lat, base []float64, err error) {
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
	l, known := s.m.Latencies[key]
	rIdx, wIdx := refOperandIndex(in)
	memRead := map[int]bool{}
	for k, r := range in.Reads {
		if r.Kind == block.Mem {
			for _, i := range rIdx[k] {
				memRead[i] = true
			}
		}
	}
	nw := len(in.Writes) + 1
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
		if memRead[from] {
			return def + load
		}
		return def
	}
	one := func(from, to []int, toMem bool) float64 {
		if len(from) == 0 {
			from = []int{-1}
		}
		if len(to) == 0 {
			to = []int{-1}
		}
		best := math.Inf(-1)
		for _, f := range from {
			for _, t := range to {
				best = math.Max(best, pair(f, t, toMem))
			}
		}
		return best
	}
	for k := range in.Reads {
		for w := 0; w < nw; w++ {
			toMem := w > 0 && in.Writes[w-1].Kind == block.Mem
			var to []int
			if w > 0 {
				to = wIdx[w-1]
			}
			lat = append(lat, s.refScaleLatency(key, one(rIdx[k], to, toMem)))
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
		base = append(base, s.refScaleLatency(key, c))
	}
	return lat, base, nil
}

type refState struct {
	res      []float64 // resource → time it is next free
	vals     []float64 // value slot → time the value is ready
	rob      []float64 // reorder-buffer ring: retirement time per µop
	feI, feU float64   // front end: next instruction, next µop issue
	ret      float64   // retirement: next retire
	uopCount int
	retired  []float64 // per iteration: retirement of its last instruction
	tmp      []float64 // an instruction's outputs before they are stored
}

func refNewState(p *refProgram, rob, iterations int) *refState {
	st := &refState{
		res:     make([]float64, p.nres),
		vals:    make([]float64, p.nslots),
		retired: make([]float64, 0, min(iterations, 256)), // grows when needed
	}
	most := 0
	for _, o := range p.ops {
		most = max(most, int(o.writes1-o.writes0))
	}
	st.tmp = make([]float64, most)
	if rob > 0 {
		st.rob = make([]float64, rob)
	}
	return st
}

func (s *Simulator) refIterate(p *refProgram, st *refState) float64 {
	res, vals, choices, uses, reads, lat, base, tmp := st.res, st.vals, p.choices, p.uses, p.reads, p.lat, p.base, st.tmp
	resScale := s.resScale
	rob := st.rob
	nrob := len(rob)
	var retire float64
	for k := range p.ops {
		o := &p.ops[k]
		t := st.feI
		if st.feU > t {
			t = st.feU
		}
		if nrob > 0 {
			last := st.uopCount + int(o.uops) - 1
			if last >= nrob {
				if r := rob[last%nrob]; r > t {
					t = r
				}
			}
		}
		st.feI = t + o.feCost
		st.feU = t + o.feUopCost
		start := t
		for u := o.uses0; u < o.uses1; u++ {
			us := &uses[u]
			best, bt := refEarliest(choices[us.lo:us.hi], res)
			if bt < t {
				bt = t
			}
			res[best] = bt + us.cost*resScale[best]
			if bt > start {
				start = bt
			}
		}
		nw := o.writes1 - o.writes0
		nr := o.reads1 - o.reads0
		complete := start
		for w := int32(0); w < nw; w++ {
			var ready float64
			if nr == 0 {
				ready = start + base[o.base0+w]
			} else {
				ready = math.Inf(-1)
				row := o.lat0 + w
				for r := o.reads0; r < o.reads1; r++ {
					in := vals[reads[r]]
					if in < start {
						in = start
					}
					if x := in + lat[row]; x > ready {
						ready = x
					}
					row += nw
				}
			}
			if ready > complete {
				complete = ready
			}
			tmp[w] = ready // not vals yet: the instruction may read what it writes
		}
		copy(vals[o.writes0:o.writes1], tmp[:nw])
		retire = st.ret
		if complete > retire {
			retire = complete
		}
		st.ret = retire + o.retCost
		if nrob > 0 {
			for u := 0; u < int(o.uops); u++ {
				rob[(st.uopCount+u)%nrob] = retire
			}
		}
		st.uopCount += int(o.uops)
	}
	return retire
}

func (s *Simulator) refMinIterations(p *refProgram) int {
	n := 16
	if s.rob > 0 && p.uops > 0 {
		n = max(n, 4*s.rob/p.uops+4)
	}
	return n
}

func (s *Simulator) refRun(p *refProgram) *Result {
	maxIt := s.opt.MaxIterations
	if maxIt <= 0 {
		maxIt = DefaultMaxIterations
	}
	maxP := s.opt.MaxPeriod
	if maxP <= 0 {
		maxP = DefaultMaxPeriod
	}
	minIt := min(s.refMinIterations(p), maxIt)
	st := refNewState(p, s.rob, maxIt)
	res := &Result{Defaulted: p.defaulted}
	width := len(st.res) + len(st.vals) + 2
	cur := make([]float64, width)
	ckpt := [2][]float64{make([]float64, width), make([]float64, width)}
	ckptAt := [2]int{-1, -1}
	refSlack := s.refSlack(p, width)
	for n := 0; n < maxIt; n++ {
		st.retired = append(st.retired, s.refIterate(p, st))
		if n == 0 {
			res.FirstPass = st.retired[0]
		}
		if n&(n+1) == 0 { // n+1 is a power of two
			st.refSnapshot(ckpt[0])
			ckpt[0], ckpt[1] = ckpt[1], ckpt[0]
			ckptAt[0], ckptAt[1] = ckptAt[1], n
		}
		if n+1 < minIt {
			continue
		}
		per, win, ok := refPeriod(st.retired, maxP)
		if !ok || ckptAt[0] < 0 {
			continue
		}
		st.refSnapshot(cur)
		if !refBounded(cur, ckpt[0], st.retired[n]-st.retired[ckptAt[0]], refSlack) {
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

func refWindow(p int) int {
	return p * max(4, (16+p-1)/p)
}

func (st *refState) refSnapshot(x []float64) {
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

func (s *Simulator) refSlack(p *refProgram, width int) []float64 {
	sl := make([]float64, width)
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

func refBounded(cur, old []float64, grown float64, refSlack []float64) bool {
	tol := 1e-9 * math.Max(1, math.Abs(grown))
	for i, x := range cur {
		if x-old[i] > grown+refSlack[i]+tol {
			return false
		}
	}
	return true
}

func refPeriod(r []float64, maxP int) (int, int, bool) {
	n := len(r)
	for p := 1; p <= maxP; p++ {
		win := refWindow(p)
		if n < win+p+1 {
			return 0, 0, false
		}
		d := r[n-1] - r[n-1-p]
		tol := 1e-9 * math.Max(1, math.Abs(d))
		ok := true
		for j := n - 2; j >= n-win; j-- {
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

func refEarliest(choices []int32, res []float64) (int32, float64) {
	best := choices[0]
	bt := res[best]
	for _, r := range choices[1:] {
		if res[r] < bt {
			best, bt = r, res[r]
		}
	}
	return best, bt
}

type refAffine struct {
	known bool
	base  bool
	off   int64
}

type refMemSource struct {
	store   int
	renamed bool
}

func refSameBufferSources(b *block.Block, byAddress bool) (src [][]refMemSource, ok [][]bool) {
	n := len(b.Insns)
	vals := map[string]refAffine{}
	for _, in := range b.Insns {
		if m := in.Form.Mnemonic; m == "lea" || strings.HasPrefix(m, "nop") || strings.HasPrefix(m, "prefetch") {
			continue
		}
		for _, o := range in.Operands {
			if o.Kind != isa.KindMem {
				continue
			}
			if r := refRegAlias(o.Mem.Base); r != "" {
				vals[r] = refAffine{known: true, base: true}
			}
			if r := refRegAlias(o.Mem.Index); r != "" {
				if _, seen := vals[r]; !seen {
					vals[r] = refAffine{known: true}
				}
			}
		}
	}
	start := map[string]refAffine{}
	for r, v := range vals {
		start[r] = v
	}
	get := func(r string) refAffine {
		if r == "" {
			return refAffine{known: true}
		}
		return vals[refRegAlias(r)]
	}
	address := func(m block.MemRef) (refAffine, bool) {
		if m.Segment != "" || m.Symbol != "" || m.Base == "rip" || m.Base == "" {
			return refAffine{}, false
		}
		bv, iv := get(m.Base), get(m.Index)
		if !bv.known || !iv.known || iv.base && m.Index != "" {
			return refAffine{}, false
		}
		scale := int64(1)
		if m.Index != "" {
			scale = int64(m.Scale)
		}
		return refAffine{known: true, base: bv.base, off: bv.off + iv.off*scale + m.Disp}, true
	}
	type access struct {
		a       refAffine
		ok      bool
		m       block.MemRef
		k       int // index into Reads or Writes
		isStore bool
	}
	accs := make([][]access, n)
	for i := range b.Insns {
		in := &b.Insns[i]
		var mem *block.MemRef
		for k := range in.Operands {
			if in.Operands[k].Kind == isa.KindMem {
				mem = &in.Operands[k].Mem
			}
		}
		if mem != nil && in.Form.Mnemonic != "lea" && !strings.HasPrefix(in.Form.Mnemonic, "nop") && !strings.HasPrefix(in.Form.Mnemonic, "prefetch") {
			a, aok := address(*mem)
			for k, r := range in.Reads {
				if r.Kind == block.Mem && !r.Stack {
					accs[i] = append(accs[i], access{a: a, ok: aok, m: r.Mem, k: k})
				}
			}
			for k, w := range in.Writes {
				if w.Kind == block.Mem && !w.Stack {
					accs[i] = append(accs[i], access{a: a, ok: aok, m: w.Mem, k: k, isStore: true})
				}
			}
		}
		refStep(in, vals)
	}
	stepOf := map[string]int64{}
	stepOK := map[string]bool{}
	for r, v0 := range start {
		v1 := vals[r]
		if v1.known && v1.base == v0.base {
			stepOf[r], stepOK[r] = v1.off-v0.off, true
		}
	}
	iterStep := func(m block.MemRef) (int64, bool) {
		var s int64
		if r := refRegAlias(m.Base); r != "" {
			if !stepOK[r] {
				return 0, false
			}
			s += stepOf[r]
		}
		if r := refRegAlias(m.Index); r != "" {
			if !stepOK[r] {
				return 0, false
			}
			s += stepOf[r] * int64(m.Scale)
		}
		return s, true
	}
	width := func(m block.MemRef) int64 {
		if m.Width <= 0 {
			return 1
		}
		return int64(m.Width / 8)
	}
	src = make([][]refMemSource, n)
	ok = make([][]bool, n)
	for j := range b.Insns {
		src[j] = make([]refMemSource, len(b.Insns[j].Reads))
		ok[j] = make([]bool, len(b.Insns[j].Reads))
		for k := range src[j] {
			src[j][k].store = -1
		}
		for _, ld := range accs[j] {
			if ld.isStore || !ld.ok {
				continue
			}
			sj, sok := iterStep(ld.m)
			if !sok {
				continue
			}
			ok[j][ld.k] = true
			found := func(k int, st access, d int64) bool {
				sk, skok := iterStep(st.m)
				if !st.ok || !skok || sk != sj || st.a.base != ld.a.base {
					return false
				}
				lo := st.a.off - d*sk
				if !(lo < ld.a.off+width(ld.m) && ld.a.off < lo+width(st.m)) {
					return false
				}
				renamed := (byAddress || refRegAlias(st.m.Base) == refRegAlias(ld.m.Base) && refRegAlias(st.m.Index) == refRegAlias(ld.m.Index) &&
					(st.m.Index == "" || st.m.Scale == ld.m.Scale)) && lo == ld.a.off && width(st.m) == width(ld.m)
				src[j][ld.k] = refMemSource{store: k, renamed: renamed}
				return true
			}
			for _, same := range []bool{true, false} {
				done := false
				for k := j - 1; k >= 0 && !done; k-- {
					for _, st := range accs[k] {
						if st.isStore && (!same || refSameExpression(st.m, ld.m)) && found(k, st, 0) {
							done = true
							break
						}
					}
				}
				for k := n - 1; k >= j && !done; k-- {
					for _, st := range accs[k] {
						if st.isStore && (!same || refSameExpression(st.m, ld.m)) && found(k, st, 1) {
							done = true
							break
						}
					}
				}
				if done {
					break
				}
			}
		}
	}
	return src, ok
}

func refStep(in *block.Insn, vals map[string]refAffine) {
	m := in.Form.Mnemonic
	ops := in.Operands
	var dst string
	if len(ops) > 0 && ops[0].Kind == isa.KindReg {
		dst = refRegAlias(ops[0].Reg)
	}
	set := func(v refAffine) {
		if dst != "" {
			if _, tracked := vals[dst]; tracked || v.known {
				vals[dst] = v
			}
		}
	}
	wide := dst != "" && refRegWidth(ops[0].Reg) == 64
	switch {
	case dst != "" && len(ops) == 2 && (m == "add" || m == "sub") && ops[1].Kind == isa.KindImm && ops[1].Symbol == "":
		v := vals[dst]
		if !v.known || v.base && !wide {
			set(refAffine{})
			break
		}
		if m == "add" {
			v.off += ops[1].Imm
		} else {
			v.off -= ops[1].Imm
		}
		set(v)
	case dst != "" && len(ops) == 1 && (m == "inc" || m == "dec"):
		v := vals[dst]
		if !v.known || v.base && !wide {
			set(refAffine{})
			break
		}
		if m == "inc" {
			v.off++
		} else {
			v.off--
		}
		set(v)
	case dst != "" && len(ops) == 2 && m == "lea" && ops[1].Kind == isa.KindMem:
		mr := ops[1].Mem
		bv, iv := refAffine{known: true}, refAffine{known: true}
		if mr.Base != "" {
			bv = vals[refRegAlias(mr.Base)]
		}
		if mr.Index != "" {
			iv = vals[refRegAlias(mr.Index)]
		}
		scale := int64(mr.Scale)
		if mr.Index == "" {
			scale = 0
		}
		if !bv.known || !iv.known || iv.base && scale != 1 || bv.base && iv.base || mr.Symbol != "" || mr.Base == "rip" || (bv.base || iv.base) && !wide {
			set(refAffine{})
			break
		}
		set(refAffine{known: true, base: bv.base || iv.base, off: bv.off + iv.off*scale + mr.Disp})
	case dst != "" && len(ops) == 2 && m == "mov" && ops[1].Kind == isa.KindReg:
		v := vals[refRegAlias(ops[1].Reg)]
		if v.base && !wide {
			v = refAffine{}
		}
		set(v)
	default:
		for _, w := range in.Writes {
			if w.Kind == block.Reg {
				if _, tracked := vals[w.Name]; tracked {
					vals[w.Name] = refAffine{}
				}
			}
		}
	}
}

func refRegAlias(r string) string {
	if r == "" || r == "rip" || r == "eip" {
		return ""
	}
	if x, ok := isa.LookupRegister(isa.X86, r); ok {
		return x.Alias
	}
	return r
}

func refRegWidth(r string) int {
	if x, ok := isa.LookupRegister(isa.X86, r); ok {
		return x.Width
	}
	return 0
}

func refMergesXMM(in *block.Insn) (block.Location, bool) {
	if strings.HasPrefix(in.Form.Mnemonic, "v") || len(in.Operands) == 0 {
		return block.Location{}, false
	}
	o := in.Operands[0]
	if o.Kind != isa.KindReg {
		return block.Location{}, false
	}
	r, ok := isa.LookupRegister(isa.X86, o.Reg)
	if !ok || r.Class != isa.XMM {
		return block.Location{}, false
	}
	for _, w := range in.Writes {
		if w.Kind == block.Reg && w.Name == r.Alias {
			return w, true
		}
	}
	return block.Location{}, false
}

func refIsAddressRegister(in *block.Insn, r string) bool {
	for _, o := range in.Operands {
		if o.Kind == isa.KindMem && (refRegAlias(o.Mem.Base) == r || refRegAlias(o.Mem.Index) == r) {
			return true
		}
	}
	return false
}

func refSameAddress(st block.Insn, m block.MemRef) bool {
	if m.Base == "" || m.Base == "rip" || m.Symbol != "" || m.Segment != "" {
		return false
	}
	for _, w := range st.Writes {
		if w.Kind == block.Mem && !w.Stack && refSameExpression(w.Mem, m) {
			return true
		}
	}
	return false
}

func refSameExpression(a, b block.MemRef) bool {
	return refRegAlias(a.Base) == refRegAlias(b.Base) && refRegAlias(a.Index) == refRegAlias(b.Index) && (a.Index == "" || a.Scale == b.Scale) &&
		a.Disp == b.Disp && a.Width == b.Width && a.Segment == b.Segment && a.Symbol == b.Symbol
}

func refIsVectorRegister(r string) bool {
	x, ok := isa.LookupRegister(isa.X86, r)
	return ok && (x.Class == isa.XMM || x.Class == isa.YMM || x.Class == isa.ZMM)
}

func refWritesVector(in *block.Insn) bool {
	for _, w := range in.Writes {
		if w.Kind == block.Reg && refIsVectorRegister(w.Name) {
			return true
		}
	}
	return false
}

var refMoves = map[string]bool{"mov": true, "movq": true, "movd": true, "movss": true, "movsd": true, "movups": true, "movaps": true,
	"movupd": true, "movapd": true, "movdqu": true, "movdqa": true, "vmovq": true, "vmovd": true, "vmovss": true, "vmovsd": true,
	"vmovups": true, "vmovaps": true, "vmovupd": true, "vmovapd": true, "vmovdqu": true, "vmovdqa": true}

func refIsMove(in *block.Insn) bool {
	return refMoves[in.Form.Mnemonic] && len(in.Operands) == 2 && in.Operands[0].Kind == isa.KindReg
}

func refAddressIncrement(b *block.Block, in *block.Insn) (string, bool) {
	m := in.Form.Mnemonic
	ops := in.Operands
	if len(ops) == 0 || ops[0].Kind != isa.KindReg || refRegWidth(ops[0].Reg) != 64 {
		return "", false
	}
	switch {
	case (m == "add" || m == "sub") && len(ops) == 2 && ops[1].Kind == isa.KindImm && ops[1].Symbol == "":
	case (m == "inc" || m == "dec") && len(ops) == 1:
	default:
		return "", false
	}
	r := refRegAlias(ops[0].Reg)
	for k := range b.Insns {
		if refIsAddressRegister(&b.Insns[k], r) && b.Insns[k].Form.Mnemonic != "lea" {
			return r, true
		}
	}
	return "", false
}

func (s *Simulator) refScaleLatency(key string, c float64) float64 {
	for _, ch := range s.opt.Changes {
		if ch.Form != "*" && ch.Form != key {
			continue
		}
		if ch.Latency != 0 {
			c *= ch.Latency
		}
		c += ch.LatencyAdd
		if c < 0 {
			c = 0
		}
	}
	return c
}

func refDepRegLoc(name string) block.Location {
	r, ok := isa.LookupRegister(isa.X86, name)
	if !ok {
		return block.Location{Kind: block.Reg, Name: name}
	}
	if r.Class == isa.Flags {
		return block.Location{Kind: block.Flags, Name: "flags"}
	}
	return block.Location{Kind: block.Reg, Name: r.Alias}
}

type refDepMemWrite struct {
	insn     int
	m        block.MemRef
	baseVer  int
	indexVer int
}

func refDeps(b *block.Block, loop bool) []block.Dep {
	type key struct {
		from, to int
		via      string
		carried  bool
	}
	seen := map[key]bool{}
	var deps []block.Dep
	add := func(from, to int, l block.Location, carried bool) {
		k := key{from, to, l.Name, carried}
		if !seen[k] {
			seen[k] = true
			deps = append(deps, block.Dep{From: from, To: to, Kind: l.Kind, Via: l.Name, LoopCarried: carried})
		}
	}
	writtenAnywhere := map[string]bool{}
	lastWriter := map[string]int{} // by register alias, "flags", "stack": the final writer after one pass
	for i, in := range b.Insns {
		for _, w := range in.Writes {
			if w.Kind != block.Mem || w.Stack {
				writtenAnywhere[w.Name] = true
				lastWriter[w.Name] = i
			}
		}
	}
	cur := map[string]int{}
	ver := func(r string) int {
		if r == "" || r == "rip" || r == "eip" {
			return -1
		}
		if i, ok := cur[refDepRegLoc(r).Name]; ok {
			return i
		}
		return -1
	}
	invariant := func(m block.MemRef) bool {
		return (m.Base == "" || !writtenAnywhere[refDepRegLoc(m.Base).Name] || m.Base == "rip") &&
			(m.Index == "" || !writtenAnywhere[refDepRegLoc(m.Index).Name])
	}
	stores := map[refDepAddrID][]refDepMemWrite{}
	invariantStores := map[refDepAddrID][]refDepMemWrite{} // the whole block's, for loop-carried edges
	if loop {
		for k, in := range b.Insns {
			for _, w := range in.Writes {
				if w.Kind == block.Mem && !w.Stack && invariant(w.Mem) {
					key := refDepAddrKey(w.Mem, -1, -1)
					invariantStores[key] = append(invariantStores[key], refDepMemWrite{k, w.Mem, -1, -1})
				}
			}
		}
	}
	for j, in := range b.Insns {
		for _, r := range in.Reads {
			if r.Kind != block.Mem || r.Stack {
				if w, ok := cur[r.Name]; ok {
					add(w, j, r, false)
				} else if w, ok := lastWriter[r.Name]; ok && loop {
					add(w, j, r, true)
				}
				continue
			}
			bv, iv := ver(r.Mem.Base), ver(r.Mem.Index)
			key := refDepAddrKey(r.Mem, bv, iv)
			found := false
			list := stores[key]
			for k := len(list) - 1; k >= 0; k-- {
				if refDepOverlap(list[k].m, r.Mem) {
					add(list[k].insn, j, r, false)
					found = true
					break
				}
			}
			if found || !loop || bv != -1 || iv != -1 || !invariant(r.Mem) {
				continue
			}
			list = invariantStores[key]
			for k := len(list) - 1; k >= 0 && list[k].insn >= j; k-- {
				if refDepOverlap(list[k].m, r.Mem) {
					add(list[k].insn, j, r, true)
					break
				}
			}
		}
		for _, w := range in.Writes {
			if w.Kind == block.Mem && !w.Stack {
				bv, iv := ver(w.Mem.Base), ver(w.Mem.Index)
				key := refDepAddrKey(w.Mem, bv, iv)
				stores[key] = append(stores[key], refDepMemWrite{j, w.Mem, bv, iv})
			}
		}
		for _, w := range in.Writes {
			if w.Kind != block.Mem || w.Stack {
				cur[w.Name] = j
			}
		}
	}
	sort.SliceStable(deps, func(a, c int) bool {
		if deps[a].To != deps[c].To {
			return deps[a].To < deps[c].To
		}
		return deps[a].From < deps[c].From
	})
	return deps
}

type refDepAddrID struct {
	segment, symbol, base, index string
	baseVer, indexVer, scale     int
}

func refDepAddrKey(m block.MemRef, baseVer, indexVer int) refDepAddrID {
	scale := 0
	if m.Index != "" {
		scale = m.Scale
	}
	return refDepAddrID{m.Segment, m.Symbol, m.Base, m.Index, baseVer, indexVer, scale}
}

func refDepOverlap(a, b block.MemRef) bool {
	if a.Segment != b.Segment || a.Base != b.Base || a.Index != b.Index || a.Symbol != b.Symbol {
		return false
	}
	if a.Index != "" && a.Scale != b.Scale {
		return false
	}
	wa, wb := int64(a.Width/8), int64(b.Width/8)
	if wa == 0 {
		wa = 1
	}
	if wb == 0 {
		wb = 1
	}
	return a.Disp < b.Disp+wb && b.Disp < a.Disp+wa
}
