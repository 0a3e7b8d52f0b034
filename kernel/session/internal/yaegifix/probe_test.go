package yaegifix

import (
	"bytes"
	"fmt"
	"go/token"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// bare returns an interpreter as yaegi makes it, without any workaround,
// writing its standard output and error to out.
func bare(t *testing.T) (it *interp.Interpreter, out *bytes.Buffer) {
	t.Helper()
	out = &bytes.Buffer{}
	it = interp.New(interp.Options{Stdout: out, Stderr: out})
	if err := it.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	return it, out
}

// eval evaluates src, turning a panic of the interpreter into an error.
func eval(it *interp.Interpreter, src string) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	rv, err := it.Eval(src)
	if err == nil && rv.IsValid() && rv.CanInterface() {
		v = rv.Interface()
	}
	return v, err
}

// TestYaegiStillNeedsTheWorkarounds runs each misbehaviour listed in the
// package documentation on a bare interpreter and checks that it is still
// there. After an upgrade of yaegi, a failing case names the workaround
// that is no longer needed: delete it (and its entry in doc.go), then run
// the session's tests.
func TestYaegiStillNeedsTheWorkarounds(t *testing.T) {
	for _, c := range []struct {
		name  string
		cells []string // evaluated in order; the last one is checked
		// bug reports whether the last cell's value, error and the
		// interpreter's output show the misbehaviour.
		bug func(v any, err error, out string) bool
		fix string // what can go when the misbehaviour is gone
	}{
		{"block scope at top level", []string{"x := 1", "if true { x := 2; _ = x }", "x"},
			func(v any, err error, out string) bool { return v == 2 },
			"the compound statements of needsFunction (splitBlocks)"},
		{"per-iteration loop variables", []string{"func f() int { var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }\nreturn fs[0]() }", "f()"},
			func(v any, err error, out string) bool { return v == 3 },
			"the per-iteration copies of loopEdits"},
		{"deferred arguments", []string{"var got int\nfunc f() { v := 1; defer func(x int) { got = x }(v); v = 2 }", "f()", "got"},
			func(v any, err error, out string) bool { return v == 2 },
			"deferInFunction (in cellEdits)"},
		{"deferred function literal in a loop", []string{"var s []int\nfunc f() { for i := 0; i < 3; i++ { j := i; defer func() { s = append(s, j) }() } }", "f()", "s[2]"},
			func(v any, err error, out string) bool { return v == 2 },
			"the deferred literals of closureEdits (deferredLiterals, deferInFunction)"},
		{"statement that starts with func", []string{"n := 0", "func() { n++ }()", "n"},
			func(v any, err error, out string) bool { return v != 1 },
			"asStatements (in PrepareCell)"},
		{"nil pointer returned as an error", []string{"type E struct{}\nfunc (e *E) Error() string { return \"E\" }\nfunc y() error { var q *E; return q }", "y() != nil"},
			func(v any, err error, out string) bool { return v == false },
			"TypedNilRefusals (the session)"},
		{"iota after a line of several names", []string{"const (\n\ta, b = iota, iota * 10\n\tc, d\n)", "c"},
			func(v any, err error, out string) bool { return v != 1 },
			"constIotaRefusals (semanticEdits) and foldConstants"},
		{"struct with several blank fields", []string{"type T struct{ _ int; _ string; X int }", "T{X: 1}.X"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "duplicate field")
			},
			"blankFieldRefusals (semanticEdits)"},
		{"constant comparison", []string{"const ok = 1 == 1", "ok"},
			func(v any, err error, out string) bool { return v == false },
			"constComparisonRefusals (semanticEdits) and foldConstants"},
		{"method expression of an interface type", []string{"type I interface{ m() int }\ntype T struct{}\nfunc (T) m() int { return 3 }", "I.m(T{})"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "too many arguments")
			},
			"methodExprEdits"},
		{"method value of a value receiver reads the variable", []string{"type V int\nfunc (v V) Get() int { return int(v) }\nfunc f() int { v := V(3); g := v.Get; v = 4; return g() }", "f()"},
			func(v any, err error, out string) bool { return v == 4 },
			"MethodValueEdits and methodValueRefusals"},
		{"method expression of a struct literal", []string{"type T struct{}\nfunc (T) m() int { return 3 }\nfunc f() int { g := struct{ T }.m; return g(struct{ T }{}) }", "f()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "reflect.Set")
			},
			"the method expressions of MethodValueEdits"},
		{"method expression of a pointer type with a value method", []string{"type L []int\nfunc (l L) Len() int { return len(l) }\nfunc f() int { l := L{1}; return (*L).Len(&l) }", "f()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "reflect.Set")
			},
			"the method expressions of MethodValueEdits"},
		{"address of an element through an array pointer", []string{"func f(p *[2]int) *int { return &p[1] }"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "cannot take address")
			},
			"arrayPtrAddrEdits"},
		{"real and imag of a constant", []string{"func f() float64 { return imag(1i) }"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "reflect.Value.Complex")
			},
			"foldConstants"},
		{"comma-ok into existing variables", []string{"func f() int { m := map[int]int{}; i := 42; var ok bool; i, ok = m[1]; _ = ok; return i }", "f()"},
			func(v any, err error, out string) bool { return v == 42 },
			"commaOkIntoVars (semanticEdits, needsFunction)"},
		{"text of an index out of range", []string{`import "fmt"`,
			"func f(i int) (s string) { defer func() { s = fmt.Sprint(recover()) }(); xs := []int{1, 2, 3}; _ = xs[i]; return }", "f(5)"},
			func(v any, err error, out string) bool { return v == "reflect: slice index out of range" },
			"boundsEdits and RecoverRead's stop"},
		{"unnamed parameter of a method", []string{"type S struct{ a bool }\nfunc (s *S) M(int) { s.a = true }", "func g() bool { s := &S{}; s.M(0); return s.a }", "g()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "value of type int is not assignable to type bool")
			},
			"unnamedParamEdits"},
		{"return of a receive", []string{"func recv(c chan int) int { return <-c }", "func g() int { c := make(chan int, 1); c <- 3; return recv(c) }", "g()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "unaddressable value")
			},
			"returnRecvEdits"},
		{"range over a slice of channels", []string{"func r() int { a := []chan int{make(chan int, 1)}; for _, c := range a { _ = c }; return len(a) }", "r()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "Len on int Value")
			},
			"rangeChanEdits"},
		{"untyped constant shifted by a variable", []string{"func f(x uint64, n uint) uint64 { return x | 1<<n }", "f(1, 3)"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "SetUint on int Value")
			},
			"untypedShiftEdits"},
		{"operation stored in an interface", []string{"func f() any { a := any(false); a = !a.(bool); return a }", "f()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "SetBool on interface Value")
			},
			"storedOpEdits"},
		{"switch on an interface variable", []string{`func f() int { var x any = "hello"; switch x { case "hello": return 1 }; return 0 }`, "f()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "cannot be converted to type string")
			},
			"ifaceSwitchEdits"},
		{"range over a nil pointer to an array", []string{"func f() (s int) { var p *[3]int; for i := range p { s += i }; return s }", "f()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "Len on zero Value")
			},
			"arrayPtrEdits"},
		{"untyped constant arguments of a generic function", []string{"func first[T interface{ ~int | ~float64 }](a, b T) T { return a }", "func g() any { return first(-1, 2.5) }", "g()"},
			func(v any, err error, out string) bool { return v != float64(-1) },
			"untypedArgEdits"},
		{"conversion to a generic type's instantiation", []string{"type S[T any] struct{ a T }\ntype U struct{ a int }", "S[int](U{3}).a"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "type not found")
			},
			"the conversions of instanceFixes"},
		{"conversion to a generic type's instantiation in a generic function", []string{"type L[T any] []T\nfunc f[T any]() bool { return L[T](nil) == nil }", "f[int]()"},
			func(v any, err error, out string) bool { return err != nil && strings.Contains(err.Error(), "panic") },
			"the conversions of instanceFixes"},
		{"conversion to a pointer to a generic type's instantiation in a generic function", []string{"type S[T any] struct{ v T }\nfunc f[T any]() any { return (*S[T])(nil) }", "f[int]()"},
			func(v any, err error, out string) bool { return err != nil && strings.Contains(err.Error(), "panic") },
			"the conversions of instanceFixes"},
		{"generic call of a variable made with make in a generic function", []string{"type Item[T any] struct{ v T }\nfunc g[T any](m map[string]Item[T]) int { return len(m) }\nfunc f[T any]() int { m := make(map[string]Item[T]); return g(m) }", "f[int]()"},
			func(v any, err error, out string) bool { return err != nil && strings.Contains(err.Error(), "panic") },
			"coreTypeEdits (instanceFixes)"},
		{"generic instantiation as a type argument", []string{"type N[T any] struct{ v T }\nfunc Sz[T any]() int { var t T; _ = t; return 1 }\nfunc f[T any]() int { return Sz[N[T]]() }", "f[int]()"},
			func(v any, err error, out string) bool { return err != nil && strings.Contains(err.Error(), "panic") },
			"typeArgInstanceEdits (instanceFixes)"},
		{"unnamed receiver of a generic type", []string{"type S[T any] struct{}\nfunc (S[T]) M() int { return 1 }\ntype I interface{ M() int }\nfunc f[T any]() int { var i I = S[T]{}; return i.M() }", "f[int]()"},
			func(v any, err error, out string) bool { return err != nil && strings.Contains(err.Error(), "panic") },
			"the receivers of instanceFixes"},
		{"typed var of a generic call", []string{"func Id[S any](s S) S { return s }\nfunc g() int { var d int = Id(3); return d }", "g()"},
			func(v any, err error, out string) bool { return v == 0 },
			"typedVarEdits (instanceFixes)"},
		{"type argument from a core type", []string{"type MS []int\nfunc First[S ~[]E, E any](s S) E { return s[0] }", "First(MS{4})"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "undefined type for E")
			},
			"coreTypeEdits (instanceFixes)"},
		{"constraint interface of one term", []string{"func Len[M interface{ ~map[K]V }, K comparable, V any](m M) int { return len(m) }", "Len[map[string]int, string, int](nil)"},
			func(v any, err error, out string) bool { return err != nil && strings.Contains(err.Error(), "panic") },
			"the constraints of instanceFixes (singleTerm)"},
		{"make of a receive-only channel type", []string{"type R <-chan int", "cap(make(R))"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "unidirectional")
			},
			"the make of instanceFixes (directionalChan)"},
		{"comma-ok into a map element", []string{"func f() map[int]int { m := map[int]int{}; var ok bool; var x any = 3; m[0], ok = x.(int); _ = ok; return m }", "len(f())"},
			func(v any, err error, out string) bool { return v == 0 },
			"the comma-ok rewrite of semanticEdits and commaOkIntoIndex in needsFunction"},
		{"comma-ok definition at top level", []string{"m := map[int]int{1: 2}", "v, ok := m[1]"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "nil type")
			},
			"the comma-ok definition refusal of semanticEdits"},
		{"type parameter in a type switch", []string{"type myint int\nfunc (x myint) foo() {}\nfunc (x myint) bar() int { return int(x) }\nfunc f[T any](i interface{ foo() }) int { switch i.(type) { case interface{ bar() T }: return 1; case myint: return 2 }; return 3 }", "f[int](myint(6))"},
			func(v any, err error, out string) bool { return v == 2 },
			"the type switch refusal of semanticEdits"},
		{"type parameter compared with an interface", []string{"type myint int\nfunc (myint) foo() {}\ntype fooer interface{ foo() }\nfunc g[T interface{ comparable; foo() }](i fooer) bool { var t T; return i != t }", "g[myint](myint(0))"},
			func(v any, err error, out string) bool { return v == true },
			"the comparison refusal of semanticEdits"},
		{"package-level var initialization order", []string{"var s string\nfunc f(x string) int { s += x; return 0 }\nvar (\n_ = b\na = f(\"a\")\nb = f(\"b\")\n)", "s"},
			func(v any, err error, out string) bool { return v == "ab" },
			"the initialization order refusal of semanticEdits"},
		{"select receive assignment", []string{"func f() (n int) { c := make(chan int, 1); c <- 1; select { case n = <-c: }; return n }", "f()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "invalid Dir")
			},
			"the select rewrite of semanticEdits"},
		{"receive into an element", []string{"func f() int { c := make(chan int, 1); c <- 4; xs := []int{0}; xs[0] = <-c; return xs[0] }", "f()"},
			func(v any, err error, out string) bool { return v == 0 },
			"the receive temporaries of semanticEdits (receiveIntoElement)"},
		{"receive among values defined in a header", []string{"func f() int { c := make(chan int, 1); c <- 3; if a, b := <-c, 7; a < b { return b }; return -1 }", "f()"},
			func(v any, err error, out string) bool { return v != 7 },
			"the header hoist of semanticEdits (headerDefineWithReceive)"},
		{"range over a string", []string{"func f() int { n := 0; for i := range \"héllo\" { n = i }; return n }", "f()"},
			func(v any, err error, out string) bool { return v == 4 },
			"RangeString and the edits of rangeStringEdits"},
		{"assertion to an interface", []string{"type I interface{ Foo() }\ntype S struct{}\nfunc (s *S) Bar() {}\nfunc f(e any) (ok bool) { defer func() { ok = recover() != nil }(); i := e.(I); _ = i; return false }", "f(&S{})"},
			func(v any, err error, out string) bool { return v == false },
			"the checks of assertEdits and AssertFailed"},
		{"assertion to a type declared from another", []string{"type MyInt int\nfunc f() bool { var x any = MyInt(1); _, ok := x.(int); return ok }", "f()"},
			func(v any, err error, out string) bool { return v == true },
			"ConcreteAssertions"},
		{"type switch on a cell type", []string{"type A struct{ x int }\nfunc f() bool { var x any = A{1}; switch x.(type) { case A: return true }; return false }", "f()"},
			func(v any, err error, out string) bool { return v == false },
			"typeSwitchEdits"},
		{"select case variables", []string{"func f() int { ch := make(chan int, 1); var ps [2]*int; for i := 0; i < 2; i++ { ch <- i; select { case x := <-ch: ps[i] = &x } }; return *ps[0] }", "f()"},
			func(v any, err error, out string) bool { return v == 1 },
			"the copies of loopEdits in select cases"},
		{"blank dereference of nil", []string{"func f() (ok bool) { defer func() { ok = recover() != nil }(); var p *int; _ = *p; return false }", "f()"},
			func(v any, err error, out string) bool { return v == false },
			"the temporaries of blankOfOperand"},
		{"values assigned in turn", []string{"func f() int { var a, b, c int; h := func() int { b--; return -b }; a, b, c = h(), h(), h(); _, _ = a, c; return b }", "f()"},
			func(v any, err error, out string) bool { return v != 2 },
			"the temporaries of hoistValues for returns and assignments"},
		{"type switch with any in a function type", []string{"func gg(i int) interface{} { return i }\nfunc kind(x any) bool { switch x.(type) { case func(int) any: return true }; return false }\nvar w any = gg", "kind(w)"},
			func(v any, err error, out string) bool { return v == false },
			"the any rewrite of funcSwitchEdits"},
		{"reflect on a cell struct", []string{`import "reflect"`, "type S struct{ f int }", "reflect.TypeOf(S{}).Field(0).Name"},
			func(v any, err error, out string) bool { return v == "Xf" },
			"UseReflectFixes"},
		{"labeled break in a select", []string{"func f() int { n := 0\nL:\nfor { n++\nif n > 5 { break }\nselect { default: break L } }\nreturn n }", "f()"},
			func(v any, err error, out string) bool { return v == 6 },
			"the select rewrite of loopEdits"},
		{"computed value sent in a select", []string{"func f(id int) (r []int) { out := make(chan int, 1)\nfor k := 0; k < 3; k++ { select { case out <- id*1000 + k: }\nr = append(r, <-out) }\nreturn }", "f(2)[1]"},
			func(v any, err error, out string) bool { return v != 2001 },
			"selectEdits"},
		{"break in a select case", []string{"func f() int { c := make(chan int, 5); n := 0\nfor i := 0; i < 3; i++ { select { case c <- i: if i < 5 { break }\nn += 100 }\nn++ }\nreturn n }", "f()"},
			func(v any, err error, out string) bool { return v != 3 },
			"selectEdits"},
		{"interface value sent in a select", []string{"type I interface{ M() int }\ntype N int\nfunc (n N) M() int { return int(n) }", "func f() int { c := make(chan I, 1); select { case c <- N(3): }; return (<-c).M() }", "f()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "not assignable")
			},
			"selectEdits"},
		{"error of a cell type in fmt", []string{`import "fmt"`, "type E struct{ c int }\nfunc (e *E) Error() string { return \"e\" }", "fmt.Sprint(&E{4})"},
			func(v any, err error, out string) bool { return v == "&{4}" },
			"CellError in FmtWrappers and the session's Value"},
		{"package missing in a signature", []string{"func h(c context.Context) {}"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "nil pointer")
			},
			"UndefinedName for compile panics"},
		{"slices.Sort", []string{`import "slices"`, "xs := []int{2, 1}", "slices.Sort(xs)"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "undefined selector")
			},
			"genericEdits (try each function of genericRefused too)"},
		{"maps.Clone", []string{`import "maps"`, "m := map[string]int{\"a\": 1}", "maps.Clone(m)"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "undefined type for K")
			},
			"mapsCloneEdits"},
		{"blank assignments of two types", []string{`import "bytes"`, `import "io"`, "_ = bytes.NewBuffer(nil)\n_ = io.EOF"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "not assignable")
			},
			"blankEdits"},
		{"package hidden by a variable", []string{`import "strings"`, `strings := "a"`, `strings`},
			func(v any, err error, out string) bool { return v == "a" },
			"the package check of the session's checkNames"},
		{"type declared again", []string{"type T struct{ A int }", "type T struct{ A, B int }", "T{B: 1}"},
			func(v any, err error, out string) bool { return err != nil },
			"the type check of the session's checkNames"},
		{"range over an integer", []string{"for i := range 3 { _ = i }"},
			func(v any, err error, out string) bool {
				return err != nil && IsRangePanic(strings.TrimPrefix(err.Error(), "panic: "))
			},
			"rangeEdits, RangeIntMessage and IsRangePanic"},
		{"redefinition from itself", []string{"x := 1", "x := x + 1", "x"},
			func(v any, err error, out string) bool { return err == nil && v == 1 },
			"redefinition (in splitBlocks)"},
		{"type switch at top level", []string{"var v any = 1", "switch t := v.(type) { case int: _ = t }"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "index out of range")
			},
			"the type-switch case of needsFunction"},
		{"multi-value definition in a block", []string{`import "strconv"`, `for i := 0; i < 1; i++ { m, err := strconv.Atoi("4"); _ = err; _ = m }`},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "undefined: err")
			},
			"hasNestedMultiDefine (in needsFunction)"},
		{"var initialised from a global", []string{"d := 1", "var g = d"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "variable definition loop")
			},
			"splitVarInits"},
		{"top-level defer", []string{`import "fmt"`, `defer fmt.Println("deferred")`, "1", "2"},
			func(v any, err error, out string) bool { return strings.Count(out, "deferred") > 1 },
			"the defer rewrite of cellEdits (deferFunc)"},
		{"builtins of Go 1.21", []string{"min(1, 2)"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "undefined: min")
			},
			"Builtins, BuiltinNames and Clear"},
		{"iterator functions of Go 1.23", []string{`import "strings"`, "strings.SplitSeq"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "no symbol SplitSeq")
			},
			"the strings and bytes entries of Stdlib"},
		{"%#v of a cell struct", []string{`import "fmt"`, "type P struct{ X int }", `fmt.Sprintf("%#v", P{1})`},
			func(v any, err error, out string) bool { return v == "struct { X int }{X:1}" },
			"UseFmtFixes"},
		{"errors.As with a cell type", []string{`import "errors"`, "type E struct{}", `func (E) Error() string { return "e" }`,
			"func f() error { return E{} }", "var e E", "errors.As(f(), &e)"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "target must be interface or implement error")
			},
			"errorsAs (the errors entry of Stdlib)"},
		{"panic lines on standard error", []string{`panic("x")`},
			func(v any, err error, out string) bool {
				return err != nil && out != "" && Noise.MatchString(strings.TrimRight(out, "\n"))
			},
			"nothing: Noise must then match what yaegi writes instead, or go with the filtering in the session"},
		{"message for an undefined name", []string{"y := undefinedName + 1"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "constant definition loop")
			},
			"the first case of ExplainCompileError"},
		{"type argument of a function argument", []string{"func Map[T, U any](s []T, f func(T) U) []U { return nil }",
			`Map([]int{1}, func(i int) string { return "" })`},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "cannot use type func(int) string as type func(int) int")
			},
			"genericHint (the second case of ExplainCompileError)"},
		{"type argument of a core type in a generic method", []string{"func Clone[M ~map[K]V, K comparable, V any](m M) M { return m }",
			"type CM[K comparable, V any] struct{ inner map[K]V }\nfunc (c CM[K, V]) With() CM[K, V] { return CM[K, V]{Clone(c.inner)} }",
			"CM[string, int]{map[string]int{}}.With()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "undefined type for K")
			},
			"inferredEdits (the calls)"},
		{"generic function value of inferred type", []string{"func g1[P any](x P) P { return x }", "var f1 func(int) int", "f1 = g1"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "cannot use type func(main.P) main.P as type func(int) int")
			},
			"inferredEdits (the values)"},
		{"generic function of two type parameters as a value", []string{"func g2[P, Q any](x P) Q { var q Q; return q }", "f2 := g2[int, string]"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "not a generic type")
			},
			"inferredEdits (the values)"},
		{"constant operation in a shift count", []string{"func g(a3, a4 int8, u uint16) int8 { a3 *= a4 << (u & (1 - 0)); return a3 }"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "mismatched types uint16 and int8")
			},
			"shiftCountEdits (the constant operations)"},
		{"shift of a constant in a shift count", []string{"func f(a1 uint8, v1 uint) uint8 { return a1 >> (((2 ^ 2) >> (v1 | 2)) + 0) }", "f(250, 2)"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "reflect.Value.Uint on int Value")
			},
			"shiftCountEdits (the untyped counts)"},
		{"os.Stdout of cells", []string{`import "fmt"`, `import "os"`, `fmt.Sprintf("%T", os.Stdout)`},
			func(v any, err error, out string) bool { return v == "*os.File" },
			"New (YAEGI_SPECIAL_STDIO would then be the default)"},
		{"imports of a failed evaluation", []string{"import \"strings\"\nfunc bad() { undefinedFn() }", "import \"strings\""},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "redeclared")
			},
			"evaluating imports apart from the rest of a chunk (in PrepareCell)"},
		{"%d of a cell Stringer", []string{`import "fmt"`, "type W int\nfunc (w W) String() string { return \"w\" }", "fmt.Sprintf(\"%d\", W(3))"},
			func(v any, err error, out string) bool { s, _ := v.(string); return strings.HasPrefix(s, "{3 ") },
			"checkPlainVerbs"},
		{"json.Marshal of a cell struct with unexported fields", []string{`import "encoding/json"`, "type T struct{ A int; b int }",
			"func f() string { b, _ := json.Marshal(T{1, 2}); return string(b) }", "f()"},
			func(v any, err error, out string) bool { return v == `{"A":1,"Xb":2}` },
			"UseJSONFixes"},
		{"call result of a cell Stringer to a compiled function", []string{`import "fmt"`, "type P struct{ A int }\nfunc (p P) String() string { return \"P!\" }\nfunc mp() P { return P{1} }",
			"fmt.Sprint(mp())"},
			func(v any, err error, out string) bool { return v == "{1}" },
			"callArgEdits"},
		{"wrapper of a cell struct holds its last field", []string{`import "fmt"`, "type H struct{ S int; M string }\nfunc (e H) String() string { return \"h\" }",
			"fmt.Sprintf(\"%d\", H{1, \"y\"})"},
			func(v any, err error, out string) bool {
				s, _ := v.(string)
				return strings.HasPrefix(s, "{%!d(string=y) ")
			},
			"the refusal of errorsAs for a target of a cell struct type"},
		{"declarations of a failed compilation", []string{"func f() int { return 5 }", "func f() int { return 6 }\nfunc h() { undefinedY() }", "f()"},
			func(v any, err error, out string) bool { return v == 0 },
			"Symbols (SnapshotSymbols and Restore)"},
		{"method declared again", []string{"type S struct{}\nfunc (S) M() int { return 1 }", "func (S) M() int { return 2 }", "S{}.M()"},
			func(v any, err error, out string) bool { return v == 1 },
			"DropMethods"},
		{"var of a function literal over an earlier variable", []string{"var p = []int{1}", "var g = func() int { return len(p) }"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "variable definition loop")
			},
			"the function literals of splitVarInits' mentionsVar"},
		{"nil interface asserted to a compiled interface", []string{`import "fmt"`, "func c(v any) bool { _, ok := v.(fmt.Stringer); return ok }", "c(nil)"},
			func(v any, err error, out string) bool { return err != nil },
			"nilAssertEdits and the nil guard of typeSwitchEdits"},
		{"pointer converted to an interface keeps its slot", []string{"type rat struct{ num int }\nfunc mk(i int) *rat { return &rat{i} }\ntype item interface{ pr() int }\nfunc (u *rat) pr() int { return u.num }\n" +
			"func h() int { var s []item; for i := 1; i <= 3; i++ { s = append(s, mk(i)) }; return s[0].pr() }", "h()"},
			func(v any, err error, out string) bool { return v == 3 },
			"freshTempEdits"},
		{"value converted to an interface argument keeps its variable", []string{"type tv struct{ v int }\nfunc (t tv) M() int { return t.v }\ntype mi interface{ M() int }\nfunc keep(i mi) mi { return i }\n" +
			"func h() int { y := tv{1}; k := keep(y); y.v = 2; return k.M() }", "h()"},
			func(v any, err error, out string) bool { return v == 2 },
			"IfaceCopyEdits"},
		{"any and interface{}", []string{"var ax any\nvar ay interface{}", "&ax == &ay"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "mismatched types")
			},
			"anyEdits"},
		{"switch on a type parameter with an interface case", []string{"type sT int\nfunc (sT) M() {}\nfunc swSame[V comparable](v V, x any) bool { switch v { case x: return true }; return false }", "swSame(sT(3), sT(3))"},
			func(v any, err error, out string) bool { return v == false },
			"typedSwitches"},
		{"declared type with methods in an empty interface", []string{"type pm int\nfunc (pm) foo() {}", "any(3) == any(pm(3))"},
			func(v any, err error, out string) bool { return v == true },
			"typedComparisons and EqualAs"},
		{"type parameter compared with an interface", []string{"type pi interface{ foo() }\ntype pn int\nfunc (pn) foo() {}\nfunc tpe[T interface{ comparable; foo() }](t T, i pi) bool { return t == i }", "tpe(pn(3), pn(3))"},
			func(v any, err error, out string) bool { return v == false },
			"typedComparisons"},
		{"interface result passed as an interface argument", []string{"type rr struct{}\nfunc (*rr) pr() {}\ntype it interface{ pr() }\nfunc mk(a *rr) it { return a }\n" +
			"func isR(c it) bool { _, ok := c.(*rr); return ok }", "isR(mk(&rr{}))"},
			func(v any, err error, out string) bool { return v == false },
			"IfaceCopyEdits"},
		{"cell error value asserted to error", []string{"type ea struct{ s string }\nfunc (e *ea) Error() string { return e.s }\n" +
			"func h() bool { r := func() (r any) { defer func() { r = recover() }(); panic(&ea{\"b\"}) }(); _, ok := r.(error); return ok }", "h()"},
			func(v any, err error, out string) bool { return v == false },
			"errorAssertions (IfaceCopyEdits)"},
		{"top-level definition from a generic call", []string{"func Id[T any](x T) T { return x }", "q := Id(3)"},
			func(v any, err error, out string) bool { return err != nil },
			"GenericDefineEdits"},
		{"nil pointer converted to an interface", []string{"type E struct{}\nfunc (e *E) Error() string { return \"E\" }\nfunc y() bool { var q *E; var err error = q; return err == nil }", "y()"},
			func(v any, err error, out string) bool { return v == true },
			"TypedNilRefusals"},
		{"switch on two interface variables", []string{"type A interface{ M() }\ntype U int\nfunc (U) M() {}\nfunc f() int { var x A = U(1); var y A = U(1); switch x { case y: return 1 }; return 0 }", "f()"},
			func(v any, err error, out string) bool { return v == 0 },
			"the interface case values of ifaceSwitchEdits"},
		{"assertion to a type parameter", []string{"type B bool\nfunc is[T any](x any) bool { _, ok := x.(T); return ok }", "is[bool](B(true))"},
			func(v any, err error, out string) bool { return v == true },
			"the type parameters of ConcreteAssertions"},
		{"value method through an interface holding a nil pointer", []string{`import "fmt"`, "type T int\nfunc (T) F() {}\ntype I interface{ F() }\nfunc g() (s string) { defer func() { s = fmt.Sprint(recover()) }(); var p *T; var i I = p; i.F(); return }", "g()"},
			func(v any, err error, out string) bool { s, _ := v.(string); return strings.HasPrefix(s, "reflect: ") },
			"the stop of RecoverRead for an interpreter failure"},
		{"errors.Is with a cell pointer sentinel", []string{`import ("errors"; "fmt")`,
			"type E struct{ s string }\nfunc (e *E) Error() string { return e.s }\nvar X = &E{\"x\"}\nfunc f() error { return fmt.Errorf(\"w: %w\", X) }", "errors.Is(f(), X)"},
			func(v any, err error, out string) bool { return v == false },
			"errorsIs (UseErrorsFixes)"},
		{"assertion of a struct returned as an error", []string{`import "fmt"`,
			"type H struct{ a, c int }\nfunc (h H) Error() string { return \"h\" }\nfunc f() error { return H{1, 2} }\nfunc g() bool { _, ok := f().(H); return ok }", "g()"},
			func(v any, err error, out string) bool { return v == false },
			"StandInEdits and checkStandIns (EqualIn)"},
		{"slice of a cell Stringer in fmt", []string{`import "fmt"`, "type W int\nfunc (w W) String() string { return \"w\" }", "fmt.Sprint([]W{1}, W(2))"},
			func(v any, err error, out string) bool { return v == "[1] w" },
			"fmtTypes.nested (checkFmtArgs in UseFmtFixes)"},
		{"cell Stringer in an []any in fmt", []string{`import "fmt"`, "type W int\nfunc (w W) String() string { return \"w\" }", "fmt.Sprint([]any{W(1)})"},
			func(v any, err error, out string) bool { s, _ := v.(string); return strings.HasPrefix(s, "[{0x") },
			"holdsValueInterface (checkFmtArgs in UseFmtFixes)"},
		{"pointer String of a value in fmt", []string{`import "fmt"`, "type V struct{ a, b int }\nfunc (v *V) String() string { return \"ptr\" }", "fmt.Sprint(V{1, 2})"},
			func(v any, err error, out string) bool { return v == "ptr" },
			"fmtTypes.pointerMethodOnValue (checkFmtArgs in UseFmtFixes)"},
		{"Unwrap of a cell error", []string{`import ("errors"; "io")`,
			"type W struct{ err error }\nfunc (w W) Error() string { return \"w\" }\nfunc (w W) Unwrap() error { return w.err }", "errors.Is(W{io.EOF}, io.EOF)"},
			func(v any, err error, out string) bool { return v == false },
			"errorWrappers (UseErrorsFixes) and the CellErrorUnwrap interfaces of FmtWrappers"},
		{"all results of a call to fmt", []string{`import "fmt"`, "type W int\nfunc (w W) String() string { return \"w\" }\nfunc two() (W, W) { return 1, 2 }", "fmt.Sprint(two())"},
			func(v any, err error, out string) bool { return v == "1 2" },
			"the statements of callArgEdits that take the results into variables"},
		{"operation on huge untyped constants", []string{"func f() uint64 { var y uint64 = 1 << 63; return y }"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "overflows int64")
			},
			"hugeConstant (foldConstants)"},
		{"type that contains itself", []string{"type F func(string) F\nvar f F"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "reflect.Type is nil")
			},
			"recursiveTypes (PrepareCell)"},
		{"blank type declaration", []string{"type _ int"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "cannot use _ as value")
			},
			"blankTypes (PrepareCell)"},
		{"method expression of a compiled interface type", []string{`import ("io"; "strings")`, "read := io.Reader.Read", "read(strings.NewReader(\"a\"), make([]byte, 1))"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "too many arguments")
			},
			"compiledMethodType (methodExprEdits)"},
		{"multi-value var after its use", []string{"func foo() (int, int) { return 1, 2 }\nvar c = b\nvar a, b = foo()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "assignment mismatch")
			},
			"multiValueOrder (PrepareCell)"},
		{"local type of a package-level name", []string{"type T struct{ V int }\nfunc f() int {\n\ttype T [2]int\n\treturn len(T{0, 1})\n}"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "too many values in struct literal")
			},
			"the shadowed types of recursiveTypes.check"},
		{"copy of a call of two results", []string{"func f(a []byte) ([]byte, []byte) { return a, []byte(\"abc\") }\nfunc g() int { return copy(f(make([]byte, 2))) }"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "index out of range")
			},
			"builtinSpreadEdits"},
		{"type alias in a function", []string{"func f() int {\n\ttype D = int32\n\tvar d D = 3\n\treturn int(d)\n}"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "undefined: D")
			},
			"the local aliases of recursiveTypes.check"},
		{"interface handed to fmt read again in the caller's frame", []string{`import "fmt"`,
			"type W int\nfunc (w W) String() string { return fmt.Sprint(\"W\", int(w)) }\nvar g any\nfunc set() { w := W(7); g = w }\n" +
				"func show() string { a, b, c := 1, 2, W(9); _, _, _ = a, b, c; return fmt.Sprint(g) }", "set()", "show()"},
			func(v any, err error, out string) bool { return err == nil && v != "W7" },
			"fmtArgEdits and _portlabFmtArg (FmtArgSource)"},
		{"interface handed to fmt follows the variable", []string{`import "fmt"`,
			"type W int\nfunc (w W) String() string { return fmt.Sprint(\"W\", int(w)) }\nvar g = W(1)\nvar x any = g", "g = W(2)", "fmt.Sprint(x)"},
			func(v any, err error, out string) bool { return v == "W2" },
			"fmtArgEdits and _portlabFmtArg (FmtArgSource)"},
		{"value returned as any loses its type", []string{`import "fmt"`,
			"type W int\nfunc (w W) String() string { return fmt.Sprint(\"W\", int(w)) }\nfunc mk() any { return W(3) }", "fmt.Sprint(mk())"},
			func(v any, err error, out string) bool { return v == "3" },
			"anyReturnEdits"},
		{"promotion from two depths", []string{"type E string\nfunc (e E) val() string { return string(e) }\ntype A struct{ E }\ntype B struct {\n\tA\n\tE\n}\ntype S1 struct{ i int }\ntype S3 struct{ S1 }\ntype S4 struct {\n\tS3\n\tS1\n}",
			"func f() string { s := S4{S3{S1{1}}, S1{2}}; return B{A{\"a\"}, \"b\"}.val() + string(rune('0'+s.i)) }", "f()"},
			func(v any, err error, out string) bool { return v == "a1" },
			"PromotedPathEdits and promotionRefusals"},
		{"variable reached through a call initialized later", []string{"var calls string\nfunc f(s string) int { calls += s; return 0 }\nfunc h() int { f(\"h\"); return late }\nvar early = h()\nvar late = f(\"l\") + 3\nvar (\n\t_ = f(\"1\")\n\t_ = z\n\tz = f(\"z\")\n)", "func r() string { return calls + string(rune('0'+early)) }", "r()"},
			func(v any, err error, out string) bool { return v == "hlz10" },
			"InitOrderEdits and initOrderRefusals"},
		{"constant len of an array element", []string{"var s [][30]int\nconst n = len(s[10])", "n"},
			func(v any, err error, out string) bool {
				return err != nil || strings.Contains(out, "panic")
			},
			"foldConstants (len and cap in constant declarations)"},
		{"blank defined from nil", []string{"func f() (r bool) { g := func(p *int) { r = p == nil }; func() func() { _f, _ := g, nil; return func() { _f(nil) } }()(); return }", "f()"},
			func(v any, err error, out string) bool { return err != nil },
			"the 0 for a nil argument in deferredCall"},
		{"parenthesised nil argument", []string{"func f() (r bool) { g := func(p *int) { r = p == nil }; g((nil)); return }", "f()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "reflect: Call using")
			},
			"the unparenthesised nil argument in deferredCall"},
		{"assertion to a type parameter from an interface with methods", []string{"type I interface{ M() }\ntype P struct{ a int }\nfunc as[T any](x I) bool { _, ok := x.(T); return ok }", "as[P](nil)"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "invalid memory address or nil pointer dereference")
			},
			"typeParamAssertEdits (instanceFixes)"},
		{"append of all the results of a call", []string{"func words() ([]string, string) { return []string{\"a\"}, \"b\" }\nfunc n() int { s := append(words()); return len(s) }", "n()"},
			func(v any, err error, out string) bool { return v == 1 },
			"spreadCallEdits"},
		{"generic call of all the results of a call", []string{"func two() (int, error) { return 1, nil }\nfunc first[T any](v T, err error) T { return v }\nfunc n() int { v := first(two()); return v }", "n()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "index out of range")
			},
			"spreadCallEdits"},
		{"failed instantiation at an explicit call", []string{"func kind[T any](x any) string { switch x.(type) { case T: return \"T\"; case int32: return \"int32\" }; return \"\" }", "kind[int32](int32(1))"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "CFG post-order panic: runtime error: invalid memory address or nil pointer dereference")
			},
			"InstantiationHint (the session's compileError)"},
		{"switch on an interface with a case of another type", []string{"func f() (s string) { var i any = 1; switch i { case 1: s = \"one\" }; return }", "f()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "cannot be converted to type int")
			},
			"ifaceCaseEdits"},
		{"switch without a tag with a case of an interface type", []string{"func f() (s string) { var i any = true; switch { case i: s = \"true\" }; return }", "f()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "Bool on interface Value")
			},
			"ifaceCaseEdits"},
		{"return of a declared function", []string{"func g() int { return 7 }\nfunc f() func() int { return g }\nfunc n() int { return f()() }", "n()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "*interp.node is not assignable")
			},
			"funcReturnEdits"},
		{"method expression of a promoted method", []string{"type T int\nfunc (t *T) M() int { return int(*t) }\ntype S struct{ *T }\nfunc n() int { x := T(3); f := S.M; return f(S{&x}) }", "n()"},
			func(v any, err error, out string) bool {
				return err != nil && strings.Contains(err.Error(), "is not assignable to type")
			},
			"promotedExprEdits"},
	} {
		t.Run(c.name, func(t *testing.T) {
			it, out := bare(t)
			var v any
			var err error
			for _, src := range c.cells {
				v, err = eval(it, src)
			}
			if !c.bug(v, err, out.String()) {
				t.Errorf("yaegi no longer misbehaves (value %v, error %v, output %q): %s can go", v, err, out.String(), c.fix)
			}
		})
	}
}

// TestYaegiStillKeepsWhatForgetCompiledDrops checks that the interpreter
// still has the fields ForgetCompiled and UseFmtFixes reach by reflection,
// that roots still grows with every evaluation (else ForgetCompiled can
// go) and that ForgetCompiled empties it.
func TestYaegiStillKeepsWhatForgetCompiledDrops(t *testing.T) {
	it, _ := bare(t)
	for i := range 5 {
		if _, err := eval(it, fmt.Sprintf("v%d := %d", i, i)); err != nil {
			t.Fatal(err)
		}
	}
	v := reflect.ValueOf(it).Elem()
	for name, kind := range map[string]reflect.Kind{"roots": reflect.Slice, "scopes": reflect.Map, "binPkg": reflect.Map} {
		if f := v.FieldByName(name); !f.IsValid() || f.Kind() != kind {
			t.Errorf("the interpreter has no %s %s: ForgetCompiled or UseFmtFixes does nothing now", kind, name)
		}
	}
	if n := v.FieldByName("roots").Len(); n < 5 {
		t.Errorf("roots holds %d syntax trees after 5 evaluations: ForgetCompiled may go", n)
	}
	ForgetCompiled(it)
	if n := v.FieldByName("roots").Len(); n != 0 {
		t.Errorf("roots holds %d syntax trees after ForgetCompiled", n)
	}
	files := 0
	it.FileSet().Iterate(func(*token.File) bool { files++; return true })
	if files < 5 {
		t.Errorf("the file set holds %d files after 5 evaluations: TrimFileSet may go", files)
	}
}

// TestYaegiStillHangsInClosuresOfDeferredCalls checks that a closure made
// in a function and called while the function runs its deferred calls
// still never returns (closureEdits makes such closures in a call of
// their own; it can go when this fails).
func TestYaegiStillHangsInClosuresOfDeferredCalls(t *testing.T) {
	it, _ := bare(t)
	if _, err := eval(it, "func f() int { n := 0; c := func() { n++ }; defer c(); return 1 }"); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { // left blocked when the interpreter hangs
		eval(it, "f()")
		close(done)
	}()
	select {
	case <-done:
		t.Errorf("yaegi no longer hangs calling a closure from a deferred call: the wraps of closureEdits can go")
	case <-time.After(2 * time.Second):
	}
}

// TestYaegiSelectSharesItsCases shows the misbehaviour selectEdits works
// around for goroutines: yaegi v0.16.1 fills one list of cases per select
// statement on every run, so that goroutines running the same select at
// once take each other's channels. Four goroutines receive their own
// values through one select of many cases (a wide window between filling
// the list and selecting); a goroutine that got another one's value, or
// waits for ever because its value was taken, shows it. The race takes
// two CPUs to show and is a data race the race detector reports.
func TestYaegiSelectSharesItsCases(t *testing.T) {
	if raceDetector {
		t.Skip("the misbehaviour is a data race inside the interpreter")
	}
	if runtime.NumCPU() < 2 {
		t.Skip("the goroutines need two CPUs to run the select at once")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	cases := strings.Repeat("case v := <-in: got = v; ", 30)
	it, _ := bare(t)
	for _, src := range []string{`import "sync"`,
		"func worker(id int) (wrong int) { in := make(chan int, 1)\nfor k := 0; k < 3000; k++ { in <- id; got := -1\nselect { " + cases + "default: }\n" +
			"if got != id { wrong++; if got == -1 { <-in } } }\nreturn }",
		"func g() int { var wg sync.WaitGroup; var mu sync.Mutex; wrong := 0\nfor id := 0; id < 4; id++ { wg.Add(1); go func(id int) { defer wg.Done(); w := worker(id); mu.Lock(); wrong += w; mu.Unlock() }(id) }\nwg.Wait(); return wrong }",
	} {
		if _, err := eval(it, src); err != nil {
			t.Fatal(err)
		}
	}
	result := make(chan any, 1)
	go func() {
		v, _ := eval(it, "g()")
		result <- v
	}()
	select {
	case v := <-result:
		if v == 0 {
			t.Errorf("yaegi no longer misbehaves: selectEdits can go (with the probes of the other select misbehaviours gone too)")
		}
	case <-time.After(3 * time.Second): // a few milliseconds' work
		// A goroutine waits for the value another one took.
	}
}
