package design

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/operands"
	"github.com/portlab/portlab/lib/portmap"
)

// latencyPrefix starts the instruction name of a latency experiment.
const latencyPrefix = "latency "

// LatencyName returns the instruction name of the latency experiment of
// form (an iwho scheme) from operand from to operand to: "latency 1->0:
// vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15". Operands are numbered as
// isa.ParseScheme lists them, from 0.
func LatencyName(form string, from, to int) string {
	return fmt.Sprintf("%s%d->%d: %s", latencyPrefix, from, to, form)
}

// ParseLatencyName splits a name LatencyName built into the form and the
// operand pair; ok is false for any other name.
func ParseLatencyName(name string) (form string, from, to int, ok bool) {
	rest, found := strings.CutPrefix(name, latencyPrefix)
	if !found {
		return "", 0, 0, false
	}
	pair, form, found := strings.Cut(rest, ": ")
	if !found {
		return "", 0, 0, false
	}
	a, b, found := strings.Cut(pair, "->")
	if !found {
		return "", 0, 0, false
	}
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || from < 0 || to < 0 || form == "" {
		return "", 0, 0, false
	}
	return form, from, to, true
}

// IsLatency reports whether e is a latency experiment: one instruction
// named by LatencyName.
func IsLatency(e portmap.Experiment) bool {
	items := e.Items()
	if len(items) != 1 || items[0].Count != 1 {
		return false
	}
	_, _, _, ok := ParseLatencyName(items[0].Insn)
	return ok
}

// Latency returns the latency experiments of insns (instruction forms,
// iwho schemes or PMEvo names): one for every pair of a register input
// and a register output of one register file (operands.LatencyPairs),
// measured by a chain of copies of the form in which each copy's output
// is the next one's input (measure.Hardware with Latencies set; after
// the benchmarker's chains of dependent adds, thesis §3.2.1). A form with
// no such pair is listed in the failures with the reason, not measured.
func Latency(insns []string) ([]portmap.Experiment, []portmap.Failure) {
	var exps []portmap.Experiment
	var failures []portmap.Failure
	for _, s := range insns {
		f, err := isa.ParseName(s)
		if err != nil {
			failures = append(failures, portmap.Failure{Index: len(exps) + len(failures), Experiment: portmap.NewExperiment(s), Reason: err.Error()})
			continue
		}
		pairs, why := operands.LatencyPairs(f)
		if why != "" {
			failures = append(failures, portmap.Failure{Index: len(exps) + len(failures), Experiment: portmap.NewExperiment(s), Reason: "no latency chain: " + why})
			continue
		}
		for _, p := range pairs {
			exps = append(exps, portmap.NewExperiment(LatencyName(f.Scheme(), p.From, p.To)))
		}
	}
	return exps, failures
}

// Latencies turns measured latency experiments into the latencies of a
// machine description (machine.Latency) by form: the latency of each
// operand pair rounded to whole cycles, and the form's Cycles the largest
// of them. Measurements of other experiments are ignored. A pair whose
// output is also read (a read-write operand) was measured with copies
// alternating between two registers (operands.InstantiateLatency): its
// value is the larger of the pair's latency and half the latency of the
// output's own chain, which the same form's pair from the output to
// itself measures.
func Latencies(set *portmap.ExperimentSet) map[string]machine.Latency {
	type pair struct {
		from, to int
		cycles   float64
	}
	byForm := map[string][]pair{}
	for _, m := range set.Measurements {
		items := m.Experiment.Items()
		if len(items) != 1 || items[0].Count != 1 || !(m.Cycles > 0) {
			continue
		}
		form, from, to, ok := ParseLatencyName(items[0].Insn)
		if !ok {
			continue
		}
		byForm[form] = append(byForm[form], pair{from, to, m.Cycles})
	}
	out := map[string]machine.Latency{}
	for form, pairs := range byForm {
		sort.Slice(pairs, func(i, j int) bool {
			if pairs[i].to != pairs[j].to {
				return pairs[i].to < pairs[j].to
			}
			return pairs[i].from < pairs[j].from
		})
		var l machine.Latency
		for _, p := range pairs {
			c := int(math.Round(p.cycles))
			l.Cycles = max(l.Cycles, c)
			l.Operands = append(l.Operands, machine.OperandLatency{From: p.from, To: p.to, Cycles: c})
		}
		if len(l.Operands) == 1 {
			l.Operands = nil // one pair: Cycles says it all
		}
		out[form] = l
	}
	return out
}
