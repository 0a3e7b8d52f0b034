package session

import (
	"strings"
	"testing"
)

// TestInterfaceValuesDoNotFollowTheVariable: a value that becomes an
// interface value keeps the value it had then, whatever happens to the
// variable it came from afterwards, wherever the conversion is.
func TestInterfaceValuesDoNotFollowTheVariable(t *testing.T) {
	decls := "type T struct{ v int }\nfunc (t T) M() int { return t.v }\n" +
		"type P struct{ v int }\nfunc (p *P) M() int { return p.v }\n" +
		"type I interface{ M() int }\n" +
		"func show(i I) I { return i }\n" +
		"var saved I\nfunc register(i I) { saved = i }\n" +
		"var g = &P{1}\nfunc get() I { return g }\n" +
		"type E struct{ s string }\nfunc (e *E) Error() string { return e.s }\nfunc keepErr(e error) error { return e }\n" +
		"type S struct{ s string }\nfunc (s S) String() string { return s.s }\nfunc keepStr(x fmt.Stringer) fmt.Stringer { return x }\n" +
		"type G[X any] interface{ Get() X }\ntype B struct{ n int }\nfunc (b B) Get() int { return b.n }\nfunc keepG(g G[int]) G[int] { return g }\n"
	for _, c := range []struct{ name, code, want string }{
		{"argument kept by the callee", "y := T{1}\ns := show(y)\ny.v = 2\nfmt.Println(s.M())", "1\n"},
		{"pointer argument kept by the callee", "y := &P{1}\ns := show(y)\ny = &P{2}\nfmt.Println(s.M())", "1\n"},
		{"call statement at the top level", "x := &P{1}\nregister(x)\nx = &P{2}\nfmt.Println(saved.M())", "1\n"},
		{"result of a global", "a := get()\ng = &P{2}\nfmt.Println(a.M())", "1\n"},
		{"if header", "x := &P{1}\nvar it I\nif it = x; true {\n}\nx = &P{2}\nfmt.Println(it.M())", "1\n"},
		{"for header", "q := &P{1}\nvar st struct{ f I }\nfor st.f = q; false; {\n}\nq = &P{2}\nfmt.Println(st.f.M())", "1\n"},
		{"in a function", "func run() {\n\tr := T{1}\n\tvar it I\n\tif it = r; true {\n\t}\n\tr.v = 5\n\tk := show(r)\n\tr = T{7}\n\tfmt.Println(it.M(), k.M())\n}\nrun()", "1 5\n"},
		{"named integer", "type N int\nfunc (n N) M() int { return int(n) }\nnn := N(1)\ns2 := show(nn)\nnn = 2\nfmt.Println(s2.M())", "1\n"},
		{"error kept by the callee", "e := &E{\"one\"}\nk := keepErr(e)\ne = &E{\"two\"}\nfmt.Println(k)", "one\n"},
		{"compiled interface kept by the callee", "s := S{\"one\"}\nks := keepStr(s)\ns.s = \"two\"\nfmt.Println(ks)", "one\n"},
		{"generic interface kept by the callee", "b := B{1}\nkg := keepG(b)\nb.n = 2\nfmt.Println(kg.Get())", "1\n"},
		{"map value and key", "k := T{1}\nm := map[I]I{k: k}\nk.v = 2\nfor a, b := range m {\n\tfmt.Println(a.M(), b.M())\n}", "1 1\n"},
		{"slice literal and send", "v := T{1}\nl := []I{v}\nch := make(chan I, 1)\nch <- v\nv.v = 3\nfmt.Println(l[0].M(), (<-ch).M())", "1 1\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t)
			out(t, s, decls)
			if got := out(t, s, c.code); got != c.want {
				t.Errorf("%s: %q, want %q", c.code, got, c.want)
			}
		})
	}
}

// TestInterfaceValuesOfEarlierCells: the conversions are found with the
// types and variables of earlier cells, and a name declared again takes
// its new type.
func TestInterfaceValuesOfEarlierCells(t *testing.T) {
	s := newSession(t)
	out(t, s, "type T struct{ v int }\nfunc (t T) M() int { return t.v }\ntype I interface{ M() int }")
	out(t, s, "func show(i I) I { return i }")
	out(t, s, "y := T{1}")
	if got := out(t, s, "s := show(y)\ny.v = 2\nfmt.Println(s.M())"); got != "1\n" {
		t.Errorf("variable of an earlier cell: %q, want 1", got)
	}
	out(t, s, "y := &T{3}")
	if got := out(t, s, "s2 := show(y)\ny.v = 4\nfmt.Println(s2.M())"); got != "4\n" {
		t.Errorf("a pointer now (its pointee changes): %q, want 4", got)
	}
}

// TestInterfaceResultsAsArguments: the interface value a call returns,
// passed on to a parameter of an interface type, keeps its dynamic type
// (the interpreter wrapped it once more, so that assertions in the callee
// failed).
func TestInterfaceResultsAsArguments(t *testing.T) {
	s := newSession(t)
	out(t, s, "type rat struct{ num int }\ntype item interface{ eq(c item) bool }\n"+
		"func (u *rat) eq(c item) bool { c1, ok := c.(*rat); return ok && u.num == c1.num }\n"+
		"func id(i item) item { return i }\nfunc mk(a *rat) item { return a }\n"+
		"func isRat(c item) bool { _, ok := c.(*rat); return ok }")
	for _, code := range []string{
		"var U item = &rat{1}\na := &rat{1}\nfmt.Println(U.eq(id(a)), U.eq(mk(a)), a.eq(mk(a)), isRat(mk(a)), isRat(id(mk(a))))",
		"func run() {\n\tvar U item = &rat{1}\n\ta := &rat{1}\n\tfmt.Println(U.eq(id(a)), U.eq(mk(a)), a.eq(mk(a)), isRat(mk(a)), isRat(id(mk(a))))\n}\nrun()",
	} {
		if got := out(t, s, code); got != "true true true true true\n" {
			t.Errorf("%s: %q, want all true", code, got)
		}
	}
}

// TestInterfaceConversionsOfLibraryIdioms: the conversions to the
// standard library's interfaces that notebooks use run as before.
func TestInterfaceConversionsOfLibraryIdioms(t *testing.T) {
	s := newSession(t)
	out(t, s, `import ("sort"; "container/heap"; "io"; "os"; "strings"; "errors"; "bufio")`)
	for _, c := range []struct{ code, want string }{
		{"type byAge []int\nfunc (a byAge) Len() int { return len(a) }\nfunc (a byAge) Swap(i, j int) { a[i], a[j] = a[j], a[i] }\n" +
			"func (a byAge) Less(i, j int) bool { return a[i] < a[j] }\nages := []int{30, 20, 25}\nsort.Sort(byAge(ages))\nfmt.Println(ages)", "[20 25 30]\n"},
		{"type IntHeap []int\nfunc (h IntHeap) Len() int { return len(h) }\nfunc (h IntHeap) Less(i, j int) bool { return h[i] < h[j] }\n" +
			"func (h IntHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }\nfunc (h *IntHeap) Push(x any) { *h = append(*h, x.(int)) }\n" +
			"func (h *IntHeap) Pop() any { old := *h; n := len(old); x := old[n-1]; *h = old[:n-1]; return x }\n" +
			"h := &IntHeap{5, 2, 8}\nheap.Init(h)\nheap.Push(h, 3)\nfor h.Len() > 0 {\n\tfmt.Print(heap.Pop(h), \" \")\n}", "2 3 5 8 "},
		{"type upper struct{ w io.Writer }\nfunc (u upper) Write(p []byte) (int, error) { return u.w.Write([]byte(strings.ToUpper(string(p)))) }\n" +
			"fmt.Fprintf(upper{os.Stdout}, \"hello %d\\n\", 3)\nfunc count(r io.Reader) int { n := 0; s := bufio.NewScanner(r); for s.Scan() { n++ }; return n }\n" +
			"fmt.Println(count(strings.NewReader(\"a\\nb\")))", "HELLO 3\n2\n"},
		{"type NotFound struct{ Key string }\nfunc (e *NotFound) Error() string { return \"not found: \" + e.Key }\n" +
			"func find(k string) error { if k == \"x\" { return nil }; return &NotFound{k} }\nerr := find(\"y\")\nvar nf *NotFound\n" +
			"w := fmt.Errorf(\"wrap: %w\", err)\nfmt.Println(errors.As(w, &nf), nf.Key, w, find(\"x\") == nil)", "true y wrap: not found: y true\n"},
	} {
		if got := out(t, s, c.code); got != c.want {
			t.Errorf("%s:\n%q, want %q", c.code, got, c.want)
		}
	}
}

// TestAssertionsToError: a value of a cell's type that implements error,
// in an interface, asserted to error gives that error (yaegi gave ok and
// a nil error, or false for a recovered panic value); a nil pointer and a
// type switch with case error are refused.
func TestAssertionsToError(t *testing.T) {
	s := newSession(t)
	out(t, s, "type E struct{ s string }\nfunc (e *E) Error() string { return e.s }\nvar v any = &E{\"x\"}")
	out(t, s, "type W struct{ *E; n int }")
	for _, c := range []struct{ code, want string }{
		{"func run() {\n\terr, ok := v.(error)\n\tfmt.Println(ok, err == nil, err)\n}\nrun()", "true false x\n"},
		{"func run() {\n\te := v.(error)\n\tfmt.Println(e == nil)\n}\nrun()", "false\n"},
		{"func run() {\n\tif e, ok := v.(error); ok {\n\t\tfmt.Println(e)\n\t}\n}\nrun()", "x\n"},
		{"func run() {\n\tr := func() (r any) { defer func() { r = recover() }(); panic(&E{\"boom\"}) }()\n\tif e, ok := r.(error); ok {\n\t\tfmt.Println(\"recovered\", e)\n\t}\n}\nrun()", "recovered boom\n"},
		{"func run() {\n\tvar w any = W{&E{\"inner\"}, 1}\n\te, ok := w.(error)\n\t_, ok2 := any(E{\"v\"}).(error)\n\t_, ok3 := any(3).(error)\n\tfmt.Println(ok, e, ok2, ok3)\n}\nrun()", "true inner false false\n"},
		{"err, ok := v.(error)\nfmt.Println(err, ok)", "x true\n"},
	} {
		if got := out(t, s, c.code); got != c.want {
			t.Errorf("%s:\n%q, want %q", c.code, got, c.want)
		}
	}
	if e := fails(t, s, "switch x := v.(type) {\ncase error:\n\tfmt.Println(x)\n}"); !strings.Contains(e.Value, "case error: in a type switch") {
		t.Errorf("type switch with case error: %v", e)
	}
	if e := fails(t, s, "var ne *E\nvar vn any = ne\nfunc tryNil() bool { _, ok := vn.(error); return ok }\ntryNil()"); e.Name != "InterpreterError" || !strings.Contains(e.Value, "a nil *E asserted to error") {
		t.Errorf("nil pointer asserted to error: %v", e)
	}
}

// TestSpreadCallsAndTypeParameterAssertions: append(g()) of a g of an
// earlier cell appends all of g's results (yaegi kept the first), and a
// generic function that asserts to its type parameter is refused where
// it is instantiated with an interface type (yaegi's x.(T) was false).
func TestSpreadCallsAndTypeParameterAssertions(t *testing.T) {
	s := newSession(t)
	out(t, s, "func g() ([]int, int) { return []int{1}, 2 }")
	for code, want := range map[string]string{
		"fmt.Println(append(g()))": "[1 2]\n",
		"func run() { fmt.Println(len(append(g())), append(g())) }\nrun()":                   "2 [1 2]\n",
		"func gen[T any](x T) bool { _, ok := any(x).(T); return ok }\nfmt.Println(gen(10))": "true\n",
	} {
		if got := out(t, s, code); got != want {
			t.Errorf("%s: %q, want %q", code, got, want)
		}
	}
	out(t, s, "func g2[T any](x any) bool { _, ok := x.(T); return ok }")
	if e := fails(t, s, "fmt.Println(g2[any](10))"); !strings.Contains(e.Value, "g2 instantiated with the interface type any") {
		t.Errorf("g2[any]: %v", e)
	}
	if got := out(t, s, "fmt.Println(g2[int](10), g2[string](10))"); got != "true false\n" {
		t.Errorf("g2 with concrete types: %q", got)
	}
}

// TestSpreadCallKeepsTheReceiverFirst: f().m(g()) of a method of a
// generic type evaluates f() before g(), as Go does (Go's
// fixedbugs/issue50672.go).
func TestSpreadCallKeepsTheReceiverFirst(t *testing.T) {
	s := newSession(t)
	code := "type G[T any] struct{}\nfunc (G[T]) f(int, int) {}\nfunc run() {\n\tok := false\n" +
		"\tf := func() G[int] { ok = true; return G[int]{} }\n\tg := func() (int, int) { fmt.Println(\"receiver first:\", ok); return 0, 0 }\n\tf().f(g())\n}\nrun()"
	if got := out(t, s, code); got != "receiver first: true\n" {
		t.Errorf("%q", got)
	}
}
