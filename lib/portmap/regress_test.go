package portmap

// Regression tests for bugs found while writing the package's tests. Each
// test names the behaviour the package documents; they fail until the bug is
// fixed (see the report to the lead).

import (
	"math"
	"reflect"
	"testing"
)

// Merging µops with equal port sets must not overflow into a negative (or
// zero) count: Set documents "a count below 1" as an error and Validate
// rejects such mappings, so Set must not create one.
func TestSetMergedCountOverflow(t *testing.T) {
	m := MustMapping("toy", "0", "1")
	err := m.Set("x", Uop{Ports: Ports(0), Count: math.MaxInt}, Uop{Ports: Ports(0), Count: 1})
	if err == nil {
		if verr := m.Validate(); verr != nil {
			t.Errorf("Set accepted µops whose merged count overflows; the mapping is now invalid: %v", verr)
		}
	}
	// The same through the notation and through portlab's file format.
	m2 := MustMapping("toy", "0", "1")
	if err := m2.SetUsage("x", "9223372036854775807*p0+1*p0"); err == nil {
		if verr := m2.Validate(); verr != nil {
			t.Errorf("SetUsage: %v", verr)
		}
	}
	data := `{"format": "portlab.mapping/v1", "name": "toy", "ports": ["0"],
 "instructions": [{"name": "x", "uops": [{"count": 9223372036854775807, "ports": ["0"]}, {"count": 1, "ports": ["0"]}]}]}`
	if m3, err := DecodeMapping("overflow.json", []byte(data)); err == nil {
		if verr := m3.Validate(); verr != nil {
			t.Errorf("DecodeMapping accepted a file whose merged count overflows: %v", verr)
		}
	}
}

// Experiments promise non-negative counts; adding up repeated names must not
// overflow into a negative count or drop the instruction. An error (or, for
// With, Plus and Scale, a panic) on overflow is fine.
func TestExperimentCountOverflow(t *testing.T) {
	check := func(what string, f func() Experiment) {
		t.Helper()
		defer func() { recover() }()
		if e := f(); e.Count("a") <= 0 {
			t.Errorf("%s overflowed to %v", what, e)
		}
	}
	check("ExperimentOfItems", func() Experiment {
		e, err := ExperimentOfItems(Item{"a", math.MaxInt}, Item{"a", 1})
		if err != nil {
			return NewExperiment("a")
		}
		return e
	})
	big, err := ExperimentOf(map[string]int{"a": math.MaxInt})
	if err != nil {
		return // counts are bounded: nothing can overflow
	}
	check("Plus", func() Experiment { return big.Plus(NewExperiment("a")) })
	check("With", func() Experiment { return big.With("a", 1) })
	check("Scale", func() Experiment { return big.Scale(2) })
}

// Architecture.Index stores counts as int32; a larger count must be an
// error (here or already in ExperimentOf), not silently truncated.
func TestIndexCountTruncation(t *testing.T) {
	a, _ := NewArchitecture("toy", []string{"0"}, []string{"add"})
	e, err := ExperimentOf(map[string]int{"add": 1<<32 + 1})
	if err != nil {
		return
	}
	ix, err := a.Index(e)
	if err == nil && int(ix.Terms[0].Count) != e.Count("add") {
		t.Errorf("Index(%v) = %+v: count truncated to %d without an error", e, ix.Terms, ix.Terms[0].Count)
	}
}

// FormatUsage must write something that ParseUsage reads back as the same
// ports. A port named "p1" is written "p1", which ParseUsage resolves to a
// port named "1" when the architecture has one.
func TestFormatUsageAmbiguousPName(t *testing.T) {
	a, _ := NewArchitecture("mixed", []string{"p1", "1"}, nil)
	u := []Uop{{Ports: Ports(0), Count: 1}}
	f := FormatUsage(u, a)
	back, err := ParseUsage(f, a)
	if err != nil || !reflect.DeepEqual(back, u) {
		t.Errorf("FormatUsage(port p1) = %q, which parses to %v, %v", f, back, err)
	}
}

// An experiment file may not give an instruction an empty tool id in
// "others": the PMEvo writer would turn it into an other_results entry that
// the PMEvo reader rejects.
func TestEmptyOtherID(t *testing.T) {
	data := `{"format": "portlab.experiments/v1", "experiments": [{"insns": {"a": 1}, "cycles": 1, "others": {"": 2}}]}`
	s, err := DecodeExperiments("others.json", []byte(data))
	if err != nil {
		formatError(t, err, "others.json", "experiments[0].others")
		return
	}
	out, _ := s.MarshalPMEvo()
	if _, err := DecodeExperiments("again.json", out); err != nil {
		t.Errorf("an experiment set read from portlab's format cannot be read back from PMEvo's: %v", err)
	}
}

// TestZeroCountExperiment: an experiment whose counts are all zero is empty
// and must be rejected like an empty one ("never a silent default"), not
// turned into an empty experiment that cannot be written back.
func TestZeroCountExperiment(t *testing.T) {
	const file = "zero.json"
	ex := `{"format": "portlab.experiments/v1", "experiments": [{"insns": {"add": 0}}]}`
	s, err := DecodeExperiments(file, []byte(ex))
	if err == nil {
		t.Fatalf("DecodeExperiments accepted %s as %v (an empty experiment)", ex, s.Measurements[0].Experiment)
	}
	formatError(t, err, file, `experiments[0].insns`)
}

// The column of a JSON syntax error is that of the offending byte
// (json.SyntaxError.Offset counts the bytes read, including it).
func TestSyntaxErrorColumn(t *testing.T) {
	const file = "syntax.json"
	var err error
	var fe *FormatError
	// The second '"' of line 2 is in column 25.
	bad := "{\"kind\": \"Mapping3\",\n \"arch\": {\"insns\": [\"a\" \"b\"]}}"
	_, err = DecodeMapping(file, []byte(bad))
	fe = formatError(t, err, file, "malformed JSON")
	if fe.Line != 2 || fe.Column != 25 {
		t.Errorf("syntax error reported at %d:%d, want 2:25, the offending byte (%v)", fe.Line, fe.Column, err)
	}
	// A bad byte at the start of a line is at column 1.
	_, err = DecodeMapping(file, []byte("{\"kind\": \"Mapping3\",\nx}"))
	fe = formatError(t, err, file, "malformed JSON")
	if fe.Line != 2 || fe.Column != 1 {
		t.Errorf("syntax error reported at %d:%d, want 2:1 (%v)", fe.Line, fe.Column, err)
	}
}

// TestRenamedNamesLength: names must name every port; a list of the wrong
// length is an error, not a mapping with extra or missing ports.
func TestRenamedNamesLength(t *testing.T) {
	m := fig31()
	if r, err := m.Renamed([]int{0, 1, 2}, []string{"a", "b", "c", "d"}); err == nil {
		t.Errorf("Renamed with 4 names for 3 ports gave a mapping with ports %q", r.Ports())
	}
	if _, err := m.Renamed([]int{0, 1, 2}, []string{"a", "b"}); err == nil {
		t.Error("Renamed with 2 names for 3 ports succeeded")
	}
}

// An experiment with a huge count is accepted by the portlab reader; writing
// it as a PMEvo ExperimentList (one iseq entry per occurrence) must fail with
// an error, not panic in Experiment.List (make with an out-of-range
// capacity). Bounding counts when reading (e.g. to math.MaxInt32, which
// Indexed can hold) fixes this and TestIndexCountTruncation together.
func TestHugeCountPMEvoExport(t *testing.T) {
	data := `{"format": "portlab.experiments/v1", "experiments": [{"insns": {"a": 9223372036854775807, "b": 1}, "cycles": 1}]}`
	s, err := DecodeExperiments("huge.json", []byte(data))
	if err != nil {
		formatError(t, err, "huge.json", `experiments[0].insns["a"]`)
		return
	}
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("MarshalPMEvo of %v panicked: %v", s.Measurements[0].Experiment, r)
		}
	}()
	if _, err := s.MarshalPMEvo(); err == nil {
		t.Errorf("MarshalPMEvo of an experiment with %d occurrences succeeded", s.Measurements[0].Experiment.Len())
	}
}

// portlab's experiment reader drops an "arch" that lists instructions but no
// ports, and with it the check of the experiments' instruction names; the
// PMEvo reader in the same situation keeps the instruction list (with a
// placeholder port "?") and reports unknown names. Bad input must not be
// accepted silently.
func TestOwnExperimentsArchWithoutPorts(t *testing.T) {
	data := `{"format": "portlab.experiments/v1", "arch": {"name": "toy", "instructions": ["add"]},
 "experiments": [{"insns": {"FOO": 1}, "cycles": 1}]}`
	s, err := DecodeExperiments("noports.json", []byte(data))
	if err == nil {
		t.Errorf("accepted an experiment naming FOO, not in arch.instructions; Arch = %v", s.Arch)
		return
	}
	formatError(t, err, "noports.json")
	pm := `{"kind": "ExperimentList", "arch": {"insns": ["add"]}, "exps": [{"iseq": ["FOO"]}]}`
	_, err = DecodeExperiments("noports.json", []byte(pm))
	formatError(t, err, "noports.json", "exps[0].iseq[0]", `"FOO"`)
}
