package yaegifix

import (
	"fmt"
	"strings"
	"testing"
)

// TestDeclsKeepTheLatest: a name declared again replaces its earlier
// declaration, a var of several names keeps the others, and the
// declarations of names all declared again are dropped.
func TestDeclsKeepTheLatest(t *testing.T) {
	var d Decls
	d.Learn("type T struct{ v int }\nfunc (t T) M() int { return t.v }\nx, y := 1, \"s\"")
	d.Learn("x := 2.5")
	src := d.render(nil, []string{"T", "x", "y"})
	for _, want := range []string{"type T struct{ v int }", "func (t T) M() int { panic(0) }", "var _, y = 1, \"s\"", "var x = 2.5"} {
		if !strings.Contains(src, want) {
			t.Errorf("rendered declarations lack %q:\n%s", want, src)
		}
	}
	if got := d.render(map[string]bool{"T": true}, []string{"T", "x"}); strings.Contains(got, "type T") {
		t.Errorf("a type the cell declares again stays:\n%s", got)
	}
	for i := range 1000 {
		d.Learn(fmt.Sprintf("z := %d", i))
	}
	if len(d.snippets) > 100 {
		t.Errorf("%d declarations kept after 1000 redefinitions of one name", len(d.snippets))
	}
	if src := d.render(nil, []string{"z"}); !strings.Contains(src, "var z = 999") || strings.Contains(src, "var z = 998") {
		t.Errorf("after redefinitions:\n%s", src)
	}
	if src := d.render(nil, []string{"z"}); strings.Contains(src, "type T") {
		t.Errorf("declarations the cell does not mention:\n%s", src)
	}
	if src := d.render(nil, []string{"T"}); !strings.Contains(src, "func (t T) M()") {
		t.Errorf("the methods of a type the cell mentions are missing:\n%s", src)
	}
}
