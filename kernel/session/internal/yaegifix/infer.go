package yaegifix

import (
	"go/ast"
	"go/token"
	"strings"
)

// coreTypeEdits writes the type arguments of calls to the generic
// functions of a chunk that Go infers through a core type and yaegi
// v0.16.1 does not ("undefined type for E", or a "CFG post-order panic"):
// for Double[S ~[]E, E any](s S), Double(MySlice{1}) with type MySlice
// []int is Double[MySlice, int](MySlice{1}). A type argument is taken
// from an argument whose type the source shows (a composite literal, &
// of one, a variable declared with a type or from a composite literal
// or make(T, …), a parameter, a function literal), for a parameter
// whose type is the type parameter or is built on it (func(U, T) U,
// G[T]); the others by
// matching the core type of the constraints (a single type
// term, ~[]E, written in place or as an interface of the chunk) against
// the underlying type of those arguments (a type literal, or a type the
// chunk declares). The call is rewritten only when every type argument
// is found so, and then names the types Go infers.
func coreTypeEdits(fset *token.FileSet, f *ast.File, pos func(token.Pos) int, text func(ast.Node) string) []edit {
	funcs := map[string]*ast.FuncDecl{}
	types := map[string]*ast.TypeSpec{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Type.TypeParams != nil {
				funcs[d.Name.Name] = d
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && !ts.Assign.IsValid() {
					types[ts.Name.Name] = ts
				}
			}
		}
	}
	if len(funcs) == 0 {
		return nil
	}
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		fun, explicit := instantiation(call.Fun)
		id, ok := fun.(*ast.Ident)
		if !ok || id.Obj == nil || id.Obj.Kind != ast.Fun {
			return true
		}
		fd := funcs[id.Name]
		if fd == nil || id.Obj.Decl != fd {
			return true
		}
		if args := inferCore(fd, explicit, call.Args, types, text); args != nil {
			edits = append(edits, edit{pos(call.Fun.Pos()), pos(call.Fun.End()), id.Name + "[" + strings.Join(args, ", ") + "]"})
		}
		return true
	})
	return edits
}

// inferCore returns the type arguments of a call of fd, as source, or nil
// when it cannot find them all or the call gives them all.
func inferCore(fd *ast.FuncDecl, explicit, args []ast.Expr, types map[string]*ast.TypeSpec, text func(ast.Node) string) []string {
	var names []string
	constraint := map[string]ast.Expr{}
	for _, field := range fd.Type.TypeParams.List {
		for _, n := range field.Names {
			names = append(names, n.Name)
			constraint[n.Name] = field.Type
		}
	}
	isParam := map[string]bool{}
	for _, n := range names {
		isParam[n] = true
	}
	if len(explicit) >= len(names) {
		return nil
	}
	bound := map[string]ast.Expr{}
	for i, x := range explicit {
		bound[names[i]] = x
	}
	// The arguments for parameters of a type parameter's type.
	var params []ast.Expr
	for _, p := range fd.Type.Params.List {
		k := max(len(p.Names), 1)
		for range k {
			params = append(params, p.Type)
		}
	}
	for i, a := range args {
		var pt ast.Expr
		switch {
		case i < len(params)-1 || i == len(params)-1 && !isEllipsis(params[i]):
			pt = params[i]
		case len(params) > 0 && isEllipsis(params[len(params)-1]):
			pt = params[len(params)-1].(*ast.Ellipsis).Elt
		default:
			return nil
		}
		t := argType(a)
		if t == nil {
			continue
		}
		if pid, ok := pt.(*ast.Ident); ok && constraint[pid.Name] != nil {
			if bound[pid.Name] == nil {
				bound[pid.Name] = t
			}
			continue
		}
		if mentions(pt, isParam) == "" {
			continue
		}
		// A parameter of an instantiation of a generic type, G[E]: an
		// argument of G[int].
		switch pt.(type) {
		case *ast.IndexExpr, *ast.IndexListExpr:
			if !unify(pt, t, constraint, bound) {
				return nil
			}
			continue
		}
		// A parameter of a type built on type parameters, []E: its
		// argument's type (or underlying type, for a declared one).
		if u := underlying(t, types); u == nil || !unify(pt, u, constraint, bound) {
			return nil
		}
	}
	// Core types, until nothing more is found.
	for changed := true; changed; {
		changed = false
		for _, n := range names {
			if bound[n] == nil {
				continue
			}
			core := coreTerm(constraint[n], types)
			if core == nil {
				continue
			}
			u := underlying(bound[n], types)
			if u == nil {
				continue
			}
			before := len(bound)
			if !unify(core, u, constraint, bound) {
				return nil
			}
			changed = changed || len(bound) > before
		}
	}
	var out []string
	for _, n := range names {
		if bound[n] == nil {
			return nil
		}
		t := text(bound[n])
		if strings.Contains(t, "\n") {
			return nil
		}
		out = append(out, t)
	}
	return out
}

func isEllipsis(x ast.Expr) bool {
	_, ok := x.(*ast.Ellipsis)
	return ok
}

// argType returns the type of an argument when the source shows it.
func argType(a ast.Expr) ast.Expr {
	a = ast.Unparen(a)
	switch a := a.(type) {
	case *ast.CompositeLit:
		return a.Type
	case *ast.FuncLit:
		return a.Type
	case *ast.Ident:
		if a.Obj == nil || a.Obj.Kind != ast.Var {
			return nil
		}
		switch d := a.Obj.Decl.(type) {
		case *ast.ValueSpec:
			if d.Type != nil {
				return d.Type
			}
			for i, n := range d.Names {
				if n.Name == a.Name && len(d.Values) == len(d.Names) {
					if t := shownType(d.Values[i]); t != nil {
						return t
					}
				}
			}
		case *ast.AssignStmt:
			if d.Tok != token.DEFINE || len(d.Lhs) != len(d.Rhs) {
				return nil
			}
			for i, l := range d.Lhs {
				if l, ok := l.(*ast.Ident); ok && l.Name == a.Name {
					if t := shownType(d.Rhs[i]); t != nil {
						return t
					}
				}
			}
		case *ast.Field:
			if _, ok := d.Type.(*ast.Ellipsis); !ok {
				return d.Type
			}
		}
	}
	return nil
}

// shownType returns the type of a value that shows it: a composite
// literal's, or T of make(T, …) (make the builtin, which the chunk does
// not declare otherwise).
func shownType(x ast.Expr) ast.Expr {
	switch x := ast.Unparen(x).(type) {
	case *ast.CompositeLit:
		return x.Type
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "make" && id.Obj == nil && len(x.Args) > 0 && !x.Ellipsis.IsValid() {
			return x.Args[0]
		}
	}
	return nil
}

// coreTerm returns the single type term of a constraint, ~[]E in
// ~[]E, interface{ ~[]E } or C[E] for an interface C of the chunk with
// that one term (its type parameters replaced by the arguments), or nil.
func coreTerm(c ast.Expr, types map[string]*ast.TypeSpec) ast.Expr {
	term := func(x ast.Expr) ast.Expr {
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.TILDE {
			return u.X
		}
		switch x.(type) {
		case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.StarExpr:
			return x
		}
		return nil
	}
	if t := term(c); t != nil {
		return t
	}
	single := func(it *ast.InterfaceType) ast.Expr {
		if len(it.Methods.List) != 1 || len(it.Methods.List[0].Names) != 0 {
			return nil
		}
		return term(it.Methods.List[0].Type)
	}
	if it, ok := c.(*ast.InterfaceType); ok {
		return single(it)
	}
	var name ast.Expr
	var args []ast.Expr
	switch x := c.(type) {
	case *ast.IndexExpr:
		name, args = x.X, []ast.Expr{x.Index}
	case *ast.IndexListExpr:
		name, args = x.X, x.Indices
	default:
		return nil
	}
	id, ok := name.(*ast.Ident)
	if !ok || types[id.Name] == nil || types[id.Name].TypeParams == nil {
		return nil
	}
	ts := types[id.Name]
	it, ok := ts.Type.(*ast.InterfaceType)
	if !ok {
		return nil
	}
	t := single(it)
	if t == nil {
		return nil
	}
	sub := map[string]ast.Expr{}
	i := 0
	for _, field := range ts.TypeParams.List {
		for _, n := range field.Names {
			if i >= len(args) {
				return nil
			}
			sub[n.Name] = args[i]
			i++
		}
	}
	if i != len(args) {
		return nil
	}
	return substitute(t, sub)
}

// substitute returns a copy of the type pattern t with the names in sub
// replaced; it handles the forms unify does and gives nil for others.
func substitute(t ast.Expr, sub map[string]ast.Expr) ast.Expr {
	switch t := t.(type) {
	case *ast.Ident:
		if x, ok := sub[t.Name]; ok {
			return x
		}
		return t
	case *ast.ArrayType:
		e := substitute(t.Elt, sub)
		if e == nil || t.Len != nil {
			return nil
		}
		return &ast.ArrayType{Elt: e}
	case *ast.MapType:
		k, v := substitute(t.Key, sub), substitute(t.Value, sub)
		if k == nil || v == nil {
			return nil
		}
		return &ast.MapType{Key: k, Value: v}
	case *ast.ChanType:
		v := substitute(t.Value, sub)
		if v == nil {
			return nil
		}
		return &ast.ChanType{Dir: t.Dir, Value: v}
	case *ast.StarExpr:
		x := substitute(t.X, sub)
		if x == nil {
			return nil
		}
		return &ast.StarExpr{X: x}
	}
	return nil
}

// underlying returns the underlying type of the type x when the source
// shows it: x itself for a type literal, the definition of a type the
// chunk declares (followed through other such names).
func underlying(x ast.Expr, types map[string]*ast.TypeSpec) ast.Expr {
	for range 10 {
		switch t := ast.Unparen(x).(type) {
		case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.StarExpr, *ast.FuncType:
			return t
		case *ast.Ident:
			ts := types[t.Name]
			if ts == nil || ts.TypeParams != nil || t.Obj == nil || t.Obj.Decl != ts {
				return nil
			}
			x = ts.Type
		default:
			return nil
		}
	}
	return nil
}

// unify matches the pattern p, in which the names of params are type
// parameters, against the type t, binding the type parameters that are
// not yet; it reports false where the two cannot match.
func unify(p, t ast.Expr, params map[string]ast.Expr, bound map[string]ast.Expr) bool {
	t = ast.Unparen(t)
	switch p := p.(type) {
	case *ast.Ident:
		if params[p.Name] != nil {
			if bound[p.Name] == nil {
				bound[p.Name] = t
			}
			return true
		}
		id, ok := t.(*ast.Ident)
		return ok && id.Name == p.Name
	case *ast.ArrayType:
		q, ok := t.(*ast.ArrayType)
		return ok && p.Len == nil && q.Len == nil && unify(p.Elt, q.Elt, params, bound)
	case *ast.MapType:
		q, ok := t.(*ast.MapType)
		return ok && unify(p.Key, q.Key, params, bound) && unify(p.Value, q.Value, params, bound)
	case *ast.ChanType:
		q, ok := t.(*ast.ChanType)
		return ok && p.Dir == q.Dir && unify(p.Value, q.Value, params, bound)
	case *ast.StarExpr:
		q, ok := t.(*ast.StarExpr)
		return ok && unify(p.X, q.X, params, bound)
	case *ast.FuncType:
		q, ok := t.(*ast.FuncType)
		if !ok || p.TypeParams != nil || q.TypeParams != nil {
			return false
		}
		return unifyFields(p.Params, q.Params, params, bound) && unifyFields(p.Results, q.Results, params, bound)
	case *ast.IndexExpr:
		q, ok := t.(*ast.IndexExpr)
		return ok && sameName(p.X, q.X) && unify(p.Index, q.Index, params, bound)
	case *ast.IndexListExpr:
		q, ok := t.(*ast.IndexListExpr)
		if !ok || !sameName(p.X, q.X) || len(p.Indices) != len(q.Indices) {
			return false
		}
		for i := range p.Indices {
			if !unify(p.Indices[i], q.Indices[i], params, bound) {
				return false
			}
		}
		return true
	}
	return false
}

// sameName reports whether two type names, not type parameters, are
// spelled alike (G of G[int] and G[T]).
func sameName(a, b ast.Expr) bool {
	x, ok1 := a.(*ast.Ident)
	y, ok2 := b.(*ast.Ident)
	return ok1 && ok2 && x.Name == y.Name
}

// unifyFields unifies the parameters or results of two function types,
// one type for each name.
func unifyFields(p, q *ast.FieldList, params map[string]ast.Expr, bound map[string]ast.Expr) bool {
	flat := func(l *ast.FieldList) []ast.Expr {
		var out []ast.Expr
		if l == nil {
			return nil
		}
		for _, f := range l.List {
			for range max(len(f.Names), 1) {
				out = append(out, f.Type)
			}
		}
		return out
	}
	a, b := flat(p), flat(q)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		pe, pok := a[i].(*ast.Ellipsis)
		qe, qok := b[i].(*ast.Ellipsis)
		if pok != qok {
			return false
		}
		if pok {
			if !unify(pe.Elt, qe.Elt, params, bound) {
				return false
			}
			continue
		}
		if !unify(a[i], b[i], params, bound) {
			return false
		}
	}
	return true
}

// instantiation splits the function of a call, G[A, B] or G, into G and
// the type arguments it writes.
func instantiation(fun ast.Expr) (ast.Expr, []ast.Expr) {
	switch x := fun.(type) {
	case *ast.IndexExpr:
		return x.X, []ast.Expr{x.Index}
	case *ast.IndexListExpr:
		return x.X, x.Indices
	}
	return fun, nil
}
