package portmap

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func readSKLUopsInfo(t testing.TB) *Mapping {
	t.Helper()
	m, err := ReadMapping(dataFile(t, "pmevo-artifact/SKL/mapping_uops_info.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRealSKLMapping(t *testing.T) {
	m := readSKLUopsInfo(t)
	if m.Len() != 310 || m.Arch().NumInstructions() != 310 {
		t.Errorf("Len = %d, want 310", m.Len())
	}
	if got := m.Ports(); !reflect.DeepEqual(got, []string{"0", "1", "2", "3", "4", "5", "6", "7", "8"}) {
		t.Errorf("Ports = %q", got)
	}
	if m.Name() != "SKL" {
		t.Errorf("Name = %q", m.Name())
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	const add = "ADD_byte_ptr_[((MEM:64))_+_((MIMM:16))],_((IMM:8))"
	u, ok := m.Uops(add)
	if !ok {
		t.Fatalf("%s not mapped", add)
	}
	want, err := ParseUsage("1*p0156+1*p23+1*p237+1*p4", m.Arch())
	if err != nil {
		t.Fatal(err)
	}
	want, _ = NormalizeUops(want, m.Arch().AllPorts())
	if !reflect.DeepEqual(u, want) {
		t.Errorf("%s = %v (%s), want %v", add, u, m.Usage(add), want)
	}
	if got := m.Usage(add); got != "1*p23+1*p4+1*p0156+1*p237" {
		t.Errorf("Usage = %q", got)
	}
	if m.NumUops(add) != 4 || m.IsTwoLevel() {
		t.Errorf("NumUops %d, IsTwoLevel %v", m.NumUops(add), m.IsTwoLevel())
	}
	if m.Volume() <= m.Len() || m.DistinctUops() < 5 {
		t.Errorf("Volume %d DistinctUops %d", m.Volume(), m.DistinctUops())
	}
	// Every instruction's µops use only ports 0..8 and port 8 (the divider)
	// only alone.
	for _, n := range m.Instructions() {
		u, _ := m.Uops(n)
		for _, x := range u {
			if x.Ports.Has(8) && x.Ports != Ports(8) {
				t.Errorf("%s: divider port in a shared µop %v", n, x.Ports)
			}
		}
	}

	// Round trips of real data through both writers.
	dir := t.TempDir()
	for _, w := range []func(string, *Mapping) error{WriteMapping, WritePMEvoMapping} {
		p := filepath.Join(dir, "skl.json")
		if err := w(p, m); err != nil {
			t.Fatal(err)
		}
		got, err := ReadMapping(p)
		if err != nil {
			t.Fatal(err)
		}
		sameMapping(t, m, got)
	}
}

func TestRealSKLExperiments(t *testing.T) {
	s, err := ReadExperiments(dataFile(t, "pmevo-artifact/SKL/exps_eval_small_annotated.json"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2000 {
		t.Fatalf("Len = %d, want 2000", s.Len())
	}
	if s.Arch == nil || s.Arch.NumInstructions() != 310 || s.Arch.NumPorts() != 9 {
		t.Fatalf("Arch = %+v", s.Arch)
	}
	for i, m := range s.Measurements {
		if m.Experiment.Len() != 5 {
			t.Fatalf("experiment %d: Len %d, want 5: %v", i, m.Experiment.Len(), m.Experiment)
		}
		if len(m.Others) != 3 {
			t.Fatalf("experiment %d: others %v", i, m.Others)
		}
		if _, err := s.Arch.Index(m.Experiment); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := s.OtherIDs(); !reflect.DeepEqual(got, []string{"IACA", "Ithemal", "llvm-mca"}) {
		t.Errorf("OtherIDs = %q", got)
	}
	// The first experiment of the file.
	m0 := s.Measurements[0]
	want := NewExperiment("NEG_((REG:RW:G:64))", "OR_qword_ptr_[((MEM:64))_+_((MIMM:16))],_((IMM:32))",
		"SAR_dword_ptr_[((MEM:64))_+_((MIMM:16))],_((IMM:8))",
		"VPBLENDVB_((REG:W:V:256)),_((REG:R:V:256)),_ymmword_ptr_[((MEM:64))_+_((MIMM:16))],_((REG:R:V:256))",
		"VUNPCKLPD_((REG:W:V:256)),_((REG:R:V:256)),_((REG:R:V:256))")
	if !m0.Experiment.Equal(want) || m0.Cycles != 3.014129388 ||
		!reflect.DeepEqual(m0.Others, map[string]float64{"IACA": 2.0, "llvm-mca": 13.015, "Ithemal": 4.273903808595}) {
		t.Errorf("first measurement = %+v", m0)
	}
	// Every experiment is mapped by the uops.info mapping.
	mp := readSKLUopsInfo(t)
	for _, m := range s.Measurements {
		if _, err := mp.UopMass(m.Experiment); err != nil {
			t.Fatal(err)
		}
	}

	// Round trips through both formats keep measurements and others.
	dir := t.TempDir()
	for _, w := range []func(string, *ExperimentSet) error{WriteExperiments, WritePMEvoExperiments} {
		p := filepath.Join(dir, "exps.json")
		if err := w(p, s); err != nil {
			t.Fatal(err)
		}
		got, err := ReadExperiments(p)
		if err != nil {
			t.Fatal(err)
		}
		sameMeasurements(t, s, got)
	}
}

var (
	uopsInfoOnce    sync.Once
	uopsInfoSchemes []UopsInfoScheme
	uopsInfoErr     error
)

func uopsInfo(t testing.TB) []UopsInfoScheme {
	t.Helper()
	p := dataFile(t, "iwho/x86_uops_info_features.json")
	uopsInfoOnce.Do(func() {
		data, err := os.ReadFile(p)
		if err != nil {
			uopsInfoErr = err
			return
		}
		uopsInfoSchemes, uopsInfoErr = DecodeUopsInfoSchemes(p, data)
	})
	if uopsInfoErr != nil {
		t.Fatal(uopsInfoErr)
	}
	return uopsInfoSchemes
}

func TestRealUopsInfo(t *testing.T) {
	schemes := uopsInfo(t)
	if len(schemes) != 3501 {
		t.Errorf("%d schemes, want 3501", len(schemes))
	}
	for i := 1; i < len(schemes); i++ {
		if schemes[i-1].Name >= schemes[i].Name {
			t.Fatalf("schemes not sorted at %d: %q, %q", i, schemes[i-1].Name, schemes[i].Name)
		}
	}
	archs := UopsInfoArchitectures(schemes)
	for _, ua := range []string{"ICL", "SKL", "ZEN+", "ZEN2", "ZEN3", "HSW", "TGL"} {
		found := false
		for _, a := range archs {
			found = found || a == ua
		}
		if !found {
			t.Errorf("UopsInfoArchitectures = %q lacks %q", archs, ua)
		}
	}
	if len(archs) != 20 {
		t.Errorf("%d microarchitectures, want 20: %q", len(archs), archs)
	}

	icl, err := UopsInfoMapping(schemes, "ICL")
	if err != nil {
		t.Fatal(err)
	}
	// 3,439 scheme variants have an ICL measurement (the README's coverage
	// number) but they belong to 3,284 distinct schemes; the mapping has one
	// instruction per scheme.
	if icl.Len() != 3284 {
		t.Errorf("ICL: %d instructions, want 3284", icl.Len())
	}
	if got := icl.Ports(); !reflect.DeepEqual(got, []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}) {
		t.Errorf("ICL ports = %q", got)
	}
	if got := icl.Usage("add RW:GPR:64, R:GPR:64"); got != "1*p0156" {
		t.Errorf("ICL add = %q", got)
	}
	if err := icl.Validate(); err != nil {
		t.Error(err)
	}
	if icl.Name() != "ICL" {
		t.Errorf("Name = %q", icl.Name())
	}
	// Usage strings of the mapping parse back to the same µops.
	for _, n := range icl.Instructions() {
		u, _ := icl.Uops(n)
		back, err := ParseUsage(icl.Usage(n), icl.Arch())
		if err != nil {
			t.Fatal(err)
		}
		back, _ = NormalizeUops(back, icl.Arch().AllPorts())
		if !reflect.DeepEqual(u, back) {
			t.Fatalf("%s: %v vs %v", n, u, back)
		}
	}
	// The first variant with an ICL measurement is used.
	for _, s := range schemes {
		for _, v := range s.Variants {
			if usage, ok := v.Measurements["ICL"]; ok {
				want, err := ParseUsage(usage, icl.Arch())
				if err != nil {
					t.Fatal(err)
				}
				want, _ = NormalizeUops(want, icl.Arch().AllPorts())
				got, _ := icl.Uops(s.Name)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: %v, want %v (%s)", s.Name, got, want, usage)
				}
				break
			}
		}
	}

	zen, err := UopsInfoMapping(schemes, "ZEN+")
	if err != nil {
		t.Fatal(err)
	}
	if got := zen.Ports(); !reflect.DeepEqual(got, []string{"FP0", "FP1", "FP2", "FP3"}) {
		t.Errorf("ZEN+ ports = %q", got)
	}
	if zen.Len() != 968 {
		t.Errorf("ZEN+: %d instructions, want 968", zen.Len())
	}
	for _, n := range zen.Instructions() {
		if u := zen.Usage(n); !strings.HasPrefix(u, "1*FP") {
			t.Fatalf("ZEN+ %s: %q", n, u)
		}
	}
	if _, err := UopsInfoMapping(schemes, "NOPE"); err == nil {
		t.Error("UopsInfoMapping for an unknown microarchitecture succeeded")
	} else {
		errContains(t, err, `"NOPE"`)
	}
}

func TestUopsInfoSmall(t *testing.T) {
	data := `{
 "add RW:GPR:64, R:GPR:64": [{"uops_info_url": "u1", "extension": "BASE", "isa-set": "I86", "category": "BINARY",
   "measurements": {"SKL": "1*p0156", "ZEN+": "1*FP0"}}],
 "vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15": [
   {"uops_info_url": "v1", "measurements": {"ZEN+": "2*FP01"}},
   {"uops_info_url": "v2", "measurements": {"SKL": "1*p01", "ZEN+": "1*FP3"}}],
 "nop": [{"measurements": {"SKL": ""}}],
 "wide": [{"measurements": {"SKL": "1*p23+1*p49"}}]
}`
	schemes, err := DecodeUopsInfoSchemes("small.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(schemes) != 4 || schemes[0].Name != "add RW:GPR:64, R:GPR:64" || schemes[0].Variants[0].Extension != "BASE" ||
		schemes[0].Variants[0].ISASet != "I86" || schemes[0].Variants[0].URL != "u1" || schemes[0].Variants[0].Category != "BINARY" {
		t.Errorf("schemes = %+v", schemes)
	}
	if got := UopsInfoArchitectures(schemes); !reflect.DeepEqual(got, []string{"SKL", "ZEN+"}) {
		t.Errorf("UopsInfoArchitectures = %q", got)
	}
	skl, err := UopsInfoMapping(schemes, "SKL")
	if err != nil {
		t.Fatal(err)
	}
	// Ports: only those used, in natural order.
	if got := skl.Ports(); !reflect.DeepEqual(got, []string{"0", "1", "2", "3", "4", "5", "6", "9"}) {
		t.Errorf("SKL ports = %q", got)
	}
	if skl.Usage("nop") != "0" || !skl.Has("nop") || skl.Usage("vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15") != "1*p01" {
		t.Errorf("SKL = %s", skl)
	}
	if skl.Usage("wide") != "1*p23+1*p49" {
		t.Errorf("wide = %q", skl.Usage("wide"))
	}
	zen, err := UopsInfoMapping(schemes, "ZEN+")
	if err != nil {
		t.Fatal(err)
	}
	// FP3 occurs only in the second vaddps variant, which is not used.
	if got := zen.Ports(); !reflect.DeepEqual(got, []string{"FP0", "FP1"}) {
		t.Errorf("ZEN+ ports = %q", got)
	}
	// First variant with a measurement wins.
	if got := zen.Usage("vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15"); got != "2*FP01" {
		t.Errorf("ZEN+ vaddps = %q", got)
	}
	if zen.Has("nop") || zen.Len() != 2 {
		t.Errorf("ZEN+ = %s", zen)
	}

	// A bad usage string names the scheme.
	bad := `{"x y": [{"measurements": {"SKL": "1*p0+0*p1"}}]}`
	schemes, err = DecodeUopsInfoSchemes("bad.json", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	_, err = UopsInfoMapping(schemes, "SKL")
	errContains(t, err, `"x y"`, "SKL", "count 0")
	// Malformed file.
	_, err = DecodeUopsInfoSchemes("bad.json", []byte(`{"x": [{"measurements": {"SKL": 1}}]}`))
	formatError(t, err, "bad.json", "number")
	_, err = DecodeUopsInfoSchemes("bad.json", []byte(`{"x": [`))
	formatError(t, err, "bad.json")
}

func TestNaturalLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		less bool
	}{
		{"2", "10", true}, {"10", "2", false}, {"FP2", "FP10", true}, {"FP10", "FP2", false},
		{"ALU", "FP0", true}, {"fp1", "FP2", true}, {"FP1", "fp1", true}, {"a", "a", false},
	} {
		if got := naturalLess(c.a, c.b); got != c.less {
			t.Errorf("naturalLess(%q, %q) = %v", c.a, c.b, got)
		}
	}
}
