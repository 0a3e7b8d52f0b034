package yaegifix

import (
	"go/ast"
	"go/token"
)

// integerTypes are the predeclared integer types.
var integerTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true, "rune": true}

// untypedShiftEdits gives the untyped constant of a shift by a count
// computed at run time the type Go gives it. In Go, the constant c of
// c << n takes the type c alone would take in the shift's place; yaegi
// v0.16.1 makes it an int where the context is an operand of a binary
// operation, an argument of a call or an element of a composite literal,
// and fails with "reflect: call of reflect.Value.SetUint on int Value"
// (or .Uint) when that type is unsigned. Where the type is certain from
// the source, the constant is converted to it: in the count of another
// shift to uint (as Go does), next to an operand that is a conversion
// T(…) to a predeclared integer type (or an arithmetic operation whose
// operand is one) to T, as an argument of a function the chunk declares
// to the parameter's predeclared integer type, as an element of a
// []T, [N]T or map[K]T literal to T. Next to an arithmetic operand that
// is a name or a selector of names, x, the constant becomes (x*0 + c),
// of x's type with no effect. Elsewhere the shift is left as it is.
func untypedShiftEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	// params holds the parameter types of the functions the chunk
	// declares, "" where not a predeclared integer type; names the
	// chunk also defines as variables are left out.
	params := map[string][]string{}
	vars := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Name.Name == "_" {
			continue
		}
		var ps []string
		for _, fl := range fd.Type.Params.List {
			t := ""
			if id, ok := fl.Type.(*ast.Ident); ok && integerTypes[id.Name] {
				t = id.Name
			}
			n := len(fl.Names)
			if n == 0 {
				n = 1
			}
			for range n {
				ps = append(ps, t)
			}
		}
		params[fd.Name.Name] = ps
	}
	// shadowed reports names declared other than as a top-level
	// function or a predeclared type, to be safe.
	ast.Inspect(f, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok {
			vars[ts.Name.Name] = true
		}
		addDeclared(n, vars)
		return true
	})
	for name := range integerTypes {
		if vars[name] {
			return nil // a predeclared type redeclared: leave the chunk alone
		}
	}
	var edits []edit
	// convert makes the literal of the shift s a value of type t (a
	// type name, or an expression whose type to take when expr).
	convert := func(s *ast.BinaryExpr, t string, expr bool) {
		lit := unparen(s.X)
		b, e := pos(lit.Pos()), pos(lit.End())
		text := src[b:e]
		if expr {
			edits = append(edits, edit{b, e, "(" + t + "*0 + " + text + ")"})
		} else {
			edits = append(edits, edit{b, e, t + "(" + text + ")"})
		}
	}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		s, ok := n.(*ast.BinaryExpr)
		if !ok || s.Op != token.SHL && s.Op != token.SHR || !intLiteral(s.X) || isLiteralExpr(s.Y) {
			return true
		}
		// The context of the shift, parentheses skipped.
		var child ast.Node = s
		i := len(stack) - 2
		for ; i >= 0; i-- {
			if _, ok := stack[i].(*ast.ParenExpr); !ok {
				break
			}
			child = stack[i]
		}
		if i < 0 {
			return true
		}
		switch p := stack[i].(type) {
		case *ast.BinaryExpr:
			if p.Op == token.SHL || p.Op == token.SHR {
				if p.Y == child {
					convert(s, "uint", false)
				}
				return true
			}
			if p.Op == token.LAND || p.Op == token.LOR {
				return true
			}
			other := p.X
			if other == child {
				other = p.Y
			}
			if untypedExpr(other) {
				// An untyped operation: in the count of a shift, uint.
				for j := i; j > 0; j-- {
					c, up := stack[j], stack[j-1]
					if q, ok := up.(*ast.BinaryExpr); ok && (q.Op == token.SHL || q.Op == token.SHR) {
						if q.Y == c {
							convert(s, "uint", false)
						}
						break
					}
					if q, ok := up.(*ast.BinaryExpr); ok && arithOps[q.Op] {
						o := q.X
						if o == c {
							o = q.Y
						}
						if untypedExpr(o) {
							continue
						}
						break
					}
					if _, ok := up.(*ast.ParenExpr); !ok {
						break
					}
				}
				return true
			}
			cmp := p.Op == token.EQL || p.Op == token.NEQ || p.Op == token.LSS || p.Op == token.LEQ || p.Op == token.GTR || p.Op == token.GEQ
			if t, expr := operandType(other, src, pos); t != "" && (!expr || !cmp) {
				convert(s, t, expr)
			}
		case *ast.AssignStmt:
			if (p.Tok == token.SHL_ASSIGN || p.Tok == token.SHR_ASSIGN) && len(p.Rhs) == 1 && p.Rhs[0] == child {
				convert(s, "uint", false)
			}
		case *ast.CallExpr:
			id, ok := p.Fun.(*ast.Ident)
			if !ok || vars[id.Name] || p.Ellipsis.IsValid() {
				return true
			}
			ps, ok := params[id.Name]
			if !ok || len(ps) != len(p.Args) {
				return true
			}
			for k, a := range p.Args {
				if a == child && ps[k] != "" {
					convert(s, ps[k], false)
				}
			}
		case *ast.CompositeLit:
			if id, ok := elemType(p.Type).(*ast.Ident); ok && integerTypes[id.Name] {
				convert(s, id.Name, false)
			}
		case *ast.KeyValueExpr:
			if p.Value != child || i == 0 {
				return true
			}
			if cl, ok := stack[i-1].(*ast.CompositeLit); ok {
				if id, ok := elemType(cl.Type).(*ast.Ident); ok && integerTypes[id.Name] {
					convert(s, id.Name, false)
				}
			}
		}
		return true
	})
	return edits
}

// operandType returns the type an operand of an arithmetic operation has,
// when the source shows it: the name of a predeclared integer type it is
// converted to, or (expr) the text of a name or selector of names whose
// type it has.
func operandType(x ast.Expr, src string, pos func(token.Pos) int) (t string, expr bool) {
	switch x := unparen(x).(type) {
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && integerTypes[id.Name] && len(x.Args) == 1 {
			return id.Name, false
		}
	case *ast.Ident:
		switch x.Name {
		case "nil", "true", "false", "iota", "_":
			return "", false
		}
		return x.Name, true
	case *ast.SelectorExpr:
		for e := ast.Expr(x); ; {
			switch y := e.(type) {
			case *ast.SelectorExpr:
				e = y.X
				continue
			case *ast.Ident:
				return src[pos(x.Pos()):pos(x.End())], true
			}
			return "", false
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.SHL, token.SHR:
			return operandType(x.X, src, pos)
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			if t, expr := operandType(x.X, src, pos); t != "" {
				return t, expr
			}
			return operandType(x.Y, src, pos)
		}
	case *ast.UnaryExpr:
		if x.Op == token.SUB || x.Op == token.ADD || x.Op == token.XOR {
			return operandType(x.X, src, pos)
		}
	}
	return "", false
}

// intLiteral reports whether x is an integer or rune literal, in
// parentheses or not.
func intLiteral(x ast.Expr) bool {
	l, ok := unparen(x).(*ast.BasicLit)
	return ok && (l.Kind == token.INT || l.Kind == token.CHAR)
}

// isLiteralExpr reports whether x is made of literals and operators only.
func isLiteralExpr(x ast.Expr) bool {
	lit := true
	ast.Inspect(x, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.Ident, *ast.CallExpr, *ast.IndexExpr, *ast.SelectorExpr, *ast.StarExpr:
			lit = false
		}
		return lit
	})
	return lit
}

func unparen(x ast.Expr) ast.Expr {
	for {
		p, ok := x.(*ast.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// arithOps are the operators of arithmetic operations other than shifts.
var arithOps = map[token.Token]bool{token.ADD: true, token.SUB: true, token.MUL: true, token.QUO: true,
	token.REM: true, token.AND: true, token.OR: true, token.XOR: true, token.AND_NOT: true}

// untypedExpr reports whether x is made of integer literals, arithmetic
// on them and shifts of them: an untyped value.
func untypedExpr(x ast.Expr) bool {
	switch x := unparen(x).(type) {
	case *ast.BasicLit:
		return x.Kind == token.INT || x.Kind == token.CHAR
	case *ast.BinaryExpr:
		if x.Op == token.SHL || x.Op == token.SHR {
			return untypedExpr(x.X)
		}
		return arithOps[x.Op] && untypedExpr(x.X) && untypedExpr(x.Y)
	case *ast.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD || x.Op == token.XOR) && untypedExpr(x.X)
	}
	return false
}

// elemType returns the element type of an array, slice or map type
// expression (a map's value type), nil for other types.
func elemType(t ast.Expr) ast.Expr {
	switch t := t.(type) {
	case *ast.ArrayType:
		return t.Elt
	case *ast.MapType:
		return t.Value
	}
	return nil
}
