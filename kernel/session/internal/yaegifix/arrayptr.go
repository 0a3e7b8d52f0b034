package yaegifix

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// arrayPtrEdits makes len, cap and range of a nil pointer to an array run
// as in Go. len(p) and cap(p) of p of type *[N]T are N, and for i := range
// p iterates over the indices, without reading the array; yaegi v0.16.1
// reads it and fails with "reflect: call of reflect.Value.Len on zero
// Value" when p is nil. Where p is a name every declaration of which in
// the chunk gives it the type *[N]T with N a literal, or a call of a
// function the chunk declares with that single result, len(p) and cap(p)
// become N (func() int { _ = f(); return N }() for a call, which Go
// evaluates), and a range with no value variable ranges over
// [N]struct{}{} (after the call, for a call, which Go evaluates too).
// The same holds for *p, which Go does not evaluate there. *f(), which Go
// evaluates (and which panics when f returns nil), and a range with a
// value variable, which reads the array, are left alone.
func arrayPtrEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	// length returns N of a type *[N]T with N a literal, -1 otherwise.
	length := func(t ast.Expr) int {
		st, ok := t.(*ast.StarExpr)
		if !ok {
			return -1
		}
		at, ok := st.X.(*ast.ArrayType)
		if !ok || at.Len == nil {
			return -1
		}
		lit, ok := at.Len.(*ast.BasicLit)
		if !ok || lit.Kind != token.INT {
			return -1
		}
		n, err := strconv.ParseInt(lit.Value, 0, 64)
		if err != nil {
			return -1
		}
		return int(n)
	}
	names := map[string]int{} // N of a name, -1 where unknown or another type
	mark := func(id *ast.Ident, n int) {
		if old, ok := names[id.Name]; ok && old != n {
			n = -1
		}
		names[id.Name] = n
	}
	funcs := map[string]int{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Type.TypeParams == nil {
			r := fd.Type.Results
			if r != nil && len(r.List) == 1 && len(r.List[0].Names) <= 1 {
				funcs[fd.Name.Name] = length(r.List[0].Type)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for _, id := range n.Names {
				if n.Type != nil {
					mark(id, length(n.Type))
				} else {
					mark(id, -1)
				}
			}
		case *ast.Field:
			for _, id := range n.Names {
				mark(id, length(n.Type))
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						mark(id, -1)
					}
				}
			}
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				if id, ok := x.(*ast.Ident); ok && n.Tok == token.DEFINE {
					mark(id, -1)
				}
			}
		case *ast.TypeSpec:
			mark(n.Name, -1)
		case *ast.FuncDecl:
			if n.Recv != nil {
				return true
			}
			if _, ok := names[n.Name.Name]; ok {
				funcs[n.Name.Name] = -1 // a function and a variable of one name
			}
		}
		return true
	})
	// arrayLen returns N and whether x must be evaluated (a call).
	var arrayLen func(x ast.Expr) (n int, call bool)
	arrayLen = func(x ast.Expr) (n int, call bool) {
		switch x := unparen(x).(type) {
		case *ast.StarExpr:
			// *p is not evaluated where len is constant; *f() is left
			// alone (yaegi reads nothing through the nil pointer of
			// _ = *f(), where Go panics).
			if _, ok := unparen(x.X).(*ast.Ident); ok {
				return arrayLen(x.X)
			}
		case *ast.Ident:
			if n, ok := names[x.Name]; ok && n >= 0 {
				if _, isFunc := funcs[x.Name]; !isFunc {
					return n, false
				}
			}
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && !x.Ellipsis.IsValid() {
				if n, ok := funcs[id.Name]; ok && n >= 0 {
					if _, isName := names[id.Name]; !isName {
						return n, true
					}
				}
			}
		}
		return -1, false
	}
	if _, ok := names["len"]; ok {
		return nil
	}
	if _, ok := names["cap"]; ok {
		return nil
	}
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			id, ok := n.Fun.(*ast.Ident)
			if !ok || id.Name != "len" && id.Name != "cap" || len(n.Args) != 1 {
				return true
			}
			k, call := arrayLen(n.Args[0])
			if k < 0 {
				return true
			}
			text := strconv.Itoa(k)
			if call {
				a := n.Args[0]
				text = "func() int { _ = " + src[pos(a.Pos()):pos(a.End())] + "; return " + text + " }()"
			} else {
				text = "(" + text + ")"
			}
			edits = append(edits, edit{pos(n.Pos()), pos(n.End()), text})
			return false
		case *ast.RangeStmt:
			if n.Value != nil {
				if id, ok := n.Value.(*ast.Ident); !ok || id.Name != "_" {
					return true
				}
			}
			k, call := arrayLen(n.X)
			if k < 0 {
				return true
			}
			arr := "[" + strconv.Itoa(k) + "]struct{}"
			text := arr + "{}"
			if call {
				text = "func() " + arr + " { _ = " + src[pos(n.X.Pos()):pos(n.X.End())] + "; return " + arr + "{} }()"
			}
			edits = append(edits, edit{pos(n.X.Pos()), pos(n.X.End()), text})
		}
		return true
	})
	return edits
}

// arrayPtrAddrEdits makes &p[i] of a pointer p to an array compile: yaegi
// v0.16.1 reports "cannot take address of int [kind: indexExpr]". It
// becomes &(*p)[i], which Go evaluates alike (a nil p panics in both).
// The type of p comes from go/types, checking the chunk without imports;
// where it is unknown the expression is left to the interpreter.
func arrayPtrAddrEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var addrs []*ast.IndexExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND {
			if ix, ok := ast.Unparen(u.X).(*ast.IndexExpr); ok {
				addrs = append(addrs, ix)
			}
		}
		return true
	})
	if len(addrs) == 0 {
		return nil
	}
	_, info, _ := checkTypes(fset, f)
	var edits []edit
	for _, ix := range addrs {
		t := info.Types[ix.X].Type
		if t == nil {
			continue
		}
		if p, ok := t.Underlying().(*types.Pointer); ok {
			if _, ok := p.Elem().Underlying().(*types.Array); ok {
				edits = append(edits, edit{pos(ix.X.Pos()), pos(ix.X.Pos()), "(*"}, edit{pos(ix.X.End()), pos(ix.X.End()), ")"})
			}
		}
	}
	return edits
}
