package session

import (
	"strings"
	"testing"
)

// TestMethodValuesOfValueReceivers: Go copies the receiver of a method
// value of a value method where it is made (Go's method5.go); the
// interpreter read it when called, so such method values are refused
// unless the receiver is a copy nothing changes.
func TestMethodValuesOfValueReceivers(t *testing.T) {
	s := newSession(t)
	run(t, s, "type V int\nfunc (v V) Get() int { return int(v) }")
	for _, code := range []string{
		"v := V(3)\nf := v.Get\nv = 4\nfmt.Println(f())",
		"func g() (r any) { defer func() { r = recover() }(); var p *V; f := p.Get; return f }\ng()",
		"func h(p *V) func() int { return p.Get }",
	} {
		e := fails(t, s, code)
		if e.Name != "CompileError" || !strings.Contains(e.Value, "method value") || !strings.Contains(e.Value, ".Get") {
			t.Errorf("cell %q: %v", code, e)
		}
	}
	if got := out(t, s, "w := V(3)\nf := w.Get\nfmt.Println(f(), V(5).Get(), (V(6)).Get)"); !strings.HasPrefix(got, "3 5 0x") {
		t.Errorf("method values of copies: %q", got)
	}
	if got := out(t, s, "func k(p *V) func() int { r := *p; return r.Get }\nx := V(7)\nfk := k(&x)\nx = 8\nfmt.Println(fk())"); got != "7\n" {
		t.Errorf("method value of a copy: %q, want 7", got)
	}
}

// TestGoAndDeferOfValueMethods: go and defer statements evaluate the
// receiver of a method with a value receiver at the statement; the
// interpreter read it when the call ran (v.Show after v.x = 2 showed 2).
func TestGoAndDeferOfValueMethods(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"sync\"\ntype S struct{ x int }\nfunc (s S) Show(k int) { fmt.Print(s.x, k, \" \") }\nfunc (s *S) Bump() { s.x++ }")
	for code, want := range map[string]string{
		"func f() {\n\ts := S{1}\n\tdefer s.Show(0)\n\ts.x = 2\n}":              "3:8: not supported by the interpreter: defer s.Show(…)",
		"var wg sync.WaitGroup\nfunc g(p *S) {\n\twg.Add(1)\n\tgo p.Show(1)\n}": "4:5: not supported by the interpreter: go p.Show(…)",
		"func f3(a, b *S) {\n\tp := a\n\tdefer p.Bump()\n\tp = b\n}":            "3:8: not supported by the interpreter: defer p.Bump(…) where the cell assigns p again",
		"t := S{1}\ndefer t.Show(9)\nt.x = 3":                                   "2:7: not supported by the interpreter: defer t.Show(…)",
	} {
		e := fails(t, s, code)
		if e.Name != "CompileError" || !strings.Contains(e.Value, want) {
			t.Errorf("cell %q: %s: %s; want %q", code, e.Name, e.Value, want)
		}
	}
	if got := out(t, s, "func h() {\n\tr := S{4}\n\tdefer r.Show(1)\n}\nh()"); got != "4 1 " {
		t.Errorf("defer of a copy's method: %q, want \"4 1 \"", got)
	}
}

// TestReflectMethodSetsOfCellTypesAreRefused: reflect sees no methods of
// the cells' types (Go's reflectmethod7.go), so its method-set functions
// are refused in a session with methods.
func TestReflectMethodSetsOfCellTypesAreRefused(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"reflect\"\ntype S int\nfunc (s S) M() {}")
	e := fails(t, s, "t := reflect.TypeOf(S(0))\n_, ok := reflect.PointerTo(t).MethodByName(\"M\")\nfmt.Println(ok)")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "2:") || !strings.Contains(e.Value, "MethodByName") {
		t.Errorf("MethodByName of a cell type: %v", e)
	}
}

// TestTypeVerbOfCellTypesStops: %T of a value of a cell's type printed the
// type it is represented by (Go's typeparam/issue49547.go); the cell stops
// instead, and %T of other values works.
func TestTypeVerbOfCellTypesStops(t *testing.T) {
	s := newSession(t)
	run(t, s, "type foo int\ntype G struct{ A int }\ntype F[T any] struct{ _ [0]T }")
	if got := out(t, s, "fmt.Printf(\"%T %5T %v\\n\", 3, \"s\", G{1})"); got != "int string {1}\n" {
		t.Errorf("%%T of compiled types: %q", got)
	}
	for _, code := range []string{"fmt.Println(fmt.Sprintf(\"%T\", F[foo]{}))", "fmt.Printf(\"%v %T\\n\", 1, G{1})", "fmt.Printf(\"%T\\n\", foo(1))"} {
		e := fails(t, s, code)
		if e.Name != "InterpreterError" || !strings.Contains(e.Value, "%T") {
			t.Errorf("cell %q: %v", code, e)
		}
	}
}

// TestTypeVerbInErrorfStops: fmt.Errorf("%T", v) of a value of a cell's
// type printed the type it is represented by (uint16 for type U16
// uint16); the cell stops, and Errorf still wraps with %w.
func TestTypeVerbInErrorfStops(t *testing.T) {
	s := newSession(t)
	run(t, s, "type U16 uint16")
	e := fails(t, s, "fmt.Println(fmt.Errorf(\"%T\", U16(1)))")
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "%T") {
		t.Errorf("Errorf %%T of a cell type: %v", e)
	}
	if got := out(t, s, "import (\n\t\"errors\"\n\t\"io\"\n)\nerr := fmt.Errorf(\"at %T: %w\", 1, io.EOF)\nfmt.Println(err, errors.Is(err, io.EOF))"); got != "at int: EOF true\n" {
		t.Errorf("Errorf of compiled types: %q", got)
	}
}

// TestMethodValueOfAnEarlierCellsVariable: f := c.Get, c a variable of an
// earlier cell, read c when f was called (2 after c.n = 2, Go's 1); it is
// refused, and the copy the message names works.
func TestMethodValueOfAnEarlierCellsVariable(t *testing.T) {
	s := newSession(t)
	run(t, s, "type C struct{ n int }\nfunc (c C) Get() int { return c.n }\nc := C{1}")
	e := fails(t, s, "f := c.Get\nc.n = 2\nfmt.Println(f())")
	if !strings.Contains(e.Value, "c.Get") || !strings.Contains(e.Value, "earlier cell") {
		t.Errorf("method value of an earlier cell's variable: %v", e)
	}
	if got := out(t, s, "r := c\nf := r.Get\nc.n = 2\nfmt.Println(f())"); got != "1\n" {
		t.Errorf("method value of a copy printed %q", got)
	}
}

// TestMethodsWithUnnamedParameters: the interpreter misplaced the
// argument of a method's unnamed parameter ("reflect.Set: value of type
// int is not assignable to type bool"; Go's
// test/fixedbugs/issue49512.go).
func TestMethodsWithUnnamedParameters(t *testing.T) {
	s := newSession(t)
	code := "type S struct{ m1, m2 bool }\n" +
		"func (s *S) M1(int) (int, int) { s.m1 = true; return 1, 2 }\n" +
		"func (s *S) M2(int, string) { s.m2 = true }\n" +
		"func run() {\n\ts := &S{}\n\tx, y := s.M1(0)\n\tf := s.M2\n\tf(3, \"a\")\n" +
		"\tg := func(int) bool { return s.m1 }\n\tfmt.Println(x, y, s.m1, s.m2, g(0))\n}\nrun()"
	if got := out(t, s, code); got != "1 2 true true true\n" {
		t.Errorf("methods with unnamed parameters: %q, want 1 2 true true true", got)
	}
}
