package portmap

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

// Seeds shared by the f.Add calls; testdata/fuzz/FuzzXxx holds more in Go's
// corpus format.
var mappingSeeds = []string{
	`{"format": "portlab.mapping/v1", "name": "toy", "ports": ["p1", "p2", "p3"],
 "instructions": [{"name": "add", "uops": [{"count": 1, "ports": ["p1", "p2"]}]},
                  {"name": "nop", "uops": []},
                  {"name": "st", "uops": [{"count": 2, "ports": ["p3"]}, {"count": 1, "ports": ["p3"]}]}]}`,
	`{"kind": "Mapping3", "arch": {"kind": "Architecture", "insns": ["ADD_((REG:RW:G:64)),_((IMM:32))", "ST"], "ports": ["0", "1", "5", "6"], "name": "SKL"},
 "assignment": {"ADD_((REG:RW:G:64)),_((IMM:32))": [["0", "1", "5", "6"]], "ST": [["0"], ["0"], ["1", "5"]]}}`,
	`{"kind": "Mapping2", "arch": {"insns": ["a", "b"], "ports": ["A", "B"]}, "assignment": {"a": ["A"], "b": ["A", "B"]}}`,
	`{"kind": "Mapping3", "arch": {"insns": ["a"], "ports": ["0"]}, "assignment": {"a": [[]]}}`,
	`{"format": "portlab.mapping/v1", "name": "x", "ports": ["0", "0"], "instructions": []}`,
	`{"format": "portlab.mapping/v1", "name": "x", "ports": ["0"], "instructions": [{"name": "a", "uops": [{"count": 0, "ports": ["0"]}]}]}`,
	`{"kind": "Mapping3", "arch": {"insns": ["a"`,
	`{"kind": "Mapping9"}`,
	`[]`,
	``,
}

var experimentSeeds = []string{
	`{"format": "portlab.experiments/v1", "arch": {"name": "toy", "ports": ["p1", "p2"], "instructions": ["add", "mul"]},
 "experiments": [{"insns": {"add": 2, "mul": 1}, "cycles": 1.5, "others": {"IACA": 2}}, {"insns": {"mul": 3}}]}`,
	`{"kind": "ExperimentList", "arch": {"kind": "Architecture", "insns": ["add", "mul"], "ports": ["0", "1"], "name": "SKL"},
 "exps": [{"kind": "Experiment", "iseq": ["add", "mul", "add"], "result": {"cycles": 0.75},
           "other_results": [{"id": "IACA", "cycles": 1.0}, {"id": "llvm-mca", "cycles": 1.5}]}]}`,
	`{"kind": "ExperimentList", "exps": [{"iseq": ["x"]}]}`,
	`{"kind": "ExperimentList", "arch": {"insns": ["a"], "ports": ["0"]}, "exps": [{"iseq": ["a", "b"]}]}`,
	`{"format": "portlab.experiments/v1", "experiments": [{"insns": {"a": -1}}]}`,
	`{"format": "portlab.experiments/v1", "experiments": [{"insns": {"a": 1}, "cycles": 0}]}`,
	`{"kind": "ExperimentList", "exps": [{"iseq": ["a"], "result": {"cycles": 1e999}}]}`,
	`{"kind": "ExperimentList", "exps": [`,
}

var usageSeeds = []string{
	"1*p0156+2*p23", "p06", "4*p0+1*p01+1*p015", "1*p49+1*p78", "1*FP23", "2*FP0123+1*FP1",
	"[ALU0,LD]", "2*[ ALU0 , LD ]+p1", "0", "", "0*p0", "x*p0", "1*", "1*p", "1*[a,", "1*pA",
	"1*p0+", "[a+b]", "1*p00", "99999999999999999999*p0", "1*[p1]+1*[1]",
}

func FuzzDecodeMapping(f *testing.F) {
	for _, s := range mappingSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeMapping("fuzz.json", data)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.File != "fuzz.json" {
				t.Fatalf("error %v (%T) is not a FormatError for the input", err, err)
			}
			if m != nil {
				t.Fatal("mapping returned with an error")
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("decoded mapping is invalid: %v", err)
		}
		// portlab format round trip.
		out, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		m2, err := DecodeMapping("again.json", out)
		if err != nil {
			t.Fatalf("re-reading the written mapping: %v\n%s", err, out)
		}
		sameMapping(t, m, m2)
		if !reflect.DeepEqual(m.Instructions(), m2.Instructions()) {
			t.Fatalf("instruction order %q != %q", m.Instructions(), m2.Instructions())
		}
		// PMEvo round trip (repeated µops are written out one by one, so only
		// for modest counts).
		total := 0 // µops written out, saturating at 1<<12+1
		for _, n := range m.Instructions() {
			u, _ := m.Uops(n)
			for _, x := range u {
				total = satAdd(total, x.Count)
			}
		}
		if total <= 1<<12 {
			out, err := m.MarshalPMEvo()
			if err != nil {
				t.Fatal(err)
			}
			m3, err := DecodeMapping("again.pmevo.json", out)
			if err != nil {
				t.Fatalf("re-reading the PMEvo mapping: %v\n%s", err, out)
			}
			sameMapping(t, m, m3)
		}
	})
}

func FuzzDecodeExperiments(f *testing.F) {
	for _, s := range experimentSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeExperiments("fuzz.json", data)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.File != "fuzz.json" {
				t.Fatalf("error %v (%T) is not a FormatError for the input", err, err)
			}
			return
		}
		total := 0 // iseq entries written out, saturating at 1<<12+1
		for i, m := range s.Measurements {
			if m.Experiment.Distinct() == 0 {
				t.Fatalf("measurement %d: empty experiment accepted", i)
			}
			if m.Cycles < 0 || math.IsNaN(m.Cycles) || math.IsInf(m.Cycles, 0) {
				t.Fatalf("measurement %d: cycles %v", i, m.Cycles)
			}
			for _, it := range m.Experiment.Items() {
				if it.Count < 1 {
					t.Fatalf("measurement %d: %v", i, m.Experiment)
				}
				if s.Arch != nil && s.Arch.NumInstructions() > 0 {
					if _, ok := s.Arch.Instruction(it.Insn); !ok {
						t.Fatalf("measurement %d: unknown instruction %q accepted", i, it.Insn)
					}
				}
			}
			for _, it := range m.Experiment.Items() {
				total = satAdd(total, it.Count)
			}
		}
		if s.Arch != nil {
			valid := true
			for _, m := range s.Measurements {
				valid = valid && m.Cycles > 0
			}
			if err := s.Validate(); valid && err != nil {
				t.Fatalf("decoded set is invalid: %v", err)
			}
		}
		out, err := s.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		s2, err := DecodeExperiments("again.json", out)
		if err != nil {
			t.Fatalf("re-reading the written set: %v\n%s", err, out)
		}
		sameMeasurements(t, s, s2)
		if total <= 1<<12 {
			out, err := s.MarshalPMEvo()
			if err != nil {
				t.Fatal(err)
			}
			s3, err := DecodeExperiments("again.pmevo.json", out)
			if err != nil {
				t.Fatalf("re-reading the PMEvo set: %v\n%s", err, out)
			}
			if s.Arch == nil {
				s3.Arch = nil // PMEvo always writes an arch object
			}
			sameMeasurements(t, s, s3)
		}
	})
}

func FuzzParseUsage(f *testing.F) {
	for _, s := range usageSeeds {
		f.Add(s)
	}
	digits := make([]string, 10)
	for i := range digits {
		digits[i] = string(rune('0' + i))
	}
	intel, err := NewArchitecture("digits", digits, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		named, err := ParseUsageNames(s)
		if err != nil {
			if named != nil {
				t.Fatalf("result %v with error %v", named, err)
			}
			return
		}
		if named == nil {
			t.Fatal("nil result without error")
		}
		names := map[string]bool{}
		allDigits := true
		for _, nu := range named {
			if nu.Count < 1 || len(nu.Ports) == 0 {
				t.Fatalf("%q: bad µop %+v", s, nu)
			}
			for _, p := range nu.Ports {
				if p == "" {
					t.Fatalf("%q: empty port name", s)
				}
				names[p] = true
				allDigits = allDigits && len(p) == 1 && p[0] >= '0' && p[0] <= '9'
			}
		}
		if len(named) == 0 {
			return
		}
		if allDigits {
			uops, err := ParseUsage(s, intel)
			if err != nil {
				t.Fatalf("%q: ParseUsage with ports 0..9: %v", s, err)
			}
			f := FormatUsage(uops, intel)
			back, err := ParseUsage(f, intel)
			if err != nil {
				t.Fatalf("%q: FormatUsage gave %q, which does not parse: %v", s, f, err)
			}
			if !reflect.DeepEqual(back, uops) {
				t.Fatalf("%q: µops %v, formatted %q, re-parsed %v", s, uops, f, back)
			}
			return
		}
		// Other names: resolve against an architecture of exactly these
		// names; formatting and re-parsing must give the same µops.
		if len(names) > MaxPorts {
			return
		}
		ports := make([]string, 0, len(names))
		for _, nu := range named {
			for _, p := range nu.Ports {
				if names[p] {
					ports = append(ports, p)
					names[p] = false
				}
			}
		}
		a, err := NewArchitecture("names", ports, nil)
		if err != nil {
			t.Fatalf("%q: names %q are not valid port names: %v", s, ports, err)
		}
		uops, err := ParseUsage(s, a)
		if err != nil {
			t.Fatalf("%q: ParseUsage with its own port names %q: %v", s, ports, err)
		}
		f := FormatUsage(uops, a)
		back, err := ParseUsage(f, a)
		if err != nil {
			t.Fatalf("%q (ports %q): FormatUsage gave %q, which does not parse: %v", s, ports, f, err)
		}
		if !reflect.DeepEqual(back, uops) {
			t.Fatalf("%q (ports %q): µops %v, formatted %q, re-parsed %v", s, ports, uops, f, back)
		}
	})
}

// satAdd returns a+n for non-negative a and n, saturating at 1<<12+1 (the
// bound beyond which the fuzz targets skip writing PMEvo files, which list
// every occurrence).
func satAdd(a, n int) int {
	const limit = 1<<12 + 1
	if n < 0 || n >= limit || a+n >= limit {
		return limit
	}
	return a + n
}
