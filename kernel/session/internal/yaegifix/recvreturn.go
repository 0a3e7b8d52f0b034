package yaegifix

import (
	"go/ast"
	"go/token"
)

// returnRecvEdits parenthesises the receive of a return statement with
// one result, return <-c, which yaegi v0.16.1 fails to run ("reflect:
// reflect.Value.Set using unaddressable value"; Go's test/closedchan.go),
// where return (<-c) works.
func returnRecvEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
			if u, ok := r.Results[0].(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				edits = append(edits, edit{pos(u.Pos()), pos(u.Pos()), "("}, edit{pos(u.End()), pos(u.End()), ")"})
			}
		}
		return true
	})
	return edits
}
