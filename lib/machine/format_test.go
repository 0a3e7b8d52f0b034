package machine_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/portmap"
)

// small is a machine file with every field: an inline mapping of three
// forms on four ports.
const small = `{
  "format": "portlab.machine/v1",
  "name": "small",
  "vendor": "nobody",
  "description": "three forms on four ports",
  "mapping": {"format": "portlab.mapping/v1", "name": "four ports", "ports": ["0", "1", "2", "3"], "instructions": [
    {"name": "add RW:GPR:32, R:GPR:32", "uops": [{"count": 1, "ports": ["0", "1"]}]},
    {"name": "add RW:GPR:32, dword ptr R:MEM(32)", "uops": [{"count": 1, "ports": ["0", "1"]}, {"count": 1, "ports": ["2"]}]},
    {"name": "mov dword ptr W:MEM(32), R:GPR:32", "uops": [{"count": 1, "ports": ["3"]}]}
  ]},
  "frontEnd": {"instructionsPerCycle": 4, "uopsPerCycle": 6, "decodeWidth": 4},
  "counters": {"uops": "macro-ops", "counted": {"mov dword ptr W:MEM(32), R:GPR:32": 1}},
  "latencies": {
    "add RW:GPR:32, R:GPR:32": {"cycles": 1, "operands": [{"from": 1, "to": 0, "cycles": 1}]},
    "add RW:GPR:32, dword ptr R:MEM(32)": {"cycles": 1, "operands": [{"from": 1, "to": 0, "cycles": 5}]}
  },
  "reorderBuffer": 192,
  "issueWidth": 6,
  "retireWidth": 8,
  "loadPorts": ["2"],
  "storePorts": ["3"],
  "complexLEALatency": 2,
  "complexLEAFrom": "base",
  "chains": [{"forms": ["add RW:GPR:32, R:GPR:32", "add RW:GPR:32, dword ptr R:MEM(32)"], "cycles": 0.5}],
  "fusions": [{"first": ["add RW:GPR:32, R:GPR:32"], "second": ["add RW:GPR:32, dword ptr R:MEM(32)"]}],
  "wakeup": {"forms": ["add RW:GPR:32, R:GPR:32"], "cost": 2}
}
`

// edit returns small with old replaced by new (which must occur once).
func edit(t *testing.T, old, new string) []byte {
	t.Helper()
	if strings.Count(small, old) != 1 {
		t.Fatalf("%q occurs %d times", old, strings.Count(small, old))
	}
	return []byte(strings.Replace(small, old, new, 1))
}

func TestParse(t *testing.T) {
	m, err := machine.Parse([]byte(small), "small.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "small" || m.Vendor != "nobody" || m.Mapping.Len() != 3 || m.MappingSource != "" {
		t.Errorf("%+v", m)
	}
	if m.FrontEnd != (machine.FrontEnd{InstructionsPerCycle: 4, UopsPerCycle: 6, DecodeWidth: 4}) {
		t.Errorf("front end %+v", m.FrontEnd)
	}
	if m.ReorderBuffer != 192 || m.IssueWidth != 6 || m.RetireWidth != 8 {
		t.Errorf("widths %d %d %d", m.ReorderBuffer, m.IssueWidth, m.RetireWidth)
	}
	l := m.Latencies["add RW:GPR:32, dword ptr R:MEM(32)"]
	if l.Cycles != 1 || len(l.Operands) != 1 || l.Operands[0] != (machine.OperandLatency{From: 1, To: 0, Cycles: 5}) {
		t.Errorf("latency %+v", l)
	}
	if m.ComplexLEALatency != 2 {
		t.Errorf("complexLEALatency %v, want 2", m.ComplexLEALatency)
	}
	if want := []machine.Chain{{Forms: []string{"add RW:GPR:32, R:GPR:32", "add RW:GPR:32, dword ptr R:MEM(32)"}, Cycles: 0.5}}; !reflect.DeepEqual(m.Chains, want) {
		t.Errorf("chains %+v, want %+v", m.Chains, want)
	}
	// The memory form counts one macro-op for its two µops (Postulate
	// 6.5); the store, listed, counts 1 although the rule would give 0.
	want := map[string]int{"add RW:GPR:32, R:GPR:32": 1, "add RW:GPR:32, dword ptr R:MEM(32)": 1, "mov dword ptr W:MEM(32), R:GPR:32": 1}
	if got := m.Counted(); !reflect.DeepEqual(got, want) {
		t.Errorf("counted %v, want %v", got, want)
	}
	const s = "small: 3 instructions on 4 ports, peak 4 instructions per cycle, peak 6 µops per cycle, µop counter counts macro-ops (1 instructions count fewer than their µops)"
	if m.String() != s {
		t.Errorf("String: %s", m)
	}
}

// TestParseErrors checks that bad descriptions are errors naming the file
// and the field at fault.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		old, new string
		path     string // the field the error must name
		says     string
	}{
		// missing fields
		{`"format": "portlab.machine/v1",`, ``, "format", "missing"},
		{`"name": "small",`, ``, "name", "missing"},
		{`"mapping": {"format"`, `"mappings": {"format"`, "mappings", "unknown field"},
		{`{"instructionsPerCycle": 4, `, `{`, "frontEnd.instructionsPerCycle", "missing"},
		{`"counters": {"uops": "macro-ops", `, `"counters": {`, "counters.uops", "missing"},
		{`{"from": 1, "to": 0, "cycles": 1}`, `{"from": 1, "cycles": 1}`, `latencies["add RW:GPR:32, R:GPR:32"].operands[0].to`, "missing"},
		{`{"cycles": 1, "operands": [{"from": 1, "to": 0, "cycles": 5}]}`, `{}`, `latencies["add RW:GPR:32, dword ptr R:MEM(32)"].cycles`, "missing"},
		// unknown fields, at every level
		{`"vendor": "nobody",`, `"vendor": "nobody", "colour": "blue",`, "colour", "unknown field"},
		{`"decodeWidth": 4}`, `"decodeWidth": 4, "ipc": 4}`, "frontEnd.ipc", "unknown field"},
		{`"counters": {"uops"`, `"counters": {"branches": "x", "uops"`, "counters.branches", "unknown field"},
		{`{"from": 1, "to": 0, "cycles": 1}`, `{"from": 1, "to": 0, "cycles": 1, "via": 2}`, `latencies["add RW:GPR:32, R:GPR:32"].operands[0].via`, "unknown field"},
		{`"name": "four ports", "ports"`, `"name": "four ports", "extra": 1, "ports"`, "mapping", "unknown field"},
		// bad values
		{`"portlab.machine/v1"`, `"portlab.machine/v2"`, "format", "want"},
		{`"instructionsPerCycle": 4`, `"instructionsPerCycle": 0`, "frontEnd.instructionsPerCycle", "must be > 0"},
		{`"instructionsPerCycle": 4`, `"instructionsPerCycle": "four"`, "frontEnd.instructionsPerCycle", "a number"},
		{`"uopsPerCycle": 6`, `"uopsPerCycle": -1`, "frontEnd.uopsPerCycle", "must be > 0"},
		{`"decodeWidth": 4`, `"decodeWidth": 2.5`, "frontEnd.decodeWidth", "a whole number"},
		{`"reorderBuffer": 192`, `"reorderBuffer": 0`, "reorderBuffer", "must be > 0"},
		{`"issueWidth": 6`, `"issueWidth": -6`, "issueWidth", "must be > 0"},
		{`"uops": "macro-ops"`, `"uops": "instructions"`, "counters.uops", "unknown counter"},
		{`{"mov dword ptr W:MEM(32), R:GPR:32": 1}`, `{"mov dword ptr W:MEM(32), R:GPR:32": -1}`, `counters.counted["mov dword ptr W:MEM(32), R:GPR:32"]`, "must be ≥ 0"},
		{`{"mov dword ptr W:MEM(32), R:GPR:32": 1}`, `{"nop": 1}`, `counters.counted["nop"]`, "does not map"},
		{`{"from": 1, "to": 0, "cycles": 5}`, `{"from": 3, "to": 0, "cycles": 5}`, `latencies["add RW:GPR:32, dword ptr R:MEM(32)"].operands[0].from`, "out of range"},
		{`"add RW:GPR:32, R:GPR:32": {"cycles": 1,`, `"add RW:GPR:32, R:GPR:32": {"cycles": -1,`, `latencies["add RW:GPR:32, R:GPR:32"].cycles`, "must be ≥ 0"},
		{`"add RW:GPR:32, R:GPR:32": {"cycles"`, `"sub RW:GPR:32, R:GPR:32": {"cycles"`, `latencies["sub RW:GPR:32, R:GPR:32"]`, "does not map"},
		{`"loadPorts": ["2"]`, `"loadPorts": ["4"]`, "loadPorts[0]", "no port"},
		{`"storePorts": ["3"]`, `"storePorts": ["3", "3"]`, "storePorts[1]", "listed twice"},
		{`"uops": [{"count": 1, "ports": ["3"]}]`, `"uops": [{"count": 0, "ports": ["3"]}]`, "mapping.instructions[2].uops[0].count", "count 0"},
		// memory and merges
		{`"storePorts": ["3"]`, `"storePorts": ["3"], "mergeLatency": -2`, "mergeLatency", "must be ≥ 0"},
		{`"storePorts": ["3"]`, `"storePorts": ["3"], "memory": {"loadLatency": 4, "storeForwardLatency": -1}`, "memory.storeForwardLatency", "must be ≥ 0"},
		{`"storePorts": ["3"]`, `"storePorts": ["3"], "memory": {"loadLatency": 4, "renamed": true}`, "memory.renamed", "unknown field"},
		{`"storePorts": ["3"]`, `"storePorts": ["3"], "memory": {"renaming": "yes"}`, "memory.renaming", ""},
		{`"storePorts": ["3"]`, `"storePorts": ["3"], "memory": {"loadLatency": 4, "renaming": true, "renamingBy": "value"}`, "memory.renamingBy", "unknown"},
		{`"storePorts": ["3"]`, `"storePorts": ["3"], "memory": {"loadLatency": 4, "renamingBy": "address"}`, "memory.renamingBy", "needs memory.renaming"},
		{`"complexLEAFrom": "base"`, `"complexLEAFrom": "index"`, "complexLEAFrom", "unknown"},
		{`"complexLEALatency": 2`, `"complexLEALatency": 0`, "complexLEALatency", "must be > 0"},
		// chains
		{`"cycles": 0.5}`, `"cycles": -1}`, "chains[0].cycles", "must be ≥ 0"},
		{`, "cycles": 0.5}`, `}`, "chains[0].cycles", "missing"},
		{`"cycles": 0.5}`, `"cycles": 0.5, "via": 1}`, "chains[0].via", "unknown field"},
		{`"forms": ["add RW:GPR:32, R:GPR:32", `, `"forms": ["sub RW:GPR:32, R:GPR:32", `, "chains[0].forms", "does not map"},
		{`"forms": ["add RW:GPR:32, R:GPR:32", "add RW:GPR:32, dword ptr R:MEM(32)"]`, `"forms": []`, "chains[0].forms", "missing or empty"},
		// merges
		{`"complexLEALatency": 2,`, `"complexLEALatency": 2, "mergeWhen": "sometimes",`, "mergeWhen", "unknown"},
		// wakeup
		{`"cost": 2}`, `"cost": 0.5}`, "wakeup.cost", "must be ≥ 1"},
		{`, "cost": 2}`, `}`, "wakeup.cost", "missing"},
		{`"wakeup": {"forms": ["add RW:GPR:32, R:GPR:32"]`, `"wakeup": {"forms": ["sub RW:GPR:32, R:GPR:32"]`, "wakeup.forms", "does not map"},
		{`"wakeup": {"forms": ["add RW:GPR:32, R:GPR:32"]`, `"wakeup": {"forms": []`, "wakeup.forms", "missing or empty"},
		{`"cost": 2}`, `"cost": 2, "after": 1}`, "wakeup.after", "unknown field"},
		// fusions
		{`"first": ["add RW:GPR:32, R:GPR:32"]`, `"first": ["sub RW:GPR:32, R:GPR:32"]`, "fusions[0].first", "does not map"},
		{`"second": ["add RW:GPR:32, dword ptr R:MEM(32)"]`, `"second": []`, "fusions[0].second", "missing or empty"},
		{`"first": ["add RW:GPR:32, R:GPR:32"], `, ``, "fusions[0].first", "missing"},
		{`"second": ["add RW:GPR:32, dword ptr R:MEM(32)"]}`, `"second": ["add RW:GPR:32, dword ptr R:MEM(32)"], "gap": 1}`, "fusions[0].gap", "unknown field"},
	}
	for _, c := range cases {
		_, err := machine.Parse(edit(t, c.old, c.new), "small.json")
		var fe *portmap.FormatError
		if !errors.As(err, &fe) || fe.File != "small.json" || fe.Path != c.path || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s → %s: %v; want small.json: %s: …%s…", c.old, c.new, err, c.path, c.says)
		}
	}
	for ref, says := range map[string]string{`""`: "empty", `"no-such-mapping.json"`: "no-such-mapping.json", `"portlab:nonesuch"`: "unknown machine"} {
		_, err := machine.Parse([]byte(`{"format": "portlab.machine/v1", "name": "r", "mapping": `+ref+`}`), "r.json")
		var fe *portmap.FormatError
		if !errors.As(err, &fe) || fe.File != "r.json" || fe.Path != "mapping" || !strings.Contains(err.Error(), says) {
			t.Errorf("mapping %s: %v", ref, err)
		}
	}
	if _, err := machine.Parse([]byte(small+"{}"), "two.json"); err == nil || !strings.Contains(err.Error(), "two.json: unexpected data after the JSON value") {
		t.Errorf("two values: %v", err)
	}
	if _, err := machine.Parse([]byte(`{"format": "portlab.machine/v1", "name": `), "cut.json"); err == nil || !strings.HasPrefix(err.Error(), "cut.json: ") {
		t.Errorf("malformed: %v", err)
	}
}

// TestValidate checks machines built in Go: what Parse would reject,
// Validate rejects, naming the field.
func TestValidate(t *testing.T) {
	m := portmap.MustMapping("m", "0", "1")
	m.MustSetUsage("vpor W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)", "1*[0]")
	m.MustSetUsage("store (", "1*[1]")
	for _, c := range []struct {
		m          machine.Machine
		path, says string
	}{
		{machine.Machine{Mapping: m}, "name", "missing"},
		{machine.Machine{Name: "x"}, "mapping", "missing"},
		{machine.Machine{Name: "x", Mapping: m, Counters: machine.Counters{Uops: machine.MacroOps, Counted: map[string]int{"store (": 1}}}, "counters.uops", "1 µops, fewer than the 2 Postulate 6.5 leaves uncounted"},
		{machine.Machine{Name: "x", Mapping: m, Counters: machine.Counters{Uops: machine.MacroOps, Counted: map[string]int{"vpor W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)": 1}}}, "counters.uops", `"store (": machine: Postulate 6.5 needs an x86 scheme`},
		{machine.Machine{Name: "x", Mapping: m, FrontEnd: machine.FrontEnd{InstructionsPerCycle: -1}}, "frontEnd.instructionsPerCycle", "must be > 0"},
		{machine.Machine{Name: "x", Mapping: m, RetireWidth: -1}, "retireWidth", "must be > 0"},
		{machine.Machine{Name: "x", Mapping: m, FrontEnd: machine.FrontEnd{UopsPerCycle: 4}}, "frontEnd.instructionsPerCycle", "missing"},
	} {
		err := c.m.Validate()
		var fe *portmap.FormatError
		if !errors.As(err, &fe) || fe.Path != c.path || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v; want %s: …%s…", c.m, err, c.path, c.says)
		}
	}
	// What does not validate still simulates: a form the rule cannot read
	// counts its µops, one with too few µops counts 0.
	bad := machine.Machine{Name: "x", Mapping: m, Counters: machine.Counters{Uops: machine.MacroOps}}
	if got := bad.Counted(); got["store ("] != 1 || got["vpor W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"] != 0 {
		t.Errorf("counted %v", got)
	}
	ok := machine.Machine{Name: "x", Mapping: m}
	if err := ok.Validate(); err != nil || ok.Counted() != nil {
		t.Errorf("µop counter: %v, %v", err, ok.Counted())
	}
}

// TestWriteRead writes machines and reads them back: the built-in
// machine, the small one with every field and one whose mapping is a
// reference.
func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	zen, err := machine.Lookup(machine.ZenPlusLikeName)
	if err != nil {
		t.Fatal(err)
	}
	sm, err := machine.Parse([]byte(small), "small.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := portmap.WriteMapping(filepath.Join(dir, "small-mapping.json"), sm.Mapping); err != nil {
		t.Fatal(err)
	}
	ref := *sm
	ref.Name, ref.MappingSource = "small by reference", "small-mapping.json"
	for _, m := range []*machine.Machine{zen, sm, &ref} {
		path := filepath.Join(dir, "m.json")
		if err := machine.Write(path, m); err != nil {
			t.Fatal(err)
		}
		got, err := machine.Read(path)
		if err != nil {
			data, _ := os.ReadFile(path)
			t.Fatalf("%v\n%s", err, data)
		}
		same(t, got, m)
		again, err := machine.Encode(got)
		if err != nil {
			t.Fatal(err)
		}
		if data, _ := os.ReadFile(path); string(again) != string(data) {
			t.Errorf("%s: written again differs:\n%s\nthen\n%s", m.Name, data, again)
		}
	}
	bad := *sm
	bad.ReorderBuffer = -1
	if err := machine.Write(filepath.Join(dir, "bad.json"), &bad); err == nil || !strings.Contains(err.Error(), "reorderBuffer") {
		t.Errorf("Write of an invalid machine: %v", err)
	}
}

// same fails t unless got describes what want does.
func same(t *testing.T, got, want *machine.Machine) {
	t.Helper()
	if got.Name != want.Name || got.Vendor != want.Vendor || got.Description != want.Description || got.MappingSource != want.MappingSource {
		t.Errorf("%q %q %q %q, want %q %q %q %q", got.Name, got.Vendor, got.Description, got.MappingSource, want.Name, want.Vendor, want.Description, want.MappingSource)
	}
	if got.Mapping.Len() != want.Mapping.Len() || strings.Join(got.Mapping.Ports(), ",") != strings.Join(want.Mapping.Ports(), ",") {
		t.Fatalf("%s: mapping %v, want %v", want.Name, got.Mapping, want.Mapping)
	}
	for _, insn := range want.Mapping.Instructions() {
		if got.Mapping.Usage(insn) != want.Mapping.Usage(insn) {
			t.Errorf("%s: %s, want %s", insn, got.Mapping.Usage(insn), want.Mapping.Usage(insn))
		}
	}
	if got.FrontEnd != want.FrontEnd || !reflect.DeepEqual(got.Counters, want.Counters) || !reflect.DeepEqual(got.Latencies, want.Latencies) ||
		got.ReorderBuffer != want.ReorderBuffer || got.IssueWidth != want.IssueWidth || got.RetireWidth != want.RetireWidth ||
		!reflect.DeepEqual(got.LoadPorts, want.LoadPorts) || !reflect.DeepEqual(got.StorePorts, want.StorePorts) || !reflect.DeepEqual(got.Chains, want.Chains) || !reflect.DeepEqual(got.Fusions, want.Fusions) || !reflect.DeepEqual(got.Wakeup, want.Wakeup) || got.ComplexLEALatency != want.ComplexLEALatency ||
		got.ComplexLEAFrom != want.ComplexLEAFrom || got.Memory != want.Memory || got.MergeWhen != want.MergeWhen {
		t.Errorf("%s:\n%+v\nwant\n%+v", want.Name, got, want)
	}
}

// TestDocExample parses the example file of the package documentation.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start, end := strings.Index(text, "//\t{\n"), strings.Index(text, "//\t}\n")
	if start < 0 || end < start {
		t.Fatal("no example in doc.go")
	}
	var b strings.Builder
	for _, line := range strings.Split(text[start:end+len("//\t}")], "\n") {
		b.WriteString(strings.TrimPrefix(line, "//\t") + "\n")
	}
	m, err := machine.Parse([]byte(b.String()), "doc.go")
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if m.String() != "small: 2 instructions on 3 ports, peak 4 instructions per cycle, µop counter counts macro-ops (1 instructions count fewer than their µops)" {
		t.Errorf("%s", m)
	}
}
