package yaegifix

import (
	"go/ast"
	"go/token"
	"go/types"
)

// mapsCloneEdits returns the edits that write maps.Clone(m), which yaegi
// v0.16.1 cannot run ("undefined type for K" in its source; genericEdits
// refuses the call), as the function of the standard library, for the
// map type M that go/types gives: func(_mc M) M { if _mc == nil { return
// nil }; … }(m), a map of M with each entry of m (the entries of NaN keys
// each once, as in Go) and nil for a nil map. Where M cannot be written
// at the call (spellAt), the call is left to the refusal.
func mapsCloneEdits(f *ast.File, info *types.Info, pkg *types.Package, names map[string]string, cf *cellFile, fset *token.FileSet) []edit {
	at := func(p token.Pos) (int, bool) { return cf.cellOffset(fset.Position(p).Offset) }
	var edits []edit
	walk := func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		// The package's generic functions are not among the compiled
		// packages go/types sees: the call is found by its package name,
		// and M is the argument's type, a map, as Go infers it.
		x, ok := sel.X.(*ast.Ident)
		if !ok || sel.Sel.Name != "Clone" {
			return true
		}
		if p, ok := info.Uses[x].(*types.PkgName); !ok || p.Imported().Path() != "maps" {
			return true
		}
		t := info.TypeOf(call.Args[0])
		if t == nil {
			return true
		}
		if _, ok := t.Underlying().(*types.Map); !ok {
			return true
		}
		m, ok := spellAt(t, call.Pos(), pkg, names)
		if !ok {
			return true
		}
		b, ok1 := at(call.Fun.Pos())
		e, ok2 := at(call.Fun.End())
		if ok1 && ok2 {
			edits = append(edits, edit{b, e, "func(_mc " + m + ") " + m + " { if _mc == nil { return nil }; _c := make(" + m +
				", len(_mc)); for _k, _v := range _mc { _c[_k] = _v }; return _c }"})
		}
		return true
	}
	for _, decl := range cf.cellDecls(f, fset) {
		ast.Inspect(decl, walk)
	}
	return edits
}
