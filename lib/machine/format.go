package machine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/portmap"
)

// Format is the format tag of a machine file.
const Format = "portlab.machine/v1"

// Read reads the machine file at path (see the package documentation for
// the format). A mapping referenced by a relative path is read relative to
// the file's directory.
func Read(path string) (*Machine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	return Parse(data, path)
}

// Parse decodes and checks a machine description; name, the file name,
// is named in every error (a *portmap.FormatError with the JSON path of
// the field at fault), and a mapping referenced by a relative path is read
// relative to name's directory. Unknown fields are errors.
func Parse(data []byte, name string) (*Machine, error) {
	d := decoder{file: name}
	m := d.machine(data)
	if d.err != nil {
		return nil, d.err
	}
	if err := m.validate(name); err != nil {
		return nil, err
	}
	return m, nil
}

// Validate checks m as Parse checks a description: a name and a mapping,
// front-end bounds and widths not negative, known counter semantics,
// counted forms and latencies only for mapped forms, operand indices
// within the form, load and store ports of the mapping and, under
// MacroOps, forms Postulate 6.5 can read with at least the µops it leaves
// uncounted. The error names the field at fault.
func (m *Machine) Validate() error { return m.validate(m.Name) }

func (m *Machine) validate(file string) error {
	bad := func(path, format string, args ...any) error {
		return &portmap.FormatError{File: file, Path: path, Err: fmt.Errorf(format, args...)}
	}
	if m.Name == "" {
		return bad("name", "missing or empty")
	}
	if m.Mapping == nil {
		return bad("mapping", "missing")
	}
	for _, f := range []struct {
		path string
		v    float64
	}{{"frontEnd.instructionsPerCycle", m.InstructionsPerCycle}, {"frontEnd.uopsPerCycle", m.UopsPerCycle}, {"addressIncrementLatency", m.AddressIncrementLatency}, {"complexLEALatency", m.ComplexLEALatency}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return bad(f.path, "must be > 0 (or absent: no bound), not %v", f.v)
		}
	}
	for _, f := range []struct {
		path string
		v    int
	}{{"frontEnd.decodeWidth", m.DecodeWidth}, {"reorderBuffer", m.ReorderBuffer}, {"issueWidth", m.IssueWidth}, {"retireWidth", m.RetireWidth}} {
		if f.v < 0 {
			return bad(f.path, "must be > 0 (or absent), not %d", f.v)
		}
	}
	for _, f := range []struct {
		path string
		v    int
	}{{"memory.loadLatency", m.Memory.LoadLatency}, {"memory.storeForwardLatency", m.Memory.StoreForwardLatency}, {"memory.vectorStoreForwardLatency", m.Memory.VectorStoreForwardLatency}, {"mergeLatency", m.MergeLatency}} {
		if f.v < 0 {
			return bad(f.path, "must be ≥ 0 (or absent), not %d", f.v)
		}
	}
	for i, c := range m.Chains {
		path := "chains[" + strconv.Itoa(i) + "]"
		if len(c.Forms) == 0 {
			return bad(path+".forms", "missing or empty")
		}
		for _, f := range c.Forms {
			if !m.Mapping.Has(f) {
				return bad(path+".forms", "the mapping does not map %q", f)
			}
		}
		if !(c.Cycles >= 0) || math.IsInf(c.Cycles, 0) {
			return bad(path+".cycles", "must be ≥ 0, not %v", c.Cycles)
		}
	}
	switch m.ComplexLEAFrom {
	case "":
	case ComplexLEAFromBase:
		if m.ComplexLEALatency == 0 {
			return bad("complexLEAFrom", "%q needs complexLEALatency", m.ComplexLEAFrom)
		}
	default:
		return bad("complexLEAFrom", "unknown %q (want %q or absent: every register input)", m.ComplexLEAFrom, ComplexLEAFromBase)
	}
	switch m.Memory.RenamingBy {
	case "":
	case RenameByAddress:
		if !m.Memory.Renaming {
			return bad("memory.renamingBy", "%q needs memory.renaming true", m.Memory.RenamingBy)
		}
	default:
		return bad("memory.renamingBy", "unknown %q (want %q or absent: the same registers)", m.Memory.RenamingBy, RenameByAddress)
	}
	switch m.MergeWhen {
	case "", MergeDirtyUpper:
	default:
		return bad("mergeWhen", "unknown %q (want %q or absent: always)", m.MergeWhen, MergeDirtyUpper)
	}
	for i, u := range m.Fusions {
		path := "fusions[" + strconv.Itoa(i) + "]"
		for _, k := range []struct {
			name  string
			forms []string
		}{{"first", u.First}, {"second", u.Second}} {
			if len(k.forms) == 0 {
				return bad(path+"."+k.name, "missing or empty")
			}
			for _, f := range k.forms {
				if !m.Mapping.Has(f) {
					return bad(path+"."+k.name, "the mapping does not map %q", f)
				}
			}
		}
	}
	if w := m.Wakeup; w != nil {
		if len(w.Forms) == 0 {
			return bad("wakeup.forms", "missing or empty")
		}
		for _, f := range w.Forms {
			if !m.Mapping.Has(f) {
				return bad("wakeup.forms", "the mapping does not map %q", f)
			}
		}
		if !(w.Cost >= 1) || math.IsInf(w.Cost, 0) {
			return bad("wakeup.cost", "must be ≥ 1 (1: no extra cost), not %v", w.Cost)
		}
	}
	if m.InstructionsPerCycle == 0 && (m.UopsPerCycle != 0 || m.DecodeWidth != 0) {
		return bad("frontEnd.instructionsPerCycle", "missing (a front end needs its peak in instructions per cycle)")
	}
	switch m.Counters.Uops {
	case "", Uops, MacroOps:
	default:
		return bad("counters.uops", "unknown counter %q (want %q or %q)", m.Counters.Uops, Uops, MacroOps)
	}
	for _, insn := range sortedKeys(m.Counters.Counted) {
		path := "counters.counted[" + strconv.Quote(insn) + "]"
		if !m.Mapping.Has(insn) {
			return bad(path, "the mapping does not map this form")
		}
		if n := m.Counters.Counted[insn]; n < 0 {
			return bad(path, "must be ≥ 0, not %d", n)
		}
	}
	if m.Counters.Uops == MacroOps {
		for _, insn := range m.Mapping.Instructions() {
			if _, ok := m.Counters.Counted[insn]; ok {
				continue
			}
			n, err := UncountedUops(insn)
			if err != nil {
				return bad("counters.uops", "macro-ops for %q: %v (list its count in counters.counted)", insn, err)
			}
			if u := m.Mapping.NumUops(insn); u < n {
				return bad("counters.uops", "macro-ops for %q: %d µops, fewer than the %d Postulate 6.5 leaves uncounted (list its count in counters.counted)", insn, u, n)
			}
		}
	}
	for _, insn := range sortedKeys(m.Latencies) {
		path := "latencies[" + strconv.Quote(insn) + "]"
		if !m.Mapping.Has(insn) {
			return bad(path, "the mapping does not map this form")
		}
		l := m.Latencies[insn]
		if l.Cycles < 0 {
			return bad(path+".cycles", "must be ≥ 0, not %d", l.Cycles)
		}
		operands := -1 // unknown: the form is no x86 scheme
		if f, err := isa.ParseScheme(insn); err == nil {
			operands = len(f.Operands)
		}
		for k, o := range l.Operands {
			opath := fmt.Sprintf("%s.operands[%d]", path, k)
			for _, x := range []struct {
				field string
				v     int
			}{{"from", o.From}, {"to", o.To}} {
				if x.v < 0 || (operands >= 0 && x.v >= operands) {
					return bad(opath+"."+x.field, "operand %d out of range (the form has %d operands)", x.v, max(operands, 0))
				}
			}
			if o.Cycles < 0 {
				return bad(opath+".cycles", "must be ≥ 0, not %d", o.Cycles)
			}
		}
	}
	for _, f := range []struct {
		path  string
		ports []string
	}{{"loadPorts", m.LoadPorts}, {"storePorts", m.StorePorts}} {
		for k, p := range f.ports {
			if _, ok := m.Mapping.Arch().Port(p); !ok {
				return bad(fmt.Sprintf("%s[%d]", f.path, k), "%q is no port of the mapping (%s)", p, strings.Join(m.Mapping.Ports(), ", "))
			}
			if slices.Index(f.ports, p) < k {
				return bad(fmt.Sprintf("%s[%d]", f.path, k), "port %q listed twice", p)
			}
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// decoder decodes a machine file strictly: every object's fields are
// checked against the known ones, required fields must be present, and
// every error names the file and the JSON path. The first error sticks.
type decoder struct {
	file string
	err  error
}

func (d *decoder) fail(path, format string, args ...any) {
	if d.err == nil {
		d.err = &portmap.FormatError{File: d.file, Path: path, Err: fmt.Errorf(format, args...)}
	}
}

// object decodes raw as a JSON object with only the known fields.
func (d *decoder) object(path string, raw json.RawMessage, known ...string) map[string]json.RawMessage {
	var fields map[string]json.RawMessage
	if d.err != nil || !d.value(path, raw, &fields) {
		return nil
	}
	if fields == nil {
		d.fail(path, "JSON null where an object is expected")
		return nil
	}
	for _, k := range sortedKeys(fields) {
		if !slices.Contains(known, k) {
			d.fail(join(path, k), "unknown field (known: %s)", strings.Join(known, ", "))
			return nil
		}
	}
	return fields
}

// value decodes raw into v and reports whether that worked.
func (d *decoder) value(path string, raw json.RawMessage, v any) bool {
	if d.err != nil {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if len(bytes.TrimSpace(raw[dec.InputOffset():])) > 0 {
			d.fail(path, "unexpected data after the JSON value")
			return false
		}
		return true
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		d.fail(path, "malformed JSON: %v", syn)
	case errors.As(err, &typ):
		p := path
		if typ.Field != "" {
			p = join(path, typ.Field)
		}
		d.fail(p, "JSON %s where %s is expected", typ.Value, kind(typ.Type.Kind().String()))
	default:
		d.fail(path, "%v", err)
	}
	return false
}

// kind names what a Go kind expects in JSON terms.
func kind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"):
		return "a whole number"
	case strings.HasPrefix(k, "float"):
		return "a number"
	case k == "string":
		return "a string"
	case k == "slice":
		return "an array"
	case k == "map", k == "struct":
		return "an object"
	}
	return "another value"
}

// join appends a field to a JSON path.
func join(path, field string) string {
	switch {
	case field == "":
		return path
	case path == "":
		return field
	}
	return path + "." + field
}

// Fields of a machine file.
var (
	machineFields  = []string{"format", "name", "vendor", "description", "mapping", "frontEnd", "counters", "latencies", "reorderBuffer", "issueWidth", "retireWidth", "loadPorts", "storePorts", "memory", "mergeLatency", "mergeWhen", "addressIncrementLatency", "complexLEALatency", "complexLEAFrom", "chains", "fusions", "wakeup"}
	memoryFields   = []string{"loadLatency", "storeForwardLatency", "vectorStoreForwardLatency", "renaming", "renamingBy"}
	frontEndFields = []string{"instructionsPerCycle", "uopsPerCycle", "decodeWidth"}
	counterFields  = []string{"uops", "counted"}
	latencyFields  = []string{"cycles", "operands"}
	operandFields  = []string{"from", "to", "cycles"}
)

func (d *decoder) machine(data []byte) *Machine {
	m := &Machine{}
	f := d.object("", data, machineFields...)
	var format string
	if raw, ok := f["format"]; !ok {
		d.fail("format", "missing (want %q)", Format)
	} else if d.value("format", raw, &format) && format != Format {
		d.fail("format", "%q, want %q", format, Format)
	}
	if raw, ok := f["name"]; !ok {
		d.fail("name", "missing")
	} else {
		d.value("name", raw, &m.Name)
	}
	if raw, ok := f["vendor"]; ok {
		d.value("vendor", raw, &m.Vendor)
	}
	if raw, ok := f["description"]; ok {
		d.value("description", raw, &m.Description)
	}
	if raw, ok := f["mapping"]; !ok {
		d.fail("mapping", "missing (an inline mapping, a data-set name or a file path)")
	} else {
		m.Mapping, m.MappingSource = d.mapping(raw)
	}
	if raw, ok := f["frontEnd"]; ok {
		fe := d.object("frontEnd", raw, frontEndFields...)
		if raw, ok := fe["instructionsPerCycle"]; !ok {
			d.fail("frontEnd.instructionsPerCycle", "missing")
		} else {
			m.InstructionsPerCycle = d.positive("frontEnd.instructionsPerCycle", raw)
		}
		if raw, ok := fe["uopsPerCycle"]; ok {
			m.UopsPerCycle = d.positive("frontEnd.uopsPerCycle", raw)
		}
		if raw, ok := fe["decodeWidth"]; ok {
			m.DecodeWidth = d.width("frontEnd.decodeWidth", raw)
		}
	}
	if raw, ok := f["counters"]; ok {
		c := d.object("counters", raw, counterFields...)
		if raw, ok := c["uops"]; !ok {
			d.fail("counters.uops", "missing (%q or %q)", Uops, MacroOps)
		} else {
			d.value("counters.uops", raw, &m.Counters.Uops)
		}
		if raw, ok := c["counted"]; ok {
			d.value("counters.counted", raw, &m.Counters.Counted)
		}
	}
	if raw, ok := f["latencies"]; ok {
		var forms map[string]json.RawMessage
		if d.value("latencies", raw, &forms) {
			m.Latencies = map[string]Latency{}
			for _, insn := range sortedKeys(forms) {
				m.Latencies[insn] = d.latency("latencies["+strconv.Quote(insn)+"]", forms[insn])
			}
		}
	}
	for _, w := range []struct {
		field string
		v     *int
	}{{"reorderBuffer", &m.ReorderBuffer}, {"issueWidth", &m.IssueWidth}, {"retireWidth", &m.RetireWidth}} {
		if raw, ok := f[w.field]; ok {
			*w.v = d.width(w.field, raw)
		}
	}
	if raw, ok := f["loadPorts"]; ok {
		d.value("loadPorts", raw, &m.LoadPorts)
	}
	if raw, ok := f["storePorts"]; ok {
		d.value("storePorts", raw, &m.StorePorts)
	}
	if raw, ok := f["memory"]; ok {
		mf := d.object("memory", raw, memoryFields...)
		for _, w := range []struct {
			field string
			v     *int
		}{{"loadLatency", &m.Memory.LoadLatency}, {"storeForwardLatency", &m.Memory.StoreForwardLatency}, {"vectorStoreForwardLatency", &m.Memory.VectorStoreForwardLatency}} {
			if raw, ok := mf[w.field]; ok {
				*w.v = d.cycles("memory."+w.field, raw)
			}
		}
		if raw, ok := mf["renaming"]; ok {
			d.value("memory.renaming", raw, &m.Memory.Renaming)
		}
		if raw, ok := mf["renamingBy"]; ok {
			d.value("memory.renamingBy", raw, &m.Memory.RenamingBy)
		}
	}
	if raw, ok := f["mergeLatency"]; ok {
		m.MergeLatency = d.cycles("mergeLatency", raw)
	}
	if raw, ok := f["mergeWhen"]; ok {
		d.value("mergeWhen", raw, &m.MergeWhen)
	}
	if raw, ok := f["addressIncrementLatency"]; ok {
		m.AddressIncrementLatency = d.positive("addressIncrementLatency", raw)
	}
	if raw, ok := f["complexLEALatency"]; ok {
		m.ComplexLEALatency = d.positive("complexLEALatency", raw)
	}
	if raw, ok := f["complexLEAFrom"]; ok {
		d.value("complexLEAFrom", raw, &m.ComplexLEAFrom)
	}
	if raw, ok := f["chains"]; ok {
		var list []json.RawMessage
		if d.value("chains", raw, &list) {
			for i, r := range list {
				path := "chains[" + strconv.Itoa(i) + "]"
				cf := d.object(path, r, "forms", "cycles")
				if cf == nil {
					continue
				}
				var c Chain
				if fr, ok := cf["forms"]; ok {
					d.value(path+".forms", fr, &c.Forms)
				}
				if cr, ok := cf["cycles"]; ok {
					d.value(path+".cycles", cr, &c.Cycles)
				} else {
					d.fail(path+".cycles", "missing")
				}
				m.Chains = append(m.Chains, c)
			}
		}
	}
	if raw, ok := f["fusions"]; ok {
		var list []json.RawMessage
		if d.value("fusions", raw, &list) {
			for i, r := range list {
				path := "fusions[" + strconv.Itoa(i) + "]"
				ff := d.object(path, r, "first", "second")
				if ff == nil {
					continue
				}
				var u Fusion
				for _, k := range []struct {
					name string
					to   *[]string
				}{{"first", &u.First}, {"second", &u.Second}} {
					if fr, ok := ff[k.name]; ok {
						d.value(path+"."+k.name, fr, k.to)
					} else {
						d.fail(path+"."+k.name, "missing")
					}
				}
				m.Fusions = append(m.Fusions, u)
			}
		}
	}
	if raw, ok := f["wakeup"]; ok {
		wf := d.object("wakeup", raw, "forms", "cost")
		if wf != nil {
			w := &Wakeup{}
			if fr, ok := wf["forms"]; ok {
				d.value("wakeup.forms", fr, &w.Forms)
			} else {
				d.fail("wakeup.forms", "missing")
			}
			if cr, ok := wf["cost"]; ok {
				d.value("wakeup.cost", cr, &w.Cost)
			} else {
				d.fail("wakeup.cost", "missing")
			}
			m.Wakeup = w
		}
	}
	return m
}

// cycles decodes a whole number of cycles that must be at least 0.
func (d *decoder) cycles(path string, raw json.RawMessage) int {
	var v int
	if d.value(path, raw, &v) && v < 0 {
		d.fail(path, "must be ≥ 0")
	}
	return v
}

// positive decodes a number that must be above 0.
func (d *decoder) positive(path string, raw json.RawMessage) float64 {
	var v float64
	if d.value(path, raw, &v) && !(v > 0) {
		d.fail(path, "must be > 0")
	}
	return v
}

// width decodes a whole number that must be at least 1.
func (d *decoder) width(path string, raw json.RawMessage) int {
	var v int
	if d.value(path, raw, &v) && v < 1 {
		d.fail(path, "must be > 0")
	}
	return v
}

func (d *decoder) latency(path string, raw json.RawMessage) Latency {
	var l Latency
	f := d.object(path, raw, latencyFields...)
	if raw, ok := f["cycles"]; !ok {
		d.fail(path+".cycles", "missing")
	} else {
		d.value(path+".cycles", raw, &l.Cycles)
	}
	if raw, ok := f["operands"]; ok {
		var ops []json.RawMessage
		if d.value(path+".operands", raw, &ops) {
			for k, raw := range ops {
				opath := fmt.Sprintf("%s.operands[%d]", path, k)
				of := d.object(opath, raw, operandFields...)
				var o OperandLatency
				for _, x := range []struct {
					field string
					v     *int
				}{{"from", &o.From}, {"to", &o.To}, {"cycles", &o.Cycles}} {
					if raw, ok := of[x.field]; !ok {
						d.fail(opath+"."+x.field, "missing")
					} else {
						d.value(opath+"."+x.field, raw, x.v)
					}
				}
				l.Operands = append(l.Operands, o)
			}
		}
	}
	return l
}

// mapping decodes the mapping field: an inline mapping in any format
// portmap.DecodeMapping reads, or a string naming one.
func (d *decoder) mapping(raw json.RawMessage) (*portmap.Mapping, string) {
	if d.err != nil {
		return nil, ""
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '"' {
		var ref string
		if !d.value("mapping", raw, &ref) {
			return nil, ""
		}
		if ref == "" {
			d.fail("mapping", "empty name")
			return nil, ""
		}
		m, err := resolveMapping(ref, filepath.Dir(d.file))
		if err != nil {
			d.fail("mapping", "%v", err)
			return nil, ""
		}
		return m, ref
	}
	m, err := portmap.DecodeMapping(d.file, raw)
	if err != nil {
		var fe *portmap.FormatError
		if errors.As(err, &fe) {
			d.fail(join("mapping", fe.Path), "%v", fe.Err)
		} else {
			d.fail("mapping", "%v", err)
		}
		return nil, ""
	}
	return m, ""
}

// resolveMapping reads the mapping a reference names: a machine name
// Lookup knows (its mapping), a data-set name (dataset.Mapping) or a file
// path, relative to dir unless absolute.
func resolveMapping(ref, dir string) (*portmap.Mapping, error) {
	if _, ok := embedded()[ref]; ok || strings.HasPrefix(ref, "portlab:") {
		m, err := Lookup(ref)
		if err != nil {
			return nil, err
		}
		return m.Mapping, nil
	}
	if !isDataSetName(ref) && !filepath.IsAbs(ref) {
		ref = filepath.Join(dir, ref)
	}
	return dataset.Mapping(ref)
}

// isDataSetName reports whether ref is a data-set name rather than a
// file path.
func isDataSetName(ref string) bool {
	for _, p := range []string{"pmevo:", "uops.info:", "portlab:"} {
		if strings.HasPrefix(ref, p) {
			return true
		}
	}
	return false
}

// Write writes m to path in the machine format, atomically (a temporary
// file renamed over path). The mapping is written inline, or as the
// reference MappingSource when that is set (a relative path as it is:
// Read resolves it relative to the written file's directory). A machine
// Validate rejects is not written.
func Write(path string, m *Machine) error {
	data, err := Encode(m)
	if err != nil {
		return err
	}
	if err := portmap.WriteFileAtomic(path, data); err != nil {
		return fmt.Errorf("machine: %w", err)
	}
	return nil
}

// Encode returns m in the machine format, as Write writes it: indented,
// with one line per instruction of an inline mapping and per latency.
func Encode(m *Machine) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	first := true
	field := func(name string, v any) {
		if first {
			b.WriteString("{\n")
		} else {
			b.WriteString(",\n")
		}
		first = false
		indent := "  "
		if _, ok := v.(map[string]any); !ok {
			indent = "" // strings, numbers and port lists on one line
		}
		fmt.Fprintf(&b, "  %q: %s", name, marshal(v, indent))
	}
	field("format", Format)
	field("name", m.Name)
	if m.Vendor != "" {
		field("vendor", m.Vendor)
	}
	if m.Description != "" {
		field("description", m.Description)
	}
	if m.MappingSource != "" {
		field("mapping", m.MappingSource)
	} else {
		b.WriteString(",\n  \"mapping\": ")
		writeMapping(&b, m.Mapping)
	}
	if m.FrontEnd != (FrontEnd{}) {
		fe := map[string]any{"instructionsPerCycle": m.InstructionsPerCycle}
		if m.UopsPerCycle > 0 {
			fe["uopsPerCycle"] = m.UopsPerCycle
		}
		if m.DecodeWidth > 0 {
			fe["decodeWidth"] = m.DecodeWidth
		}
		field("frontEnd", fe)
	}
	if m.Counters.Uops != "" || len(m.Counters.Counted) > 0 {
		c := map[string]any{"uops": cmp(m.Counters.Uops, Uops)}
		if len(m.Counters.Counted) > 0 {
			c["counted"] = m.Counters.Counted
		}
		field("counters", c)
	}
	if len(m.Latencies) > 0 {
		b.WriteString(",\n  \"latencies\": {")
		for k, insn := range sortedKeys(m.Latencies) {
			if k > 0 {
				b.WriteString(",")
			}
			l := m.Latencies[insn]
			jl := map[string]any{"cycles": l.Cycles}
			if len(l.Operands) > 0 {
				ops := make([]map[string]int, len(l.Operands))
				for i, o := range l.Operands {
					ops[i] = map[string]int{"from": o.From, "to": o.To, "cycles": o.Cycles}
				}
				jl["operands"] = ops
			}
			fmt.Fprintf(&b, "\n    %s: %s", marshal(insn, ""), marshal(jl, ""))
		}
		b.WriteString("\n  }")
	}
	for _, w := range []struct {
		name string
		v    int
	}{{"reorderBuffer", m.ReorderBuffer}, {"issueWidth", m.IssueWidth}, {"retireWidth", m.RetireWidth}} {
		if w.v > 0 {
			field(w.name, w.v)
		}
	}
	if len(m.LoadPorts) > 0 {
		field("loadPorts", m.LoadPorts)
	}
	if len(m.StorePorts) > 0 {
		field("storePorts", m.StorePorts)
	}
	if m.Memory != (Memory{}) {
		mem := map[string]any{}
		if m.Memory.LoadLatency > 0 {
			mem["loadLatency"] = m.Memory.LoadLatency
		}
		if m.Memory.StoreForwardLatency > 0 {
			mem["storeForwardLatency"] = m.Memory.StoreForwardLatency
		}
		if m.Memory.VectorStoreForwardLatency > 0 {
			mem["vectorStoreForwardLatency"] = m.Memory.VectorStoreForwardLatency
		}
		if m.Memory.Renaming {
			mem["renaming"] = true
		}
		if m.Memory.RenamingBy != "" {
			mem["renamingBy"] = m.Memory.RenamingBy
		}
		field("memory", mem)
	}
	if m.MergeLatency > 0 {
		field("mergeLatency", m.MergeLatency)
	}
	if m.MergeWhen != "" {
		field("mergeWhen", m.MergeWhen)
	}
	if m.AddressIncrementLatency > 0 {
		field("addressIncrementLatency", m.AddressIncrementLatency)
	}
	if m.ComplexLEALatency > 0 {
		field("complexLEALatency", m.ComplexLEALatency)
	}
	if m.ComplexLEAFrom != "" {
		field("complexLEAFrom", m.ComplexLEAFrom)
	}
	if len(m.Chains) > 0 {
		type chain struct {
			Forms  []string `json:"forms"`
			Cycles float64  `json:"cycles"`
		}
		list := make([]chain, len(m.Chains))
		for i, c := range m.Chains {
			list[i] = chain(c)
		}
		field("chains", list)
	}
	if len(m.Fusions) > 0 {
		type fusion struct {
			First  []string `json:"first"`
			Second []string `json:"second"`
		}
		list := make([]fusion, len(m.Fusions))
		for i, u := range m.Fusions {
			list[i] = fusion(u)
		}
		field("fusions", list)
	}
	if w := m.Wakeup; w != nil {
		field("wakeup", struct {
			Forms []string `json:"forms"`
			Cost  float64  `json:"cost"`
		}{w.Forms, w.Cost})
	}
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

// marshal encodes v without escaping HTML characters, indented by two
// spaces after prefix when prefix is not empty, compact otherwise.
func marshal(v any, prefix string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if prefix != "" {
		enc.SetIndent(prefix, "  ")
	}
	enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func cmp(c, empty UopCounter) UopCounter {
	if c == "" {
		return empty
	}
	return c
}

// writeMapping writes m in portlab's mapping format with one line per
// instruction.
func writeMapping(b *bytes.Buffer, m *portmap.Mapping) {
	var j struct {
		Format       string            `json:"format"`
		Name         string            `json:"name"`
		Ports        []string          `json:"ports"`
		Instructions []json.RawMessage `json:"instructions"`
	}
	all, _ := m.MarshalJSON()
	json.Unmarshal(all, &j)
	head := marshal(map[string]any{"format": j.Format, "name": j.Name, "ports": j.Ports}, "")
	fmt.Fprintf(b, "%s, \"instructions\": [", head[:len(head)-1])
	for k, insn := range j.Instructions {
		if k > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    ")
		json.Compact(b, insn)
	}
	b.WriteString("\n  ]}")
}
