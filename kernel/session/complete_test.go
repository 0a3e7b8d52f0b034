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
	run(t, s, "mapping := portmap.MustMapping(\"m\", \"p0\", \"p1\")\nfunc helper() {}")
	cases := []struct {
		code, want, not string
	}{
		{"throughput.", "Bottleneck", "Predict1"},
		{"throughput.Pre", "Predict", "Bottleneck"},
		{"portmap.Must", "MustMapping", "NewMapping"},
		{"mapp", "mapping", "helper"},
		{"help", "helper", "mapping"},
		{"mapping.Set", "SetUsage", "Len"},
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
	run(t, s, "m := portmap.MustMapping(\"m\", \"p0\", \"p1\")\ncount := 3")
	cases := []struct{ code, want string }{
		{"throughput.LP", "LP solves the throughput linear program"},
		{"throughput.LP(m, e)", "func LP(m *portmap.Mapping"},
		{"m.SetUsage", "SetUsage"},
		{"count", "count int = 3"},
		{"metrics", "package metrics"},
	}
	for _, c := range cases {
		cursor := len("throughput.L")
		if !strings.HasPrefix(c.code, "throughput") {
			cursor = len(c.code)
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
	r, _ = run(t, s, `m := portmap.MustMapping("fig", "p1", "p2")
m.MustSetUsage("add", "1*[p1,p2]")`)
	html, _ := r.Value.Data["text/html"].(string)
	if !strings.Contains(html, "<table>") || !strings.Contains(html, `<img alt="mapping graph`) {
		t.Errorf("mapping HTML has no table or graph: %.200s", html)
	}
	r, _ = run(t, s, `e, _ := portmap.ExperimentOf(map[string]int{"add": 3})
s, _ := throughput.LP(m, e)
s`)
	if html, _ := r.Value.Data["text/html"].(string); !strings.Contains(html, `<img alt="port pressure"`) {
		t.Errorf("schedule bundle: %.200s", html)
	}
}
