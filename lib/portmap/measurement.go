package portmap

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Measurement is an experiment with its measured inverse throughput and,
// where the oracle that measured it knows them, the spread of its timings
// and the µops it executed. It is the one result type of every oracle:
// the host benchmarker, a simulation, a replay of stored data.
type Measurement struct {
	Experiment Experiment
	// Cycles is the inverse throughput: core cycles per execution of the
	// experiment's whole multiset, in steady state.
	Cycles float64
	// Min and Max are the smallest and largest of the repeated timings, in
	// cycles per execution, and Dispersion their median absolute deviation
	// relative to Cycles; all zero when the oracle times only once.
	Min, Max, Dispersion float64
	// Contention is how much slower than usual a reference kernel ran
	// while the experiment was measured (0.1: 10 % slower); values above a
	// few per cent mean another tenant used the core (its ports or its
	// out-of-order window).
	Contention float64
	// Passes is the number of independent passes over the experiment whose
	// fastest gave Cycles (an oracle that measures on a shared machine
	// visits each experiment several times, apart in time), and Spread the
	// relative difference between the two fastest passes: the run-to-run
	// difference to expect. Both zero when the oracle measures once.
	Passes int
	Spread float64
	// Uops is the number of µops one execution of the multiset retires, as
	// a µop counter sees it; 0 when the oracle has no counter. PortUops, when
	// not nil, holds the µops executed per port (per-port counters), indexed
	// like the ports of the architecture.
	Uops     float64
	PortUops []float64
	// Counters holds other hardware counter readings per execution of the
	// multiset, by event name ("cycles", "instructions"; "task-clock" in
	// nanoseconds), when the oracle reads counters; nil otherwise.
	Counters map[string]float64 `json:",omitempty"`
	// Others holds predictions of other tools stored with the measurement
	// (PMEvo's "other_results": IACA, llvm-mca, Ithemal), by tool id.
	Others map[string]float64
}

// String formats m as "EXPERIMENT: CYCLES cycles", with the spread of the
// timings, the contention, the µop count and the µops per port when they
// are known.
func (m Measurement) String() string {
	s := fmt.Sprintf("%v: %.4g cycles", m.Experiment, m.Cycles)
	var extra []string
	if m.Max > 0 {
		extra = append(extra, fmt.Sprintf("min %.4g, max %.4g, dispersion %.2f%%", m.Min, m.Max, 100*m.Dispersion))
	}
	if m.Contention != 0 {
		extra = append(extra, fmt.Sprintf("contention %.1f%%", 100*m.Contention))
	}
	if m.Passes > 1 {
		extra = append(extra, fmt.Sprintf("fastest of %d passes, the next %.2f%% slower", m.Passes, 100*m.Spread))
	}
	if m.Uops > 0 {
		extra = append(extra, fmt.Sprintf("%.4g µops", m.Uops))
	}
	if m.PortUops != nil {
		per := make([]string, len(m.PortUops))
		for k, n := range m.PortUops {
			per[k] = fmt.Sprintf("%.4g", n)
		}
		extra = append(extra, "µops per port ["+strings.Join(per, " ")+"]")
	}
	if len(m.Others) > 0 {
		ids := make([]string, 0, len(m.Others))
		for id := range m.Others {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			extra = append(extra, fmt.Sprintf("%s %.4g", id, m.Others[id]))
		}
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, "; ") + ")"
	}
	return s
}

// Failure is an experiment that could not be measured or predicted, with
// the reason.
type Failure struct {
	// Index is the experiment's position in the list it was asked in.
	Index      int
	Experiment Experiment
	// Insn is the experiment's instruction at fault; "" when unknown.
	Insn   string
	Reason string
}

// String formats f as "experiment INDEX {…}: instruction "INSN": REASON".
func (f Failure) String() string {
	s := fmt.Sprintf("experiment %d %v: ", f.Index, f.Experiment)
	if f.Insn != "" {
		s += fmt.Sprintf("instruction %q: ", f.Insn)
	}
	return s + f.Reason
}

// ExperimentSet is a list of measured experiments over an architecture, the
// content of a PMEvo ExperimentList file.
type ExperimentSet struct {
	Arch         *Architecture
	Measurements []Measurement
}

// Len returns the number of measurements.
func (s *ExperimentSet) Len() int { return len(s.Measurements) }

// Experiments returns the experiments in order.
func (s *ExperimentSet) Experiments() []Experiment {
	out := make([]Experiment, len(s.Measurements))
	for i, m := range s.Measurements {
		out[i] = m.Experiment
	}
	return out
}

// Cycles returns the measured inverse throughputs in order.
func (s *ExperimentSet) Cycles() []float64 {
	out := make([]float64, len(s.Measurements))
	for i, m := range s.Measurements {
		out[i] = m.Cycles
	}
	return out
}

// Other returns the stored predictions of the tool id, in order, with NaN
// where a measurement has none.
func (s *ExperimentSet) Other(id string) []float64 {
	out := make([]float64, len(s.Measurements))
	for i, m := range s.Measurements {
		v, ok := m.Others[id]
		if !ok {
			v = math.NaN()
		}
		out[i] = v
	}
	return out
}

// OtherIDs returns the ids of the stored predictions, sorted.
func (s *ExperimentSet) OtherIDs() []string {
	seen := map[string]bool{}
	for _, m := range s.Measurements {
		for id := range m.Others {
			seen[id] = true
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Filter returns the measurements for which keep returns true, sharing the
// architecture.
func (s *ExperimentSet) Filter(keep func(Measurement) bool) *ExperimentSet {
	out := &ExperimentSet{Arch: s.Arch}
	for _, m := range s.Measurements {
		if keep(m) {
			out.Measurements = append(out.Measurements, m)
		}
	}
	return out
}

// Lookup returns the measurement of the experiment with key e.Key(), if any.
func (s *ExperimentSet) Lookup(e Experiment) (Measurement, bool) {
	k := e.Key()
	for _, m := range s.Measurements {
		if m.Experiment.Key() == k {
			return m, true
		}
	}
	return Measurement{}, false
}

// Validate checks that every experiment names only instructions of the
// architecture (when there is one) and that every measurement is a finite
// positive number of cycles.
func (s *ExperimentSet) Validate() error {
	for i, m := range s.Measurements {
		if s.Arch != nil && s.Arch.NumInstructions() > 0 {
			for _, it := range m.Experiment.items {
				if _, ok := s.Arch.insnIdx[it.Insn]; !ok {
					return fmt.Errorf("portmap: measurement %d: unknown instruction %q (not in architecture %q)", i, it.Insn, s.Arch.name)
				}
			}
		}
		if !(m.Cycles > 0) || math.IsInf(m.Cycles, 0) {
			return fmt.Errorf("portmap: measurement %d (%s): cycles %v, want a finite positive number", i, m.Experiment, m.Cycles)
		}
	}
	return nil
}

// Merge returns the measurements of sets in one set, in order of first
// appearance; an experiment measured in several sets keeps the value of the
// last. The architecture is the first set's.
func Merge(sets ...*ExperimentSet) *ExperimentSet {
	out := &ExperimentSet{}
	at := map[string]int{}
	for _, s := range sets {
		if s == nil {
			continue
		}
		if out.Arch == nil {
			out.Arch = s.Arch
		}
		for _, m := range s.Measurements {
			k := m.Experiment.Key()
			if i, ok := at[k]; ok {
				out.Measurements[i] = m
				continue
			}
			at[k] = len(out.Measurements)
			out.Measurements = append(out.Measurements, m)
		}
	}
	return out
}
