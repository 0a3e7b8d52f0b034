package yaegifix

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// inferredEdits returns the edits that write out, with the type arguments
// go/types inferred, the uses of the cells' generic functions that yaegi
// v0.16.1 cannot instantiate itself:
//
//   - a call where a type argument comes from a function-typed argument
//     or a core type only (see indirect): CloneBad(m), for
//     func CloneBad[M ~map[K]V, K comparable, V any](m M) M in a method
//     of CloningMap[K, V], is CloneBad[map[K]V, K, V](m) (yaegi: "undefined
//     type for K");
//   - a generic function used as a value (f = g, h(g, 3), g[int, string]
//     not called), whose type arguments Go infers from the target, or with
//     two type parameters or more: yaegi failed to convert it ("cannot use
//     type func(main.P) main.P as type func(int) int") or to instantiate it
//     ("not a generic type"); it becomes a function literal of the
//     instance's signature that calls it, func(_gv0 int) string { return
//     g[int, string](_gv0) }, which is called alike (a function value is
//     comparable only with nil, which neither is).
//
// Every type written must mean the same type at the place it is written
// (each name it mentions is looked up there, type parameters of the
// enclosing function included); otherwise the use is left alone.
func inferredEdits(f *ast.File, info *types.Info, pkg *types.Package, names map[string]string, cf *cellFile, fset *token.FileSet) []edit {
	at := func(p token.Pos) (int, bool) { return cf.cellOffset(fset.Position(p).Offset) }
	var edits []edit
	var stack []ast.Node
	visit := func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		inst, ok := info.Instances[id]
		if !ok || inst.TypeArgs == nil {
			return true
		}
		fn, ok := info.Uses[id].(*types.Func)
		if !ok || fn.Pkg() != pkg || fn.Type().(*types.Signature).Recv() != nil {
			return true
		}
		sig, ok := inst.Type.(*types.Signature)
		if !ok {
			return true
		}
		// The expression that names the instance (id, or id[…]) and the
		// one around it.
		var expr ast.Expr = id
		explicit := 0
		i := len(stack) - 2
		for ; i >= 0; i-- {
			switch p := stack[i].(type) {
			case *ast.ParenExpr:
				expr = p
				continue
			case *ast.IndexExpr:
				if p.X == expr {
					expr, explicit = p, 1
					continue
				}
			case *ast.IndexListExpr:
				if p.X == expr {
					expr, explicit = p, len(p.Indices)
					continue
				}
			}
			break
		}
		var parent ast.Node
		if i >= 0 {
			parent = stack[i]
		}
		args := make([]string, inst.TypeArgs.Len())
		for j := range args {
			s, ok := spellAt(inst.TypeArgs.At(j), id.Pos(), pkg, names)
			if !ok {
				return true
			}
			args[j] = s
		}
		targs := "[" + strings.Join(args, ", ") + "]"
		if call, ok := parent.(*ast.CallExpr); ok && call.Fun == expr {
			if explicit > 0 || !indirect(fn, call) {
				return true
			}
			if e, ok := at(id.End()); ok {
				edits = append(edits, edit{e, e, targs})
			}
			return true
		}
		if explicit > 0 && explicit < len(args) {
			return true
		}
		if explicit > 0 && len(args) == 1 {
			// g[int] as a value: the interpreter instantiates it.
			return true
		}
		var params, results, pass []string
		for j := range sig.Params().Len() {
			t := sig.Params().At(j).Type()
			name := "_gv" + strconv.Itoa(j)
			ell := ""
			if sig.Variadic() && j == sig.Params().Len()-1 {
				t = t.(*types.Slice).Elem()
				ell = "..."
			}
			s, ok := spellAt(t, id.Pos(), pkg, names)
			if !ok {
				return true
			}
			params = append(params, name+" "+ell+s)
			pass = append(pass, name+ell)
		}
		for j := range sig.Results().Len() {
			s, ok := spellAt(sig.Results().At(j).Type(), id.Pos(), pkg, names)
			if !ok {
				return true
			}
			results = append(results, s)
		}
		res := strings.Join(results, ", ")
		if len(results) > 1 {
			res = "(" + res + ")"
		}
		body := "return "
		if len(results) == 0 {
			body = ""
		}
		b, ok1 := at(expr.Pos())
		e, ok2 := at(expr.End())
		if !ok1 || !ok2 {
			return true
		}
		callee := targs
		if explicit > 0 {
			callee = ""
		}
		edits = append(edits,
			edit{b, b, "func(" + strings.Join(params, ", ") + ") " + res + " { " + body},
			edit{e, e, callee + "(" + strings.Join(pass, ", ") + ") }"})
		return true
	}
	for _, decl := range cf.cellDecls(f, fset) {
		stack = stack[:0]
		ast.Inspect(decl, visit)
	}
	return edits
}

// indirect reports whether a call of the generic function fn infers a
// type argument that no parameter's type mentions outside a function
// type: one that only a function-typed argument or a core type gives
// (yaegi infers the type arguments of T, []T, map[K]V, *T, G[T]).
func indirect(fn *types.Func, call *ast.CallExpr) bool {
	sig := fn.Type().(*types.Signature)
	direct := map[*types.TypeParam]bool{}
	var mark func(t types.Type, depth int)
	mark = func(t types.Type, depth int) {
		if depth > 20 {
			return
		}
		switch t := types.Unalias(t).(type) {
		case *types.TypeParam:
			direct[t] = true
		case *types.Named:
			if args := t.TypeArgs(); args != nil {
				for i := range args.Len() {
					mark(args.At(i), depth+1)
				}
			}
		case *types.Pointer:
			mark(t.Elem(), depth+1)
		case *types.Slice:
			mark(t.Elem(), depth+1)
		case *types.Array:
			mark(t.Elem(), depth+1)
		case *types.Map:
			mark(t.Key(), depth+1)
			mark(t.Elem(), depth+1)
		case *types.Chan:
			mark(t.Elem(), depth+1)
		}
	}
	for j := range min(len(call.Args), sig.Params().Len()) {
		mark(sig.Params().At(j).Type(), 0)
	}
	for j := range sig.TypeParams().Len() {
		if !direct[sig.TypeParams().At(j)] {
			return true
		}
	}
	return false
}

// spellAt returns t written as source that means t at pos: every name it
// mentions (types of the cells, type parameters, predeclared types, the
// names of imported packages) is looked up at pos and must find what t
// means.
func spellAt(t types.Type, pos token.Pos, pkg *types.Package, names map[string]string) (string, bool) {
	scope := pkg.Scope().Innermost(pos)
	if scope == nil {
		scope = pkg.Scope()
	}
	finds := func(name string, obj types.Object) bool {
		_, o := scope.LookupParent(name, pos)
		return o == obj
	}
	bad := anyType(t, func(t types.Type) bool {
		switch t := t.(type) {
		case *types.Alias, *types.Named:
			o := t.(interface{ Obj() *types.TypeName }).Obj()
			if a, ok := t.(*types.Alias); ok && a.TypeArgs() != nil {
				return true
			}
			switch {
			case o.Pkg() == nil:
				return !finds(o.Name(), o)
			case o.Pkg() == pkg:
				return !finds(o.Name(), o)
			default:
				n, ok := names[o.Pkg().Path()]
				if !ok {
					return true
				}
				_, pn := scope.LookupParent(n, pos)
				p, ok := pn.(*types.PkgName)
				return !ok || p.Imported().Path() != o.Pkg().Path()
			}
		case *types.TypeParam:
			return !finds(t.Obj().Name(), t.Obj())
		case *types.Basic:
			if t.Kind() == types.UnsafePointer || t.Info()&types.IsUntyped != 0 {
				return true
			}
			return !finds(t.Name(), types.Universe.Lookup(t.Name()))
		case *types.Struct:
			// Fields of another package cannot be written here.
			for i := range t.NumFields() {
				if fl := t.Field(i); !fl.Exported() && fl.Pkg() != pkg {
					return true
				}
			}
		case *types.Interface:
			if t.NumEmbeddeds() > 0 {
				return true
			}
			for i := range t.NumMethods() {
				if m := t.Method(i); !m.Exported() && m.Pkg() != pkg {
					return true
				}
			}
		}
		return false
	})
	if bad {
		return "", false
	}
	return types.TypeString(t, func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return names[p.Path()]
	}), true
}
