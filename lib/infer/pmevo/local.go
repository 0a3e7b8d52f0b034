package pmevo

import (
	"context"
	"math"
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
			for ctx.Err() == nil && s.improve(i, vocab) {
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

// deepPolish improves the candidate with the extended local search plus
// large moves: replacing an instruction's µops by any single µop (every
// port set when there are at most 10 ports, else the vocabulary) with any
// count up to the singleton bound, or by any two µops of the vocabulary with
// counts 1–2. An instruction that is wrong on its own — whatever the
// others — is fixed by one such move. The large moves of an instruction are
// evaluated in parallel on workers goroutines; the best (first on ties) is
// taken, so the result does not depend on workers. It stops after rounds
// sweeps, when a sweep improves nothing, or when ctx is done.
func (s *searcher) deepPolish(ctx context.Context, rounds, workers int) {
	for round := 0; round < rounds; round++ {
		improved := false
		for i := range s.g {
			if ctx.Err() != nil {
				return
			}
			vocab := s.vocabulary()
			for ctx.Err() == nil && s.improve(i, vocab) {
				improved = true
			}
			if es, d := s.bestReplacement(ctx, i, vocab, workers); d < -tol {
				s.try(i, es)
				s.accept(i, es)
				improved = true
				for ctx.Err() == nil && s.improve(i, vocab) {
				}
			}
		}
		if !improved {
			return
		}
	}
}

// largeMoves lists the replacements deepPolish considers for instruction i.
func (s *searcher) largeMoves(i int, vocab []portmap.PortSet) [][]entry {
	var moves [][]entry
	singles := vocab
	if s.p.nports <= 10 {
		singles = nil
		for u := portmap.PortSet(1); u <= s.p.all; u++ {
			singles = append(singles, u)
		}
	}
	for _, u := range singles {
		nmax := min(12, max(1, int(math.Ceil(s.p.single[i]*float64(u.Len())-1e-9))))
		for n := 1; n <= nmax; n++ {
			moves = append(moves, []entry{{u, int32(n)}})
		}
	}
	for a := range vocab {
		for b := a + 1; b < len(vocab); b++ {
			for n1 := int32(1); n1 <= 2; n1++ {
				for n2 := int32(1); n2 <= 2; n2++ {
					moves = append(moves, []entry{{vocab[a], n1}, {vocab[b], n2}})
				}
			}
		}
	}
	return moves
}

// bestReplacement returns the large move for instruction i with the
// smallest score change, and that change; when ctx is done midway, the
// best of the moves evaluated (the others count as no change).
func (s *searcher) bestReplacement(ctx context.Context, i int, vocab []portmap.PortSet, workers int) ([]entry, float64) {
	moves := s.largeMoves(i, vocab)
	deltas := make([]float64, len(moves))
	const chunk = 64
	parallel(workers, (len(moves)+chunk-1)/chunk, func(c int) {
		if ctx.Err() != nil {
			return
		}
		g := slices.Clone(s.g)
		for k := c * chunk; k < min(len(moves), (c+1)*chunk); k++ {
			es := compact(moves[k])
			moves[k] = es
			g[i] = es
			d := 0.0
			for _, j := range s.p.touch[i] {
				d += s.p.relErr(s.p.predict(g, int(j)), int(j)) - s.errs[j]
			}
			deltas[k] = d/float64(len(s.errs)) + s.w*float64(entriesVolume(es)-entriesVolume(s.g[i]))
		}
	})
	best := -1
	for k, d := range deltas {
		if best < 0 || d < deltas[best] {
			best = k
		}
	}
	if best < 0 {
		return nil, 0
	}
	return moves[best], deltas[best]
}
