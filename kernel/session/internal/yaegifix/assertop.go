package yaegifix

import (
	"go/ast"
	"go/token"
)

// basicTypes are the predeclared types a type assertion's operation keeps.
var basicTypes = map[string]bool{"bool": true, "string": true, "float32": true, "float64": true,
	"complex64": true, "complex128": true}

// storedOpEdits converts the value of an operation stored in an interface
// to its own type. yaegi v0.16.1 stores the result of an operation into
// the destination's place as the operation's type: where the destination
// is an interface (a = !a.(bool), a = a.(uint8) + 1 with a of type any, a
// comparison returned as any or assigned to _), it fails with "reflect:
// call of reflect.Value.SetBool on interface Value" (or SetUint, and on
// int or array Value for _). An operation whose type the source shows,
// an arithmetic, shift or unary operation on a type assertion to a
// predeclared type T (or && and || on x.(bool)), stored by an
// assignment, a return, a call or a composite literal, becomes T(…), the
// identity in Go; a comparison assigned to _ or returned as a result of
// interface type becomes bool(…), the type Go gives it there.
func storedOpEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	shadowed := false
	ast.Inspect(f, func(n ast.Node) bool {
		check := func(id *ast.Ident) {
			if id != nil && (basicTypes[id.Name] || integerTypes[id.Name]) {
				shadowed = true
			}
		}
		switch n := n.(type) {
		case *ast.ValueSpec:
			for _, id := range n.Names {
				check(id)
			}
		case *ast.TypeSpec:
			check(n.Name)
		case *ast.Field:
			for _, id := range n.Names {
				check(id)
			}
		case *ast.FuncDecl:
			check(n.Name)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						check(id)
					}
				}
			}
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				if id, ok := x.(*ast.Ident); ok {
					check(id)
				}
			}
		}
		return !shadowed
	})
	if shadowed {
		return nil
	}
	var edits []edit
	wrap := func(x ast.Expr, t string) {
		b, e := pos(x.Pos()), pos(x.End())
		edits = append(edits, edit{b, b, t + "("}, edit{e, e, ")"})
	}
	stored := func(x ast.Expr) {
		if t := assertedOpType(x); t != "" {
			wrap(x, t)
		}
	}
	var results []*ast.FieldList // result lists of the enclosing functions
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				results = append(results, n.Type.Results)
				ast.Inspect(n.Body, visit)
				results = results[:len(results)-1]
			}
			return false
		case *ast.FuncLit:
			results = append(results, n.Type.Results)
			ast.Inspect(n.Body, visit)
			results = results[:len(results)-1]
			return false
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN && n.Tok != token.DEFINE || len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for k, r := range n.Rhs {
				if id, ok := n.Lhs[k].(*ast.Ident); ok && id.Name == "_" && n.Tok == token.ASSIGN && isComparison(r) {
					wrap(r, "bool")
					continue
				}
				stored(r)
			}
		case *ast.ValueSpec:
			for _, v := range n.Values {
				stored(v)
			}
		case *ast.ReturnStmt:
			var types []ast.Expr
			if len(results) > 0 && results[len(results)-1] != nil {
				for _, fl := range results[len(results)-1].List {
					for range max(len(fl.Names), 1) {
						types = append(types, fl.Type)
					}
				}
			}
			for k, r := range n.Results {
				if len(types) == len(n.Results) && isComparison(r) && resultIsInterface(types[k]) {
					wrap(r, "bool")
					continue
				}
				stored(r)
			}
		case *ast.CallExpr:
			for _, a := range n.Args {
				stored(a)
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				stored(e)
			}
		case *ast.SendStmt:
			stored(n.Value)
		}
		return true
	}
	ast.Inspect(f, visit)
	return edits
}

// assertedOpType returns the type of x when x is an operation on a type
// assertion to a predeclared type, "" otherwise.
func assertedOpType(x ast.Expr) string {
	asserted := func(x ast.Expr) string {
		if a, ok := unparen(x).(*ast.TypeAssertExpr); ok {
			if id, ok := a.Type.(*ast.Ident); ok && (basicTypes[id.Name] || integerTypes[id.Name]) {
				return id.Name
			}
		}
		return ""
	}
	switch x := x.(type) {
	case *ast.UnaryExpr:
		switch t := asserted(x.X); {
		case x.Op == token.NOT && t == "bool":
			return t
		case (x.Op == token.SUB || x.Op == token.ADD || x.Op == token.XOR) && t != "" && t != "bool" && t != "string":
			return t
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND, token.LOR:
			if asserted(x.X) == "bool" || asserted(x.Y) == "bool" {
				return "bool"
			}
		case token.SHL, token.SHR:
			if t := asserted(x.X); integerTypes[t] {
				return t
			}
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			t := asserted(x.X)
			if t == "" {
				t = asserted(x.Y)
			}
			if t != "" && t != "bool" {
				return t
			}
		}
	}
	return ""
}

// isComparison reports whether x is a comparison.
func isComparison(x ast.Expr) bool {
	b, ok := unparen(x).(*ast.BinaryExpr)
	return ok && (b.Op == token.EQL || b.Op == token.NEQ || b.Op == token.LSS || b.Op == token.LEQ || b.Op == token.GTR || b.Op == token.GEQ)
}

// resultIsInterface reports whether t is any or an interface type literal.
func resultIsInterface(t ast.Expr) bool {
	switch t := t.(type) {
	case *ast.InterfaceType:
		return true
	case *ast.Ident:
		return t.Name == "any"
	}
	return false
}
