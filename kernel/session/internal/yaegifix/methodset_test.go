package yaegifix

import (
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestYaegiMethodSetOfAValue is the probe "method set of a value": a bare
// interpreter finds a method declared on *B for a value of type B, and
// LacksValueMethod, reading the interpreter's types, tells it apart.
func TestYaegiMethodSetOfAValue(t *testing.T) {
	it, _ := bare(t)
	var lacks []bool
	if err := it.Use(interp.Exports{"probe/probe": {
		"Lacks": reflect.ValueOf(func(x any) { lacks = append(lacks, LacksValueMethod(x, "I", "M", nil)) }),
	}}); err != nil {
		t.Fatal(err)
	}
	src := `import "probe"
type I interface{ M() }
type B struct{ x int }
func (b *B) M() {}
type V int
func (V) M() {}
type P struct{ *B }
func ok(v any) bool { probe.Lacks(v); _, ok := v.(I); return ok }`
	if _, err := eval(it, src); err != nil {
		t.Fatal(err)
	}
	v, err := eval(it, "ok(B{5})")
	if err != nil || v != true {
		t.Errorf("the interpreter's x.(I) for a value of B: %v, %v; the workaround methodSetEdits can go if false", v, err)
	}
	if _, err := eval(it, "[]bool{ok(&B{5}), ok(V(1)), ok(P{})}"); err != nil {
		t.Fatal(err)
	}
	want := []bool{true, false, false, false}
	if !reflect.DeepEqual(lacks, want) {
		t.Errorf("LacksValueMethod for B, *B, V, P: %v, want %v", lacks, want)
	}
}
