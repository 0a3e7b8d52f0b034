package session

import (
	"strings"
	"testing"
)

// TestCellThatFailsToCompileDeclaresNothing: a cell that fails to compile
// has no effect, as in Go. The interpreter had kept what it declared: a
// function declared again ran without code (0), a variable declared again
// read 0, and a new type's method declared by the failed cell ran without
// code once the fixed cell declared it again.
func TestCellThatFailsToCompileDeclaresNothing(t *testing.T) {
	s := newSession(t)
	run(t, s, "func f() int { return 5 }\nvar g = 7\ntype T struct{}\nfunc (T) M() int { return 1 }")
	fails(t, s, "func f() int { return 6 }\nvar g = 8\nfunc (T) M() int { return 2 }\nfunc h() { undefinedY() }")
	if got := out(t, s, "fmt.Println(f(), g, T{}.M())"); got != "5 7 1\n" {
		t.Errorf("after a failed cell: %q, want the earlier declarations, %q", got, "5 7 1\n")
	}
	fails(t, s, "type U struct{ x int }\nfunc (u U) N() int { return u.x + 5 }\nfunc h() { undefinedY() }")
	run(t, s, "type U struct{ x int }\nfunc (u U) N() int { return u.x + 5 }\nfunc h() {}")
	if got := out(t, s, "fmt.Println(U{1}.N())"); got != "6\n" {
		t.Errorf("the fixed cell run again: %q, want %q", got, "6\n")
	}
}

// TestMethodDeclaredAgainReplacesTheEarlierOne: a method declared again
// by a later cell (the usual edit of a notebook) is the one that runs, for
// values made before too and through interfaces; the interpreter kept the
// first declaration.
func TestMethodDeclaredAgainReplacesTheEarlierOne(t *testing.T) {
	s := newSession(t)
	run(t, s, "type S struct{ x int }\nfunc (s S) M() int { return 1 }\nfunc (s *S) P() int { return 10 }\n"+
		"type I interface{ M() int }\nfunc viaI(i I) int { return i.M() }\nold := S{}")
	run(t, s, "func (s S) M() int { return 2 }\nfunc (s *S) P() int { return 20 }")
	if got := out(t, s, "fmt.Println(S{}.M(), old.M(), (&S{}).P(), old.P(), viaI(S{}), viaI(&old))"); got != "2 2 20 20 2 2\n" {
		t.Errorf("methods declared again: %q", got)
	}
	run(t, s, "type S struct{ x int }\nfunc (s S) M() int { return 3 }")
	if got := out(t, s, "fmt.Println(S{}.M(), old.M(), viaI(old))"); got != "3 3 3\n" {
		t.Errorf("the type's cell run again with a new method: %q", got)
	}
}

// TestPreludePackageNameDeclared: a cell of declarations may declare the
// name of a package only the prelude imports (math, os, strings), as a Go
// file that does not import it may (Go's typeparam/ordered.go declares var
// strings); the name is then the cell's, and an import of the package
// under that name is refused as Go refuses it. fmt, a package a cell
// imported or selects from, and a cell with statements (strings := "a,b",
// a local variable in Go; see TestPackageNameCannotBeShadowed) stay
// refused.
func TestPreludePackageNameDeclared(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"sort\"\nvar strings = []string{\"b\", \"a\"}\nfunc sorted() []string {\n\tsort.Strings(strings)\n\treturn strings\n}\nvar math = 3")
	if got, want := out(t, s, "fmt.Println(sorted(), len(strings), math)"), "[a b] 2 3\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if e := fails(t, s, "import \"strings\""); !strings.Contains(e.Value, "strings already declared by a cell") {
		t.Errorf("import after the declaration: %v", e)
	}
	if e := fails(t, s, "strings.ToUpper(\"a\")"); e.Name != "CompileError" {
		t.Errorf("strings.ToUpper after the declaration: %v", e)
	}
	for _, cells := range [][]string{
		{"import \"strings\"\nvar strings = 1"},
		{"import \"strings\"", "var strings = 1"},
		{"var fmt = 1"},
		{"x := strings.ToUpper(\"a\")\nvar strings = 2"},
		{"var strings = 2\nfmt.Println(strings)"},
	} {
		s := newSession(t)
		for _, c := range cells[:len(cells)-1] {
			run(t, s, c)
		}
		if e := fails(t, s, cells[len(cells)-1]); !strings.Contains(e.Value, "already declared through import") {
			t.Errorf("cells %q: %v", cells, e)
		}
	}
}
