package yaegifix

import (
	"go/ast"
	"go/token"
)

// rangeChanEdits rewrites for k, v := range s over a slice s of channels
// to for k := range s { v := s[k]; { … } }: yaegi v0.16.1 takes the value
// variable for the ranged expression and, as it is a channel, ranges as
// over a channel, which fails ("reflect: call of reflect.Value.Len on int
// Value"; Go's test/chanlinear.go). Only a variable s declared in a
// function with a written slice-of-channels type is rewritten, when no
// statement of the loop assigns it, nor a function literal, nor anything
// through its address (assignedObjects): the loop then reads the elements
// Go's would (range over a slice reads the shared array).
func rangeChanEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	text := func(n ast.Node) string { return src[pos(n.Pos()):pos(n.End())] }
	assigned := assignedObjects(f)
	var edits []edit
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		r, ok := node.(*ast.RangeStmt)
		if !ok || r.Tok != token.DEFINE || r.Value == nil {
			return true
		}
		x, ok := r.X.(*ast.Ident)
		v, ok2 := r.Value.(*ast.Ident)
		if !ok || !ok2 || v.Name == "_" || x.Obj == nil || !assigned.local[x.Obj.Pos()] || assigned.unsafe[x.Obj.Pos()] || !sliceOfChannels(x) {
			return true
		}
		for _, at := range assigned.at[x.Obj.Pos()] {
			if at >= r.Pos() && at < r.End() {
				return true // assigned while the loop runs
			}
		}
		key := "_portlabK" + itoa(n)
		n++
		if k, ok := r.Key.(*ast.Ident); ok && k.Name != "_" {
			key = k.Name
		}
		edits = append(edits,
			edit{pos(r.Key.Pos()), pos(r.Value.End()), key},
			// The body is a block of its own, in which Go lets it declare
			// v again.
			edit{pos(r.Body.Lbrace) + 1, pos(r.Body.Lbrace) + 1, " " + v.Name + " := " + text(x) + "[" + key + "]; {"},
			edit{pos(r.Body.Rbrace), pos(r.Body.Rbrace), "}"})
		return true
	})
	return edits
}

// itoa formats a small non-negative number.
func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// sliceOfChannels reports whether the variable id is declared local to a
// function with a slice-of-channels type: written in a var declaration or
// a parameter, or as the type of a composite literal or make.
func sliceOfChannels(id *ast.Ident) bool {
	var t ast.Expr
	switch d := id.Obj.Decl.(type) {
	case *ast.Field:
		t = d.Type
	case *ast.ValueSpec:
		if d.Type != nil {
			t = d.Type
		} else if len(d.Values) == len(d.Names) {
			for i, name := range d.Names {
				if name.Obj == id.Obj {
					t = valueType(d.Values[i])
				}
			}
		}
	case *ast.AssignStmt:
		if d.Tok == token.DEFINE && len(d.Lhs) == len(d.Rhs) {
			for i, lhs := range d.Lhs {
				if name, ok := lhs.(*ast.Ident); ok && name.Obj == id.Obj {
					t = valueType(d.Rhs[i])
				}
			}
		}
	}
	a, ok := t.(*ast.ArrayType)
	if !ok || a.Len != nil {
		return false
	}
	_, ok = a.Elt.(*ast.ChanType)
	return ok
}

// valueType returns the written type of a composite literal or of make's
// result, else nil.
func valueType(x ast.Expr) ast.Expr {
	switch x := x.(type) {
	case *ast.CompositeLit:
		return x.Type
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && id.Obj == nil && id.Name == "make" && len(x.Args) > 0 {
			return x.Args[0]
		}
	}
	return nil
}

// assignments records where the variables of f are assigned after their
// declaration (=, op=, ++, --, a range clause, a redeclaring :=): the
// positions of the statements, and unsafe for a variable assigned in a
// function literal other than the function that declares it, or whose
// address is taken.
// Variables are known by the position of their declaring name.
type assignments struct {
	at     map[token.Pos][]token.Pos
	unsafe map[token.Pos]bool
	local  map[token.Pos]bool // declared in a function
}

// assignedObjects returns the assignments of the variables of f.
func assignedObjects(f *ast.File) assignments {
	a := assignments{map[token.Pos][]token.Pos{}, map[token.Pos]bool{}, map[token.Pos]bool{}}
	declFunc := map[token.Pos]ast.Node{} // the function declaring a variable
	var funcs []ast.Node                 // enclosing functions
	inner := func() ast.Node {
		if len(funcs) == 0 {
			return nil
		}
		return funcs[len(funcs)-1]
	}
	mark := func(x ast.Expr, at token.Pos) {
		if id, ok := ast.Unparen(x).(*ast.Ident); ok && id.Obj != nil {
			a.at[id.Obj.Pos()] = append(a.at[id.Obj.Pos()], at)
			if fn, ok := declFunc[id.Obj.Pos()]; !ok || fn != inner() {
				a.unsafe[id.Obj.Pos()] = true
			}
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			funcs = append(funcs, n)
			var typ *ast.FuncType
			var body *ast.BlockStmt
			if d, ok := n.(*ast.FuncDecl); ok {
				typ, body = d.Type, d.Body
				if d.Recv != nil {
					ast.Inspect(d.Recv, visit)
				}
			} else {
				l := n.(*ast.FuncLit)
				typ, body = l.Type, l.Body
			}
			ast.Inspect(typ, visit)
			if body != nil {
				ast.Inspect(body, visit)
			}
			funcs = funcs[:len(funcs)-1]
			return false
		case *ast.Field:
			for _, name := range n.Names {
				if name.Obj != nil {
					declFunc[name.Obj.Pos()] = inner()
				}
			}
		case *ast.ValueSpec:
			for _, name := range n.Names {
				if name.Obj != nil {
					declFunc[name.Obj.Pos()] = inner()
				}
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				id, ok := l.(*ast.Ident)
				switch {
				case n.Tok != token.DEFINE:
					mark(l, n.Pos())
				case ok && id.Obj != nil && id.Obj.Decl == n:
					declFunc[id.Obj.Pos()] = inner()
				case ok && id.Obj != nil:
					mark(l, n.Pos()) // redeclared by :=
				}
			}
		case *ast.IncDecStmt:
			mark(n.X, n.Pos())
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && id.Obj != nil {
					a.unsafe[id.Obj.Pos()] = true
				}
			}
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				if x == nil {
					continue
				}
				if id, ok := x.(*ast.Ident); ok && n.Tok == token.DEFINE && id.Obj != nil {
					declFunc[id.Obj.Pos()] = inner()
				} else if n.Tok == token.ASSIGN {
					mark(x, n.Pos())
				}
			}
		}
		return true
	}
	ast.Inspect(f, visit)
	for obj, fn := range declFunc {
		a.local[obj] = fn != nil
	}
	return a
}
