package source

import (
	"strings"
	"testing"
)

func TestParseBlockPredictor(t *testing.T) {
	for _, c := range []struct{ name, kind, arg, err string }{
		{"sim:zenplus-like", "sim", "portlab:zenplus-like", ""},
		{"sim:portlab:zenplus-like", "sim", "portlab:zenplus-like", ""},
		{"llvm-mca:znver3", "llvm-mca", "znver3", ""},
		{"host", "", "", "not available yet"},
		{"sim:", "", "", "want sim:MACHINE"},
		{"llvm-mca:a b", "", "", "no -mcpu value"},
		{"sim:portlab:nope", "", "", "unknown simulated machine"},
		{"iaca:haswell", "", "", `unknown kind "iaca"`},
	} {
		p, err := ParseBlockPredictor(c.name)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || p.Kind != c.kind || p.Arg != c.arg {
			t.Errorf("%q: %+v, %v", c.name, p, err)
		}
	}
	p, _ := ParseBlockPredictor("sim:zenplus-like")
	bp, m, err := p.Open()
	if err != nil || m == nil || bp.Name() != "sim:portlab:zenplus-like" {
		t.Errorf("Open: %v, %v, %v", bp, m, err)
	}
}
