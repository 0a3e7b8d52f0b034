package session

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/portlab/portlab/kernel/display"
)

// recorder is an Output that keeps everything in order.
type recorder struct {
	mu     sync.Mutex
	events []string // "stdout:text", "stderr:text", "display:<text/plain>"
	inputs []string
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, name+":"+text)
}

func (r *recorder) Display(b display.Bundle, id string, update bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	kind := "display"
	if update {
		kind = "update"
	}
	r.events = append(r.events, kind+"("+id+"):"+b.PlainText())
}

func (r *recorder) Clear(wait bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "clear")
}

func (r *recorder) Input(prompt string, password bool) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.inputs) == 0 {
		return "", context.Canceled
	}
	s := r.inputs[0]
	r.inputs = r.inputs[1:]
	return s, nil
}

// text returns the concatenated stream text of name.
func (r *recorder) text(name string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, e := range r.events {
		if rest, ok := strings.CutPrefix(e, name+":"); ok {
			b.WriteString(rest)
		}
	}
	return b.String()
}

func newSession(t testing.TB) *Session {
	t.Helper()
	s, err := New(Options{Host: testHost})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// run executes code and fails the test on an error.
func run(t *testing.T, s *Session, code string) (Result, *recorder) {
	t.Helper()
	rec := &recorder{}
	r := s.Execute(context.Background(), code, rec)
	if r.Err != nil {
		t.Fatalf("cell %q: %v %v", code, r.Err, r.Err.Traceback)
	}
	return r, rec
}

func value(r Result) string {
	if r.Value == nil {
		return "<no value>"
	}
	return r.Value.PlainText()
}

func TestLastExpressionValue(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, want string }{
		{"6*7", "42"},
		{`"go"`, `"go"`},
		{"x := 3\nx + 1", "4"},
		{"func two() (int, string) { return 1, \"a\" }\ntwo()", `(1, "a")`},
		{`fmt.Println("printed")`, "<no value>"},
		{"func none() {}\nnone()", "<no value>"},
		{"var e error\ne", "<no value>"},
		{"y := 5", "<no value>"},
		{"min(3, 1, 2) + max(4, 9)", "10"},
		{"m := map[string]int{\"a\": 1}\nclear(m)\nlen(m)", "0"},
		{"n := 0\nfor i := range 4 { n += i }\nn", "6"},
		{"k := 3\nn = 0\nfor range k { n++ }\nn", "3"},
	}
	for _, c := range cases {
		r, _ := run(t, s, c.code)
		if got := value(r); got != c.want {
			t.Errorf("cell %q: value %s, want %s", c.code, got, c.want)
		}
	}
}

func TestMixedDeclarationsAndStatements(t *testing.T) {
	s := newSession(t)
	r, rec := run(t, s, `import "strconv"
x := 2
func double(v int) int { return 2 * v }
type pair struct{ a, b int }
fmt.Println(strconv.Itoa(double(x)))
pair{1, double(x)}`)
	if got := rec.text("stdout"); got != "4\n" {
		t.Errorf("stdout %q", got)
	}
	if got := value(r); got != "{1 4}" {
		t.Errorf("value %s", got)
	}
	// Re-running the same cell is harmless.
	if r, _ := run(t, s, `import "strconv"
import "fmt"
func double(v int) int { return 2 * v }
strconv.Itoa(double(21))`); value(r) != `"42"` {
		t.Errorf("re-run value %s", value(r))
	}
}

func TestErrorsKeepState(t *testing.T) {
	s := newSession(t)
	run(t, s, "keep := 7")
	cases := []struct{ code, name, contains string }{
		{"panic(\"boom\")", "Panic", "boom"},
		{"var xs []int\n_ = xs[3]", "Panic", "index out of range"},
		{"x := 1 +", "SyntaxError", "1:"},
		{"\n\nfunc bad() { return 1 }", "CompileError", "3:"},
		{"%nosuch", "MagicError", "unknown magic"},
		{"import \"nosuch/pkg\"", "CompileError", "nosuch/pkg"},
		{"import \"nosuch/pkg\"\npkg.F()", "CompileError", "nosuch/pkg"},
	}
	for _, c := range cases {
		r := s.Execute(context.Background(), c.code, &recorder{})
		if r.Err == nil {
			t.Errorf("cell %q: no error", c.code)
			continue
		}
		if r.Err.Name != c.name || !strings.Contains(r.Err.Value+strings.Join(r.Err.Traceback, "\n"), c.contains) {
			t.Errorf("cell %q: error %s %q %q, want %s containing %q", c.code, r.Err.Name, r.Err.Value, r.Err.Traceback, c.name, c.contains)
		}
	}
	if r, _ := run(t, s, "keep"); value(r) != "7" {
		t.Errorf("state lost: keep = %s", value(r))
	}
}

func TestPanicNoiseIsFiltered(t *testing.T) {
	s := newSession(t)
	rec := &recorder{}
	run(t, s, "func inner() {\n\tpanic(\"boom\")\n}")
	r := s.Execute(context.Background(), "fmt.Println(\"before\")\ninner()", rec)
	if r.Err == nil || r.Err.Name != "Panic" {
		t.Fatalf("want a panic, got %+v", r.Err)
	}
	if got := rec.text("stderr"); got != "" {
		t.Errorf("interpreter noise on stderr: %q", got)
	}
	if got := rec.text("stdout"); got != "before\n" {
		t.Errorf("stdout %q", got)
	}
	// The interpreter's line of a frame is unreliable (some node of the
	// same kind): the traceback names the function, where it is declared
	// and the cell's line.
	if tb := strings.Join(r.Err.Traceback, "\n"); !strings.Contains(tb, "in inner (declared at line 1 of cell [1])") || !strings.Contains(tb, "at line 2 of the cell") {
		t.Errorf("traceback does not name inner and cell line 2: %q", r.Err.Traceback)
	}
}

func TestInterruptStopsLoop(t *testing.T) {
	if raceDetector {
		t.Skip("yaegi's interrupted goroutine unwinds without a synchronisation the race detector sees")
	}
	s := newSession(t)
	run(t, s, "n := 0")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	r := s.Execute(ctx, "for { n++ }", &recorder{})
	if d := time.Since(start); d > 1200*time.Millisecond {
		t.Errorf("interrupt took %v", d)
	}
	if r.Err == nil || r.Err.Name != "Interrupted" {
		t.Fatalf("want Interrupted, got %+v", r.Err)
	}
	if r, _ := run(t, s, "n > 0"); value(r) != "true" {
		t.Errorf("after interrupt n > 0 = %s", value(r))
	}
}

func TestStreamingOrder(t *testing.T) {
	s := newSession(t)
	_, rec := run(t, s, `fmt.Println("one")
display.Show(display.Text("two"))
fmt.Fprintln(os.Stderr, "three")
fmt.Println("four")`)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	want := []string{"stdout:one\n", "display():two", "stderr:three\n", "stdout:four\n"}
	if strings.Join(rec.events, "|") != strings.Join(want, "|") {
		t.Errorf("events %q, want %q", rec.events, want)
	}
}

// TestInterruptCancelsCellContext checks that the predeclared ctx, which
// cells pass to library calls, is cancelled when the cell is interrupted:
// compiled code that derived a context from it sees the cancellation.
func TestInterruptCancelsCellContext(t *testing.T) {
	if raceDetector {
		t.Skip("yaegi's interrupted goroutine unwinds without a synchronisation the race detector sees")
	}
	s := newSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	r := s.Execute(ctx, "import \"context\"\nwatched, stop := context.WithCancel(ctx)\n_ = stop\nfor {\n}", &recorder{})
	if r.Err == nil || r.Err.Name != "Interrupted" {
		t.Fatalf("want Interrupted, got %+v", r.Err)
	}
	if r, _ := run(t, s, "watched.Err()"); value(r) != "error: context canceled" {
		t.Errorf("the derived context was not cancelled: %s", value(r))
	}
	if r, _ := run(t, s, "ctx.Err()"); value(r) != "<no value>" {
		t.Errorf("the next cell's ctx is not fresh: %s", value(r))
	}
}

// TestFailedImportCell checks that a cell whose declarations fail can be
// fixed and re-run with the same imports.
func TestFailedImportCell(t *testing.T) {
	s := newSession(t)
	if r := s.Execute(context.Background(), "import \"strconv\"\nfunc bad() int { return \"x\" }", &recorder{}); r.Err == nil {
		t.Fatal("no error for a bad return")
	} else if !strings.HasPrefix(r.Err.Value, "2:") {
		t.Errorf("error not on cell line 2: %s", r.Err.Value)
	}
	r, _ := run(t, s, "import \"strconv\"\nfunc good() string { return strconv.Itoa(1) }\ngood()")
	if value(r) != `"1"` {
		t.Errorf("value %s", value(r))
	}
}

// TestMultiValueDefineInBlock covers the interpreter bugs worked around by
// splitBlocks: multi-value definitions inside top-level blocks, which must
// run once even with anonymous struct types, see the cell's earlier
// variables and local integers, and keep the cell's line numbers.
func TestMultiValueDefineInBlock(t *testing.T) {
	s := newSession(t)
	r, rec := run(t, s, `type T struct{ n int }
func (t T) F() (int, error) { return t.n, nil }
t := T{2}
total := 0
for i := 0; i < 3; i++ {
	a, err := t.F()
	if err != nil {
		panic(err)
	}
	total += a + i
}
if v, ok := map[string]int{"x": 4}["x"]; ok {
	w, err := t.F()
	fmt.Println(v, w, err)
}
total`)
	if got := value(r); got != "9" {
		t.Errorf("value %s, want 9 (stdout %q)", got, rec.text("stdout"))
	}
	if got := rec.text("stdout"); got != "4 2 <nil>\n" {
		t.Errorf("stdout %q", got)
	}
	_, rec = run(t, s, `n := 2
for _, l := range []struct{ s string }{{"a"}, {"b"}} {
	a, _ := t.F()
	for i := range n {
		fmt.Print(l.s, a, i, " ")
	}
}
fmt.Println("end")`)
	_, rec2 := run(t, s, `fmt.Println("next")`)
	if got, got2 := rec.text("stdout"), rec2.text("stdout"); got != "a2 0 a2 1 b2 0 b2 1 end\n" || got2 != "next\n" {
		t.Errorf("stdout %q then %q", got, got2)
	}
	// Errors keep the cell's line numbers.
	r = s.Execute(context.Background(), "for i := 0; i < 1; i++ {\n\ta, b := t.F()\n\tfmt.Println(a, b, undefinedName)\n}", &recorder{})
	if r.Err == nil {
		t.Fatal("undefined name: no error")
	}
	if msg := r.Err.Error(); !strings.Contains(msg, "3:") || !strings.Contains(msg, "undefinedName") {
		t.Errorf("error %q, want line 3", msg)
	}
}

// TestRedefinitionUsesOldValue covers the interpreter bug worked around by
// redefineEdits: a top-level := that redefines a name its right-hand side
// uses must see the old value.
func TestRedefinitionUsesOldValue(t *testing.T) {
	s := newSession(t)
	run(t, s, "x := 1\nfunc f(v int) (int, int) { return v + 1, v + 2 }")
	if r, _ := run(t, s, "x := x + 1\nx"); value(r) != "2" {
		t.Errorf("x := x + 1 gave %s, want 2", value(r))
	}
	if r, _ := run(t, s, "x, y := f(x)\n[]int{x, y}"); value(r) != "[3 4]" {
		t.Errorf("x, y := f(x) gave %s, want [3 4]", value(r))
	}
	if r, _ := run(t, s, "type P struct{ x int }\np := P{7}\nz := p.x + x\nz"); value(r) != "10" {
		t.Errorf("field named like a variable: %s, want 10", value(r))
	}
}
