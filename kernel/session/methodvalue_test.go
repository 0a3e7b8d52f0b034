package session

import (
	"strings"
	"testing"
)

// TestMethodValuesOfValueReceivers: Go copies the receiver of a method
// value of a value method where it is made (Go's method5.go); the
// interpreter read it when called. Such method values become the method
// value of a copy made there; where the statement calls other functions
// they are refused.
func TestMethodValuesOfValueReceivers(t *testing.T) {
	s := newSession(t)
	run(t, s, "type V int\nfunc (v V) Get() int { return int(v) }")
	for code, want := range map[string]string{
		"v := V(3)\nf := v.Get\nv = 4\nfmt.Println(f())": "3\n",
		"func g() (r any) { defer func() { r = recover() }(); var p *V; f := p.Get; _ = f; return nil }\nfmt.Println(g() != nil)": "true\n",
		"func h(p *V) func() int { return p.Get }\nx := V(7)\nfk := h(&x)\nx = 8\nfmt.Println(fk(), x)":                           "7 8\n",
		"a := V(4)\npa := &a\nfa := pa.Get\na = 5\nfmt.Println(fa())":                                                             "4\n",
		"w := V(3)\nfw := w.Get\nfmt.Println(fw(), V(5).Get(), fw != nil)":                                                        "3 5 true\n",
		"func k(p *V) func() int { r := *p; return r.Get }\ny := V(7)\nky := k(&y)\ny = 8\nfmt.Println(ky())":                     "7\n",
		// Passed as an argument, stored in a map, a struct and an
		// interface, compared with nil.
		"func call(f func() int) int { return f() }\n" +
			"type H struct{ f func() int }\n" +
			"func run1() {\n\tu := V(1)\n\tm := map[string]func() int{\"a\": u.Get}\n\th := H{u.Get}\n\tvar i any = u.Get\n\tnotNil := u.Get != nil\n" +
			"\tu = 2\n\tn := call(u.Get)\n\tu = 3\n\tfmt.Println(m[\"a\"](), h.f(), i.(func() int)(), notNil, n)\n}\nrun1()": "1 1 1 true 2\n",
	} {
		s := newSession(t)
		run(t, s, "type V int\nfunc (v V) Get() int { return int(v) }")
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: %q, want %q", code, got, want)
		}
	}
	// Promoted through embedded fields: the copy is made where the
	// method value is, and a nil pointer on the way panics there.
	run(t, s, "type In struct{ *V }\ntype Out struct{ In }\n"+
		"func try(f func()) (failed bool) { defer func() { failed = recover() != nil }(); f(); return }")
	if got := out(t, s, "func run2() {\n\tv := V(4)\n\to := Out{In{&v}}\n\tf := o.Get\n\tv = 5\n\tvar z Out\n\tfmt.Println(f(), try(func() { f = z.Get }))\n}\nrun2()"); got != "4 true\n" {
		t.Errorf("method value through embedded fields: %q, want \"4 true\\n\"", got)
	}
	// Where the statement calls another function, whose order with the
	// copy Go leaves to the compiler, the method value is refused.
	e := fails(t, s, "func run3() {\n\tv := V(1)\n\tg := func() int { v = 2; return 0 }\n\tfmt.Println(v.Get, g())\n}")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "method value v.Get") {
		t.Errorf("method value beside a call: %v", e)
	}
}

// TestGoAndDeferOfValueMethods: go and defer statements evaluate the
// receiver of a method with a value receiver at the statement; the
// interpreter read it when the call ran (v.Show after v.x = 2 showed 2).
// Such statements call the method of a copy made there; a pointer
// receiver the cell assigns again is refused.
func TestGoAndDeferOfValueMethods(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"sync\"\ntype S struct{ x int }\nfunc (s S) Show(k int) { fmt.Print(s.x, k, \" \") }\nfunc (s *S) Bump() { s.x++ }")
	e := fails(t, s, "func f3(a, b *S) {\n\tp := a\n\tdefer p.Bump()\n\tp = b\n}")
	if want := "3:8: not supported by the interpreter: defer p.Bump(…) where the cell assigns p again"; e.Name != "CompileError" || !strings.Contains(e.Value, want) {
		t.Errorf("defer p.Bump(): %s: %s; want %q", e.Name, e.Value, want)
	}
	for code, want := range map[string]string{
		"func f() {\n\ts := S{1}\n\tdefer s.Show(0)\n\ts.x = 2\n}\nf()": "1 0 ",
		"var wg sync.WaitGroup\ntype W struct{ x int }\nfunc (w W) Show(k int) { fmt.Print(w.x, k, \" \"); wg.Done() }\n" +
			"func g(p *W) {\n\twg.Add(1)\n\tgo p.Show(1)\n\tp.x = 7\n}\ng(&W{5})\nwg.Wait()": "5 1 ",
		"func h() {\n\tr := S{4}\n\tdefer r.Show(1)\n}\nh()": "4 1 ",
	} {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: %q, want %q", code, got, want)
		}
	}
}

// TestMethodExpressionsOfTypeLiterals: struct{ T }.M and (*T).M of a
// method with a value receiver failed in the interpreter ("reflect.Set: value of type
// func() string is not assignable", Go's method7.go); it becomes a
// function literal calling the method.
func TestMethodExpressionsOfTypeLiterals(t *testing.T) {
	s := newSession(t)
	run(t, s, "type T struct{ n int }\nfunc (t T) M(k int, s ...string) string { return fmt.Sprint(t.n, k, s) }")
	if got := out(t, s, "g := struct{ T }.M\nh := (*struct{ T }).M\nfmt.Println(g(struct{ T }{T{1}}, 2, \"a\"), h(&struct{ T }{T{3}}, 4))"); got != "1 2 [a] 3 4 []\n" {
		t.Errorf("method expressions of struct literals: %q", got)
	}
	// (*L).M of a method with a value receiver failed too ("reflect.Set:
	// value of type *[]int is not assignable to type []int", Go's
	// method3.go), called or not.
	run(t, s, "type L []int\nfunc (l L) Len() int { return len(l) }")
	if got := out(t, s, "func run() {\n\tl := L{1, 2}\n\tg := (*L).Len\n\tl = append(l, 3)\n\tfmt.Println((*L).Len(&l), g(&l), L.Len(l))\n}\nrun()"); got != "3 3 3\n" {
		t.Errorf("method expressions of pointer types: %q, want \"3 3 3\\n\"", got)
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
