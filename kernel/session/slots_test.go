package session

import (
	"context"
	"strings"
	"testing"
	"time"
)

// expect runs each cell in a fresh session and compares its standard
// output with want (what compiled Go prints).
func expect(t *testing.T, cases map[string]string) {
	t.Helper()
	for code, want := range cases {
		s := newSession(t)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		rec := &recorder{}
		r := s.Execute(ctx, code, rec)
		cancel()
		if r.Err != nil || rec.text("stdout") != want {
			t.Errorf("cell %q: output %q, error %v; want %q", code, rec.text("stdout"), r.Err, want)
		}
	}
}

// refused runs each cell in a fresh session and checks that it fails with
// a CompileError or InterpreterError holding each of the texts.
func refused(t *testing.T, cases map[string][]string) {
	t.Helper()
	for code, texts := range cases {
		s := newSession(t)
		e := fails(t, s, code)
		if e.Name != "CompileError" && e.Name != "InterpreterError" {
			t.Errorf("cell %q: %s %s, want a refusal", code, e.Name, e.Value)
			continue
		}
		for _, text := range texts {
			if !strings.Contains(e.Value, text) {
				t.Errorf("cell %q: %q lacks %q", code, e.Value, text)
			}
		}
	}
}

func TestNamedResultsStartAtZero(t *testing.T) {
	expect(t, map[string]string{
		// The named result started with the value of the variable assigned.
		"func f() (r []int) {\n\tr = append(r, 1)\n\treturn r\n}\ngot := f()\ngot = f()\nfmt.Println(got)": "[1]\n",
		// … or of the call's slot, which keeps the last call's result.
		"func h() (n int) {\n\tn++\n\treturn\n}\nfor i := 0; i < 3; i++ {\n\tfmt.Print(h(), \" \")\n}":                                                                                "1 1 1 ",
		"func g[T any](x T) (ret []T) {\n\tret = append(ret, x)\n\treturn\n}\nfunc run() {\n\tvar got []int\n\tfor i := range 3 {\n\t\tgot = g(i)\n\t}\n\tfmt.Println(got)\n}\nrun()": "[2]\n",
	})
}

func TestCompositeLiteralAmongSeveralValues(t *testing.T) {
	expect(t, map[string]string{
		"type S struct{ a int }\nfunc run() {\n\ta, b := 1, S{3}\n\tfmt.Println(a, b)\n}\nrun()":                                  "1 {3}\n",
		"func f() []string { return []string{\"a\"} }\nif got, want := f(), []string{\"a\"}; true {\n\tfmt.Println(got, want)\n}": "[a] [a]\n",
		"var x, y = 7, [1]int{4}\nfmt.Println(x, y)":                                                                              "7 [4]\n",
	})
}

func TestLiteralsOfGenericTypeWithTwoArguments(t *testing.T) {
	expect(t, map[string]string{
		// The statements between two literals of A[string, int] were skipped.
		"type A[K, V any] struct {\n\tKey K\n\tVal V\n}\nfunc run() {\n\tfmt.Println(\"one\")\n\tp := &A[string, int]{Key: \"a\"}\n\tfmt.Println(\"two\", p)\n\tq := A[string, int]{\"b\", 2}\n\tfmt.Println(\"three\", q, p == &q)\n}\nrun()": "one\ntwo &{a 0}\nthree {b 2} false\n",
		// Among several values: parenthesized, and the slice inside.
		"type P[K, V any] struct{ k K; v V }\nfunc run() { var a, b any = P[int, int]{}, P[string, int]{\"s\", 1}; fmt.Println(a, b) }\nrun()\nx, y := 1, P[int, string]{2, \"t\"}\nfmt.Println(x, y)": "{0 0} {s 1}\n1 {2 t}\n",
	})
}

func TestSwitchCaseNil(t *testing.T) {
	expect(t, map[string]string{
		"func f[T any]() {\n\tswitch []T(nil) {\n\tcase nil:\n\t\tfmt.Println(\"nil\")\n\tdefault:\n\t\tfmt.Println(\"not nil\")\n\t}\n}\nf[int]()": "nil\n",
		"var m map[int]int\nvar p *int\nswitch m {\ncase nil:\n\tfmt.Print(\"m \")\n}\nswitch p {\ncase &[]int{1}[0], nil:\n\tfmt.Print(\"p\")\n}":  "m p",
	})
}

func TestInstantiationsThatWouldBeOneType(t *testing.T) {
	refused(t, map[string][]string{
		"type T[_ any] struct{}\nvar a, b any = T[int]{}, T[string]{}\nfmt.Println(a == b)":                             {"T, instantiated as T[int] and T[string], by its blank type parameter"},
		"type V[_ any] []int\nfunc f() any { return V[string]{} }\nvar x any = V[int]{}":                                {"V[int] and V[string]"},
		"type T[P any] struct{ x P }\nvar a, b any = T[struct{ int }]{}, T[struct{ int \"x\" }]{}\nfmt.Println(a == b)": {"2:50", "field tags as a type argument"},
		// Go: false.
		"type O[T any] struct{ v int }\nvar a, b any = O[int]{}, O[string]{}\nfmt.Println(a == b)": {"O[int] and O[string], by its type parameter T", "_ [0]T"},
		// Go: 2.
		"type O[T any] struct{ v int }\nm := map[any]int{O[int]{}: 1, O[string]{}: 2}\nfmt.Println(len(m))": {"O[int] and O[string]"},
		// Go: false {0}.
		"type O[T any] struct{ v int }\nvar a any = O[int]{}\nvar s O[string]\nvar ok bool\n_, ok = a.(O[string])\nfmt.Println(ok, s)": {"O[int] and O[string]"},
		// Go: string.
		"type O[T any] struct{ v int }\nvar i O[int]\nvar x any = O[string]{i.v}\nswitch x.(type) {\ncase O[int]:\n\tfmt.Println(\"int\")\ndefault:\n\tfmt.Println(\"string\")\n}": {"O[int] and O[string]"},
		// Instantiations made by the instantiations of a generic
		// function (Go: false).
		"type O[T any] struct{ v int }\nfunc mk[T any]() any { return O[T]{} }\nfmt.Println(mk[int]() == mk[string]())": {"O[int] and O[string]"},
		// A type that uses its parameter only as such a parameter of
		// another (Go: false).
		"type O[T any] struct{ v int }\ntype W[T any] struct{ o O[T] }\nvar a, b any = W[int]{}, W[string]{}\nfmt.Println(a == b)": {"W[int] and W[string]"},
		// Local types of one name are one type argument for the
		// interpreter (Go: false).
		"type O[T any] struct{ v int }\nfunc f() any { type L int; return O[L]{} }\nfunc g() any { type L string; return O[L]{} }\nfmt.Println(f() == g())": {"2:21", "the type L declared inside a function"},
		"type O[T any] struct{ v int }\ntype L int\nfunc g() any { type L string; return O[L]{} }\nfmt.Println(any(O[L]{}) == g())":                         {"3:21", "the type L declared inside a function"},
		// Types of two packages of one name are named alike (Go: false).
		"import (\n\ttt \"text/template\"\n\tht \"html/template\"\n)\ntype O[T any] struct{ v int }\nvar a, b any = O[*tt.Template]{}, O[*ht.Template]{}\nfmt.Println(a == b)": {"O[*template.Template]", "another imported package"},
		// A struct type is named without its tags (Go: false).
		"type O[T any] struct{ v int }\nfunc mk[T any](x T) any { return O[T]{} }\nfmt.Println(mk(&struct{ x int }{}) == mk(&struct {\n\tx int \"t\"\n}{}))": {"3:43", "a struct type with field tags"},
		// One instantiation: %T stops as for the cells' other types (Go:
		// main.O[int]).
		"type O[T any] struct{ v int }\nfmt.Printf(\"%T\\n\", O[int]{})": {"%T of a value that may be of a type declared in a cell"},
		// A union in the constraint that mentions the parameter does not
		// tie it to the other (Go: false).
		"type O[T any, S ~[]T | ~int] struct{ s S }\nvar a any = O[int, int]{}\nvar b any = O[string, int]{}\nfmt.Println(a == b)": {"O[int,int] and O[string,int]"},
		// A field named as the parameter does not use it.
		"type O[T any] struct{ T int }\nvar a, b any = O[int]{}, O[string]{}\nfmt.Println(a == b)": {"O[int] and O[string]"},
	})
	expect(t, map[string]string{
		"type O[T any, S ~[]T] struct{ s S }\nfmt.Println(O[int, []int]{[]int{1}}.s)":               "[1]\n",
		"type T[P any] struct{ _ [0]P }\nvar a, b any = T[int]{}, T[string]{}\nfmt.Println(a == b)": "false\n",
		// One instantiation: nothing can tell it from another.
		"type O[T any] struct{ v int }\nfunc (o O[T]) get() int { return o.v }\nfmt.Println(O[string]{3}.get())":                                                                             "3\n",
		"type O[T any] struct{ v int }\nvar a, b any = O[int]{1}, O[int]{1}\nm := map[any]int{a: 1}\nvar ok bool\n_, ok = b.(O[int])\nfmt.Println(a == b, m[b], ok, O[int]{2})":              "true 1 true {2}\n",
		"type B[_ any] struct{}\ntype O[T any] struct{ v int }\nfunc mk[T any]() any { return O[T]{} }\nvar x any = B[bool]{}\nfmt.Println(mk[int]() == any(O[int]{}), x == any(B[bool]{}))": "true true\n",
		// Methods that depend on the parameter.
		"type O[T any] struct{}\nfunc (O[T]) zero() string { var z T; return fmt.Sprintf(\"[%v]\", z) }\nfmt.Println(O[string]{}.zero())": "[]\n",
	})
}

func TestXMLMarshalOfCellStruct(t *testing.T) {
	refused(t, map[string][]string{
		"import \"encoding/xml\"\ntype A[K, V any] struct {\n\tName K `xml:\"name\"`\n\tData V `xml:\"data\"`\n}\ndata, err := xml.Marshal(&A[string, int]{Name: \"n\", Data: 1})\nfmt.Println(string(data), err)": {"xml.Marshal", "XMLName"},
	})
	expect(t, map[string]string{
		"import \"encoding/xml\"\ntype A struct {\n\tXMLName xml.Name `xml:\"A\"`\n\tName string `xml:\"name\"`\n}\ndata, err := xml.Marshal(&A{Name: \"n\"})\nfmt.Println(string(data), err)": "<A><name>n</name></A> <nil>\n",
	})
}

func TestRangeOverInteger(t *testing.T) {
	expect(t, map[string]string{
		// Local constants, parameters, conversions, rune and negative bounds
		// (the declarations check the variables' types: %T is not used, as
		// the cell declares a type represented by int).
		"type MyInt int\nfunc run(n int) {\n\tconst N = 2\n\tfor i := range N {\n\t\tfmt.Print(i, \" \")\n\t}\n\tfor i := range n {\n\t\tvar _ int = i\n\t\tfmt.Print(\"int \")\n\t}\n\tfor i := range MyInt(1) {\n\t\tvar m MyInt = i\n\t\tfmt.Print(m, \" \")\n\t}\n\tfor i := range uint8(1) {\n\t\tvar _ uint8 = i\n\t\tfmt.Print(\"uint8 \")\n\t}\n\tfor i := range 'a' {\n\t\tvar _ *rune = &i\n\t}\n\tfor range -1 {\n\t\tpanic(\"ran\")\n\t}\n}\nrun(1)": "0 1 int 0 uint8 ",
		// The body changes its own variable, not the count.
		"n := 0\nfor i := range 3 {\n\ti += 10\n\tn++\n}\nfmt.Println(n)": "3\n",
		// The bound is evaluated once; labels and closures per iteration.
		"calls := 0\nfunc bound() int {\n\tcalls++\n\treturn 3\n}\nvar fs []func()\nL:\nfor i := range bound() {\n\tfor j := range 3 {\n\t\tif j == 1 {\n\t\t\tcontinue L\n\t\t}\n\t}\n\tfs = append(fs, func() { fmt.Print(i) })\n}\nfor _, f := range fs {\n\tf()\n}\nfmt.Println(\" calls\", calls)": " calls 1\n",
		"var i int\nfor i = range 4 {\n}\nfmt.Println(i)": "3\n",
	})
}

func TestRangeOverFunction(t *testing.T) {
	const iter = "func count(yield func(int) bool) {\n\tfor i := 0; i < 5; i++ {\n\t\tif !yield(i) {\n\t\t\treturn\n\t\t}\n\t}\n}\n" +
		"func pairs(n int) func(func(int, string) bool) {\n\treturn func(yield func(int, string) bool) {\n\t\tfor i := 0; i < n; i++ {\n\t\t\tif !yield(i, fmt.Sprint(\"s\", i)) {\n\t\t\t\treturn\n\t\t\t}\n\t\t}\n\t}\n}\n" +
		"var saved func(int) bool\nfunc keep(yield func(int) bool) {\n\tsaved = yield\n\tyield(1)\n\tyield(2)\n}\n"
	expect(t, map[string]string{
		iter + "func run() {\n\tvar fs []func()\n\tfor i := range count {\n\t\tif i == 1 {\n\t\t\tcontinue\n\t\t}\n\t\tif i == 3 {\n\t\t\tbreak\n\t\t}\n\t\tfs = append(fs, func() { fmt.Print(i, \" \") })\n\t}\n\tfor _, f := range fs {\n\t\tf()\n\t}\n\tvar k int\n\tvar v string\n\tfor k, v = range pairs(3) {\n\t}\n\tfmt.Println(k, v)\n}\nrun()": "0 2 2 s2\n",
		iter + "func first(limit int) (int, error) {\n\tfor x := range count {\n\t\tswitch {\n\t\tcase x > limit:\n\t\t\treturn x * 10, nil\n\t\t}\n\t}\n\treturn -1, nil\n}\nfmt.Println(first(1))\nfmt.Println(first(9))":                                                                                                                               "20 <nil>\n-1 <nil>\n",
		iter + "func run() {\n\tdefer func() { fmt.Println(recover()) }()\n\tfor x := range keep {\n\t\t_ = x\n\t\tbreak\n\t}\n}\nrun()":                                                                                                                                                                                                                  "runtime error: range function continued iteration after function for loop body returned false\n",
		iter + "func run() {\n\tdefer func() { fmt.Println(recover()) }()\n\tfor range keep {\n\t}\n\tsaved(3)\n}\nrun()":                                                                                                                                                                                                                                 "runtime error: range function continued iteration after whole loop exit\n",
	})
	refused(t, map[string][]string{
		iter + "func run() {\n\tfor range count {\n\t\tdefer fmt.Println()\n\t}\n}":                        {"25:3", "defer in the body of a range loop over a function"},
		iter + "func run() {\nL:\n\tfor range 2 {\n\t\tfor range count {\n\t\t\tcontinue L\n\t\t}\n\t}\n}": {"27:4", "continue L"},
		"var m = map[string]fmt.Stringer{}\nvar a, ok = m[\"a\"]":                                          {"comma-ok form in a package-level declaration"},
	})
}

func TestCommaOkVarDeclaration(t *testing.T) {
	expect(t, map[string]string{
		"type T struct{ x int }\nvar i any = &T{42}\nvar tt, ok = i.(*T)\nfmt.Println(tt.x, ok)": "42 true\n",
		"var m = map[string]int{\"a\": 1}\nvar a, found any = m[\"b\"]\nfmt.Println(a, found)":   "0 false\n",
		"type T struct{ x int }\nvar (\n\tm    = map[string][]T{\"a\": {{1}}}\n\tc    = func() chan T { c := make(chan T, 1); c <- T{2}; return c }()\n\ta, aok = m[\"a\"]\n\tb, bok = m[\"b\"]\n)\nvar r, rok = <-c\nfmt.Println(a, aok, b, bok, r, rok)": "[{1}] true [] false {2} true\n",
	})
}

// TestUnusedNamedTypeParameterAcrossCells: type Foo[T any] struct{ val int }
// declared in one cell and instantiated twice in a later one compared
// Foo[int]{} and Foo[string]{} as equal; the cell that makes the second
// instantiation is refused, and leaves nothing behind.
func TestUnusedNamedTypeParameterAcrossCells(t *testing.T) {
	s := newSession(t)
	run(t, s, "type Foo[T any] struct{ val int }\nfunc mk[T any]() any { return Foo[T]{} }")
	if got := out(t, s, "var a any = Foo[int]{1}\nfmt.Println(a == mk[int](), a)"); got != "false {1}\n" {
		t.Errorf("one instantiation: %q", got)
	}
	for _, cell := range []string{
		"var b any = Foo[string]{1}\nfmt.Println(a == b)",                             // Go: false
		"fmt.Println(a == mk[string]())",                                              // Go: false
		"fmt.Println(a == mk[string]())",                                              // again: the refused instantiation is not kept
		"var s Foo[string]\nvar ok bool\n_, ok = a.(Foo[string])\nfmt.Println(ok, s)", // Go: false {0}
	} {
		e := fails(t, s, cell)
		if !strings.Contains(e.Value, "Foo[int] and Foo[string], by its type parameter T") {
			t.Errorf("cell %q: %v", cell, e)
		}
	}
	// A cell that fails to compile keeps no instantiation either.
	if e := fails(t, s, "var c any = mk[string]()\nvar n int = \"x\""); strings.Contains(e.Value, "Foo[string]") {
		t.Errorf("cell failing to compile: %v", e)
	}
	if e := fails(t, s, "fmt.Println(a == mk[string]())"); !strings.Contains(e.Value, "Foo[int] and Foo[string]") {
		t.Errorf("after a cell failing to compile: %v", e)
	}
	if got := out(t, s, "fmt.Println(a == any(Foo[int]{1}))"); got != "true\n" {
		t.Errorf("after the refusals: %q", got)
	}
	// A type of a cell that panicked is kept (Go: false).
	s2 := newSession(t)
	fails(t, s2, "type Baz[T any] struct{ val int }\nvar a any = Baz[int]{}\npanic(\"stop\")")
	if e := fails(t, s2, "var b any = Baz[string]{}\nfmt.Println(a == b)"); !strings.Contains(e.Value, "Baz[int] and Baz[string]") {
		t.Errorf("type of a cell that panicked: %v", e)
	}
	run(t, s, "type Bar[T any] struct {\n\tval int\n\t_   [0]T\n}")
	if got := out(t, s, "var c, d any = Bar[int]{}, Bar[string]{}\nfmt.Println(c == d, c == any(Bar[int]{}))"); got != "false true\n" {
		t.Errorf("instantiations of a type using its parameter: %q", got)
	}
}
