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

// TestRedefinedVariableFreesItsOldValue re-runs a cell that binds 10 MB to
// the same name 100 times (also through x := x-style redefinitions, whose
// temporaries must not keep the values, and in a top-level block): the
// old values must be garbage.
func TestRedefinedVariableFreesItsOldValue(t *testing.T) {
	s := newSession(t)
	run(t, s, `import "bytes"`)
	for range 100 {
		run(t, s, "data := bytes.Repeat([]byte{1}, 10<<20)\nn := len(data)")
		run(t, s, "data := append([]byte(nil), data...)")
		run(t, s, "if true {\n\tblock := bytes.Repeat([]byte{2}, 10<<20)\n\t_ = block\n}")
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(s)
	if ms.HeapAlloc > 30<<20 {
		t.Errorf("live heap %d MB after 100 re-runs", ms.HeapAlloc>>20)
	}
}
