package yaegifix

import (
	"go/ast"
	"go/token"
)

// builtinSpreadEdits passes the results of a call to copy and delete
// through variables: copy(f(a)) and delete(h(m)), which Go accepts for a
// call of two results, make yaegi v0.16.1 panic while it compiles the cell
// ("index out of range [2] with length 2"; Go's
// test/fixedbugs/issue15992.go). The call becomes
//
//	func() int { _portlabTmpS0, _portlabTmpS1 := f(a); return copy(_portlabTmpS0, _portlabTmpS1) }()
//
// (without the result for delete), which calls f, then the builtin, as
// Go does. A deferred or go statement's call is left alone (its
// arguments are evaluated at once, the function literal's later), and so
// are cells that declare copy or delete (isVar: the session).
func builtinSpreadEdits(isVar func(string) bool) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		values := valueNames(f)
		deferred := map[*ast.CallExpr]bool{}
		var edits []edit
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.DeferStmt:
				deferred[n.Call] = true
			case *ast.GoStmt:
				deferred[n.Call] = true
			case *ast.CallExpr:
				id, ok := ast.Unparen(n.Fun).(*ast.Ident)
				if !ok || id.Name != "copy" && id.Name != "delete" || len(n.Args) != 1 || n.Ellipsis.IsValid() || deferred[n] ||
					values[id.Name] || isVar != nil && isVar(id.Name) {
					return true
				}
				inner, ok := ast.Unparen(n.Args[0]).(*ast.CallExpr)
				if !ok {
					return true
				}
				const a, b = tempPrefix + "S0", tempPrefix + "S1"
				head, tail := "func() int { "+a+", "+b+" := ", "; return copy("+a+", "+b+") }()"
				if id.Name == "delete" {
					head, tail = "func() { "+a+", "+b+" := ", "; delete("+a+", "+b+") }()"
				}
				edits = append(edits, edit{pos(n.Pos()), pos(inner.Pos()), head}, edit{pos(inner.End()), pos(n.End()), tail})
				return true
			}
			return true
		})
		return edits
	}
}
