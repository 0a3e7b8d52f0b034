package yaegifix

import (
	"go/ast"
	"go/types"
	"strings"
)

// PromotedPathEdits rewrites the selectors x.f of code, a cell, that
// reach f through embedded fields of x's type while f is also reachable
// at a greater depth, into the explicit path x.E1.E2.f. Go selects the
// shallowest f (the spec's rule for selectors); yaegi v0.16.1 searches
// the embedded fields depth first and takes the first it finds, so that
// with type S4 struct { S3; S1 }, where S3 embeds S1 too, s4.i read
// S3.S1.i, and with type B struct { A; E }, where A embeds E, b.val()
// called A.E's val (Go's fixedbugs/bug253.go, bug485.go). The spec
// defines x.f as shorthand for the explicit path, an embedded pointer
// included, so the rewrite is exact for field selectors, method values
// and method calls. The selectors are found by go/types, which types the
// cell with the session's declarations (d) and imports, its compiled
// packages through im. It returns the cell rewritten and resolved, which
// says whether every selector of a name in the cell has been typed and,
// where it needed the explicit path, rewritten; promotionRefusals refuses
// the types through which a name is promoted from two depths where a
// selector of that name is not resolved (a method expression T.f, a
// selector go/types could not type, a path through an unexported field
// of another package).
func PromotedPathEdits(code string, d *Decls, imports []ImportSpec, im types.Importer) (string, func(string) bool) {
	none := func(string) bool { return false }
	if !strings.Contains(code, ".") {
		return code, func(string) bool { return true }
	}
	cf, ok := layout(code, d, imports)
	if !ok {
		return code, none
	}
	fset, f, pkg, info, _, ok := typeCell(cf, im)
	if !ok || pkg == nil {
		return code, none
	}
	unresolved := map[string]bool{}
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		se, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		off, in := cf.cellOffset(fset.Position(se.Sel.Pos()).Offset)
		if !in {
			return true
		}
		name := se.Sel.Name
		if id, ok := se.X.(*ast.Ident); ok {
			if _, isPkg := info.Uses[id].(*types.PkgName); isPkg {
				return true
			}
		}
		sel := info.Selections[se]
		if sel == nil {
			unresolved[name] = true
			return true
		}
		idx := sel.Index()
		if len(idx) < 2 {
			return true
		}
		if !deeper(sel.Recv(), name, len(idx)-1) {
			return true
		}
		if sel.Kind() == types.MethodExpr {
			unresolved[name] = true
			return true
		}
		path, ok := embeddedPath(sel.Recv(), idx[:len(idx)-1], pkg)
		if !ok {
			unresolved[name] = true
			return true
		}
		edits = append(edits, edit{off, off, path})
		return true
	})
	if len(edits) > 0 {
		code = applyEdits(code, edits)
	}
	return code, func(n string) bool { return !unresolved[n] }
}

// embeddedPath returns the names of the embedded fields of the index
// path idx from a value of type t as a selector prefix, "E1.E2.", and
// false when one cannot be written in package pkg.
func embeddedPath(t types.Type, idx []int, pkg *types.Package) (string, bool) {
	var b strings.Builder
	for _, i := range idx {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return "", false
		}
		fld := st.Field(i)
		if !fld.Embedded() || !fld.Exported() && fld.Pkg() != pkg {
			return "", false
		}
		b.WriteString(fld.Name() + ".")
		t = fld.Type()
	}
	return b.String(), true
}

// deeper says whether a field or method name is reachable from a value
// of type t through embedded fields at a depth greater than depth (by any
// path, up to a bound).
func deeper(t types.Type, name string, depth int) bool {
	type level struct {
		t types.Type
		d int
	}
	queue := []level{{t, 0}}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		if l.d > depth+8 {
			return true // as far as Go would look; say so to be safe
		}
		t := l.t
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if l.d > depth {
			if n, ok := t.(*types.Named); ok {
				for i := range n.NumMethods() {
					if n.Method(i).Name() == name {
						return true
					}
				}
			}
			if it, ok := t.Underlying().(*types.Interface); ok {
				for i := range it.NumMethods() {
					if it.Method(i).Name() == name {
						return true
					}
				}
			}
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			fld := st.Field(i)
			if l.d > depth && fld.Name() == name {
				return true
			}
			if fld.Embedded() {
				queue = append(queue, level{fld.Type(), l.d + 1})
			}
		}
	}
	return false
}
