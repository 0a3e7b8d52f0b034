package portmap

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// ---- validation errors ----

func TestFormatErrorString(t *testing.T) {
	e := &FormatError{File: "m.json", Line: 3, Column: 7, Path: "exps[0].iseq[1]", Err: errors.New("boom")}
	if got := e.Error(); got != "m.json:3:7: exps[0].iseq[1]: boom" {
		t.Errorf("Error = %q", got)
	}
	if got := (&FormatError{File: "m.json", Err: errors.New("boom")}).Error(); got != "m.json: boom" {
		t.Errorf("Error = %q", got)
	}
	inner := errors.New("inner")
	if !errors.Is(&FormatError{File: "f", Err: inner}, inner) {
		t.Error("Unwrap")
	}
}

func TestUnknownInstructionInExperiment(t *testing.T) {
	const file = "exps.json"
	data := `{"kind": "ExperimentList",
 "arch": {"kind": "Architecture", "insns": ["add", "mul"], "ports": ["0", "1"], "name": "toy"},
 "exps": [{"kind": "Experiment", "iseq": ["add", "FOO", "mul"], "result": {"cycles": 1.0}}]}`
	_, err := DecodeExperiments(file, []byte(data))
	fe := formatError(t, err, file, "exps[0].iseq[1]", `"FOO"`)
	if fe.Path != "exps[0].iseq[1]" {
		t.Errorf("Path = %q", fe.Path)
	}
	// The same in portlab's own format.
	own := `{"format": "portlab.experiments/v1",
 "arch": {"name": "toy", "ports": ["0", "1"], "instructions": ["add", "mul"]},
 "experiments": [{"insns": {"add": 1}, "cycles": 1}, {"insns": {"add": 1, "FOO": 2}, "cycles": 2}]}`
	_, err = DecodeExperiments(file, []byte(own))
	fe = formatError(t, err, file, `experiments[1].insns["FOO"]`, `unknown instruction "FOO"`)
	if fe.Path != `experiments[1].insns["FOO"]` {
		t.Errorf("Path = %q", fe.Path)
	}
	// A file on disk: the error names the path given to ReadExperiments.
	dir := t.TempDir()
	p := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadExperiments(p)
	formatError(t, err, p, "exps[0].iseq[1]", `"FOO"`)
	// Without an instruction list anything goes.
	free := `{"kind": "ExperimentList", "arch": {"ports": ["0"]}, "exps": [{"iseq": ["FOO"]}]}`
	if s, err := DecodeExperiments(file, []byte(free)); err != nil || s.Len() != 1 {
		t.Errorf("no insns list: %v", err)
	}
}

func TestEmptyUopInMapping3(t *testing.T) {
	const file = "m3.json"
	data := `{"kind": "Mapping3",
 "arch": {"kind": "Architecture", "insns": ["add", "st"], "ports": ["0", "1", "2"], "name": "toy"},
 "assignment": {"add": [["0", "1"]], "st": [["2"], []]}}`
	_, err := DecodeMapping(file, []byte(data))
	fe := formatError(t, err, file, `assignment["st"][1]`, "empty µop", `"st"`)
	if fe.Path != `assignment["st"][1]` {
		t.Errorf("Path = %q", fe.Path)
	}
	// portlab format: empty port list.
	own := `{"format": "portlab.mapping/v1", "name": "toy", "ports": ["0", "1"],
 "instructions": [{"name": "add", "uops": [{"count": 1, "ports": ["0"]}, {"count": 1, "ports": []}]}]}`
	_, err = DecodeMapping(file, []byte(own))
	fe = formatError(t, err, file, "instructions[0].uops[1].ports", "empty µop", `"add"`)
	if fe.Path != "instructions[0].uops[1].ports" {
		t.Errorf("Path = %q", fe.Path)
	}
	// Mapping2: empty port list.
	m2 := `{"kind": "Mapping2", "arch": {"insns": ["add"], "ports": ["0"]}, "assignment": {"add": []}}`
	_, err = DecodeMapping(file, []byte(m2))
	formatError(t, err, file, `assignment["add"]`, "no ports")
}

func TestDuplicatePortName(t *testing.T) {
	const file = "dup.json"
	own := `{"format": "portlab.mapping/v1", "name": "toy", "ports": ["0", "1", "0"], "instructions": []}`
	_, err := DecodeMapping(file, []byte(own))
	fe := formatError(t, err, file, "ports", "duplicate port name", `"0"`)
	if fe.Path != "ports" {
		t.Errorf("Path = %q", fe.Path)
	}
	m3 := `{"kind": "Mapping3", "arch": {"insns": ["a"], "ports": ["A", "B", "B"]}, "assignment": {"a": [["A"]]}}`
	_, err = DecodeMapping(file, []byte(m3))
	fe = formatError(t, err, file, "arch", "duplicate port name", `"B"`)
	if fe.Path != "arch" {
		t.Errorf("Path = %q", fe.Path)
	}
	ex := `{"kind": "ExperimentList", "arch": {"insns": ["a"], "ports": ["A", "A"]}, "exps": []}`
	_, err = DecodeExperiments(file, []byte(ex))
	formatError(t, err, file, "arch", "duplicate port name", `"A"`)
	own2 := `{"format": "portlab.experiments/v1", "arch": {"ports": ["A", "A"]}, "experiments": []}`
	_, err = DecodeExperiments(file, []byte(own2))
	formatError(t, err, file, "arch", "duplicate port name", `"A"`)
	// Duplicate instructions too.
	dupi := `{"format": "portlab.mapping/v1", "name": "toy", "ports": ["0"],
 "instructions": [{"name": "a", "uops": []}, {"name": "a", "uops": []}]}`
	_, err = DecodeMapping(file, []byte(dupi))
	formatError(t, err, file, "instructions[1].name", `duplicate instruction "a"`)
}

func TestBadCounts(t *testing.T) {
	const file = "counts.json"
	for _, n := range []string{"0", "-1"} {
		own := `{"format": "portlab.mapping/v1", "name": "toy", "ports": ["0", "1"],
 "instructions": [{"name": "add", "uops": [{"count": 1, "ports": ["0"]}]},
                  {"name": "mul", "uops": [{"count": ` + n + `, "ports": ["1"]}]}]}`
		_, err := DecodeMapping(file, []byte(own))
		fe := formatError(t, err, file, "instructions[1].uops[0].count", "count "+n, `"mul"`)
		if fe.Path != "instructions[1].uops[0].count" {
			t.Errorf("Path = %q", fe.Path)
		}
	}
	ex := `{"format": "portlab.experiments/v1", "experiments": [{"insns": {"add": -1}}]}`
	_, err := DecodeExperiments(file, []byte(ex))
	fe := formatError(t, err, file, `experiments[0].insns["add"]`, "negative count -1")
	if fe.Path != `experiments[0].insns["add"]` {
		t.Errorf("Path = %q", fe.Path)
	}
	for _, c := range []struct{ data, path string }{
		{`{"format": "portlab.experiments/v1", "experiments": [{"insns": {}}]}`, "experiments[0].insns"},
		{`{"format": "portlab.experiments/v1", "experiments": [{"insns": {"a": 1}, "cycles": 0}]}`, "experiments[0].cycles"},
		{`{"format": "portlab.experiments/v1", "experiments": [{"insns": {"a": 1}, "cycles": -2}]}`, "experiments[0].cycles"},
		{`{"kind": "ExperimentList", "exps": [{"iseq": []}]}`, "exps[0].iseq"},
		{`{"kind": "ExperimentList", "exps": [{"iseq": ["a", ""]}]}`, "exps[0].iseq[1]"},
		{`{"kind": "ExperimentList", "exps": [{"iseq": ["a"], "result": {"cycles": 0}}]}`, "exps[0].result.cycles"},
		{`{"kind": "ExperimentList", "exps": [{"iseq": ["a"], "other_results": [{"cycles": 1}]}]}`, "exps[0].other_results[0]"},
		{`{"kind": "ExperimentList", "exps": [{"iseq": ["a"], "other_results": [{"id": "IACA"}]}]}`, "exps[0].other_results[0]"},
	} {
		_, err := DecodeExperiments(file, []byte(c.data))
		fe := formatError(t, err, file, c.path)
		if fe.Path != c.path {
			t.Errorf("%s: Path = %q, want %q", c.data, fe.Path, c.path)
		}
	}
}

func TestMalformedJSON(t *testing.T) {
	const file = "trunc.json"
	full := `{"kind": "Mapping3",
 "arch": {"kind": "Architecture", "insns": ["add"], "ports": ["0", "1"], "name": "toy"},
 "assignment": {"add": [["0", "1"]]}}`
	trunc := full[:strings.Index(full, `"assignment"`)+len(`"assignment": {"ad`)]
	_, err := DecodeMapping(file, []byte(trunc))
	fe := formatError(t, err, file, file+":3:")
	if fe.Line != 3 || fe.Column < 1 {
		t.Errorf("Line:Column = %d:%d, want line 3", fe.Line, fe.Column)
	}
	_, err = DecodeExperiments(file, []byte(trunc))
	formatError(t, err, file, file+":3:")

	// A syntax error inside the file: the line is known (the column is
	// checked in TestSyntaxErrorColumn).
	bad := "{\"kind\": \"Mapping3\",\n \"arch\": {\"insns\": [\"a\" \"b\"]}}"
	_, err = DecodeMapping(file, []byte(bad))
	fe = formatError(t, err, file, "malformed JSON", "after array element")
	if fe.Line != 2 || fe.Column < 24 || fe.Column > 26 {
		t.Errorf("syntax error reported at %d:%d, want about 2:25 (%v)", fe.Line, fe.Column, err)
	}
	// Empty input and trailing garbage.
	_, err = DecodeMapping(file, nil)
	fe = formatError(t, err, file, "unexpected end")
	if fe.Line != 1 || fe.Column != 1 {
		t.Errorf("empty input at %d:%d", fe.Line, fe.Column)
	}
	_, err = DecodeMapping(file, []byte(full+"\n}"))
	fe = formatError(t, err, file, "after the top-level JSON value")
	if fe.Line != 4 {
		t.Errorf("trailing data at line %d, want 4", fe.Line)
	}
	// Trailing white space is fine.
	if _, err := DecodeMapping(file, []byte(full+"\n\n")); err != nil {
		t.Error(err)
	}
}

func TestWrongJSONType(t *testing.T) {
	const file = "type.json"
	for _, c := range []struct {
		decode func(string, []byte) error
		data   string
		want   []string
		line   bool // line and column known
	}{
		{decMap, `{"format": "portlab.mapping/v1", "name": "x", "ports": "0156", "instructions": []}`, []string{"ports", "string where an array is expected"}, true},
		{decMap, `{"format": "portlab.mapping/v1", "name": "x", "ports": ["0"], "instructions": [{"name": "a", "uops": [{"count": "1", "ports": ["0"]}]}]}`, []string{"count", "string where a whole number is expected"}, true},
		{decMap, `{"format": "portlab.mapping/v1", "name": "x", "ports": ["0"], "instructions": [{"name": "a", "uops": "1*p0"}]}`, []string{"uops", "string"}, true},
		{decMap, `{"kind": "Mapping3", "arch": {"insns": "add", "ports": ["0"]}, "assignment": {}}`, []string{"insns", "string"}, true},
		{decMap, `{"kind": "Mapping3", "arch": {"insns": ["add"], "ports": ["0"]}, "assignment": {"add": "0"}}`, []string{`assignment["add"]`, "list of µops"}, false},
		{decMap, `{"kind": "Mapping3", "arch": {"insns": ["add"], "ports": ["0"]}, "assignment": {"add": ["0"]}}`, []string{`assignment["add"]`}, false},
		{decMap, `{"kind": "Mapping2", "arch": {"insns": ["add"], "ports": ["0"]}, "assignment": {"add": [["0"]]}}`, []string{`assignment["add"]`, "list of port names"}, false},
		{decMap, `{"kind": "Mapping3", "arch": {"insns": ["add"], "ports": ["0"]}, "assignment": ["add"]}`, []string{"assignment"}, true},
		{decExp, `{"kind": "ExperimentList", "exps": [{"iseq": "add mul"}]}`, []string{"iseq", "string where an array is expected"}, true},
		{decExp, `{"kind": "ExperimentList", "exps": {"iseq": ["add"]}}`, []string{"exps", "object"}, true},
		{decExp, `{"format": "portlab.experiments/v1", "experiments": [{"insns": ["add"]}]}`, []string{"insns", "array"}, true},
		{decExp, `{"format": "portlab.experiments/v1", "experiments": [{"insns": {"add": 1.5}}]}`, []string{"insns", "number 1.5"}, true},
		{decMap, `["Mapping3"]`, []string{"array where an object is expected"}, true},
		{decMap, `{"kind": 3}`, []string{"kind", "number"}, true},
	} {
		err := c.decode(file, []byte(c.data))
		fe := formatError(t, err, file, c.want...)
		if err != nil && (strings.Contains(err.Error(), "portmap.") || strings.Contains(err.Error(), "struct {") || strings.Contains(err.Error(), "[]string")) {
			t.Errorf("%s: the error names a Go type: %v", c.data, err)
		}
		if c.line && (fe.Line != 1 || fe.Column < 2) {
			t.Errorf("%s: no line/column: %v", c.data, err)
		}
	}
}

func decMap(f string, d []byte) error { _, err := DecodeMapping(f, d); return err }
func decExp(f string, d []byte) error { _, err := DecodeExperiments(f, d); return err }

func TestUnknownFormatKind(t *testing.T) {
	const file = "kind.json"
	for _, c := range []struct {
		decode func(string, []byte) error
		data   string
		want   []string
	}{
		{decMap, `{"kind": "Mapping4"}`, []string{"not a mapping", `"Mapping4"`}},
		{decMap, `{"format": "portlab.mapping/v2"}`, []string{"not a mapping", `"portlab.mapping/v2"`}},
		{decMap, `{}`, []string{"not a mapping", `""`}},
		{decMap, `null`, []string{"not a mapping"}},
		{decMap, `{"kind": "ExperimentList", "exps": []}`, []string{"not a mapping", `"ExperimentList"`}},
		{decExp, `{"kind": "Mapping3"}`, []string{"not an experiment set", `"Mapping3"`}},
		{decExp, `{"format": "portlab.mapping/v1"}`, []string{"not an experiment set", `"portlab.mapping/v1"`}},
		{decExp, `{"kind": "Experiments"}`, []string{"not an experiment set", `"Experiments"`}},
	} {
		err := c.decode(file, []byte(c.data))
		fe := formatError(t, err, file, c.want...)
		if err != nil && (strings.Contains(err.Error(), "portmap.") || strings.Contains(err.Error(), "struct {") || strings.Contains(err.Error(), "[]string")) {
			t.Errorf("%s: the error names a Go type: %v", c.data, err)
		}
		if fe.Line != 0 || fe.Path != "" {
			t.Errorf("%s: %+v", c.data, fe)
		}
	}
}

func TestOtherMappingErrors(t *testing.T) {
	const file = "m.json"
	for _, c := range []struct{ data, path string }{
		{`{"format": "portlab.mapping/v1", "name": "x", "ports": [], "instructions": []}`, "ports"},
		{`{"format": "portlab.mapping/v1", "name": "x", "ports": ["0"], "instructions": [{"uops": []}]}`, "instructions[0].name"},
		{`{"format": "portlab.mapping/v1", "name": "x", "ports": ["0"], "instructions": [{"name": "a"}]}`, "instructions[0].uops"},
		{`{"format": "portlab.mapping/v1", "name": "x", "ports": ["0"], "instructions": [{"name": "a", "uops": [{"count": 1, "ports": ["7"]}]}]}`, "instructions[0].uops[0].ports"},
		{`{"kind": "Mapping3", "arch": {"insns": ["a"], "ports": ["0"]}}`, "assignment"},
		{`{"kind": "Mapping3", "arch": {"insns": ["a"], "ports": ["0"]}, "assignment": {"b": [["0"]]}}`, `assignment["b"]`},
		{`{"kind": "Mapping3", "arch": {"insns": ["a"], "ports": ["0"]}, "assignment": {"a": [["0"], ["1"]]}}`, `assignment["a"][1]`},
		{`{"kind": "Mapping2", "arch": {"insns": ["a"], "ports": ["0"]}, "assignment": {"a": ["0", "9"]}}`, `assignment["a"]`},
		{`{"kind": "Mapping3", "arch": {"insns": ["a"], "ports": []}, "assignment": {}}`, "arch"},
	} {
		_, err := DecodeMapping(file, []byte(c.data))
		fe := formatError(t, err, file, c.path)
		if fe.Path != c.path {
			t.Errorf("%s: Path = %q, want %q (%v)", c.data, fe.Path, c.path, err)
		}
	}
	// Unknown fields are rejected in portlab's own (strict) format.
	_, err := DecodeMapping(file, []byte(`{"format": "portlab.mapping/v1", "name": "x", "ports": ["0"], "instructions": [], "extra": 1}`))
	formatError(t, err, file, `"extra"`)
	// A missing file is an error naming it.
	_, err = ReadMapping(filepath.Join(t.TempDir(), "missing.json"))
	errContains(t, err, "missing.json")
	_, err = ReadExperiments(filepath.Join(t.TempDir(), "missing.json"))
	errContains(t, err, "missing.json")
}

func TestMapping2(t *testing.T) {
	data := `{"kind": "Mapping2", "arch": {"kind": "Architecture", "insns": ["mul", "add", "sub", "store"], "ports": ["p1", "p2", "p3"], "name": "fig3.1"},
 "assignment": {"mul": ["p1"], "add": ["p1", "p2"], "sub": ["p2", "p1"], "store": ["p3"]}}`
	m, err := DecodeMapping("m2.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	sameMapping(t, m, fig31())
	if !m.IsTwoLevel() {
		t.Error("Mapping2 is two-level")
	}
}

// ---- round trips ----

// richMapping exercises every µop shape: counts > 1, several µops, no µops,
// and all ports.
func richMapping() *Mapping {
	m := MustMapping("rich", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9")
	m.MustSetUsage("ADD_((REG:RW:G:64)),_((IMM:32))", "1*p0156")
	m.MustSetUsage("add RW:GPR:64, R:GPR:64", "1*p0156")
	m.MustSetUsage("st", "1*p23+1*p237+1*p4")
	m.MustSetUsage("div", "4*p0+1*p01+1*p015")
	m.MustSetUsage("nop", "0")
	m.MustSetUsage("all", "2*p0123456789")
	m.MustSetUsage("temp", "1*p9")
	m.Delete("temp") // unmapped entries are not written
	return m
}

func TestMappingPortlabRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, m := range []*Mapping{richMapping(), fig31(), MustMapping("empty", "A", "B")} {
		p := filepath.Join(dir, m.Name()+".json")
		if err := WriteMapping(p, m); err != nil {
			t.Fatal(err)
		}
		got, err := ReadMapping(p)
		if err != nil {
			t.Fatal(err)
		}
		sameMapping(t, m, got)
		if !reflect.DeepEqual(got.Instructions(), m.Instructions()) {
			t.Errorf("instruction order %q, want %q", got.Instructions(), m.Instructions())
		}
		if err := got.Validate(); err != nil {
			t.Error(err)
		}
		// MarshalJSON gives the same document as WriteMapping.
		data, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		file, _ := os.ReadFile(p)
		if strings.TrimSpace(string(file)) != string(data) {
			t.Errorf("WriteMapping and MarshalJSON differ:\n%s\n%s", file, data)
		}
		got2, err := DecodeMapping("mem", data)
		if err != nil {
			t.Fatal(err)
		}
		sameMapping(t, m, got2)
		// json.Marshal goes through MarshalJSON.
		viaStd, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if got3, err := DecodeMapping("std", viaStd); err != nil {
			t.Fatal(err)
		} else {
			sameMapping(t, m, got3)
		}
		if _, err := os.Stat(p + ".tmp"); !os.IsNotExist(err) {
			t.Errorf("temporary file left behind: %v", err)
		}
	}
	// The document is the documented shape.
	data, _ := fig31().MarshalJSON()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["format"] != MappingFormat || doc["name"] != "fig3.1" || len(doc["instructions"].([]any)) != 4 {
		t.Errorf("document: %s", data)
	}
	first := doc["instructions"].([]any)[0].(map[string]any)
	if first["name"] != "mul" || !reflect.DeepEqual(first["uops"], []any{map[string]any{"count": 1.0, "ports": []any{"p1"}}}) {
		t.Errorf("first instruction: %v", first)
	}
	nop, _ := richMapping().MarshalJSON()
	if !strings.Contains(string(nop), `"uops": []`) {
		t.Errorf("an instruction with no µops must be written with \"uops\": []:\n%s", nop)
	}
}

func TestMappingPMEvoRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, m := range []*Mapping{richMapping(), fig31()} {
		p := filepath.Join(dir, m.Name()+".pmevo.json")
		if err := WritePMEvoMapping(p, m); err != nil {
			t.Fatal(err)
		}
		got, err := ReadMapping(p)
		if err != nil {
			t.Fatal(err)
		}
		sameMapping(t, m, got)
		data, err := m.MarshalPMEvo()
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Kind string
			Arch struct {
				Kind, Name   string
				Insns, Ports []string
			}
			Assignment map[string][][]string
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Kind != "Mapping3" || doc.Arch.Kind != "Architecture" || !reflect.DeepEqual(doc.Arch.Insns, m.Instructions()) || !reflect.DeepEqual(doc.Arch.Ports, m.Ports()) {
			t.Errorf("PMEvo document: %s", data)
		}
		if m.Name() == "rich" {
			// Counts become repeated µops; no µops is an empty list.
			if got := doc.Assignment["div"]; !reflect.DeepEqual(got, [][]string{{"0"}, {"0"}, {"0"}, {"0"}, {"0", "1"}, {"0", "1", "5"}}) {
				t.Errorf("div = %v", got)
			}
			if got, ok := doc.Assignment["nop"]; !ok || got == nil || len(got) != 0 {
				t.Errorf("nop = %#v, %v", got, ok)
			}
			if _, ok := doc.Assignment["temp"]; ok {
				t.Error("deleted instruction exported")
			}
		}
	}
}

func sameMeasurements(t testing.TB, a, b *ExperimentSet) {
	t.Helper()
	if a.Len() != b.Len() {
		t.Fatalf("Len %d != %d", a.Len(), b.Len())
	}
	for i := range a.Measurements {
		x, y := a.Measurements[i], b.Measurements[i]
		if !x.Experiment.Equal(y.Experiment) || x.Cycles != y.Cycles {
			t.Errorf("measurement %d: %v %v != %v %v", i, x.Experiment, x.Cycles, y.Experiment, y.Cycles)
		}
		if len(x.Others) != len(y.Others) || (len(x.Others) > 0 && !reflect.DeepEqual(x.Others, y.Others)) {
			t.Errorf("measurement %d: others %v != %v", i, x.Others, y.Others)
		}
	}
	if (a.Arch == nil) != (b.Arch == nil) {
		t.Fatalf("arch %v vs %v", a.Arch, b.Arch)
	}
	if a.Arch != nil {
		if a.Arch.Name() != b.Arch.Name() || !reflect.DeepEqual(a.Arch.Ports(), b.Arch.Ports()) || !reflect.DeepEqual(a.Arch.Instructions(), b.Arch.Instructions()) {
			t.Errorf("arch %q %q %q vs %q %q %q", a.Arch.Name(), a.Arch.Ports(), a.Arch.Instructions(), b.Arch.Name(), b.Arch.Ports(), b.Arch.Instructions())
		}
	}
}

func sampleSet(t testing.TB) *ExperimentSet {
	arch, err := NewArchitecture("toy", []string{"p1", "p2", "p3"}, []string{"add", "mul", "sub", "store"})
	if err != nil {
		t.Fatal(err)
	}
	e1 := NewExperiment("add", "add", "mul", "store")
	e2, _ := ExperimentOf(map[string]int{"sub": 3})
	return &ExperimentSet{Arch: arch, Measurements: []Measurement{
		{Experiment: e1, Cycles: 1.5, Others: map[string]float64{"IACA": 2, "llvm-mca": 1.75, "Ithemal": 1.4321}},
		{Experiment: e2, Cycles: 0.1 + 0.2},
		{Experiment: NewExperiment("store"), Others: map[string]float64{"IACA": 1}}, // not measured
		{Experiment: NewExperiment("mul", "sub"), Cycles: math.Pi},
	}}
}

func TestExperimentSetRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := sampleSet(t)
	noArch := &ExperimentSet{Measurements: s.Measurements}
	for name, set := range map[string]*ExperimentSet{"arch": s, "noarch": noArch} {
		p := filepath.Join(dir, name+".json")
		if err := WriteExperiments(p, set); err != nil {
			t.Fatal(err)
		}
		got, err := ReadExperiments(p)
		if err != nil {
			t.Fatal(err)
		}
		sameMeasurements(t, set, got)

		data, err := set.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		got, err = DecodeExperiments("mem", data)
		if err != nil {
			t.Fatal(err)
		}
		sameMeasurements(t, set, got)

		pp := filepath.Join(dir, name+".pmevo.json")
		if err := WritePMEvoExperiments(pp, set); err != nil {
			t.Fatal(err)
		}
		got, err = ReadExperiments(pp)
		if err != nil {
			t.Fatal(err)
		}
		if name == "arch" {
			sameMeasurements(t, set, got)
		} else {
			// PMEvo always writes an "arch"; with no ports it reads back
			// as no architecture.
			if got.Arch != nil {
				t.Errorf("arch %v from a set without one", got.Arch.Ports())
			}
			sameMeasurements(t, set, &ExperimentSet{Arch: nil, Measurements: got.Measurements})
		}
	}
	// The PMEvo document has iseq in canonical order, result and sorted
	// other_results.
	data, err := s.MarshalPMEvo()
	if err != nil {
		t.Fatal(err)
	}
	var doc pmevoExperimentList
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	e0 := doc.Exps[0]
	if doc.Kind != "ExperimentList" || !reflect.DeepEqual(e0.Iseq, []string{"add", "add", "mul", "store"}) || *e0.Result.Cycles != 1.5 ||
		len(e0.OtherResults) != 3 || e0.OtherResults[0].ID != "IACA" || e0.OtherResults[1].ID != "Ithemal" || e0.OtherResults[2].ID != "llvm-mca" {
		t.Errorf("PMEvo document: %s", data)
	}
	if doc.Exps[2].Result != nil {
		t.Errorf("unmeasured experiment has a result: %+v", doc.Exps[2].Result)
	}
}

func TestExperimentSetMethods(t *testing.T) {
	s := sampleSet(t)
	if s.Len() != 4 || len(s.Experiments()) != 4 || !s.Experiments()[1].Equal(NewExperiment("sub", "sub", "sub")) {
		t.Errorf("Experiments = %v", s.Experiments())
	}
	if c := s.Cycles(); c[0] != 1.5 || c[2] != 0 || c[3] != math.Pi {
		t.Errorf("Cycles = %v", c)
	}
	if got := s.OtherIDs(); !reflect.DeepEqual(got, []string{"IACA", "Ithemal", "llvm-mca"}) {
		t.Errorf("OtherIDs = %q", got)
	}
	o := s.Other("IACA")
	if o[0] != 2 || !math.IsNaN(o[1]) || o[2] != 1 || !math.IsNaN(o[3]) {
		t.Errorf("Other(IACA) = %v", o)
	}
	if m, ok := s.Lookup(NewExperiment("store", "mul", "add", "add")); !ok || m.Cycles != 1.5 {
		t.Errorf("Lookup = %v, %v", m, ok)
	}
	if _, ok := s.Lookup(NewExperiment("add")); ok {
		t.Error("Lookup found a missing experiment")
	}
	f := s.Filter(func(m Measurement) bool { return m.Cycles > 1 })
	if f.Len() != 2 || f.Arch != s.Arch || f.Measurements[1].Cycles != math.Pi {
		t.Errorf("Filter = %+v", f.Measurements)
	}
	// Validate: the unmeasured experiment is reported.
	errContains(t, s.Validate(), "measurement 2", "cycles 0")
	ok := s.Filter(func(m Measurement) bool { return m.Cycles > 0 })
	if err := ok.Validate(); err != nil {
		t.Error(err)
	}
	bad := &ExperimentSet{Arch: s.Arch, Measurements: []Measurement{{Experiment: NewExperiment("div"), Cycles: 1}}}
	errContains(t, bad.Validate(), "measurement 0", `"div"`)
	inf := &ExperimentSet{Measurements: []Measurement{{Experiment: NewExperiment("div"), Cycles: math.Inf(1)}}}
	errContains(t, inf.Validate(), "measurement 0")
	nan := &ExperimentSet{Measurements: []Measurement{{Experiment: NewExperiment("div"), Cycles: math.NaN()}}}
	errContains(t, nan.Validate(), "measurement 0")
}

// TestWrittenFilesAreReadable: result files are shared, so they are
// written readable by everyone (a temporary file is created 0600).
func TestWrittenFilesAreReadable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.json")
	m := MustMapping("m", "0").MustSetUsage("add", "1*p0")
	if err := WriteMapping(path, m); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o644 {
		t.Errorf("mode %v, want -rw-r--r--", got)
	}
}
