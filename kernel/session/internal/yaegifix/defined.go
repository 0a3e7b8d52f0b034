package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
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

// InitializedVars returns, for each chunk of p that declares variables,
// the names of its top-level var declarations with an initial value
// (var total = sum(xs)). The interpreter declares them, with zero values,
// when it compiles the chunk: when the chunk then fails to compile, or
// does not run to its end, they hold zeros that no Go program could see.
func InitializedVars(p *Plan) map[int][]string {
	out := map[int][]string{}
	for i, c := range p.Chunks {
		if !c.Decl {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+c.Src, 0)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Values) == 0 {
					continue
				}
				for _, id := range vs.Names {
					if id.Name != "_" && !strings.HasPrefix(id.Name, tempPrefix) {
						out[i] = append(out[i], id.Name)
					}
				}
			}
		}
	}
	return out
}
