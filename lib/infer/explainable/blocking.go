package explainable

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// DefaultEpsilon is the thesis's tolerance on cycles per instruction
// (Zen+: 0.02).
const DefaultEpsilon = 0.02

// ErrNoUopCounter is wrapped by FindBlocking's error when the oracle
// counts no µops (it is oracle.ErrNoUopCounter).
var ErrNoUopCounter = oracle.ErrNoUopCounter

// Candidate is a single-µop instruction measured alone: stage 1.
type Candidate struct {
	Insn   string
	Cycles float64
	// Ports is the size of its port set: its instructions per cycle,
	// 1/Cycles, rounded.
	Ports int
}

// Pair is a stage-2 comparison of two candidates with the same number of
// ports: they have the same port set iff the pair's inverse throughput is
// the sum of theirs (thesis Thm 6.3), within Epsilon cycles per
// instruction.
type Pair struct {
	A, B   string
	Cycles float64 // of {A ↦ 1, B ↦ 1}
	Sum    float64 // of A and B alone
	Same   bool
}

// Class is a set of candidates that share one port set of Ports ports.
type Class struct {
	Ports int
	// Insns are the candidates, the first (the representative) compared
	// with every other one.
	Insns []string
}

// Excluded is an instruction left out of the blocking candidates, and why.
type Excluded struct {
	Insn, Reason string
}

// Blocking is the result of stages 0 to 2: the classes of blocking
// instructions with the evidence.
type Blocking struct {
	Epsilon    float64
	Candidates []Candidate
	Classes    []Class
	Pairs      []Pair
	// Excluded lists the instructions that are no blocking candidates:
	// more than one µop, a µop count or throughput that is not a whole
	// number of µops or ports, a pair experiment that fits neither the
	// same nor a different port set, a failed measurement.
	Excluded []Excluded
}

// FindBlocking runs stages 0 to 2 of the explainable method on the
// instructions insns with oracle o, which must count µops
// (portmap.Measurement.Uops): it measures each instruction alone, takes
// those with one µop whose inverse throughput is 1/n cycles for a whole n
// within epsilon (0: DefaultEpsilon) as candidates with n ports, and
// groups candidates with the same n by comparing each with one member of
// every class so far; a candidate whose pair with a member fits neither
// the same nor a different port set is excluded, not guessed. progress, when not nil, is called after each
// experiment with the number done and the number planned so far. When ctx
// is cancelled it returns ctx's error.
func FindBlocking(ctx context.Context, o oracle.Oracle, insns []string, epsilon float64, progress func(done, total int)) (*Blocking, error) {
	if epsilon == 0 {
		epsilon = DefaultEpsilon
	}
	if !(epsilon > 0 && epsilon < 0.25) {
		return nil, fmt.Errorf("explainable: epsilon %v cycles per instruction, want more than 0 and less than 0.25", epsilon)
	}
	b := &Blocking{Epsilon: epsilon}
	singletons := make([]portmap.Experiment, len(insns))
	for i, insn := range insns {
		singletons[i] = portmap.NewExperiment(insn)
	}
	set, failures, err := oracle.MeasureAll(ctx, o, singletons, func(p oracle.Progress) {
		if progress != nil {
			progress(p.Done, p.Total)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("explainable: measuring the instructions alone: %w", err)
	}
	for _, f := range failures {
		b.Excluded = append(b.Excluded, Excluded{insns[f.Index], "measuring it alone: " + f.Reason})
	}
	counted := false
	for _, m := range set.Measurements {
		insn := m.Experiment.List()[0]
		counted = counted || m.Uops > 0
		n := math.Round(m.Uops)
		switch {
		case math.Abs(m.Uops-n) > 0.25:
			b.Excluded = append(b.Excluded, Excluded{insn, fmt.Sprintf("%.4g µops, not a whole number", m.Uops)})
			continue
		case n != 1:
			b.Excluded = append(b.Excluded, Excluded{insn, fmt.Sprintf("%v µops", n)})
			continue
		}
		ports := math.Round(1 / m.Cycles)
		if ports < 1 || math.Abs(m.Cycles-1/ports) > epsilon {
			b.Excluded = append(b.Excluded, Excluded{insn, fmt.Sprintf("one µop, but %.4g cycles is not 1/n for a whole n within %v", m.Cycles, epsilon)})
			continue
		}
		b.Candidates = append(b.Candidates, Candidate{Insn: insn, Cycles: m.Cycles, Ports: int(ports)})
	}
	if !counted && set.Len() > 0 {
		return nil, fmt.Errorf("explainable: %w (Uops of every measurement alone is 0, e.g. %v); the method needs the total µop counter", ErrNoUopCounter, set.Measurements[0].Experiment)
	}
	done, total := set.Len()+len(failures), set.Len()+len(failures)
	cycles := map[string]float64{}
	for _, c := range b.Candidates {
		cycles[c.Insn] = c.Cycles
	}
	for _, c := range b.Candidates {
		if err := ctx.Err(); err != nil {
			return b, err
		}
		placed := false
		for k := range b.Classes {
			cl := &b.Classes[k]
			if cl.Ports != c.Ports {
				continue
			}
			total++
			rep := cl.Insns[0]
			e := portmap.NewExperiment(c.Insn, rep)
			m, err := o.Measure(ctx, e)
			if err != nil {
				if ctx.Err() != nil {
					return b, ctx.Err()
				}
				b.Excluded = append(b.Excluded, Excluded{c.Insn, fmt.Sprintf("measuring %v: %v", e, err)})
				placed = true
				break
			}
			done++
			if progress != nil {
				progress(done, total)
			}
			p := Pair{A: rep, B: c.Insn, Cycles: m.Cycles, Sum: cycles[rep] + cycles[c.Insn]}
			// Same port sets: 2/n cycles; different ones: at most
			// 2/(n+1), the two µops spread over at least n+1 ports. The
			// tolerance is epsilon per instruction.
			n := float64(c.Ports)
			p.Same = math.Abs(p.Cycles-p.Sum) <= 2*epsilon
			b.Pairs = append(b.Pairs, p)
			if p.Same {
				cl.Insns = append(cl.Insns, c.Insn)
				placed = true
				break
			}
			if p.Cycles > 2/(n+1)+2*epsilon {
				b.Excluded = append(b.Excluded, Excluded{c.Insn, fmt.Sprintf("with %s: %.4g cycles, neither their sum %.4g (the same %d-port set) nor at most %.4g (different ones)",
					rep, p.Cycles, p.Sum, c.Ports, 2/(n+1))})
				placed = true
				break
			}
		}
		if !placed {
			b.Classes = append(b.Classes, Class{Ports: c.Ports, Insns: []string{c.Insn}})
		}
	}
	sort.SliceStable(b.Classes, func(i, j int) bool { return b.Classes[i].Ports < b.Classes[j].Ports })
	return b, nil
}

// String summarises the classes: per class its number of ports, its
// representative and its size; and the numbers of pairs and exclusions.
func (b *Blocking) String() string {
	var s strings.Builder
	classes := "classes"
	if len(b.Classes) == 1 {
		classes = "class"
	}
	fmt.Fprintf(&s, "%d blocking %s from %s (%s, ε = %v CPI); %s excluded\n",
		len(b.Classes), classes, portmap.Count(len(b.Candidates), "single-µop candidate"),
		portmap.Count(len(b.Pairs), "pair experiment"), b.Epsilon, portmap.Count(len(b.Excluded), "instruction"))
	for _, c := range b.Classes {
		fmt.Fprintf(&s, "  %s: %s", portmap.Count(c.Ports, "port"), c.Insns[0])
		if len(c.Insns) > 1 {
			fmt.Fprintf(&s, " (and %d more)", len(c.Insns)-1)
		}
		s.WriteByte('\n')
	}
	return s.String()
}
