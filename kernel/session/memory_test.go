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
