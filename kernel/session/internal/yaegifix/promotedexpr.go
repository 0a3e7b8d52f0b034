package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// promotedExprEdits rewrites the method expressions of methods promoted
// through an embedded field, S.M or (*S).M with M a method of an
// embedded T or *T: yaegi v0.16.1 calls the method with the struct as
// its receiver and fails ("reflect.Set: value of type func() is not
// assignable to type func(struct { *int })", "value of type struct {
// *int } is not assignable to type *int"; Go's fixedbugs/issue73917.go,
// issue73920.go, abi/method_wrapper.go). Such an expression becomes the
// function literal Go's wrapper is,
//
//	func(_r S, _p0 int) int { return _r.M(_p0) }
//
// with the types go/types gives (checking the chunk without imports),
// where they can be written there (spellable, no name of them declared in
// a function of the chunk) and the method is declared in the chunk
// without calling recover itself (Go's wrapper leaves recover working in
// the method; the literal would not), and the types are not generic.
func promotedExprEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var sels []*ast.SelectorExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok {
			sels = append(sels, se)
		}
		return true
	})
	if len(sels) == 0 {
		return nil
	}
	pkg, info, _ := checkTypes(fset, f)
	if pkg == nil {
		return nil
	}
	// The methods the chunk declares, by their object.
	decls := map[types.Object]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			if o := info.Defs[fd.Name]; o != nil {
				decls[o] = fd
			}
		}
	}
	writable := chunkTypeWriter(pkg, info)
	var edits []edit
	for _, se := range sels {
		sel := info.Selections[se]
		if sel == nil || sel.Kind() != types.MethodExpr || len(sel.Index()) < 2 || types.IsInterface(sel.Recv()) {
			continue
		}
		fd := decls[sel.Obj()]
		if fd == nil || fd.Body == nil || recoversItself(fd.Body) {
			continue
		}
		sig, ok := sel.Type().(*types.Signature)
		if !ok || sig.Params().Len() < 1 {
			continue
		}
		var params, args, results []string
		ok = true
		for i := 0; i < sig.Params().Len() && ok; i++ {
			t := sig.Params().At(i).Type()
			dots := ""
			if sig.Variadic() && i == sig.Params().Len()-1 {
				t = t.(*types.Slice).Elem()
				dots = "..."
			}
			text, w := writable(t)
			ok = w
			name := "_r"
			if i > 0 {
				name = fmt.Sprintf("_p%d", i-1)
				args = append(args, name+dots)
			}
			params = append(params, name+" "+dots+text)
		}
		for i := 0; i < sig.Results().Len() && ok; i++ {
			text, w := writable(sig.Results().At(i).Type())
			ok = w
			results = append(results, text)
		}
		if !ok {
			continue
		}
		call := "_r." + se.Sel.Name + "(" + strings.Join(args, ", ") + ")"
		text := "func(" + strings.Join(params, ", ") + ")"
		switch len(results) {
		case 0:
			text += " { " + call + " }"
		case 1:
			text += " " + results[0] + " { return " + call + " }"
		default:
			text += " (" + strings.Join(results, ", ") + ") { return " + call + " }"
		}
		edits = append(edits, edit{pos(se.Pos()), pos(se.End()), "(" + text + ")"})
	}
	return edits
}

// recoversItself reports whether body calls recover itself (not in a
// function literal).
func recoversItself(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "recover" {
				found = true
			}
		}
		return !found
	})
	return found
}
