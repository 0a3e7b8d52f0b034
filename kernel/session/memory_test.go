package session

import (
	"context"
	"fmt"
	"runtime"
	"testing"
)

// TestMemoryIsBounded runs thousands of cells that redefine a variable and
// a function and checks that the live heap grows by less than a kilobyte
// per cell (the interpreter alone would keep each cell's syntax tree, about
// 6 KB, forever; see yaegifix.ForgetCompiled).
func TestMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 3,000 cells")
	}
	heap := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc)
	}
	s := newSession(t)
	cell := "v := %d\nfunc f() int { return v * 2 }\nf()"
	for i := range 1000 {
		s.Execute(context.Background(), fmt.Sprintf(cell, i), nil)
	}
	before := heap()
	const n = 2000
	for i := range n {
		if r := s.Execute(context.Background(), fmt.Sprintf(cell, i), nil); r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	perCell := (heap() - before) / n
	runtime.KeepAlive(s)
	if perCell > 1024 {
		t.Errorf("the heap grows by %.0f bytes per cell", perCell)
	}
}

// TestPackageVariablesKeepTheirValues: a package-level variable made of
// intermediate values (a call's result inside a composite literal) keeps
// them after its cell, for functions of later cells (Go's
// test/fixedbugs/bug199.go and issue10253.go; zeroing the interpreter's
// intermediate slots after a cell broke both).
func TestPackageVariablesKeepTheirValues(t *testing.T) {
	s := newSession(t)
	run(t, s, "type S struct{ a []int }\nvar s = &S{make([]int, 10)}\nvar text = \"abc\"\ntype str struct{ text string }\nvar t2 = &str{text}")
	run(t, s, "func f() int { s.a[3] = 1; return len(s.a) }\nfunc g() bool { return text[0] == t2.text[0] }")
	if got := out(t, s, "fmt.Println(f(), g())"); got != "10 true\n" {
		t.Errorf("f(), g() print %q, want 10 true", got)
	}
}

// TestRerunsDoNotKeepOldValues: each re-run of a cell binding 10 MB kept
// another 10 MB alive in the interpreter's intermediate slots (100 re-runs
// held 1 GB); after 100 re-runs the live heap holds about one copy.
func TestRerunsDoNotKeepOldValues(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 1 GB over 100 cells")
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	s := newSession(t)
	run(t, s, `import "bytes"`)
	base := heap()
	for i := range 100 {
		r := s.Execute(context.Background(), "data := bytes.Repeat([]byte{1}, 10<<20)\nlen(data)", nil)
		if r.Err != nil || value(r) != "10485760" {
			t.Fatalf("run %d: %v %v", i, value(r), r.Err)
		}
	}
	grown := heap() - base
	t.Logf("live heap grew by %.1f MB after 100 re-runs", float64(grown)/(1<<20))
	if grown > 30<<20 {
		t.Errorf("live heap grew by %.1f MB, want at most 30 MB", float64(grown)/(1<<20))
	}
	if got := out(t, s, "fmt.Println(len(data), data[10<<20-1])"); got != "10485760 1\n" {
		t.Errorf("data after the re-runs: %q", got)
	}
}

// TestMethodValueReceiversSurviveCells: a method value of a package
// variable reads its receiver's slot when called; freeing the old values
// of re-bound names leaves that slot alone (Go's
// test/typeparam/issue48225.go).
func TestMethodValueReceiversSurviveCells(t *testing.T) {
	s := newSession(t)
	run(t, s, "type Foo struct{ val []int }\nfunc (f Foo) Get() int { return len(f.val) }\nvar get = Foo{val: []int{1, 2, 3}}.Get")
	run(t, s, "x := []int{1}")
	run(t, s, "x := []int{1, 2}")
	if got := out(t, s, "fmt.Println(get(), len(x))"); got != "3 2\n" {
		t.Errorf("got %q, want 3 2", got)
	}
}
