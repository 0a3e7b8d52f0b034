package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// multiValueOrder moves a package-level declaration of several variables
// from one call (var a, b = f()) before the earlier
// declarations that use its variables, in the declaration chunk src:
// yaegi v0.16.1 fails on var c = b; var a, b = foo() with "assignment
// mismatch: 1 variables but foo returns 2 values" (Go's
// test/fixedbugs/bug436.go), and runs it in the other order.
//
// Go initializes the earliest variable in declaration order that is ready
// (whose dependencies are initialized); the move keeps that order exactly
// when every declaration it moves past names one of the variables in its
// values (so none of them is ready before), which is required: names
// inside function literals and keys of composite literals do not count
// (a function literal is not called there, a key may be a field name),
// and a declaration that has them is not moved past. The moved
// declaration must not name the variables it moves past, must be on a
// line of its own, and goes onto the line of the first one, ahead of it
// and separated by a semicolon, so that no line of the cell moves.
func multiValueOrder(src string) string {
	for range 10 {
		next, ok := moveMultiValue(src)
		if !ok {
			break
		}
		src = next
	}
	return src
}

// moveMultiValue makes the first move of multiValueOrder that src needs.
func moveMultiValue(src string) (string, bool) {
	if !strings.Contains(src, "var") || !strings.Contains(src, ",") {
		return src, false
	}
	const prefix = "package p\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", prefix+src, parser.ParseComments)
	if err != nil {
		return src, false
	}
	pos := func(p token.Pos) int { return fset.Position(p).Offset - len(prefix) }
	type spec struct {
		vs *ast.ValueSpec
		g  *ast.GenDecl
	}
	var specs []spec
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, s := range g.Specs {
				specs = append(specs, spec{s.(*ast.ValueSpec), g})
			}
		}
	}
	// names reports whether the values of vs name one of set, and
	// whether they can be trusted to (no function literal).
	names := func(vs *ast.ValueSpec, set map[string]bool) (uses, sure bool) {
		sure = true
		keys := map[*ast.Ident]bool{}
		for _, v := range vs.Values {
			ast.Inspect(v, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					sure = false
					return false
				case *ast.SelectorExpr:
					ast.Inspect(n.X, func(m ast.Node) bool {
						if id, ok := m.(*ast.Ident); ok && set[id.Name] && !keys[id] {
							uses = true
						}
						if _, ok := m.(*ast.FuncLit); ok {
							sure = false
						}
						return true
					})
					return false
				case *ast.KeyValueExpr:
					if id, ok := n.Key.(*ast.Ident); ok {
						keys[id] = true
					}
				case *ast.Ident:
					if set[n.Name] && !keys[n] {
						uses = true
					}
				}
				return true
			})
		}
		return uses, sure
	}
	for j, x := range specs {
		if len(x.vs.Names) < 2 || len(x.vs.Values) != 1 {
			continue
		}
		if _, call := ast.Unparen(x.vs.Values[0]).(*ast.CallExpr); !call {
			continue
		}
		set := map[string]bool{}
		for _, id := range x.vs.Names {
			if id.Name != "_" {
				set[id.Name] = true
			}
		}
		first := -1
		for i := range j {
			if uses, _ := names(specs[i].vs, set); uses {
				first = i
				break
			}
		}
		if first < 0 {
			continue
		}
		ok := true
		passed := map[string]bool{}
		for _, s := range specs[first:j] {
			uses, sure := names(s.vs, set)
			ok = ok && uses && sure
			for _, id := range s.vs.Names {
				passed[id.Name] = true
			}
		}
		if uses, sure := names(x.vs, passed); uses || !sure || !ok {
			continue
		}
		// The text that goes, and what stays of its line.
		begin, end := pos(x.vs.Pos()), pos(x.vs.End())
		if !x.g.Lparen.IsValid() {
			begin, end = pos(x.g.Pos()), pos(x.g.End())
		}
		if fset.Position(x.g.Pos()).Line != fset.Position(x.g.End()).Line && !x.g.Lparen.IsValid() ||
			fset.Position(x.vs.Pos()).Line != fset.Position(x.vs.End()).Line {
			continue
		}
		lineStart := strings.LastIndex(src[:begin], "\n") + 1
		lineEnd := len(src)
		if k := strings.Index(src[end:], "\n"); k >= 0 {
			lineEnd = end + k
		}
		if strings.TrimSpace(src[lineStart:begin]) != "" || strings.TrimSpace(src[end:lineEnd]) != "" {
			continue
		}
		for _, cg := range f.Comments {
			if pos(cg.Pos()) < end && pos(cg.End()) > begin {
				ok = false
			}
		}
		if !ok {
			continue
		}
		text := src[pos(x.vs.Pos()):pos(x.vs.End())] + "; "
		at := specs[first]
		insert := pos(at.vs.Pos())
		if !at.g.Lparen.IsValid() {
			insert, text = pos(at.g.Pos()), "var "+text
		}
		out := applyEdits(src, []edit{{begin, end, ""}, {insert, insert, text}})
		if _, err := parser.ParseFile(token.NewFileSet(), "", prefix+out, 0); err != nil {
			return src, false
		}
		return out, true
	}
	return src, false
}
