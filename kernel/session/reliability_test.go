package session

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/kernel/session/internal/yaegifix"
)

// TestTopLevelDeferRunsOnceAtCellEnd: the interpreter
// ran a top-level defer again at the end of every later cell.
func TestTopLevelDeferRunsOnceAtCellEnd(t *testing.T) {
	s := newSession(t)
	_, rec := run(t, s, "defer fmt.Println(\"deferred-A\")\nfmt.Println(\"body\")")
	if got := rec.text("stdout"); got != "body\ndeferred-A\n" {
		t.Errorf("first cell printed %q, want body then deferred-A", got)
	}
	_, rec = run(t, s, `fmt.Println("next")`)
	if got := rec.text("stdout"); got != "next\n" {
		t.Errorf("second cell printed %q, want only next", got)
	}
	// Arguments are evaluated at the defer statement, calls run last first.
	_, rec = run(t, s, "i := 1\ndefer fmt.Println(\"first\", i)\ni = 2\ndefer fmt.Println(\"second\", i)\nfor k := 0; k < 2; k++ { defer fmt.Println(\"loop\", k) }")
	if got, want := rec.text("stdout"), "loop 1\nloop 0\nsecond 2\nfirst 1\n"; got != want {
		t.Errorf("deferred calls printed %q, want %q", got, want)
	}
	// A cell that panics still runs its deferred calls.
	r := s.Execute(context.Background(), "defer fmt.Println(\"cleanup\")\npanic(\"stop\")", &recorder{})
	if r.Err == nil || r.Err.Name != "Panic" {
		t.Fatalf("want a panic, got %+v", r.Err)
	}
	_, rec = run(t, s, `fmt.Println("after")`)
	if got := rec.text("stdout"); got != "after\n" {
		t.Errorf("the cell after a panicking one printed %q", got)
	}
}

// TestCellCompilesWholeBeforeRunning: a cell that
// failed to compile ran its first statements, and a var declaration using
// a variable defined by := failed with "variable definition loop".
func TestCellCompilesWholeBeforeRunning(t *testing.T) {
	s := newSession(t)
	rec := &recorder{}
	r := s.Execute(context.Background(), "fmt.Println(\"ran\")\nx := 1\nfunc f() int { return undefinedName }\nfmt.Println(x + f())", rec)
	if r.Err == nil || r.Err.Name != "CompileError" || !strings.Contains(r.Err.Value, "undefinedName") {
		t.Fatalf("want a compile error naming undefinedName, got %+v", r.Err)
	}
	if got := rec.text("stdout"); got != "" {
		t.Errorf("a cell that does not compile printed %q", got)
	}
	_, rec = run(t, s, `type Animal struct{ Name string }
func (a Animal) Speak() string { return a.Name + " speaks" }
type Dog struct{ Animal }
type Greeter interface{ Speak() string }
fmt.Println("start")
d := Dog{Animal{"rex"}}
var g Greeter = d
var h = d
fmt.Println(g.Speak(), h.Name)`)
	if got := rec.text("stdout"); got != "start\nrex speaks rex\n" {
		t.Errorf("embedded-struct cell printed %q", got)
	}
}

// TestInterruptDuringCompiledCallStopsCell: after an
// interrupt during a compiled call, the rest of the cell ran once the call
// returned, printing into the next cell and defining its names.
func TestInterruptDuringCompiledCallStopsCell(t *testing.T) {
	if raceDetector {
		t.Skip("yaegi's interrupted goroutine unwinds without a synchronisation the race detector sees")
	}
	s := newSession(t)
	run(t, s, `import "time"`)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	first := &recorder{}
	r := s.Execute(ctx, "time.Sleep(time.Second)\nfmt.Println(\"LEAKED\")\nleak := 1\n_ = leak", first)
	if r.Err == nil || r.Err.Name != "Interrupted" {
		t.Fatalf("want Interrupted, got %+v", r.Err)
	}
	// The next cell runs while the sleep ends.
	_, next := run(t, s, "time.Sleep(1500 * time.Millisecond)\nfmt.Println(\"next\")")
	if got := first.text("stdout") + next.text("stdout"); got != "next\n" {
		t.Errorf("output after the interrupt: %q, want only next", got)
	}
	r = s.Execute(context.Background(), "leak + 1", &recorder{})
	if r.Err == nil || !strings.Contains(r.Err.Value, "leak was to be defined by a statement of cell 2 that did not run") {
		t.Errorf("using leak: want an error saying its cell stopped before it, got %+v", r.Err)
	}
	if r, _ := run(t, s, "leak := 5\nleak"); value(r) != "5" {
		t.Errorf("redefined leak = %s", value(r))
	}
}

// TestTypeSwitchAtTopLevel: a type switch binding a
// name outside a function failed with "index out of range".
func TestTypeSwitchAtTopLevel(t *testing.T) {
	s := newSession(t)
	_, rec := run(t, s, "var iv any = 3\nswitch v := iv.(type) {\ncase int:\n\tfmt.Println(\"int\", v+1)\ncase string:\n\tfmt.Println(\"string\", v)\n}")
	if got := rec.text("stdout"); got != "int 4\n" {
		t.Errorf("type switch printed %q", got)
	}
}

// TestErrorsAsCellType: errors.As with a target of a
// type declared in a cell panicked ("*target must be interface or
// implement error").
func TestErrorsAsCellType(t *testing.T) {
	s := newSession(t)
	r, _ := run(t, s, `import "errors"
type MyErr struct{ Code int }
func (e *MyErr) Error() string { return fmt.Sprint("code ", e.Code) }
func find() error { return &MyErr{Code: 7} }
err := fmt.Errorf("lookup: %w", find())
var me *MyErr
ok := errors.As(err, &me)
fmt.Sprint(ok, " ", me.Code)`)
	if got := value(r); got != `"true 7"` {
		t.Errorf("errors.As through a wrapped error: %s", got)
	}
	r, _ = run(t, s, "type Other struct{ A, B int }\nfunc (o Other) Error() string { return \"other\" }\nvar o Other\nerrors.As(err, &o)")
	if got := value(r); got != "false" {
		t.Errorf("errors.As with a type not in the chain: %s", got)
	}
}

// TestErrorColumnOfLastExpression: the column of an
// error in the last expression counted the kernel's value wrapper.
func TestErrorColumnOfLastExpression(t *testing.T) {
	s := newSession(t)
	for code, want := range map[string]string{"ls": "1:1: undefined: ls", "x := 1\nx + ls": "2:5: undefined: ls"} {
		r := s.Execute(context.Background(), code, &recorder{})
		if r.Err == nil || r.Err.Value != want {
			t.Errorf("cell %q: error %+v, want %q", code, r.Err, want)
		}
	}
}

// TestCellStructsAndLibraryValuesShow: in cells, %#v
// of a cell struct lacked the type's name, and a dereferenced
// library value whose methods have pointer receivers (as
// *portmap.ExperimentSet) showed as a raw struct.
func TestCellStructsAndLibraryValuesShow(t *testing.T) {
	s := newSession(t)
	r, rec := run(t, s, "type Point struct{ X, Y int }\nfmt.Printf(\"%#v\\n\", Point{1, 2})\nfmt.Sprintf(\"%#v %v\", &Point{3, 4}, Point{5, 6})")
	if got := value(r); got != `"&Point{X:3, Y:4} {5 6}"` {
		t.Errorf("Sprintf %%#v: %s", got)
	}
	if got := rec.text("stdout"); got != "Point{X:1, Y:2}\n" {
		t.Errorf("Printf %%#v: %q", got)
	}
	r, _ = run(t, s, "es := lab.NewSet(\"zen\", 1)\n*es")
	if got := value(r); got != "1 measured experiments on zen" || !r.Value.Has(display.MIMEHTML) {
		t.Errorf("*es shows as %q (HTML %v)", got, r.Value.Has(display.MIMEHTML))
	}
}

// TestGenericsExplained: yaegi v0.16.1 cannot infer a
// type argument that appears only in a function-typed argument. The error
// now says so and how to write the call; the explicit form and
// approximation constraints work.
func TestGenericsExplained(t *testing.T) {
	s := newSession(t)
	run(t, s, "func Map[T, U any](s []T, f func(T) U) []U {\n\tvar r []U\n\tfor _, v := range s {\n\t\tr = append(r, f(v))\n\t}\n\treturn r\n}")
	// The kernel writes the type arguments the interpreter took wrongly
	// (U as int) or does not infer; where it cannot write them, the error
	// says to write them.
	r, _ := run(t, s, "Map([]int{1, 2, 3}, func(i int) string { return fmt.Sprint(i * 2) })")
	if got := value(r); got != "[2 4 6]" {
		t.Errorf("inferred Map = %s", got)
	}
	r, _ = run(t, s, "func twice(i int) string { return fmt.Sprint(i * 2) }\nfunc ints() []int { return []int{1} }\nMap(ints(), twice)")
	if got := value(r); got != "[2]" {
		t.Errorf("inferred Map of a function = %s", got)
	}
	// Where a variable hides the type argument's name, the kernel cannot
	// write it.
	r = s.Execute(context.Background(), "func hidden() []string {\n\tstring := 0\n\t_ = string\n\treturn Map(ints(), twice)\n}\nhidden()", &recorder{})
	if r.Err == nil || !strings.Contains(r.Err.Value, "write them, as in Map[int, string](xs, f)") {
		t.Errorf("inferred call: want the hint about explicit type arguments, got %+v", r.Err)
	}
	r, _ = run(t, s, "Map[int, string]([]int{1, 2, 3}, func(i int) string { return fmt.Sprint(i * 2) })")
	if got := value(r); got != "[2 4 6]" {
		t.Errorf("explicit Map = %s", got)
	}
	r, _ = run(t, s, "type Number interface{ ~int | ~float64 }\nfunc Sum[T Number](xs []T) T {\n\tvar t T\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\nSum([]float64{1, 2.5})")
	if got := value(r); got != "3.5" {
		t.Errorf("Sum with a ~int | ~float64 constraint = %s", got)
	}
}

// TestIteratorsExplained: ranging over a function was
// rejected with a message about integers; the message now covers
// iterators and says how to call them, and the iterator functions of
// strings (Go 1.24) are there.
func TestIteratorsExplained(t *testing.T) {
	s := newSession(t)
	r := s.Execute(context.Background(), "seq := func(yield func(int) bool) { yield(1) }\nfor v := range seq {\n\tfmt.Println(v)\n}", &recorder{})
	if r.Err == nil || !strings.Contains(r.Err.Value, "Over an iterator seq, call it with the loop body") {
		t.Errorf("range over a function: %+v", r.Err)
	}
	_, rec := run(t, s, "strings.SplitSeq(\"a,b,c\", \",\")(func(part string) bool {\n\tfmt.Println(part)\n\treturn part != \"b\"\n})")
	if got := rec.text("stdout"); got != "a\nb\n" {
		t.Errorf("strings.SplitSeq printed %q", got)
	}
}

// TestCompletionAndInspectOfCellMethods: completion on
// a value of a cell-defined type listed its fields but not its methods, and
// inspection of a method found nothing.
func TestCompletionAndInspectOfCellMethods(t *testing.T) {
	s := newSession(t)
	run(t, s, `type Animal struct{ Name string }

// Speak says the animal's name.
func (a Animal) Speak() string { return a.Name }

type Dog struct {
	Animal
	Age int
}

func (d *Dog) Birthday() { d.Age++ }

type counter struct{ n int }

func (c *counter) Inc() { c.n++ }

d := &Dog{Animal: Animal{Name: "rex"}}
c := counter{}`)
	for _, tc := range []struct {
		code string
		want []string
	}{
		{"d.", []string{"Age", "Animal", "Birthday", "Speak"}},
		{"d.B", []string{"Birthday"}},
		{"c.", []string{"Inc"}},
	} {
		got, _ := s.Complete(tc.code, len(tc.code))
		for _, w := range tc.want {
			if !contains(got, w) {
				t.Errorf("Complete(%q) = %v, lacks %s", tc.code, got, w)
			}
		}
	}
	b, ok := s.Inspect("d.Speak", len("d.Sp"))
	if !ok || !strings.Contains(b.PlainText(), "func (a Animal) Speak() string") || !strings.Contains(b.PlainText(), "Speak says the animal's name.") {
		t.Errorf("Inspect(d.Speak) = %q, %v", b.PlainText(), ok)
	}
}

// TestFeatureTableInREADME checks that kernel/README.md holds the table of
// Go features that %help shows.
func TestFeatureTableInREADME(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), yaegifix.FeatureTable) {
		t.Error("kernel/README.md lacks the current FeatureTable of kernel/session/internal/yaegifix/features.go: copy it there")
	}
	if !strings.Contains(newSession(t).help(), yaegifix.FeatureTable) {
		t.Error("%help lacks the feature table")
	}
}

// TestGoStatementsKeepGoSemantics checks the rewriting of go statements
// (which recovers their panics): the function and arguments are evaluated
// at the statement, and a panic is reported on the cell's stderr.
func TestGoStatementsKeepGoSemantics(t *testing.T) {
	s := newSession(t)
	r, _ := run(t, s, `import "sync"
var wg sync.WaitGroup
results := make([]int, 3)
for i := 0; i < 3; i++ {
	wg.Add(1)
	go func(k int) {
		defer wg.Done()
		results[k] = k * k
	}(i)
}
wg.Wait()
results`)
	if got := value(r); got != "[0 1 4]" {
		t.Errorf("goroutines with arguments: %s", got)
	}
	// A nil argument: _, the place of a constant argument, took nil,
	// which the interpreter failed to compile ("nil reflect type"), and
	// the call took (nil) as an invalid value (Go's
	// fixedbugs/issue25897a.go).
	code := "func nilArg(p *int, s string, done chan bool) { fmt.Println(p == nil, s); done <- true }\n" +
		"func lit(done chan bool) {\n\tgo func(p *int, e error) { fmt.Println(p == nil, e == nil); done <- true }(nil, (nil))\n}\n" +
		"done := make(chan bool)\ngo nilArg(nil, \"go\", done)\n<-done\nlit(done)\n<-done\n" +
		"func() { defer nilArg(nil, \"defer\", done); go func() { <-done }() }()"
	if got, want := out(t, s, code), "true go\ntrue true\ntrue defer\n"; got != want {
		t.Errorf("nil arguments of go and defer: output %q, want %q", got, want)
	}
	run(t, s, `import "time"`)
	r = s.Execute(context.Background(), "go func() { panic(\"boom\") }()\ntime.Sleep(200 * time.Millisecond)", nil)
	if r.Err == nil || !strings.Contains(r.Err.Value, "panic in a goroutine: boom") {
		t.Errorf("a goroutine's panic: error %v, want one naming it", r.Err)
	}
}

// TestGoroutinePanicStopsTheCell: a cell waiting for a goroutine that
// panicked waited for ever (compiled Go ends the program with the panic);
// the panic stops the cell with an error, and the session goes on.
func TestGoroutinePanicStopsTheCell(t *testing.T) {
	s := newSession(t)
	start := time.Now()
	r := s.Execute(context.Background(), "ch := make(chan int)\ngo func() { panic(\"boom\"); ch <- 1 }()\n<-ch", nil)
	if r.Err == nil || !strings.Contains(r.Err.Value, "panic in a goroutine: boom") {
		t.Fatalf("error %v, want the goroutine's panic", r.Err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the cell took %s to stop", d)
	}
	r, _ = run(t, s, "1 + 1")
	if r.Err != nil || value(r) != "2" {
		t.Errorf("after the panic, 1 + 1: %v %v", value(r), r.Err)
	}
}

// TestVarOfACellThatFailedIsNotZero: a top-level var with an initial value
// in a cell that failed to compile, or failed before the declaration ran,
// is not read as its zero value by a later cell (the interpreter had
// declared it): the later cell is told the cell did not define it.
func TestVarOfACellThatFailedIsNotZero(t *testing.T) {
	s := newSession(t)
	fails(t, s, "prog := []int{1, 2}\nvar total = len(prog) + undefinedName")
	e := fails(t, s, "fmt.Println(total)")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "total was to be defined") {
		t.Errorf("a var of a cell that failed to compile: %v", e)
	}
	fails(t, s, "var ready = func() bool { panic(\"not yet\") }()")
	e = fails(t, s, "fmt.Println(ready)")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "ready was to be defined") {
		t.Errorf("a var whose initializer panicked: %v", e)
	}
	if got := out(t, s, "var total = 3\nfmt.Println(total)"); got != "3\n" {
		t.Errorf("the var defined again: %q", got)
	}
}

// TestVarOfAFunctionLiteralUsingAnEarlierVariable: var f = func() … { …
// uses a variable of an earlier cell … } failed with "variable definition
// loop" in the interpreter, and f was then a nil function.
func TestVarOfAFunctionLiteralUsingAnEarlierVariable(t *testing.T) {
	s := newSession(t)
	run(t, s, "prog := []int{1, 2, 3}")
	if got := out(t, s, "var count = func() int { return len(prog) }\nvar sum = func() (n int) { for _, x := range prog { n += x }; return }()\nfmt.Println(count(), sum)"); got != "3 6\n" {
		t.Errorf("output %q, want %q", got, "3 6\n")
	}
}

// TestMethodPromotedFromAnEmbeddedInterfaceIsExplained: the interpreter
// does not find a method promoted from an interface embedded in a struct
// ("method not found: Error", which read as a panic of the cell); the
// error says that the interpreter failed, and how to write around it.
func TestMethodPromotedFromAnEmbeddedInterfaceIsExplained(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"errors\"\ntype wrapped struct { error; code int }\nw := wrapped{errors.New(\"boom\"), 3}")
	e := fails(t, s, "var e error = w\nfmt.Println(e)")
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "embedded in a struct") {
		t.Errorf("conversion to the embedded interface: %v", e)
	}
	if got := out(t, s, "fmt.Println(w.error.Error(), w.code)"); got != "boom 3\n" {
		t.Errorf("through the field: %q", got)
	}
}
