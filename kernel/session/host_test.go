package session

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// labSet stands for a library result whose methods have pointer receivers
// (as the library's *portmap.ExperimentSet); it is a type of the compiled
// package "example.com/lab" that test sessions get from testHost.
type labSet struct {
	Name string
	n    int
}

func newLabSet(name string, n int) *labSet { return &labSet{Name: name, n: n} }

func (s *labSet) String() string { return fmt.Sprintf("%d measured experiments on %s", s.n, s.Name) }
func (s *labSet) HTML() string   { return fmt.Sprintf("<i>%d measured</i>", s.n) }

// Add returns s with n more experiments.
func (s *labSet) Add(n int) *labSet { s.n += n; return s }

func labBound(a, b int) int { return max(a, b) }

// testHost is a small host: one compiled package, imported in every
// session, with documentation.
var testHost = Host{
	Symbols: interp.Exports{"example.com/lab/lab": {
		"Set":        reflect.ValueOf((*labSet)(nil)),
		"NewSet":     reflect.ValueOf(newLabSet),
		"Bound":      reflect.ValueOf(labBound),
		"Bottleneck": reflect.ValueOf(labBound),
	}},
	Docs: func(key string) (string, bool) {
		d, ok := map[string]string{
			"example.com/lab":        "package lab // import \"example.com/lab\"\n\nPackage lab is the library of the tests.",
			"example.com/lab.NewSet": "func NewSet(name string, n int) *Set\n\nNewSet returns a set of n experiments.",
		}[key]
		return d, ok
	},
	Imports: []string{"example.com/lab"},
	Help:    "`example.com/lab` is the tests' library.",
}

func TestHost(t *testing.T) {
	s := newSession(t)
	r, _ := run(t, s, `es := lab.NewSet("zen", 2)
es.Add(1)
lab.Bound(len(es.Name), 2)`)
	if got := value(r); got != "3" {
		t.Errorf("host package in a cell: %s", got)
	}
	r, _ = run(t, s, "%help")
	if h := value(r); !strings.Contains(h, "`fmt`, `math`, `os`, `strings`, `lab` and `display`. `example.com/lab` is the tests' library.") {
		t.Errorf("%%help does not name the host's packages: %.600s", h)
	}
	// Without a host: the standard library and display only.
	bare, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	if r := bare.Execute(t.Context(), "lab.Bound(1, 2)", &recorder{}); r.Err == nil || !strings.Contains(r.Err.Value, "undefined: lab") {
		t.Errorf("a session without a host knows lab: %+v", r)
	}
	if r := bare.Execute(t.Context(), `display.Text("x").PlainText() + strings.ToUpper("y")`, &recorder{}); value(r) != `"xY"` {
		t.Errorf("a session without a host: %s %+v", value(r), r.Err)
	}
}
