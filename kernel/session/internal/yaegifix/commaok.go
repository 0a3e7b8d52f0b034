package yaegifix

import (
	"go/ast"
	"go/token"
	gotypes "go/types"
	"strings"
)

// commaOkVarEdits rewrites the package-level var declarations of a comma-ok
// form whose types the declaration shows, which yaegi v0.16.1 fails to
// compile ("nil type"): var x, ok = v.(T) and var a, b U = <any comma-ok
// form> (U an interface type, such as any, as the bool requires) become a call of a function literal that makes the comma-ok
// assignment inside a function, where it works:
//
//	var x, ok = func() (T, bool) { v, ok := v.(T); return v, ok }()
//
// var v, ok = m[k] and var v, ok = <-c without a type become such a call
// when go/types, checking the chunk without imports, knows the element
// type and it is written without a package name. Other forms, and
// declarations whose
// names another package-level initializer reads (the interpreter
// initialized that one first), are left to the interpreter's failure,
// which NilTypeMessage explains.
func commaOkVarEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	// The names other package-level initializers read: the interpreter
	// initialized such a reader before a rewritten declaration.
	read := map[string]int{}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, spec := range gd.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					ast.Inspect(v, func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok {
							read[id.Name]++
						}
						return true
					})
				}
			}
		}
	}
	var info *gotypes.Info
	var pkg *gotypes.Package
	var edits []edit
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if len(vs.Names) != 2 || len(vs.Values) != 1 || read[vs.Names[0].Name] > 0 || read[vs.Names[1].Name] > 0 {
				continue
			}
			x := ast.Unparen(vs.Values[0])
			var types string
			switch {
			case vs.Type != nil:
				switch v := x.(type) {
				case *ast.TypeAssertExpr, *ast.IndexExpr:
				case *ast.UnaryExpr:
					if v.Op != token.ARROW {
						continue
					}
				default:
					continue
				}
				t := exprText(src, pos, vs.Type)
				types = t + ", " + t
			default:
				if ta, ok := x.(*ast.TypeAssertExpr); ok && ta.Type != nil {
					types = exprText(src, pos, ta.Type) + ", bool"
					break
				}
				if _, ok := x.(*ast.IndexExpr); !ok && !isReceive(x) {
					continue
				}
				if info == nil {
					pkg, info, _ = checkTypes(fset, f)
				}
				t := info.Types[x].Type
				if tup, ok := t.(*gotypes.Tuple); ok && tup.Len() == 2 {
					t = tup.At(0).Type() // the comma-ok form's (v, ok)
				}
				if pkg == nil || t == nil || t == gotypes.Typ[gotypes.Invalid] {
					continue
				}
				name := gotypes.TypeString(t, func(p *gotypes.Package) string {
					if p == pkg {
						return ""
					}
					return "?"
				})
				if strings.Contains(name, "?") || strings.Contains(name, "invalid") {
					continue
				}
				types = name + ", bool"
			}
			v := vs.Values[0]
			edits = append(edits,
				edit{pos(v.Pos()), pos(v.Pos()), "func() (" + types + ") { " + tempPrefix + "v, " + tempPrefix + "ok := "},
				edit{pos(v.End()), pos(v.End()), "; return " + tempPrefix + "v, " + tempPrefix + "ok }()"})
		}
	}
	return edits
}

// isReceive reports whether x is a receive operation.
func isReceive(x ast.Expr) bool {
	u, ok := x.(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW
}
