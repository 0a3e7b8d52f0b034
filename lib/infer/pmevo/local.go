package pmevo

import (
	"context"
	"slices"

	"github.com/portlab/portlab/lib/portmap"
)

// searcher improves one candidate by hill climbing on the fixed objective
// D_avg + w·V, re-evaluating only the experiments that contain the
// instruction being changed.
type searcher struct {
	p    *problem
	g    genome
	errs []float64 // relative error per experiment
	sum  float64   // Σ errs
	vol  int
	w    float64
	buf  []float64
}

func (p *problem) newSearcher(g genome, w float64) *searcher {
	s := &searcher{p: p, g: g.clone(), errs: make([]float64, len(p.meas)), vol: volume(g), w: w}
	for j := range p.meas {
		s.errs[j] = p.relErr(p.predict(s.g, j), j)
		s.sum += s.errs[j]
	}
	return s
}

func (s *searcher) score() float64 {
	return s.sum/float64(len(s.errs)) + s.w*float64(s.vol)
}

// try evaluates replacing the µops of instruction i by es and returns the
// change of the score; the new errors are left in s.buf.
func (s *searcher) try(i int, es []entry) float64 {
	old := s.g[i]
	s.g[i] = es
	touch := s.p.touch[i]
	s.buf = s.buf[:0]
	delta := 0.0
	for _, j := range touch {
		e := s.p.relErr(s.p.predict(s.g, int(j)), int(j))
		s.buf = append(s.buf, e)
		delta += e - s.errs[j]
	}
	s.g[i] = old
	dv := entriesVolume(es) - entriesVolume(old)
	return delta/float64(len(s.errs)) + s.w*float64(dv)
}

// accept installs es for instruction i using the errors of the last try.
func (s *searcher) accept(i int, es []entry) {
	for k, j := range s.p.touch[i] {
		s.sum += s.buf[k] - s.errs[j]
		s.errs[j] = s.buf[k]
	}
	s.vol += entriesVolume(es) - entriesVolume(s.g[i])
	s.g[i] = es
}

func entriesVolume(es []entry) int {
	v := 0
	for _, e := range es {
		v += int(e.n) * e.ports.Len()
	}
	return v
}

// tol absorbs rounding in score comparisons.
const tol = 1e-12

// paperLocalSearch is PMEvo's final local search (thesis §5.1.3): for every
// entry (i, n, u), decrement n as long as the result is at least as fit (down
// to removing the entry); if the first decrement is worse, increment n as long
// as each step is strictly fitter.
func (s *searcher) paperLocalSearch(ctx context.Context) {
	for i := range s.g {
		if ctx.Err() != nil {
			return
		}
		for k := 0; k < len(s.g[i]); k++ {
			u := s.g[i][k].ports
			shrunk := false
			for {
				k := slices.IndexFunc(s.g[i], func(e entry) bool { return e.ports == u })
				if k < 0 {
					break
				}
				es := withCount(s.g[i], k, s.g[i][k].n-1)
				if s.try(i, es) > tol {
					break
				}
				s.accept(i, es)
				shrunk = true
			}
			if shrunk {
				if !slices.ContainsFunc(s.g[i], func(e entry) bool { return e.ports == u }) {
					k-- // the entry was removed; the next one moved into place k
				}
				continue
			}
			for {
				es := withCount(s.g[i], k, s.g[i][k].n+1)
				if s.try(i, es) >= -tol {
					break
				}
				s.accept(i, es)
			}
		}
	}
}

// withCount returns a copy of es with entry k's count set to n (removed at 0).
func withCount(es []entry, k int, n int32) []entry {
	out := slices.Clone(es)
	if n <= 0 {
		return slices.Delete(out, k, k+1)
	}
	out[k].n = n
	return out
}

// polish is portlab's extended local search: besides count changes it moves
// µops between port sets (add, remove or swap one port), adds a copy of any
// µop the candidate already uses elsewhere or of a single-port µop, and
// removes entries, taking every improving move, until a full sweep over all
// instructions improves nothing or rounds sweeps were made.
func (s *searcher) polish(ctx context.Context, rounds int) {
	for round := 0; round < rounds; round++ {
		improved := false
		vocab := s.vocabulary()
		for i := range s.g {
			if ctx.Err() != nil {
				return
			}
			for s.improve(i, vocab) {
				improved = true
			}
		}
		if !improved {
			return
		}
	}
}

// vocabulary lists the distinct µops of the candidate and the single-port
// µops.
func (s *searcher) vocabulary() []portmap.PortSet {
	var v []portmap.PortSet
	for k := 0; k < s.p.nports; k++ {
		v = append(v, portmap.PortSet(1)<<k)
	}
	for _, es := range s.g {
		for _, e := range es {
			if !slices.Contains(v, e.ports) {
				v = append(v, e.ports)
			}
		}
	}
	return v
}

// improve makes the best single move on instruction i if it improves the
// score, and reports whether it did.
func (s *searcher) improve(i int, vocab []portmap.PortSet) bool {
	cur := s.g[i]
	best, bestDelta := []entry(nil), -tol
	consider := func(es []entry) {
		es = compact(es)
		if len(es) == 0 {
			return
		}
		if d := s.try(i, es); d < bestDelta {
			best, bestDelta = es, d
		}
	}
	for k, e := range cur {
		consider(withCount(cur, k, e.n-1))
		consider(withCount(cur, k, e.n+1))
		for q := 0; q < s.p.nports; q++ {
			bit := portmap.PortSet(1) << q
			es := slices.Clone(cur)
			es[k].ports ^= bit
			if es[k].ports != 0 {
				consider(es)
			}
			if e.ports&bit == 0 {
				// Swap: move one of the µop's ports to q.
				for r := e.ports; r != 0; r &= r - 1 {
					low := r & -r
					es := slices.Clone(cur)
					es[k].ports = e.ports&^low | bit
					consider(es)
				}
			}
		}
		if e.n > 1 {
			// Split one copy off to another µop of the vocabulary.
			for _, u := range vocab {
				if u != e.ports {
					es := withCount(cur, k, e.n-1)
					consider(append(es, entry{u, 1}))
				}
			}
		}
	}
	for _, u := range vocab {
		consider(append(slices.Clone(cur), entry{u, 1}))
	}
	if best == nil {
		return false
	}
	s.try(i, best)
	s.accept(i, best)
	return true
}
