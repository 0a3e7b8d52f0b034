package yaegifix

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/stdlib"
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

// TestSymbolImporter: the packages built from the interpreter's symbols
// give variables, types with their methods, interfaces and functions
// their Go types.
func TestSymbolImporter(t *testing.T) {
	im := &SymbolImporter{Symbols: func(path string) map[string]reflect.Value {
		return stdlib.Symbols[path+"/"+DefaultName(path)]
	}}
	os, err := im.Import("os")
	if err != nil {
		t.Fatal(err)
	}
	if got := os.Scope().Lookup("Stdout").Type().String(); got != "*os.File" {
		t.Errorf("os.Stdout: %s, want *os.File", got)
	}
	tm, err := im.Import("time")
	if err != nil {
		t.Fatal(err)
	}
	d := tm.Scope().Lookup("Duration").Type()
	if m, _, _ := types.LookupFieldOrMethod(d, false, nil, "String"); m == nil {
		t.Errorf("time.Duration has no String method")
	}
	if got := tm.Scope().Lookup("Since").Type().String(); got != "func(time.Time) time.Duration" {
		t.Errorf("time.Since: %s", got)
	}
	fmtp, err := im.Import("fmt")
	if err != nil {
		t.Fatal(err)
	}
	st := fmtp.Scope().Lookup("Stringer").Type()
	if !types.Implements(d, st.Underlying().(*types.Interface)) {
		t.Errorf("time.Duration does not implement fmt.Stringer")
	}
	if got := tm.Scope().Lookup("Second"); got == nil || got.(*types.Const).Val().String() != "1000000000" {
		t.Errorf("time.Second: %v", got)
	}
	if _, err := im.Import("no/such"); err == nil {
		t.Error("a package the session lacks was imported")
	}
}
