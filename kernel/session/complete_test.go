package session

import (
	"strings"
	"testing"
)

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestComplete(t *testing.T) {
	s := newSession(t)
	run(t, s, "mapping := lab.NewSet(\"m\", 2)\nfunc helper() {}")
	cases := []struct {
		code, want, not string
	}{
		{"lab.", "Bottleneck", "newLabSet"},
		{"lab.Bo", "Bound", "NewSet"},
		{"lab.New", "NewSet", "Bound"},
		{"display.Te", "Text", "HTML"},
		{"strings.HasS", "HasSuffix", "HasPrefix"},
		{"mapp", "mapping", "helper"},
		{"help", "helper", "mapping"},
		{"mapping.A", "Add", "String"},
		{"mapping.Na", "Name", "Add"},
		{"fm", "fmt", "for"},
	}
	for _, c := range cases {
		matches, start := s.Complete(c.code, len(c.code))
		if !contains(matches, c.want) || contains(matches, c.not) {
			t.Errorf("Complete(%q) = %v, want %s and not %s", c.code, matches, c.want, c.not)
		}
		if i := strings.LastIndex(c.code, "."); start != i+1 {
			t.Errorf("Complete(%q) start %d, want %d", c.code, start, i+1)
		}
	}
}

func TestInspect(t *testing.T) {
	s := newSession(t)
	run(t, s, "m := lab.NewSet(\"m\", 2)\ncount := 3\nb := display.Text(\"x\")")
	cases := []struct{ code, want string }{
		{"lab.NewSet", "NewSet returns a set of n experiments"},
		{"lab.NewSet(m, e)", "func NewSet(name string, n int) *Set"},
		{"m.Add", "Add"},
		{"count", "count int = 3"},
		{"lab", "package lab"},
		{"display.Render", "Render returns the richest bundle"},
		{"display", "Package display turns Go values into MIME bundles"},
		{"b.With", "With returns a copy of b"},
		{"strings.ToUpper", "strings.ToUpper func(string) string"},
	}
	for _, c := range cases {
		cursor := len(c.code)
		if strings.HasPrefix(c.code, "lab.NewSet") {
			cursor = len("lab.Ne")
		}
		b, ok := s.Inspect(c.code, cursor)
		if !ok || !strings.Contains(b.PlainText(), c.want) {
			t.Errorf("Inspect(%q) = %v %q, want %q", c.code, ok, b.PlainText(), c.want)
		}
	}
	if _, ok := s.Inspect("nosuchname", 3); ok {
		t.Error("Inspect found an undefined name")
	}
}

func TestIsComplete(t *testing.T) {
	cases := []struct{ code, want string }{
		{"fmt.Println(1)", "complete"},
		{"x := 1 +", "incomplete"},
		{"func f() {", "incomplete"},
		{"for i := 0; i < 3; i++ {\n\tfmt.Println(i)", "incomplete"},
		{"s := `raw", "incomplete"},
		{"x := (1))", "invalid"},
		{"x := 'ab", "invalid"},
		{"%time", "complete"},
		{"x++", "complete"},
		{"x := := 3", "invalid"},
		{"func f() int { return 1 }\nf()", "complete"},
	}
	for _, c := range cases {
		if got, _ := IsComplete(c.code); got != c.want {
			t.Errorf("IsComplete(%q) = %s, want %s", c.code, got, c.want)
		}
	}
}

func TestMagics(t *testing.T) {
	s := newSession(t)
	r, _ := run(t, s, "%help")
	if !strings.Contains(value(r), "%reset") {
		t.Errorf("%%help: %s", value(r))
	}
	run(t, s, "answer := 42\nfunc f() int { return answer }")
	r, _ = run(t, s, "%who")
	if !strings.Contains(value(r), "answer\tint") || !strings.Contains(value(r), "f") || strings.Contains(value(r), "clear") {
		t.Errorf("%%who: %q", value(r))
	}
	r, rec := run(t, s, "%time\nanswer + 1")
	if value(r) != "43" || !strings.HasPrefix(rec.text("stdout"), "time: ") {
		t.Errorf("%%time: value %s, stdout %q", value(r), rec.text("stdout"))
	}
	r, _ = run(t, s, "%time answer * 2")
	if value(r) != "84" {
		t.Errorf("%%time expr: %s", value(r))
	}
	run(t, s, "%reset")
	if r := s.Execute(t.Context(), "answer", &recorder{}); r.Err == nil {
		t.Errorf("answer survived %%reset: %s", value(r))
	}
	if r, _ := run(t, s, "min(2, 1)"); value(r) != "1" {
		t.Errorf("prelude missing after reset: %s", value(r))
	}
}

func TestInput(t *testing.T) {
	s := newSession(t)
	rec := &recorder{inputs: []string{"Ada", "7"}}
	r := s.Execute(t.Context(), "name := display.Input(\"name? \")\nvar n int\nfmt.Scanln(&n)\nfmt.Sprint(name, n*6)", rec)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if value(r) != `"Ada42"` {
		t.Errorf("value %s", value(r))
	}
}

func TestRichValues(t *testing.T) {
	s := newSession(t)
	run(t, s, `type badge struct{ text string }
func (b badge) HTML() string { return "<b>" + b.text + "</b>" }`)
	r, _ := run(t, s, `badge{"hi"}`)
	if r.Value == nil || r.Value.Data["text/html"] != "<b>hi</b>" {
		t.Fatalf("interpreted HTMLer: %+v", r.Value)
	}
	r, _ = run(t, s, `lab.NewSet("zen", 4)`)
	if r.Value == nil || r.Value.Data["text/html"] != "<i>4 measured</i>" || r.Value.PlainText() != "4 measured experiments on zen" {
		t.Errorf("host value with an HTML method: %+v", r.Value)
	}
}
