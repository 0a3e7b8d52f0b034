package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// DefinedNames returns the names a prepared cell defines anywhere, in
// functions too (variables, parameters, results, range variables, types,
// functions): a use of such a name may be of the cell's own.
func DefinedNames(p *Plan) map[string]bool {
	names := map[string]bool{}
	add := func(ids ...*ast.Ident) {
		for _, id := range ids {
			if id != nil {
				names[id.Name] = true
			}
		}
	}
	for _, c := range p.Chunks {
		fset := token.NewFileSet()
		var root ast.Node
		if c.Decl {
			f, err := parser.ParseFile(fset, "", "package p\n"+c.Src, 0)
			if err != nil {
				continue
			}
			root = f
		} else {
			body, err := parseStatements(fset, c.Src)
			if err != nil {
				continue
			}
			root = body
		}
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							add(id)
						}
					}
				}
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					for _, x := range []ast.Expr{n.Key, n.Value} {
						if id, ok := x.(*ast.Ident); ok {
							add(id)
						}
					}
				}
			case *ast.ValueSpec:
				add(n.Names...)
			case *ast.Field:
				add(n.Names...)
			case *ast.TypeSpec:
				add(n.Name)
			case *ast.FuncDecl:
				add(n.Name)
			}
			return true
		})
	}
	return names
}
