package yaegifix

import (
	"go/ast"
	"go/token"
)

// typedNilRefusals refuses `return p` of a variable declared with a
// pointer type from a function whose result in that place is an error:
// yaegi v0.16.1 turns a nil pointer into a nil interface when it converts
// it to a compiled interface type such as error, so that f() != nil is
// false where Go's is true (the error holds a typed nil: the Go FAQ's
// "Why is my nil error value not equal to nil?"). The pointer variables
// are the function's parameters, results and locals declared with a
// pointer type (p *T, var p *T, p := (*T)(nil)); other ways for a nil
// pointer to reach an error are not seen.
func typedNilRefusals(root ast.Node, refuse func(token.Pos, string, ...any)) {
	check := func(ft *ast.FuncType, body *ast.BlockStmt) {
		if ft.Results == nil || body == nil {
			return
		}
		var errAt []bool // the results that are of type error, in order
		for _, f := range ft.Results.List {
			n := max(len(f.Names), 1)
			id, ok := f.Type.(*ast.Ident)
			for range n {
				errAt = append(errAt, ok && id.Name == "error")
			}
		}
		ptrs := map[string]bool{}
		addFields := func(fl *ast.FieldList) {
			if fl == nil {
				return
			}
			for _, f := range fl.List {
				if _, ok := f.Type.(*ast.StarExpr); ok {
					for _, n := range f.Names {
						ptrs[n.Name] = true
					}
				}
			}
		}
		addFields(ft.Params)
		addFields(ft.Results)
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ValueSpec:
				if _, ok := n.Type.(*ast.StarExpr); ok {
					for _, id := range n.Names {
						ptrs[id.Name] = true
					}
				}
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					for i, r := range n.Rhs {
						// p := (*T)(nil)
						if c, ok := ast.Unparen(r).(*ast.CallExpr); ok && len(c.Args) == 1 {
							if _, ok := ast.Unparen(c.Fun).(*ast.StarExpr); ok {
								if id, ok := n.Lhs[i].(*ast.Ident); ok {
									ptrs[id.Name] = true
								}
							}
						}
					}
				}
			}
			return true
		})
		// A nil check guards the returns: if p == nil { return … } before
		// them, or a return inside if p != nil { … }.
		guarded := map[string]bool{}
		inside := map[*ast.ReturnStmt]string{}
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				name, op := nilCheck(n.Cond)
				switch {
				case op == token.EQL && endsInReturn(n.Body):
					guarded[name] = true
				case op == token.NEQ:
					ast.Inspect(n.Body, func(m ast.Node) bool {
						if r, ok := m.(*ast.ReturnStmt); ok {
							inside[r] = name
						}
						_, lit := m.(*ast.FuncLit)
						return !lit
					})
				}
			}
			return true
		})
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) != len(errAt) {
					return true
				}
				for i, r := range n.Results {
					if id, ok := ast.Unparen(r).(*ast.Ident); ok && errAt[i] && ptrs[id.Name] && !guarded[id.Name] && inside[n] != id.Name {
						refuse(r.Pos(), "return %s, a pointer, as an error: Go's error then holds the pointer and is not nil even when %s is, "+
							"the interpreter gives a nil error for a nil pointer; return nil explicitly where %s is nil (if %s == nil { return nil }), or declare %s as an error",
							id.Name, id.Name, id.Name, id.Name, id.Name)
					}
				}
			}
			return true
		})
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			check(n.Type, n.Body)
		case *ast.FuncLit:
			check(n.Type, n.Body)
		}
		return true
	})
}

// nilCheck returns the name compared with nil by cond (p == nil, nil !=
// p) and the comparison, or "" and 0.
func nilCheck(cond ast.Expr) (string, token.Token) {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return "", 0
	}
	x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
	if id, ok := y.(*ast.Ident); ok && id.Name == "nil" {
		x, y = y, x
	}
	if id, ok := x.(*ast.Ident); !ok || id.Name != "nil" {
		return "", 0
	}
	if id, ok := y.(*ast.Ident); ok {
		return id.Name, b.Op
	}
	return "", 0
}

// endsInReturn reports whether a block's last statement is a return.
func endsInReturn(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok
}
