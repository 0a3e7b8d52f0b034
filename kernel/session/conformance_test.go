package session

import (
	"strings"
	"testing"
)

// TestRecursiveGenericTypesAreRefused: yaegi's type checker recursed
// without end on a generic type that refers to itself through another or
// with two type parameters, and the process died of a stack overflow
// (Go's test/typeparam/orderedmap.go, list2.go, cons.go).
func TestRecursiveGenericTypesAreRefused(t *testing.T) {
	s := newSession(t)
	for _, code := range []string{
		"x := 1\ntype node[K, V any] struct {\n\tkey K\n\tleft *node[K, V]\n}",
		"type E[T any] struct{ list *L[T] }\n\ntype L[T any] struct{ root *E[T] }",
	} {
		e := fails(t, s, code)
		if e.Name != "CompileError" || !strings.Contains(e.Value, "refers to itself") || !strings.HasPrefix(e.Value, "2:6:") && !strings.HasPrefix(e.Value, "1:6:") {
			t.Errorf("%q: %s %s, want a refusal naming the type and its line", code, e.Name, e.Value)
		}
	}
	// One type parameter and only itself: the interpreter runs it.
	r, _ := run(t, s, "type list[T any] struct {\n\tv    T\n\tnext *list[T]\n}\nl := &list[int]{v: 1, next: &list[int]{v: 2}}\nl.next.v")
	if got := value(r); got != "2" {
		t.Errorf("a list of one type parameter: %s, want 2", got)
	}
}

// TestSelfContainingTypesAreRefused: yaegi panicked on the use of a type
// that contains itself other than through a struct or interface type
// ("interface conversion: reflect.Type is nil", a nil dereference), and
// the process died of a stack overflow for some (type T [2]*T; Go's
// test/peano.go, ddd.go, fixedbugs/bug294.go, issue4316.go, reorder2.go,
// abi/fibish_closure.go, typeparam/issue47901.go).
func TestSelfContainingTypesAreRefused(t *testing.T) {
	s := newSession(t)
	for code, want := range map[string]string{
		"type Peano *Peano\nvar p Peano":                            "1:6: not supported by the interpreter: the type Peano refers to itself other than",
		"x := 1\ntype F func(s string) F\nvar f F":                  "2:6: not supported by the interpreter: the type F refers to itself other than",
		"type T [2]*T\nvar t T":                                     "1:6: not supported by the interpreter: the type T refers to itself other",
		"type L []struct{ next L }\nvar l L":                        "1:6: not supported by the interpreter: the type L refers to itself other",
		"type A map[string]B\ntype B []A\nfunc f(B) {}":             "1:6: not supported by the interpreter: the type A refers to itself through B other",
		"type Ch[T any] chan Ch[T]\nvar ch Ch[int]":                 "1:6: not supported by the interpreter: the type Ch refers to itself other",
		"func f() int {\n\ttype C chan C\n\treturn len(make(C))\n}": "2:7: not supported by the interpreter: the type C refers to itself other",
	} {
		e := fails(t, s, code)
		if e.Name != "CompileError" || !strings.HasPrefix(e.Value, want) {
			t.Errorf("%q: %s %s, want a refusal %q", code, e.Name, e.Value, want)
		}
	}
	// Declared and not used (Go's test/fixedbugs/bug455.go): the
	// interpreter accepts it.
	run(t, s, "type G func(string) G\nconst unused = 1")
	// Through a named struct or interface type: the interpreter runs it.
	r, _ := run(t, s, "type N []*S\ntype S struct{ n N; v int }\ntype I interface{ M() J }\ntype J []I\nx := S{n: N{{v: 2}}}\nx.n[0].v")
	if got := value(r); got != "2" {
		t.Errorf("recursion through a struct: %s, want 2", got)
	}
}

// TestLocalTypeOfAPackageLevelNameIsRefused: yaegi took a type declared
// in a function for the package-level type of the same name ("too many
// values in struct literal" for type T [2]int in a function, T a struct
// outside; Go's test/fixedbugs/issue8947.go).
func TestLocalTypeOfAPackageLevelNameIsRefused(t *testing.T) {
	s := newSession(t)
	e := fails(t, s, "type T struct{ V int }\nfunc f() int {\n\ttype T [2]int\n\treturn len(T{0, 1})\n}")
	if want := "3:7: not supported by the interpreter: the type T declared in a function where the cell declares a package-level type T"; e.Name != "CompileError" || !strings.HasPrefix(e.Value, want) {
		t.Errorf("%s %s, want %q", e.Name, e.Value, want)
	}
	// Of the same kind (Go's fixedbugs/bug286.go): left to the interpreter.
	r, _ := run(t, s, "type J interface{ g() }\nfunc h() int {\n\ttype J interface{ g() }\n\tvar j J\n\t_ = j\n\treturn 4\n}\nh()")
	if got := value(r); got != "4" {
		t.Errorf("interfaces of one name: %s, want 4", got)
	}
}

// TestLocalTypeAliasIsRefused: yaegi reported a type alias declared in a
// function undefined where it was declared (Go's
// test/fixedbugs/issue50190.go).
func TestLocalTypeAliasIsRefused(t *testing.T) {
	s := newSession(t)
	e := fails(t, s, "func f() int {\n\t{\n\t\ttype C = int32\n\t\tvar c C\n\t\treturn int(c)\n\t}\n}")
	if want := "3:8: not supported by the interpreter: the type alias C declared in a function"; e.Name != "CompileError" || !strings.HasPrefix(e.Value, want) {
		t.Errorf("%s %s, want %q", e.Name, e.Value, want)
	}
	r, _ := run(t, s, "type C = int32\nfunc g() C { return 5 }\ng()")
	if got := value(r); got != "5" {
		t.Errorf("an alias outside functions: %s, want 5", got)
	}
}

// TestBreakpointIsAPanic: runtime.Breakpoint in a cell ended the kernel's
// process with SIGTRAP (Go's test/recover.go calls it when a check fails).
func TestBreakpointIsAPanic(t *testing.T) {
	s := newSession(t)
	run(t, s, `import "runtime"`)
	if e := fails(t, s, "runtime.Breakpoint()"); !strings.Contains(e.Value, "runtime.Breakpoint") {
		t.Errorf("error %s", e.Value)
	}
	if got := value(func() Result { r, _ := run(t, s, "1 + 1"); return r }()); got != "2" {
		t.Errorf("after the breakpoint, 1 + 1 = %s", got)
	}
}

// TestManyGoroutinesAreNoDeepRecursion: the recursion guard counted the
// stacks of 10,000 goroutines as one deep recursion (Go's
// test/chan/goroutines.go).
func TestManyGoroutinesAreNoDeepRecursion(t *testing.T) {
	s := newSession(t)
	r, _ := run(t, s, `func f(left, right chan int) { left <- <-right }
leftmost := make(chan int)
right := leftmost
left := leftmost
for i := 0; i < 10000; i++ {
	right = make(chan int)
	go f(left, right)
	left = right
}
go func(c chan int) { c <- 1 }(right)
<-leftmost`)
	if got := value(r); got != "1" {
		t.Errorf("the chain of goroutines gave %s, want 1", got)
	}
	if e := fails(t, s, "func down(n int) int { return down(n+1) + 1 }\ndown(0)"); !strings.Contains(e.Value, "stack overflow") {
		t.Errorf("unbounded recursion: %s", e.Value)
	}
}

// TestPrintIsGos: yaegi formatted print and println as fmt's %v on
// standard output (Go's test/goprint.go, printbig.go, ken/string.go).
func TestPrintIsGos(t *testing.T) {
	s := newSession(t)
	_, rec := run(t, s, `var p *int
var e error
println(42, true, 1.5, 1e21, float32(0.1), complex(1, -2), "s", p, []int(nil), map[string]int(nil), e, uintptr(255))
print("a", 1, "b", -2, "\n")
defer println("deferred", 2.5)
func f() { println("in f", 0.25) }
f()`)
	want := "42 true 1.5 1e+21 0.1 (1-2i) s 0x0 [0/0]0x0 0x0 (0x0,0x0) 255\na1b-2\nin f 0.25\ndeferred 2.5\n"
	if got := rec.text("stderr"); got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if got := rec.text("stdout"); got != "" {
		t.Errorf("stdout %q, want nothing", got)
	}
	// A cell's own println is left alone.
	if got := out(t, s, "func println(a ...any) { fmt.Println(\"mine\") }\nprintln(1)"); got != "mine\n" {
		t.Errorf("own println: %q", got)
	}
}

// TestOwnPrintOfAnEarlierCell: a println declared by an earlier cell is
// not the builtin.
func TestOwnPrintOfAnEarlierCell(t *testing.T) {
	s := newSession(t)
	run(t, s, "func println(a ...any) { fmt.Print(\"mine\\n\") }")
	if got := out(t, s, "println(1)"); got != "mine\n" {
		t.Errorf("own println of an earlier cell: %q", got)
	}
}

// TestRecoveredRuntimeErrors: a recovered index error was reflect's
// string, and v.(error) or v.(runtime.Error) panicked (Go's
// test/recover2.go, fixedbugs/issue16130.go, issue32187.go). Its text is
// TestRecoveredIndexErrorText's.
func TestRecoveredRuntimeErrors(t *testing.T) {
	s := newSession(t)
	run(t, s, `import "runtime"`)
	got := out(t, s, `func get(x []int, i int) (msg string) {
	defer func() {
		v := recover()
		_, isError := v.(error)
		_, isRuntime := v.(runtime.Error)
		msg = fmt.Sprint(isError, " ", isRuntime)
	}()
	return fmt.Sprint(x[i])
}
func own() (msg string) {
	defer func() { msg = recover().(string) }()
	panic("mine")
}
fmt.Println(get([]int{1}, 5))
fmt.Println(own())`)
	if want := "true true\nmine\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestIntrospectionIsRefused: runtime.Caller and its kin reported the
// interpreter's frames, and finalizers of interpreted values ran late or
// never (Go's test/fixedbugs/issue4562.go, bug347.go, tinyfin.go): a cell
// using them is refused, naming the function and its line, also when the
// cell imports the package itself.
func TestIntrospectionIsRefused(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct{ code, want string }{
		{"import \"runtime\"\n\nfunc where() int {\n\t_, _, line, _ := runtime.Caller(0)\n\treturn line\n}", "4:19: not supported by the interpreter: runtime.Caller"},
		{"import \"runtime\"\nx := new(int)\nruntime.SetFinalizer(x, func(*int) {})", "3:1: not supported by the interpreter: runtime.SetFinalizer"},
		{"import \"runtime/debug\"\nfunc f() { debug.PrintStack() }", "2:12: not supported by the interpreter: debug.PrintStack"},
	} {
		if e := fails(t, s, c.code); e.Name != "CompileError" || !strings.HasPrefix(e.Value, c.want) {
			t.Errorf("%q: %s %s, want %s", c.code, e.Name, e.Value, c.want)
		}
	}
}

// TestFuncMainIsRefused: a cell's func main ran again after every later
// cell.
func TestFuncMainIsRefused(t *testing.T) {
	s := newSession(t)
	e := fails(t, s, "x := 1\nfunc main() { fmt.Println(\"main ran\") }")
	if e.Name != "CompileError" || !strings.HasPrefix(e.Value, "2:6: not supported by the interpreter: func main would run again") {
		t.Errorf("%s %s", e.Name, e.Value)
	}
	if got := out(t, s, "func run() { fmt.Println(\"run ran\") }\nrun()"); got != "run ran\n" {
		t.Errorf("run: %q", got)
	}
	if got := out(t, s, "x := 2"); got != "" {
		t.Errorf("a later cell printed %q", got)
	}
}

// TestRecoveredReflectPanicsOfTheCell: a panic of the cell's own use of
// reflect is recovered as reflect's string, as in Go (Go's
// test/fixedbugs/issue28748.go).
func TestRecoveredReflectPanicsOfTheCell(t *testing.T) {
	s := newSession(t)
	run(t, s, `import "reflect"`)
	got := out(t, s, `func f() (text string) {
	defer func() { text = fmt.Sprintf("%s", recover()) }()
	var v reflect.Value
	v.SetInt(1)
	return ""
}
fmt.Println(f())`)
	if !strings.HasPrefix(got, "reflect: ") {
		t.Errorf("recovered %q, want reflect's message", got)
	}
}

// TestStructsWithSeveralBlankFieldsAreRefused: yaegi gave every blank
// field of a struct the same name and panicked building the type
// ("reflect.StructOf: duplicate field X_", a "CFG post-order panic"; Go's
// fixedbugs/bug442.go, issue21048.go). One blank field runs.
func TestStructsWithSeveralBlankFieldsAreRefused(t *testing.T) {
	s := newSession(t)
	for code, want := range map[string]string{
		"type T struct {\n\t_ int\n\tX any\n\t_ string\n}\nm := map[T]int{}\nm[T{X: 1}] = 1":       "4:2: not supported by the interpreter: a struct type with several blank fields",
		"func f() int {\n\tvar v struct{ _, _ [2]byte; n int }\n\treturn v.n\n}\nfmt.Println(f())": "2:19: not supported by the interpreter: a struct type with several blank fields",
	} {
		e := fails(t, s, code)
		if e.Name != "CompileError" || !strings.HasPrefix(e.Value, want) {
			t.Errorf("%q: %s %s, want a refusal %q", code, e.Name, e.Value, want)
		}
	}
	if got := out(t, s, "type P struct {\n\t_ int\n\tX int\n}\nm := map[P]int{}\nm[P{X: 1}] = 1\nm[P{X: 1}] = 2\nfmt.Println(len(m), m[P{X: 1}])"); got != "1 2\n" {
		t.Errorf("one blank field: output %q, want %q", got, "1 2\n")
	}
}
