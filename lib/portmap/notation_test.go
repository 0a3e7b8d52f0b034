package portmap

import (
	"reflect"
	"strings"
	"testing"
)

func digitArch(t testing.TB, n int) *Architecture {
	t.Helper()
	ports := make([]string, n)
	for i := range ports {
		ports[i] = string(rune('0' + i))
	}
	a, err := NewArchitecture("digits", ports, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustArch(t testing.TB, ports ...string) *Architecture {
	t.Helper()
	a, err := NewArchitecture("test", ports, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestParseUsageNames(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []NamedUop
	}{
		{"1*p0156+2*p23", []NamedUop{{1, []string{"0", "1", "5", "6"}}, {2, []string{"2", "3"}}}},
		{"p06", []NamedUop{{1, []string{"0", "6"}}}},
		{"4*p0+1*p01+1*p015", []NamedUop{{4, []string{"0"}}, {1, []string{"0", "1"}}, {1, []string{"0", "1", "5"}}}},
		{"1*FP23", []NamedUop{{1, []string{"FP2", "FP3"}}}},
		{"[ALU0,LD]", []NamedUop{{1, []string{"ALU0", "LD"}}}},
		{"2*[ ALU0 , LD ]+p1", []NamedUop{{2, []string{"ALU0", "LD"}}, {1, []string{"1"}}}},
		{"[a+b]", []NamedUop{{1, []string{"a+b"}}}},
		{" 1 * p0 + 3*p1 ", []NamedUop{{1, []string{"0"}}, {3, []string{"1"}}}},
		{"12*p9", []NamedUop{{12, []string{"9"}}}},
		{"1*p00", []NamedUop{{1, []string{"0", "0"}}}},
	} {
		got, err := ParseUsageNames(c.in)
		if err != nil {
			t.Errorf("ParseUsageNames(%q): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseUsageNames(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	for _, in := range []string{"", "0", "  ", " 0 "} {
		got, err := ParseUsageNames(in)
		if err != nil || got == nil || len(got) != 0 {
			t.Errorf("ParseUsageNames(%q) = %#v, %v; want empty non-nil", in, got, err)
		}
	}
}

// TestParseUsageErrors: every error names the usage string and the
// offending term or value.
func TestParseUsageErrors(t *testing.T) {
	a := digitArch(t, 8)
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"0*p0", []string{`"0*p0"`, "count 0"}},
		{"x*p0", []string{`"x*p0"`, `"x"`, "not a whole number"}},
		{"1*", []string{`term "1*"`, "no ports"}},
		{"1*p", []string{`term "1*p"`, `"p"`}},
		{"1*[a,", []string{`term "1*[a,"`, "unclosed", `"[a,"`}},
		{"1*pA", []string{`term "1*pA"`, `"pA"`}},
		{"1*p0+", []string{`"1*p0+"`, "term 2 is empty"}},
		{"+1*p0", []string{"term 1 is empty"}},
		{"1*p0++1*p1", []string{"term 2 is empty"}},
		{"-1*p0", []string{`"-1*p0"`, "count -1"}},
		{"1*p0x", []string{`"p0x"`, `'x'`}},
		{"1*[a,,b]", []string{`"[a,,b]"`, "empty port name"}},
		{"1*[]", []string{`"[]"`, "empty port name"}},
		{"1*0", []string{`term "1*0"`, `"0"`}},
		{"99999999999999999999*p0", []string{`"99999999999999999999"`, "not a whole number"}},
		{"1*p0.5", []string{`"p0.5"`}},
	} {
		_, err := ParseUsageNames(c.in)
		errContains(t, err, c.want...)
		_, err = ParseUsage(c.in, a)
		errContains(t, err, c.want...)
	}
	// Unknown port: only ParseUsage can tell.
	_, err := ParseUsage("1*p0+1*p09", a)
	errContains(t, err, `"1*p0+1*p09"`, `unknown port "9"`, "0, 1, 2")
	_, err = ParseUsage("1*FP4", mustArch(t, "FP0", "FP1", "FP2", "FP3"))
	errContains(t, err, `unknown port "FP4"`, "FP0, FP1, FP2, FP3")
	_, err = ParseUsage("[ALU0,ST]", mustArch(t, "ALU0", "LD"))
	errContains(t, err, `unknown port "ST"`)
}

func TestParseFormatUsageRoundTrip(t *testing.T) {
	intel := digitArch(t, 10)
	amd := mustArch(t, "FP0", "FP1", "FP2", "FP3")
	named := mustArch(t, "ALU0", "ALU1", "LD", "ST")
	pnamed := mustArch(t, "p1", "p2", "p3")
	for _, c := range []struct {
		arch   *Architecture
		in     string
		uops   []Uop
		format string // FormatUsage of the parsed µops
	}{
		{intel, "1*p0156+2*p23", []Uop{{Ports(0, 1, 5, 6), 1}, {Ports(2, 3), 2}}, "1*p0156+2*p23"},
		{intel, "p06", []Uop{{Ports(0, 6), 1}}, "1*p06"},
		{intel, "4*p0+1*p01+1*p015", []Uop{{Ports(0), 4}, {Ports(0, 1), 1}, {Ports(0, 1, 5), 1}}, "4*p0+1*p01+1*p015"},
		{intel, "1*p49+1*p78", []Uop{{Ports(4, 9), 1}, {Ports(7, 8), 1}}, "1*p49+1*p78"},
		{intel, "1*p6510", []Uop{{Ports(0, 1, 5, 6), 1}}, "1*p0156"},
		{intel, "[0,1]", []Uop{{Ports(0, 1), 1}}, "1*p01"},
		{amd, "1*FP23", []Uop{{Ports(2, 3), 1}}, "1*FP23"},
		{amd, "2*FP0123+1*FP1", []Uop{{Ports(0, 1, 2, 3), 2}, {Ports(1), 1}}, "2*FP0123+1*FP1"},
		{amd, "[FP0,FP3]", []Uop{{Ports(0, 3), 1}}, "1*FP03"},
		{named, "[ALU0,LD]", []Uop{{Ports(0, 2), 1}}, "1*[ALU0,LD]"},
		{named, "2*[ALU0,ALU1]+1*[ST]", []Uop{{Ports(0, 1), 2}, {Ports(3), 1}}, "2*ALU01+1*[ST]"},
		{pnamed, "p12", []Uop{{Ports(0, 1), 1}}, "1*p12"},
		{pnamed, "1*p3+2*[p1,p2]", []Uop{{Ports(2), 1}, {Ports(0, 1), 2}}, "1*p3+2*p12"},
		{intel, "0", []Uop{}, "0"},
		{intel, "", []Uop{}, "0"},
	} {
		got, err := ParseUsage(c.in, c.arch)
		if err != nil {
			t.Errorf("ParseUsage(%q): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.uops) {
			t.Errorf("ParseUsage(%q) = %v, want %v", c.in, got, c.uops)
		}
		f := FormatUsage(got, c.arch)
		if f != c.format {
			t.Errorf("FormatUsage(ParseUsage(%q)) = %q, want %q", c.in, f, c.format)
		}
		again, err := ParseUsage(f, c.arch)
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("re-parse of %q = %v, %v; want %v", f, again, err, got)
		}
	}
	if got := FormatUsage(nil, intel); got != "0" {
		t.Errorf("FormatUsage(nil) = %q", got)
	}
}

// TestFormatUsageGroups covers the three output forms of port groups.
func TestFormatUsageGroups(t *testing.T) {
	a := mustArch(t, "0", "FP0", "FP1", "ALU0", "ALU10", "LD", "p1", "10", "X_1")
	for _, c := range []struct {
		s    PortSet
		want string
	}{
		{Ports(0), "1*p0"},
		{Ports(1, 2), "1*FP01"},
		{Ports(0, 1), "1*[0,FP0]"},
		{Ports(3, 5), "1*[ALU0,LD]"},
		{Ports(4), "1*[ALU10]"},
		{Ports(1, 3), "1*[FP0,ALU0]"},
		{Ports(7), "1*[10]"},
		{Ports(8), "1*X_1"},
	} {
		u := []Uop{{c.s, 1}}
		got := FormatUsage(u, a)
		if got != c.want {
			t.Errorf("FormatUsage(%v) = %q, want %q", c.s, got, c.want)
			continue
		}
		back, err := ParseUsage(got, a)
		if err != nil || !reflect.DeepEqual(back, u) {
			t.Errorf("ParseUsage(%q) = %v, %v; want %v", got, back, err, u)
		}
	}
}

// TestUsageRoundTripExhaustive: every port set of a small architecture
// formats and parses back, for Intel, AMD and arbitrary names.
func TestUsageRoundTripExhaustive(t *testing.T) {
	for _, a := range []*Architecture{
		digitArch(t, 10),
		mustArch(t, "FP0", "FP1", "FP2", "FP3", "FP4", "FP5"),
		mustArch(t, "ALU0", "ALU1", "LD", "ST", "BR"),
		mustArch(t, "p0", "p1", "p2", "p3", "p4", "p5"),
	} {
		for s := PortSet(1); s <= a.AllPorts(); s++ {
			u := []Uop{{s, 3}, {a.AllPorts(), 1}}
			f := FormatUsage(u, a)
			back, err := ParseUsage(f, a)
			if err != nil || !reflect.DeepEqual(back, u) {
				t.Fatalf("%q: %v: FormatUsage %q parses to %v, %v", a.Ports(), u, f, back, err)
			}
		}
	}
}

func TestSetUsageRealNotation(t *testing.T) {
	m := MustMapping("SKL", "0", "1", "2", "3", "4", "5", "6", "7")
	m.MustSetUsage("ADD_mem_imm", "1*p0156+1*p23+1*p237+1*p4")
	u, _ := m.Uops("ADD_mem_imm")
	want := []Uop{{Ports(2, 3), 1}, {Ports(4), 1}, {Ports(0, 1, 5, 6), 1}, {Ports(2, 3, 7), 1}}
	if !reflect.DeepEqual(u, want) {
		t.Errorf("Uops = %v, want %v (sorted by port set)", u, want)
	}
	if got := m.Usage("ADD_mem_imm"); got != "1*p23+1*p4+1*p0156+1*p237" {
		t.Errorf("Usage = %q", got)
	}
	if !strings.Contains(m.String(), "ADD_mem_imm: 1*p23+1*p4+1*p0156+1*p237") {
		t.Errorf("String = %q", m.String())
	}
}
