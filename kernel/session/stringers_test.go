package session

import (
	"context"
	"strings"
	"testing"
)

// TestErrorsIsWithCellSentinels: errors.Is compared the interpreter's
// stand-ins for a cell's errors, which never compare equal, and answered
// false for a pointer sentinel of a cell type that err is or wraps; it
// compares the values inside, and stops the cell where the stand-in of a
// struct value (its last field) cannot tell the values apart.
func TestErrorsIsWithCellSentinels(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"errors\"\ntype MyErr struct{ s string }\nfunc (e *MyErr) Error() string { return e.s }\nvar ErrX = &MyErr{\"x\"}\nvar ErrY = &MyErr{\"x\"}\n"+
		"type Code int\nfunc (c Code) Error() string { return \"code\" }\nconst NotFound Code = 404\n"+
		"func get() error { return fmt.Errorf(\"get: %w\", ErrX) }\nfunc direct() error { return ErrX }\nfunc code() error { return fmt.Errorf(\"c: %w\", NotFound) }")
	if got, want := out(t, s, "fmt.Print(errors.Is(get(), ErrX), errors.Is(direct(), ErrX), errors.Is(get(), ErrY), errors.Is(errors.Join(errors.New(\"a\"), get()), ErrX), "+
		"errors.Is(code(), NotFound), errors.Is(code(), Code(500)), errors.Is(get(), errors.ErrUnsupported))"),
		"true true false true true false false"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	run(t, s, "type H struct{ a, c int }\nfunc (h H) Error() string { return \"h\" }\nfunc h() error { return H{1, 2} }")
	e := fails(t, s, "errors.Is(h(), H{5, 2})")
	if !strings.Contains(e.Value, "errors.Is with an error that may be of type") || !strings.Contains(e.Value, "H") {
		t.Errorf("%s: %s; want the errors.Is refusal", e.Name, e.Value)
	}
}

// TestComparisonOfStructErrorsReturnedAsErrors: a value of a cell's struct
// type returned as an error is held by the interpreter's stand-in as its
// last field, so that err == H{1, 2} was false and two errors with the
// same last field were equal; such comparisons stop the cell, and
// comparisons with nil and of pointers answer as in Go.
func TestComparisonOfStructErrorsReturnedAsErrors(t *testing.T) {
	s := newSession(t)
	run(t, s, "type H struct{ a, c int }\nfunc (h H) Error() string { return \"h\" }\nfunc h(a int) error { return H{a, 2} }\n"+
		"type P struct{ a int }\nfunc (p *P) Error() string { return \"p\" }\nvar p1 = &P{1}\nfunc pe() error { return p1 }")
	for _, code := range []string{"err := h(1)\nfmt.Print(err == H{1, 2})", "fmt.Print(h(1) == h(3))"} {
		e := fails(t, s, code)
		if !strings.Contains(e.Value, "== of an interface holding a value of a struct type of the cell") {
			t.Errorf("cell %q: %s: %s; want the comparison refusal", code, e.Name, e.Value)
		}
	}
	if got, want := out(t, s, "fmt.Print(h(1) != nil, pe() == p1, pe() == &P{1})"), "true true false"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestAssertionsOfStructErrorsReturnedAsErrors: err.(H) failed and a type
// switch's case H did not match for an H returned as an error (the
// interpreter's stand-in holds its last field); both stop the cell, and
// assertions of other values, of pointers and of values in an interface{}
// answer as in Go.
func TestAssertionsOfStructErrorsReturnedAsErrors(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"errors\"\ntype H struct{ a, c int }\nfunc (h H) Error() string { return \"h\" }\nfunc h() error { return H{1, 2} }\n"+
		"type P struct{ a int }\nfunc (p *P) Error() string { return \"p\" }\nfunc pe() error { return &P{3} }\n"+
		"func kind(err error) string { switch e := err.(type) { case nil: return \"nil\"; case *P: return fmt.Sprint(\"P\", e.a); case H: return \"H\"; default: return \"other\" } }\n"+
		"func isH(err error) bool { _, ok := err.(H); return ok }")
	for _, code := range []string{"kind(h())", "isH(h())", "var e error = h()\n_ = e.(H)"} {
		e := fails(t, s, code)
		if !strings.Contains(e.Value, "a type assertion or type switch case to a struct type of the cell") {
			t.Errorf("cell %q: %s: %s; want the assertion refusal", code, e.Name, e.Value)
		}
	}
	if got, want := out(t, s, "var x any = H{5, 6}\nfmt.Print(kind(nil), kind(pe()), kind(errors.New(\"x\")), isH(pe()), x.(H).a)\nswitch v := x.(type) { case H: fmt.Print(v.c) }"),
		"nilP3otherfalse 56"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestFmtOfCollectionsOfCellStringers: the interpreter hands fmt a slice,
// array or map of a cell's Stringer, or a struct with such a field, as
// one of the type it is declared from ([]int), which fmt printed without
// String ([1 2], Go [W1 W2]), and such a value in an []any as its own
// stand-in (printed as its fields); fmt stops the cell for such a value
// where a verb calls String, and prints values whose elements and fields
// have no such method.
func TestFmtOfCollectionsOfCellStringers(t *testing.T) {
	s := newSession(t)
	run(t, s, "type W int\nfunc (w W) String() string { return fmt.Sprintf(\"W%d\", int(w)) }\n"+
		"type E struct{ a, b int }\nfunc (e E) Error() string { return \"e\" }\ntype Row struct{ N int; S string }\ntype Box struct{ W W }")
	for _, code := range []string{
		"fmt.Println([]W{1, 2})", "fmt.Print([2]W{1, 2})", "fmt.Print(map[string]W{\"a\": 1})", "fmt.Print(struct{ A W }{1})",
		"fmt.Sprintf(\"%v\", []W{1})", "fmt.Printf(\"%s\", []E{{1, 2}})", "w := W(1)\nfmt.Print([]*W{&w})", "fmt.Print(Box{1})", "fmt.Print(&Box{1})", "fmt.Print([]Box{{1}})",
		"fmt.Print([]any{W(1)})", "fmt.Print(map[string]any{\"a\": E{1, 2}})",
	} {
		e := fails(t, s, code)
		if !strings.Contains(e.Value, "that may hold values of type") && !strings.Contains(e.Value, "that holds, in an interface, a value of a type of the cell") {
			t.Errorf("cell %q: %s: %s; want the fmt refusal", code, e.Name, e.Value)
		}
	}
	if got, want := out(t, s, "fmt.Print(W(1), fmt.Sprintf(\"%d\", []W{3}), Row{1, \"a\"}, []Row{{2, \"b\"}}, map[string]Row{\"k\": {3, \"c\"}}, []any{1, \"x\", nil})"),
		"W1[3]{1 a} [{2 b}] map[k:{3 c}] [1 x <nil>]"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestFmtOfAValueWithPointerString: the interpreter calls a String method
// declared on *V for a value V handed to fmt, which Go does not (it prints
// the fields); fmt stops the cell for it and calls the method for &v.
func TestFmtOfAValueWithPointerString(t *testing.T) {
	s := newSession(t)
	run(t, s, "type V struct{ a, b int }\nfunc (v *V) String() string { return \"ptrV\" }\nv := V{1, 2}")
	e := fails(t, s, "fmt.Println(v)")
	if !strings.Contains(e.Value, "whose String or Error method has a pointer receiver") {
		t.Errorf("%s: %s; want the pointer-receiver refusal", e.Name, e.Value)
	}
	if got, want := out(t, s, "fmt.Print(&v, fmt.Sprint(&v))"), "ptrVptrV"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestFmtOfAllResultsOfACall: fmt.Println(f()), f a cell's function or
// method of several results, handed them over bare, without String and
// Error (10 11, Go W10 W11); the statement (or fmt.Sprint's call, in a
// function literal) takes them into variables first.
func TestFmtOfAllResultsOfACall(t *testing.T) {
	s := newSession(t)
	run(t, s, "type W int\nfunc (w W) String() string { return fmt.Sprintf(\"W%d\", int(w)) }\ntype H struct{ c int }\nfunc (h H) Error() string { return \"H\" }\n"+
		"func two() (W, W) { return 10, 11 }\nfunc we() (W, error) { return 9, H{4} }\nfunc plain() (int, string) { return 1, \"a\" }\n"+
		"type T struct{}\nfunc (T) Two() (W, W) { return 1, 2 }\nvar t T")
	if got, want := out(t, s, "fmt.Println(two())\nfmt.Println(we())\nfunc g() { fmt.Print(two()) }\ng()\nfor i := 0; i < 1; i++ { fmt.Println(plain()) }"),
		"W10 W11\nW9 H\nW10 W111 a\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if got, want := out(t, s, "fmt.Println(t.Two())\nx := fmt.Sprint(two()) + \"|\" + strings.ToUpper(fmt.Sprintln(t.Two()))\nfmt.Print(x)\nr := strings.NewReader(\"abc\")\nfmt.Println(r.ReadRune())"),
		"W1 W2\nW10 W11|W1 W2\n97 1 <nil>\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestErrorsFollowUnwrapAndIsOfCellErrors: the interpreter's stand-in for
// a cell's error had its Error method only, so that errors.Is, As and
// Unwrap did not follow the error's Unwrap and Is methods
// (errors.Is(wrapErr{io.EOF}, io.EOF) was false); the stand-ins carry
// them, also through fmt.Errorf's %w.
func TestErrorsFollowUnwrapAndIsOfCellErrors(t *testing.T) {
	s := newSession(t)
	run(t, s, "import (\"errors\"; \"io\")\ntype wrapErr struct{ msg string; err error }\nfunc (w wrapErr) Error() string { return w.msg }\nfunc (w wrapErr) Unwrap() error { return w.err }\n"+
		"type isErr struct{ code int }\nfunc (e *isErr) Error() string { return \"is\" }\nfunc (e *isErr) Is(t error) bool { return t == io.EOF }\n"+
		"type multi struct{ errs []error }\nfunc (m multi) Error() string { return \"multi\" }\nfunc (m multi) Unwrap() []error { return m.errs }\n"+
		"func get() error { return wrapErr{\"w\", io.ErrUnexpectedEOF} }\nfunc gm() error { return multi{[]error{io.EOF}} }")
	for code, want := range map[string]string{
		"fmt.Print(errors.Is(wrapErr{\"w\", io.EOF}, io.EOF), errors.Is(&isErr{1}, io.EOF), errors.Unwrap(wrapErr{\"w\", io.EOF}))":     "true true EOF",
		"fmt.Print(errors.Is(fmt.Errorf(\"x: %w\", wrapErr{\"w\", io.EOF}), io.EOF), errors.Is(fmt.Errorf(\"%w\", &isErr{2}), io.EOF))": "true true",
		"err := get()\nfmt.Print(err, errors.Unwrap(err) == io.ErrUnexpectedEOF, errors.Is(err, io.EOF))":                               "w true false",
		"fmt.Print(errors.Is(gm(), io.EOF), errors.Is(fmt.Errorf(\"%w\", multi{[]error{io.EOF}}), io.EOF), gm())":                       "true true multi",
		"var pe *isErr\nfmt.Print(errors.As(fmt.Errorf(\"%w\", &isErr{5}), &pe), pe.code)":                                              "true 5",
	} {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: output %q, want %q", code, got, want)
		}
	}
}

// TestFmtOfCellValuesInInterfaces: the interpreter hands fmt a value of a
// cell's type with methods held in an interface by reading again the
// variable the interface was made from, in the frame of the call: var sa
// any = s at the top level of a cell printed "%!v(PANIC=String method:
// reflect.Set: …)", and an interface made in another function (returned,
// or stored in a global) printed another variable's value or <nil>; a
// value of such a type returned as any lost its type (3 for W(3)). Each
// prints as in Go, or stops where fmt cannot tell the type.
func TestFmtOfCellValuesInInterfaces(t *testing.T) {
	s := newSession(t)
	run(t, s, "type S struct{ s string }\nfunc (s S) String() string { return s.s }\n"+
		"type E struct{ m string }\nfunc (e E) Error() string { return \"E:\" + e.m }\n"+
		"type P struct{ s string; f float64 }\nfunc (p *P) String() string { return fmt.Sprint(\"P:\", p.s) }\n"+
		"type W int\nfunc (w W) String() string { return fmt.Sprintf(\"W%d\", int(w)) }")
	if got, want := out(t, s, "s := S{\"one\"}\nvar sa any = s\nfmt.Println(sa)"), "one\n"; got != want {
		t.Errorf("top-level var sa any = s: %q, want %q", got, want)
	}
	if got, want := out(t, s, "fmt.Printf(\"%v|%s|%+v|\", sa, sa, sa)\nfmt.Print(fmt.Sprint(sa), fmt.Errorf(\"x: %v\", sa), \"\\n\")"),
		"one|one|one|onex: one\n"; got != want {
		t.Errorf("verbs: %q, want %q", got, want)
	}
	if got, want := out(t, s, "e := E{\"bad\"}\nvar ea any = e\nvar ee error = e\np := &P{\"pp\", 1}\nvar pa any = p\nw := W(3)\nvar wa any = w\nfmt.Println(ea, ee, pa, wa)"),
		"E:bad E:bad P:pp W3\n"; got != want {
		t.Errorf("error, pointer receiver, int: %q, want %q", got, want)
	}
	run(t, s, "var sg any")
	run(t, s, "sg = s")
	if got, want := out(t, s, "s = S{\"changed\"}\nfmt.Println(sg, sa)\nfunc pr() { a, b := 1, W(9); _, _ = a, b; fmt.Println(sa, sg, ea, pa, wa) }\npr()"),
		"one one\none one E:bad P:pp W3\n"; got != want {
		t.Errorf("globals assigned in a later cell, printed in a function: %q, want %q", got, want)
	}
	run(t, s, "func mk() any { x := S{\"a\"}; var a any = x; return a }\nfunc mkw() any { return W(5) }\nfunc mke() any { e := E{\"seven\"}; var a any = e; return a }\n"+
		"var g any\nfunc set() { w := W(7); g = w }")
	if got, want := out(t, s, "fmt.Println(mk(), mkw(), mke())\nv := mk()\nfmt.Println(v)\nset()\nfmt.Println(g)\n"+
		"func show() { a, b, c := 1, 2, W(9); _, _, _ = a, b, c; v := mkw(); fmt.Println(v, g, mk()) }\nshow()"),
		"a W5 E:seven\na\nW7\nW5 W7 a\n"; got != want {
		t.Errorf("values from functions: %q, want %q", got, want)
	}
	// A method's result, put in parentheses by callArgEdits.
	run(t, s, "type T struct{ v any }\nfunc (t T) Get() any { return t.v }")
	if got, want := out(t, s, "tw := T{W(6)}\nfmt.Println(tw.Get())"), "W6\n"; got != want {
		t.Errorf("method result: %q, want %q", got, want)
	}
	for _, code := range []string{"fmt.Println([]any{s})", "fmt.Println(map[string]any{\"k\": s})"} {
		e := fails(t, s, code)
		if !strings.Contains(e.Value, "that holds, in an interface, a value of a type of the cell") {
			t.Errorf("cell %q: %s: %s; want the fmt refusal", code, e.Name, e.Value)
		}
	}
	// An error of a cell type with Unwrap in a variable of type error
	// reaches fmt as its representation: %w printed %!w(struct {…}={…}).
	run(t, s, "type U struct{ err error }\nfunc (u U) Error() string { return \"U\" }\nfunc (u U) Unwrap() error { return u.err }\nvar ue error = U{e}")
	// (var ue error = U{e} is converted in a function literal of its own,
	// IfaceCopyEdits, and reaches fmt as a U; otherwise the check of %w
	// stops the cell.)
	_, rec := run(t, s, "fmt.Println(fmt.Errorf(\"w: %w\", ue))")
	if got := rec.text("stdout"); got != "w: U\n" {
		t.Errorf("%%w: %q, want w: U", got)
	}
	run(t, s, "var ue2 error\nfunc setUE() { ue2 = U{e} }\nsetUE()")
	rec2 := &recorder{}
	r := s.Execute(context.Background(), "fmt.Println(fmt.Errorf(\"w: %w\", ue2))", rec2)
	switch {
	case r.Err != nil && !strings.Contains(r.Err.Value, "that may hold values of type U"):
		t.Errorf("%%w of an error set in a function: %s: %s; want Go's output or the fmt refusal", r.Err.Name, r.Err.Value)
	case r.Err == nil && rec2.text("stdout") != "w: U\n":
		t.Errorf("%%w of an error set in a function: %q, want w: U", rec2.text("stdout"))
	}
}

// TestFmtOfSliceOfCellInterface: a slice or map of an interface type of
// the cells, which the interpreter keeps as its stand-ins, stops the cell
// where fmt would print the stand-ins' fields; empty, it prints as Go.
func TestFmtOfSliceOfCellInterface(t *testing.T) {
	s := newSession(t)
	run(t, s, "type W int\nfunc (w W) String() string { return fmt.Sprintf(\"W%d\", int(w)) }\ntype I interface{ String() string }")
	if got := out(t, s, "var none []I\nfmt.Println(none, len(none))"); got != "[] 0\n" {
		t.Errorf("empty []I: %q", got)
	}
	for _, code := range []string{"items := []I{W(5)}\nfmt.Println(items)", "m := map[string]I{\"a\": W(1)}\nfmt.Println(m)"} {
		if e := fails(t, s, code); e.Name != "InterpreterError" || !strings.Contains(e.Value, "print the elements one by one") {
			t.Errorf("%s: %v, want the fmt stop", code, e)
		}
	}
}
