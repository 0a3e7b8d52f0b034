package yaegifix

import (
	"go/ast"
	"go/token"
)

// untypedArgEdits writes the type of untyped constant arguments of a call
// to a generic function of the cell. When every argument for a type
// parameter P is an untyped constant, Go infers P as the default type of
// the constants (The Go Programming Language Specification, "Type
// inference": float64 if one of them is a floating-point constant,
// complex128 if one is imaginary, rune if one is a rune). The interpreter
// does not: min(3.5, 2.0) with min[T Ordered] fails with "untyped float
// does not implement main.Ordered". The rewrite converts each such
// argument to that default type, min(float64(3.5), float64(2.0)), which
// is the call Go makes. It leaves the call alone where something else
// could decide P: P in another parameter's type or in a constraint, a
// constraint with a single type term (constraint type inference), a
// typed argument, or a variadic call. A name that a local function
// value shadows is rewritten too: converting an untyped constant to its
// default type can then make the call fail to compile (a float32
// parameter), never give it another result.
func untypedArgEdits(fset *token.FileSet, f *ast.File, off int) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	ifaces := map[string]*ast.InterfaceType{}
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Type.TypeParams != nil {
				funcs[d.Name.Name] = d
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.TypeParams == nil {
					if it, ok := ts.Type.(*ast.InterfaceType); ok {
						ifaces[ts.Name.Name] = it
					}
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
		id, ok := call.Fun.(*ast.Ident)
		if !ok {
			return true
		}
		fd := funcs[id.Name]
		if fd == nil {
			return true
		}
		edits = append(edits, untypedArgs(fd, call, ifaces, pos)...)
		return true
	})
	return edits
}

// untypedArgs returns the conversions for one call of the generic fd.
func untypedArgs(fd *ast.FuncDecl, call *ast.CallExpr, ifaces map[string]*ast.InterfaceType, pos func(token.Pos) int) []edit {
	var params []ast.Expr // the type of each argument's parameter
	for _, p := range fd.Type.Params.List {
		if _, ok := p.Type.(*ast.Ellipsis); ok {
			return nil
		}
		k := len(p.Names)
		if k == 0 {
			k = 1
		}
		for range k {
			params = append(params, p.Type)
		}
	}
	if len(params) != len(call.Args) {
		return nil
	}
	var edits []edit
	for _, tp := range fd.Type.TypeParams.List {
		for _, name := range tp.Names {
			if !oneTermFree(tp.Type, ifaces, 0) {
				continue
			}
			// P must not occur in any constraint, nor in a parameter type
			// other than P itself.
			used := false
			for _, other := range fd.Type.TypeParams.List {
				used = used || exprUsesName(other.Type, name.Name)
			}
			var args []ast.Expr
			for i, pt := range params {
				if id, ok := pt.(*ast.Ident); ok && id.Name == name.Name {
					args = append(args, call.Args[i])
				} else {
					used = used || exprUsesName(pt, name.Name)
				}
			}
			if used || len(args) == 0 {
				continue
			}
			kind := token.ILLEGAL
			for _, a := range args {
				k := constKind(a)
				if k == token.ILLEGAL || k == token.STRING {
					kind = token.ILLEGAL
					break
				}
				if kind == token.ILLEGAL || rank[k] > rank[kind] {
					kind = k
				}
			}
			to := map[token.Token]string{token.CHAR: "rune", token.FLOAT: "float64", token.IMAG: "complex128"}[kind]
			if to == "" {
				continue // integers work; nothing to write
			}
			for _, a := range args {
				edits = append(edits, edit{pos(a.Pos()), pos(a.Pos()), to + "("}, edit{pos(a.End()), pos(a.End()), ")"})
			}
		}
	}
	return edits
}

var rank = map[token.Token]int{token.INT: 0, token.CHAR: 1, token.FLOAT: 2, token.IMAG: 3}

// constKind is the kind of an untyped constant literal, possibly signed
// and parenthesized, or ILLEGAL for anything else.
func constKind(e ast.Expr) token.Token {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind
	case *ast.ParenExpr:
		return constKind(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.SUB || e.Op == token.ADD {
			if k := constKind(e.X); k != token.STRING {
				return k
			}
		}
	}
	return token.ILLEGAL
}

// exprUsesName reports whether the identifier name occurs in e.
func exprUsesName(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// oneTermFree reports whether constraint c surely has no single type term
// (which would let Go infer the type parameter from the constraint): any,
// comparable, a constraint of another package, or an interface of the
// cell whose type elements are all unions.
func oneTermFree(c ast.Expr, ifaces map[string]*ast.InterfaceType, depth int) bool {
	if depth > 8 {
		return false
	}
	switch c := c.(type) {
	case *ast.Ident:
		if c.Name == "any" || c.Name == "comparable" {
			return true
		}
		if it := ifaces[c.Name]; it != nil {
			return oneTermFree(it, ifaces, depth+1)
		}
		return false
	case *ast.SelectorExpr:
		return true
	case *ast.InterfaceType:
		for _, m := range c.Methods.List {
			if len(m.Names) > 0 {
				continue // a method
			}
			if u, ok := m.Type.(*ast.BinaryExpr); ok && u.Op == token.OR {
				continue
			}
			if !oneTermFree(m.Type, ifaces, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
