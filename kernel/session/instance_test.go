package session

import (
	"context"
	"strings"
	"testing"
)

// TestConversionToAGenericTypesInstantiation: a conversion to an
// instantiation of a generic type runs as in Go, at top level and in a
// generic function (the interpreter alone failed with "type not found:
// S[int]" or a "CFG post-order panic").
func TestConversionToAGenericTypesInstantiation(t *testing.T) {
	decl := "type S[T any] struct{ a T }\n" +
		"type U struct{ a int }\n" +
		"type F[T any] func(T) T\n" +
		"func (f F[T]) Twice(x T) T { return f(f(x)) }\n" +
		"type Twicer[T any] interface{ Twice(T) T }\n" +
		"type I[T any] interface{ foo() }\n" +
		"type E[T any] interface{}\n" +
		"type P struct{ x int }\n" +
		"func (p *P) foo() {}\n" +
		"func wrap[T I[T]](x T) E[T] { return E[T](I[T](x)) }\n" +
		"func twice[T any](f func(T) T, x T) T { var tw Twicer[T] = F[T](f); return tw.Twice(x) }\n" +
		"func isNil[T any]() bool { return F[T](nil) == nil }\n"
	for code, want := range map[string]string{
		"x := S[int](U{3}); fmt.Println(x.a)":                                                    "3",
		"fmt.Println(twice(func(n int) int { return n * 3 }, 2))":                                "18",
		"fmt.Println(wrap(&P{7}).(*P).x)":                                                        "7",
		"fmt.Println(isNil[string](), (F[int])(nil) == nil)":                                     "true true",
		"n := 0; f := F[int](func(x int) int { n++; return x + n }); fmt.Println(f.Twice(1), n)": "4 2",
	} {
		cell := decl + code
		if got := out(t, newSession(t), cell); got != want+"\n" {
			t.Errorf("cell %q: output %q, want %q", code, got, want+"\n")
		}
	}
}

// TestMethodOfAGenericTypeWithAnUnnamedReceiver: a method declared with
// an unnamed receiver of a generic type, func (S[T]) M(), can be called
// (the interpreter alone panicked with "index out of range" when it
// compiled the call).
func TestMethodOfAGenericTypeWithAnUnnamedReceiver(t *testing.T) {
	cell := "type S[T any] struct{ v T }\n" +
		"func (S[T]) Name(T) string { return \"S\" }\n" +
		"func (*S[T]) Ptr() string { return \"*S\" }\n" +
		"type Namer[T any] interface{ Name(T) string }\n" +
		"func name[T any](x T) string { var n Namer[T] = S[T]{}; return n.Name(x) }\n" +
		"s := &S[int]{}\n" +
		"fmt.Println(name(1), s.Name(2), s.Ptr())"
	if got := out(t, newSession(t), cell); got != "S S *S\n" {
		t.Errorf("output %q, want %q", got, "S S *S\n")
	}
}

// TestConversionToAGenericInterfaceInASwitchStaysRefused: in the tag or a
// case of an expression switch, a conversion to an instantiation of a
// generic type is not rewritten: the interpreter compares interface
// values of two interface types unequal there, and Go equal.
func TestConversionToAGenericInterfaceInASwitchStaysRefused(t *testing.T) {
	cell := "type Mer[T any] interface{ M(T) }\n" +
		"type MNer[T any] interface { Mer[T]; N() }\n" +
		"type X int\n" +
		"func (X) M(X) {}\n" +
		"func (X) N()  {}\n" +
		"func f[T MNer[T]](t T) string { switch Mer[T](t) { case MNer[T](t): return \"equal\" }; return \"unequal\" }\n" +
		"fmt.Println(f[X](0))"
	rec := &recorder{}
	r := newSession(t).Execute(context.Background(), cell, rec)
	if r.Err == nil && rec.text("stdout") != "equal\n" {
		t.Errorf("output %q, want %q or an error", rec.text("stdout"), "equal\n")
	}
	if r.Err != nil && r.Err.Name != "CompileError" {
		t.Errorf("error %v, want a compile error", r.Err)
	}
}

// TestIndexOfAVariableNamedAsAGenericType: a call of an element of a
// local variable that has the name of a generic type of the cell is not
// taken for a conversion.
func TestIndexOfAVariableNamedAsAGenericType(t *testing.T) {
	cell := "type G[T any] struct{ a T }\n" +
		"func run() { G := []func(int) int{func(n int) int { return n + 1 }}; fmt.Println(G[0](5)) }\n" +
		"run()"
	if got := out(t, newSession(t), cell); got != "6\n" {
		t.Errorf("output %q, want %q", got, "6\n")
	}
}

// TestTypeArgumentsInferredFromCoreTypes: type arguments that Go infers
// through the core type of a constraint (E from S ~[]E) are found (the
// interpreter alone failed with "undefined type for E" or a "CFG
// post-order panic").
func TestTypeArgumentsInferredFromCoreTypes(t *testing.T) {
	decl := "type SliceOf[E any] interface{ ~[]E }\n" +
		"type MySlice []int\n" +
		"type Recv <-chan int\n" +
		"func Double[S SliceOf[E], E interface{ ~int | ~float64 }](s S) S { r := make(S, len(s)); for i, v := range s { r[i] = v + v }; return r }\n" +
		"func First[S ~[]E, E any](s S) E { return s[0] }\n" +
		"func Keys[M interface{ ~map[K]V }, K comparable, V any](m M) int { return len(m) }\n" +
		"func Eq[E comparable](a, b []E) bool { return len(a) == len(b) }\n" +
		"func Append[S SliceOf[T], T any](s S, t ...T) S { return append(s, t...) }\n"
	for code, want := range map[string]string{
		"a := MySlice{1, 2}; var d MySlice = Double(a); fmt.Print(d)":             "[2 4]",
		"var b []string = []string{\"x\"}; fmt.Printf(\"%T %v\", First(b), b)":    "string [x]",
		"var d MySlice = Double[MySlice](MySlice{3}); fmt.Print(d)":               "[6]",
		"a := MySlice{1, 2}; fmt.Print(Eq(nil, a), Eq([]int{1, 2}, a))":           "false true",
		"var m map[*string]int; fmt.Print(Keys(m))":                               "0",
		"fmt.Printf(\"%T\", First([]float64{1}))":                                 "float64",
		"r := make(Recv); var s []Recv = Append([]Recv{r}, r); fmt.Print(len(s))": "2",
		"c := make(chan<- int, 2); fmt.Print(cap(c))":                             "2",
	} {
		t.Run(code, func(t *testing.T) {
			cell := decl + "func run() {\n\t" + code + "\n}\nrun()"
			if got := out(t, newSession(t), cell); got != want {
				t.Errorf("output %q, want %q", got, want)
			}
		})
	}
}

// TestTypedVarOfAGenericCall: var x T = v, in a function, where v calls
// a generic function, gives x v's value (the interpreter alone gave the
// zero value).
func TestTypedVarOfAGenericCall(t *testing.T) {
	decl := "func Id[S any](s S) S { return s }\n" +
		"func Two[S any](s S) (S, S) { return s, s + s }\n"
	for code, want := range map[string]string{
		"var d int = Id(3); fmt.Print(d)":                               "3",
		"var d int = Id(3) + 1; fmt.Print(d)":                           "4",
		"var d any = Id[int](3); fmt.Print(d)":                          "3",
		"var d, e int = Two(3); fmt.Print(d, e)":                        "3 6",
		"switch { default: var d float64 = Id(2.5); fmt.Print(d) }":     "2.5",
		"d := 1; { var d int = Id(d) + 1; fmt.Print(d) }; fmt.Print(d)": "21",
	} {
		t.Run(code, func(t *testing.T) {
			cell := decl + "func run() {\n\t" + code + "\n}\nrun()"
			if got := out(t, newSession(t), cell); got != want {
				t.Errorf("output %q, want %q", got, want)
			}
		})
	}
}

// TestTypeArgumentsFromFunctionLiteralsAndGenericTypes: type arguments Go
// infers from a function literal's signature and from an instantiation of
// a generic type are written out (the interpreter alone failed with "nil
// reflect type", and on one program of Go's test suite grew its memory
// without end while it compiled).
func TestTypeArgumentsFromFunctionLiteralsAndGenericTypes(t *testing.T) {
	cell := "type Box[T any] struct{ v T }\n" +
		"func Fold[T, U any](b Box[T], init U, f func(U, T) U) U { return f(init, b.v) }\n" +
		"func Apply[T any](f func(...T) int, xs ...T) int { return f(xs...) }\n" +
		"func run() {\n" +
		"	bx := Box[int]{3}\n" +
		"	fmt.Println(Fold(bx, nil, func(acc []int, x int) []int { return append(acc, x) }))\n" +
		"	fmt.Println(Apply(func(s ...string) int { return len(s) }, \"a\", \"b\"))\n" +
		"}\n" +
		"run()"
	if got := out(t, newSession(t), cell); got != "[3]\n2\n" {
		t.Errorf("output %q, want %q", got, "[3]\n2\n")
	}
}

// TestTopLevelDefinitionFromAGenericCall: x := G(…) at top level, G a
// generic function of this cell or an earlier one, defines x with the
// type Go gives it (the interpreter alone failed with "nil reflect type"
// or "undefined: G"); where the type cannot be told, the cell is refused
// with the rewrite to make.
func TestTopLevelDefinitionFromAGenericCall(t *testing.T) {
	s := newSession(t)
	if got := out(t, s, "func Id[T any](x T) T { return x }\nq := Id(3)\nfmt.Println(q + 1)"); got != "4\n" {
		t.Errorf("in the declaring cell: %q", got)
	}
	run(t, s, "func Map[T, U any](xs []T, f func(T) U) []U { out := make([]U, 0, len(xs)); for _, x := range xs { out = append(out, f(x)) }; return out }\n"+
		"func Pair[A, B any](a A, b B) (A, B) { return a, b }")
	for code, want := range map[string]string{
		"sq := Map([]int{1, 2, 3}, func(x int) int { return x * x })\nfmt.Println(sq)":                              "[1 4 9]",
		"up := Map([]string{\"a\"}, strings.ToUpper)\nfmt.Println(up)":                                              "[A]",
		"m := Id(2.5)\nfmt.Printf(\"%T %v\\n\", m, m)":                                                              "float64 2.5",
		"x, y := Pair(\"s\", 1.5)\nfmt.Println(x, y)":                                                               "s 1.5",
		"xs := []int{4, 5}\nstrs := Map(xs, func(v int) string { return fmt.Sprint(v, \"!\") })\nfmt.Println(strs)": "[4! 5!]",
	} {
		if got := out(t, s, code); got != want+"\n" {
			t.Errorf("cell %q: output %q, want %q", code, got, want+"\n")
		}
	}
	run(t, s, "ints := []int{7}")
	if got := out(t, s, "z := Map(ints, func(v int) int { return -v })\nfmt.Println(z[0])"); got != "-7\n" {
		t.Errorf("an earlier cell's variable as argument: %q", got)
	}
	run(t, s, "func mk() int { return 1 }")
	e := fails(t, s, "w := Id(mk())")
	if !strings.Contains(e.Value, "var w T; w = …") {
		t.Errorf("a type that cannot be told: %v", e)
	}
}

// TestTypeArgumentsWrittenAtCallsOfEarlierGenerics: calls of a generic
// function of an earlier cell get the type arguments Go infers from
// untyped constants (the largest kind: Sum(1, 2.5) is float64), a spread
// slice and conversions, which the interpreter alone failed to infer
// ("undefined type for T"); x := G(…) op y at top level is defined with
// G's result type.
func TestTypeArgumentsWrittenAtCallsOfEarlierGenerics(t *testing.T) {
	s := newSession(t)
	run(t, s, "type Number interface{ ~int | ~float64 }\nfunc Sum[T Number](xs ...T) T { var s T; for _, x := range xs { s += x }; return s }\ntype Celsius float64")
	for code, want := range map[string]string{
		"fmt.Println(Sum(1, 2, 3), Sum(1.5, 2.5), Sum(1, 2.5))":                                                                     "6 4 3.5",
		"func avg() Celsius { t := []Celsius{10, 20}; return Sum(t...) / Celsius(len(t)) }\nfmt.Println(avg(), Sum(Celsius(1), 2))": "15 3",
		"half := Sum(3.0, 4) / 2\nfmt.Println(half)":                                                                                "3.5",
		"big := Sum(2, 3) > 4\nfmt.Println(big)":                                                                                    "true",
	} {
		if got := out(t, s, code); got != want+"\n" {
			t.Errorf("cell %q: output %q, want %q", code, got, want+"\n")
		}
	}
}

// TestConversionToAGenericInterfaceOutsideGenericFunctions: Value[string](tr)
// outside a generic function is left to the interpreter, which gets it
// right there; made in a function literal, the interface no longer
// asserted to the type it holds (Go's fixedbugs/issue53309.go).
func TestConversionToAGenericInterfaceOutsideGenericFunctions(t *testing.T) {
	cell := "type TaskInput interface{ deps() int }\ntype Value[T any] interface{ TaskInput }\n" +
		"type taskResult struct{ n int }\nfunc (tr *taskResult) deps() int { return tr.n }\n" +
		"func use[T any](v Value[T]) bool { _, ok := v.(*taskResult); return ok }\n" +
		"func run() bool { tr := &taskResult{1}; return use[string](Value[string](tr)) }\nfmt.Println(run())"
	if got := out(t, newSession(t), cell); got != "true\n" {
		t.Errorf("output %q, want %q", got, "true\n")
	}
}

// TestConversionToAPointerToAGenericInstantiation: a conversion to a
// pointer to an instantiation of a generic type, (*S[T])(x), runs as in
// Go in a generic function (the interpreter alone panicked, a "CFG
// post-order panic", at the call of the function).
func TestConversionToAPointerToAGenericInstantiation(t *testing.T) {
	cell := "type S[T any] struct{ v T }\n" +
		"type I[T any] interface{}\n" +
		"func none[T any]() I[T] { return (*S[T])(nil) }\n" +
		"func ptr[T any](p *S[T]) *S[T] { return (*S[T])(p) }\n" +
		"func run() {\n" +
		"\tfmt.Println(none[int]() == nil, none[string]() != nil)\n" +
		"\tfmt.Println(ptr[int](&S[int]{4}).v, (*S[int])(nil) == nil)\n" +
		"}\n" +
		"run()"
	if got := out(t, newSession(t), cell); got != "false true\n4 true\n" {
		t.Errorf("output %q, want %q", got, "false true\n4 true\n")
	}
}

// TestTypeArgumentsFromVariablesMadeWithMake: in a generic function, a
// call of a generic function whose argument is a variable made with
// make(T, …) runs as in Go (the interpreter alone panicked, a "CFG
// post-order panic", at the call of the outer function).
func TestTypeArgumentsFromVariablesMadeWithMake(t *testing.T) {
	cell := "type Item[T any] struct{ v T }\n" +
		"func g[T any](m map[string]Item[T]) int { return len(m) }\n" +
		"func f[T any]() int { m := make(map[string]Item[T]); m[\"a\"] = Item[T]{}; return g(m) }\n" +
		"func h[T any]() int { var m = make(map[string]Item[T], 4); return g(m) }\n" +
		"func k[S ~[]E, E any](s S) int { return len(s) }\n" +
		"type L []string\n" +
		"func run() { s := make(L, 3); fmt.Println(f[int](), h[string](), k(s)) }\n" +
		"run()"
	if got := out(t, newSession(t), cell); got != "1 0 3\n" {
		t.Errorf("output %q, want %q", got, "1 0 3\n")
	}
}

// TestGenericInstantiationAsATypeArgument: an instantiation of a generic
// type passed as a type argument, Two[Node[V]](), runs as in Go, in a
// generic function and elsewhere (the interpreter alone failed with
// "type not found: Node[main.TextValue]" or, in a generic function,
// panicked at its call, a "CFG post-order panic").
func TestGenericInstantiationAsATypeArgument(t *testing.T) {
	cell := "type Value interface{ Len() int }\n" +
		"type Node[V Value] struct{ n int }\n" +
		"func (Node[V]) contentLen() int { var value V; return value.Len() }\n" +
		"type Box[K comparable] struct{ k K; v []K }\n" +
		"type TextValue struct{}\n" +
		"func (TextValue) Len() int { return 7 }\n" +
		"func Two[V interface{ contentLen() int }]() int { var v V; return v.contentLen() }\n" +
		"func One[V Value]() int { return Two[Node[V]]() }\n" +
		"func Size[T any]() string { var t T; return fmt.Sprint(t) }\n" +
		"func Outer[K comparable]() string { return Size[Box[K]]() }\n" +
		"func run() { fmt.Println(One[TextValue](), Two[Node[TextValue]](), Outer[int]()) }\n" +
		"run()"
	if got := out(t, newSession(t), cell); got != "7 7 {0 []}\n" {
		t.Errorf("output %q, want %q", got, "7 7 {0 []}\n")
	}
}
