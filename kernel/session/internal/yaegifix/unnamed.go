package yaegifix

import (
	"go/ast"
	"go/token"
)

// unnamedParamEdits names the unnamed parameters of the functions,
// methods and function literals of a chunk _: yaegi v0.16.1 misplaces the
// argument of a method's unnamed parameter (func (s *S) M(int) { s.ok =
// true } failed with "reflect.Set: value of type int is not assignable to
// type bool"; Go's test/fixedbugs/issue49512.go), where a parameter named
// _ works. The two declare the same function.
func unnamedParamEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	name := func(params *ast.FieldList) {
		if params == nil || len(params.List) == 0 {
			return
		}
		for _, p := range params.List {
			if len(p.Names) > 0 {
				return // Go names all parameters or none
			}
		}
		for _, p := range params.List {
			edits = append(edits, edit{pos(p.Type.Pos()), pos(p.Type.Pos()), "_ "})
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			name(n.Type.Params)
		case *ast.FuncLit:
			name(n.Type.Params)
		}
		return true
	})
	return edits
}
