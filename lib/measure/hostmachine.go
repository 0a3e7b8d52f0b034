package measure

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/operands"
	"github.com/portlab/portlab/lib/portmap"
)

// HostDescription is what HostMachine builds the host's machine
// description from.
type HostDescription struct {
	// Name names the machine (default "host").
	Name string
	// Mapping is the port mapping inferred on the host (e.g. PMEvo's
	// from a measure campaign), MappingSource the file or data-set name it
	// was read from ("" writes it inline).
	Mapping       *portmap.Mapping
	MappingSource string
	// Latencies are the measurements of a latency design (design.Latency)
	// on the host.
	Latencies *portmap.ExperimentSet
	// LoadLatency is the host's load-to-use latency in cycles, added to a
	// form's register latency from its memory input (0: not known; forms
	// with a memory input then get no latency, and the simulator's
	// defaults apply to them).
	LoadLatency int
	// StoreForwardLatency, VectorStoreForwardLatency, Renaming and
	// MergeLatency are the host's measured store-to-load forwarding
	// latencies (into general-purpose and vector registers), memory renaming and
	// legacy-SSE merge latency (machine.Memory, Machine.MergeLatency;
	// zero: not described).
	StoreForwardLatency, VectorStoreForwardLatency int
	Renaming                                       bool
	MergeLatency                                   int
	// AddressIncrementLatency is Machine.AddressIncrementLatency, as
	// measured (0: not described).
	AddressIncrementLatency float64
	// Eliminated are forms the host runs without an execution port
	// (moves eliminated at renaming, nops): measured faster than any
	// port could run them, they get no µops in the description's
	// mapping, so that only the front end bounds them. Each must be a
	// form of the mapping.
	Eliminated []string
	// FrontEnd, ReorderBuffer, IssueWidth and RetireWidth are copied
	// into the description (zero: not described).
	FrontEnd                               machine.FrontEnd
	ReorderBuffer, IssueWidth, RetireWidth int
}

// HostMachine returns the machine description of the host: the mapping,
// the measured latencies of the forms it maps (design.Latencies, by the
// form's key, as blocks name them), and the pipeline widths given. It
// also returns notes on what it left out: latencies of forms the mapping
// does not map, forms with a memory input when LoadLatency is unknown.
// A missing mapping or latency set, or a latency set without latency
// measurements, is an error naming the field.
func HostMachine(d HostDescription) (*machine.Machine, []string, error) {
	if d.Mapping == nil {
		return nil, nil, fmt.Errorf("measure: host machine: Mapping missing (a mapping inferred on the host)")
	}
	if d.Latencies == nil {
		return nil, nil, fmt.Errorf("measure: host machine: Latencies missing (the measurements of a latency design)")
	}
	lat := design.Latencies(d.Latencies)
	if len(lat) == 0 {
		return nil, nil, fmt.Errorf("measure: host machine: Latencies hold no latency measurement (measure with the latency design)")
	}
	if (d.StoreForwardLatency > 0 || d.VectorStoreForwardLatency > 0 || d.Renaming) && d.LoadLatency <= 0 {
		return nil, nil, fmt.Errorf("measure: host machine: a store-forwarding latency or memory renaming needs the load latency it replaces (LoadLatency)")
	}
	if d.StoreForwardLatency < 0 || d.VectorStoreForwardLatency < 0 || d.MergeLatency < 0 {
		return nil, nil, fmt.Errorf("measure: host machine: latencies must be ≥ 0")
	}
	if len(d.Eliminated) > 0 {
		if d.FrontEnd.InstructionsPerCycle <= 0 && d.FrontEnd.UopsPerCycle <= 0 && d.IssueWidth <= 0 {
			return nil, nil, fmt.Errorf("measure: host machine: forms without µops (Eliminated) need a front end to bound them (FrontEnd or IssueWidth)")
		}
		mp := d.Mapping.Clone()
		for _, f := range d.Eliminated {
			if !mp.Has(f) {
				return nil, nil, fmt.Errorf("measure: host machine: eliminated form %q is not in the mapping", f)
			}
			if err := mp.Set(f); err != nil {
				return nil, nil, fmt.Errorf("measure: host machine: eliminated form %q: %w", f, err)
			}
		}
		d.Mapping = mp
	}
	host, _ := isa.HostSupport()
	vendor := map[string]string{"AuthenticAMD": "AMD", "GenuineIntel": "Intel"}[host.Vendor]
	name := d.Name
	if name == "" {
		name = "host"
	}
	m := &machine.Machine{
		Name:          name,
		Vendor:        vendor,
		Mapping:       d.Mapping,
		MappingSource: d.MappingSource,
		FrontEnd:      d.FrontEnd,
		ReorderBuffer: d.ReorderBuffer,
		IssueWidth:    d.IssueWidth,
		RetireWidth:   d.RetireWidth,
		Latencies:     map[string]machine.Latency{},
		Memory: machine.Memory{LoadLatency: d.LoadLatency, StoreForwardLatency: d.StoreForwardLatency,
			VectorStoreForwardLatency: d.VectorStoreForwardLatency, Renaming: d.Renaming},
		MergeLatency:            d.MergeLatency,
		AddressIncrementLatency: d.AddressIncrementLatency,
	}
	if len(d.Eliminated) > 0 {
		m.MappingSource = "" // the mapping changed: written inline
	}
	var notMapped, memory []string
	for _, scheme := range slices.Sorted(maps.Keys(lat)) {
		l := lat[scheme]
		f, err := isa.ParseName(scheme)
		if err != nil {
			return nil, nil, fmt.Errorf("measure: host machine: latency of %q: %w", scheme, err)
		}
		key := f.Key()
		if !d.Mapping.Has(key) {
			notMapped = append(notMapped, key)
			continue
		}
		var mem []int
		for i, o := range f.Operands {
			if o.Kind == isa.KindMem && o.Access&isa.R != 0 && !o.Implicit {
				mem = append(mem, i)
			}
		}
		if len(mem) > 0 {
			if d.LoadLatency <= 0 {
				memory = append(memory, key)
				continue
			}
			if len(l.Operands) == 0 {
				l.Operands = registerPairs(f, l.Cycles)
			}
			var outs []int
			for _, o := range l.Operands {
				if !slices.Contains(outs, o.To) {
					outs = append(outs, o.To)
				}
			}
			for _, from := range mem {
				for _, to := range outs {
					l.Operands = append(l.Operands, machine.OperandLatency{From: from, To: to, Cycles: l.Cycles + d.LoadLatency})
				}
			}
			l.Cycles += d.LoadLatency
		}
		m.Latencies[key] = l
	}
	if len(m.Latencies) == 0 {
		return nil, nil, fmt.Errorf("measure: host machine: no measured latency could be used: %d of the forms measured are not in the mapping (e.g. %q), %d have a memory input and no load latency was given", len(notMapped), firstOf(notMapped, memory), len(memory))
	}
	lines := []string{}
	if len(notMapped) > 0 {
		lines = append(lines, fmt.Sprintf("%s with measured latencies but not in the mapping, left out: %s", portmap.Count(len(notMapped), "form"), strings.Join(notMapped, "; ")))
	}
	if len(memory) > 0 {
		lines = append(lines, fmt.Sprintf("%s with a memory input left to the simulator's default latencies (no load latency given): %s", portmap.Count(len(memory), "form"), strings.Join(memory, "; ")))
	}
	var without []string
	for _, insn := range d.Mapping.Instructions() {
		if _, ok := m.Latencies[insn]; !ok {
			without = append(without, insn)
		}
	}
	if len(without) > 0 {
		lines = append(lines, fmt.Sprintf("%d of the mapping's %d forms have no measured latency (the simulator's defaults apply)", len(without), d.Mapping.Len()))
	}
	src := d.MappingSource
	if src == "" {
		src = "given inline"
	} else {
		src = filepath.Base(src)
	}
	m.Description = fmt.Sprintf("This host (%s family %#x model %#x%s): the port mapping inferred on it (%s) and the latencies of %s measured on it with the latency design (chains of each form through one operand pair)",
		host.Vendor, host.Family, host.Model, modelName(host), src, portmap.Count(len(m.Latencies), "form"))
	if d.LoadLatency > 0 {
		m.Description += fmt.Sprintf("; forms with a memory input add a load-to-use latency of %d cycles", d.LoadLatency)
	}
	if d.StoreForwardLatency > 0 {
		m.Description += fmt.Sprintf("; a load of a stored value takes it %d cycles after the store's data", d.StoreForwardLatency)
	}
	if d.VectorStoreForwardLatency > 0 {
		m.Description += fmt.Sprintf(" (%d into a vector register)", d.VectorStoreForwardLatency)
	}
	if d.Renaming {
		m.Description += "; a load of the address a store wrote the same way reads its register (memory renaming)"
	}
	if d.MergeLatency > 0 {
		m.Description += fmt.Sprintf("; legacy-SSE writes of an XMM register merge into its old value in %d cycles", d.MergeLatency)
	}
	if d.AddressIncrementLatency > 0 {
		m.Description += fmt.Sprintf("; a constant added to an address register takes %g cycles", d.AddressIncrementLatency)
	}
	if len(d.Eliminated) > 0 {
		m.Description += fmt.Sprintf("; %s run without an execution port and have no µops in the mapping (%s)", portmap.Count(len(d.Eliminated), "form"), strings.Join(d.Eliminated, "; "))
	}
	m.Description += "."
	if err := m.Validate(); err != nil {
		return nil, nil, err
	}
	return m, lines, nil
}

func modelName(h isa.HostInfo) string {
	if h.ModelName == "" {
		return ""
	}
	return ", " + h.ModelName
}

// registerPairs lists the pairs of a form whose latency design measured
// one value for all of them.
func registerPairs(f isa.Form, cycles int) []machine.OperandLatency {
	var out []machine.OperandLatency
	pairs, _ := operands.LatencyPairs(f)
	for _, p := range pairs {
		out = append(out, machine.OperandLatency{From: p.From, To: p.To, Cycles: cycles})
	}
	return out
}

// firstOf returns the first string of the first non-empty list.
func firstOf(lists ...[]string) string {
	for _, l := range lists {
		if len(l) > 0 {
			return l[0]
		}
	}
	return ""
}
