package yaegifix

import (
	"strings"
	"testing"
)

// TestYaegiStillReusesSlots runs, on a bare interpreter, the misbehaviours
// that namedResultEdits, compositeEdits, nilCaseEdits, instanceRefusals,
// PhantomTypes and UseXMLFixes work around, as
// TestYaegiStillNeedsTheWorkarounds does for the others.
func TestYaegiStillReusesSlots(t *testing.T) {
	for _, c := range []struct {
		name  string
		cells []string
		bug   func(v any, err error) bool
		fix   string
	}{
		{"named results start with the caller's slot", []string{"func h() (n int) { n++; return }\nfunc f() int { x := h(); x = h(); return x }", "f()"},
			func(v any, err error) bool { return v == 2 }, "namedResultEdits"},
		{"composite literal among several values", []string{"type S struct{ a int }\nfunc f() int { a, b := 1, S{3}; _ = b; return a }", "f()"},
			func(v any, err error) bool { return v == 0 }, "the parentheses of compositeEdits"},
		{"literals of a generic type with two type arguments", []string{
			"type A[K, V any] struct{ k K }\nfunc f() int { n := 0; a := A[int, int]{}; n++; b := A[int, int]{}; _, _ = a, b; return n }", "f()"},
			func(v any, err error) bool { return v == 0 }, "the one-element slices of compositeEdits"},
		{"case nil with a slice", []string{"func f() bool { var s []int; switch s { case nil: return true }; return false }", "f()"},
			func(v any, err error) bool { return v == false }, "nilCaseEdits"},
		{"type parameter not used in the definition", []string{"type T[_ any] struct{}\nfunc f() bool { var a, b any = T[int]{}, T[string]{}; return a == b }", "f()"},
			func(v any, err error) bool { return v == true }, "PhantomTypes and PhantomInstances"},
		{"named type parameter not used in the definition", []string{"type O[T any] struct{ v int }", "func f() bool { var a, b any = O[int]{}, O[string]{}; return a == b }", "f()"},
			func(v any, err error) bool { return v == true }, "PhantomTypes and PhantomInstances"},
		{"type parameter used only through an unused one", []string{"type O[T any] struct{ v int }\ntype W[T any] struct{ o O[T] }", "func f() bool { var a, b any = W[int]{}, W[string]{}; return a == b }", "f()"},
			func(v any, err error) bool { return v == true }, "PhantomTypes (the fixed point)"},
		{"type argument with tags", []string{"type T[P any] struct{ x P }\nfunc f() bool { var a, b any = T[struct{ int }]{}, T[struct{ int \"x\" }]{}; return a == b }", "f()"},
			func(v any, err error) bool { return v == true }, "instanceRefusals"},
		{"xml.Marshal of a cell struct", []string{`import "encoding/xml"`, "type A struct{ N int }", "func f() error { _, err := xml.Marshal(&A{1}); return err }", "f()"},
			func(v any, err error) bool {
				e, ok := v.(error)
				return ok && strings.Contains(e.Error(), "unsupported type")
			}, "UseXMLFixes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			it, _ := bare(t)
			var v any
			var err error
			for _, src := range c.cells {
				v, err = eval(it, src)
			}
			if !c.bug(v, err) {
				t.Errorf("yaegi no longer misbehaves (value %v, error %v): %s can go", v, err, c.fix)
			}
		})
	}
}
