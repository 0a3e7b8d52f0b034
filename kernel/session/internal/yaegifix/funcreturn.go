package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
)

// funcReturnEdits gives the result of return g, where g names a function
// declared at the top level of the chunk and the function returning it
// has that one result, of a func type: yaegi v0.16.1 returns the
// function's node itself, and the caller fails ("reflect.Set: value of
// type *interp.node is not assignable to type func()", Go's
// fixedbugs/issue42703.go), while a variable declared with the func type
// holds it as Go does. The statement becomes { var t T = g; return t },
// T the result's type as go/types gives it, where T can be written there
// (spellable, and no name of it declared in a function of the chunk).
func funcReturnEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var rets []*ast.ReturnStmt
	ast.Inspect(f, func(n ast.Node) bool {
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
			if _, ok := ast.Unparen(r.Results[0]).(*ast.Ident); ok {
				rets = append(rets, r)
			}
		}
		return true
	})
	if len(rets) == 0 {
		return nil
	}
	pkg, info, _ := checkTypes(fset, f)
	if pkg == nil {
		return nil
	}
	// The signature of the function each return statement is in.
	sigOf := map[*ast.ReturnStmt]*types.Signature{}
	var walk func(n ast.Node, sig *types.Signature)
	walk = func(n ast.Node, sig *types.Signature) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				if m == n {
					return true
				}
				s, _ := info.Types[m].Type.(*types.Signature)
				walk(m, s)
				return false
			case *ast.FuncDecl:
				var s *types.Signature
				if o, ok := info.Defs[m.Name].(*types.Func); ok {
					s, _ = o.Type().(*types.Signature)
				}
				if m.Body != nil {
					walk(m.Body, s)
				}
				return false
			case *ast.ReturnStmt:
				sigOf[m] = sig
			}
			return true
		})
	}
	walk(f, nil)
	writable := chunkTypeWriter(pkg, info)
	var edits []edit
	for _, r := range rets {
		sig := sigOf[r]
		if sig == nil || sig.Results().Len() != 1 {
			continue
		}
		id := ast.Unparen(r.Results[0]).(*ast.Ident)
		fn, ok := info.Uses[id].(*types.Func)
		if !ok || fn.Parent() != pkg.Scope() || fn.Type().(*types.Signature).TypeParams() != nil {
			continue
		}
		t := sig.Results().At(0).Type()
		if _, ok := t.Underlying().(*types.Signature); !ok {
			continue
		}
		text, ok := writable(t)
		if !ok {
			continue
		}
		tmp := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
		edits = append(edits, edit{pos(r.Pos()), pos(r.End()), "{ var " + tmp + " " + text + " = " + id.Name + "; return " + tmp + " }"})
	}
	return edits
}

// chunkTypeWriter returns a function that writes a type go/types gave a
// chunk typed on its own (pkg, info) as the chunk can: not where it
// mentions a type declared in a function, a type parameter, an
// instantiation, an invalid type or a name the chunk declares in a
// function.
func chunkTypeWriter(pkg *types.Package, info *types.Info) func(types.Type) (string, bool) {
	local := map[string]bool{} // names declared in functions
	for id, o := range info.Defs {
		if o != nil && o.Parent() != nil && o.Parent() != pkg.Scope() {
			local[id.Name] = true
		}
	}
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	return func(t types.Type) (string, bool) {
		if !spellable(t, pkg) || anyType(t, func(t types.Type) bool {
			if n, ok := t.(*types.Named); ok && n.TypeArgs() != nil {
				return true
			}
			b, ok := t.(*types.Basic)
			return ok && b.Kind() == types.Invalid
		}) {
			return "", false
		}
		text := types.TypeString(t, qual)
		for _, name := range identRE.FindAllString(text, -1) {
			if local[name] {
				return "", false
			}
		}
		return text, true
	}
}

// identRE matches the names in the text of a type.
var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
