package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// freshTempEdits gives the values that a statement in a function or a
// loop stores away a variable of their own. yaegi v0.16.1 converts a
// pointer to a value of a type with methods into an interface by keeping
// a reference to the slot that holds it, not a copy: when the slot is
// reused, by the next evaluation of the same call or composite literal or
// by an assignment, every interface made from it changes too. In
// for i := 1; i <= 3; i++ { s = append(s, mk(i)) } with s a []item, s
// ended up holding the last value three times (Go's chan/powser2.go), as
// did a channel of interfaces sent mk(i). A variable defined by :=, new at
// each run of its statement, is not reused, so that
//
//	s = append(s, mk(i), &T{i})
//
// becomes, on the same line,
//
//	t1 := mk(i); t2 := &T{i}; s = append(s, t1, t2)
//
// for the arguments of append after the first, the value of a send
// statement, the values assigned to elements, fields and pointees, and the
// arguments of a call statement (with several arguments, or a lone one that
// is &T{…} or a call of a function of the cells with one result), where
// they are calls or &T{…}; and variables the chunk declares, stored so,
// passed so or assigned to a variable (x = mk(i); s = append(s, x) aliased
// x too, as did var it I = x; x = &T{2}). At the top level of a cell (but
// for call statements, whose value the cell may show) the variables are
// globals the session keeps. Conversions elsewhere (a return, an if or for
// header) are left alone.
func freshTempEdits(results map[string]int, isVar func(string) bool) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		return freshTemps(fset, f, off, src, results, isVar)
	}
}

func freshTemps(fset *token.FileSet, f *ast.File, off int, src string, results map[string]int, isVar func(string) bool) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	// single reports whether the call x gives one value, by the result
	// counts of the cells' functions (not of a local variable of the same
	// name, nor of methods, which a field of a func type can shadow).
	single := func(x ast.Expr) bool {
		c, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			return true
		}
		fun, ok := ast.Unparen(c.Fun).(*ast.Ident)
		return ok && (fun.Obj == nil || fun.Obj.Kind == ast.Fun) && results[fun.Name] == 1
	}
	var edits []edit
	temporary := func(x ast.Expr) bool {
		switch x := ast.Unparen(x).(type) {
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && id.Obj == nil {
				switch id.Name {
				case "len", "cap", "real", "imag", "complex", "min", "max", "make", "new", "append", "copy", "recover",
					"bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
					"uintptr", "float32", "float64", "complex64", "complex128", "byte", "rune":
					return false
				}
			}
			return true
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return false
			}
			_, ok := ast.Unparen(x.X).(*ast.CompositeLit)
			return ok
		}
		return false
	}
	// variable reports whether x is a variable the chunk declares, or one
	// of an earlier cell (isVar): one assigned again after its value became
	// an interface changed it too.
	variable := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok || strings.HasPrefix(id.Name, tempPrefix) || strings.HasPrefix(id.Name, keepPrefix) {
			return false
		}
		if id.Obj == nil {
			// A variable of an earlier cell.
			return isVar != nil && isVar(id.Name)
		}
		return id.Obj.Kind == ast.Var
	}
	// topLevel is set while the statements of the cell itself are seen:
	// their fresh variables are globals of the session, named with
	// keepPrefix, which it does not zero after the cell as it does its
	// other temporaries. Not variables of a function literal of the
	// statement's own: yaegi v0.16.1 gives compiled code (fmt's functions)
	// a value of a type with methods held in an interface by reading again
	// the variable the interface was made from, in the frame of the code
	// that hands it over, so that fmt.Println(x) after var x any = v read
	// another variable and printed a panic of the interpreter's inside
	// String (or the other variable's value); a global is read as itself
	// from any frame.
	topLevel := false
	hoist := func(st ast.Stmt, xs []ast.Expr, vars bool) {
		if topLevel {
			if _, ok := st.(*ast.ExprStmt); ok {
				return // its value may be the cell's to show
			}
		}
		var pre string
		for _, x := range xs {
			if !(temporary(x) || vars && variable(x)) || hasFuncLit(x) {
				continue
			}
			prefix := tempPrefix
			if topLevel {
				prefix = keepPrefix
			}
			tmp := fmt.Sprintf("%sF%d", prefix, blockSeq.Add(1))
			pre += tmp + " := " + src[pos(x.Pos()):pos(x.End())] + "; "
			edits = append(edits, edit{pos(x.Pos()), pos(x.End()), tmp})
		}
		if pre == "" {
			return
		}
		edits = append(edits, edit{pos(st.Pos()), pos(st.Pos()), pre})
	}
	visitList := func(list []ast.Stmt) {
		for _, st := range list {
			switch st := st.(type) {
			case *ast.AssignStmt:
				if len(st.Rhs) == 1 {
					if c, ok := ast.Unparen(st.Rhs[0]).(*ast.CallExpr); ok && !c.Ellipsis.IsValid() && len(c.Args) > 1 {
						if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "append" && id.Obj == nil {
							hoist(st, c.Args[1:], true)
							continue
						}
					}
				}
				if st.Tok != token.ASSIGN || len(st.Lhs) != len(st.Rhs) {
					continue
				}
				var xs []ast.Expr
				for i, l := range st.Lhs {
					switch l := ast.Unparen(l).(type) {
					case *ast.IndexExpr, *ast.SelectorExpr, *ast.StarExpr:
						xs = append(xs, st.Rhs[i])
					case *ast.Ident:
						// it = x: a variable made an interface (var it I).
						if l.Name != "_" && variable(st.Rhs[i]) {
							xs = append(xs, st.Rhs[i])
						}
					}
				}
				hoist(st, xs, true)
			case *ast.DeclStmt:
				// var it I = x.
				if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR && len(g.Specs) == 1 {
					if vs := g.Specs[0].(*ast.ValueSpec); vs.Type != nil && len(vs.Values) == len(vs.Names) {
						var xs []ast.Expr
						for _, v := range vs.Values {
							if variable(v) {
								xs = append(xs, v)
							}
						}
						hoist(st, xs, true)
					}
				}
			case *ast.SendStmt:
				hoist(st, []ast.Expr{st.Value}, true)
			case *ast.ExprStmt:
				c, ok := ast.Unparen(st.X).(*ast.CallExpr)
				if !ok || c.Ellipsis.IsValid() {
					continue
				}
				// A lone argument that calls may give several values,
				// f(g()); a call the cells declare with one result is taken.
				if len(c.Args) > 1 || len(c.Args) == 1 && single(c.Args[0]) {
					hoist(st, c.Args, true)
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body == nil {
				return false
			}
			if n.Name.Name == "_" && n.Recv == nil && off == len(stmtPrefix) {
				// The statements of a cell, then the nested blocks.
				topLevel = true
				visitList(n.Body.List)
				topLevel = false
				for _, st := range n.Body.List {
					ast.Inspect(st, func(m ast.Node) bool {
						if _, ok := m.(*ast.FuncDecl); ok {
							return false
						}
						return visitNested(m, visitList)
					})
				}
				return false
			}
		}
		return visitNested(n, visitList)
	})
	return edits
}

// visitNested calls visit on the statement lists of n, a block or a
// clause, and reports that the walk goes on.
func visitNested(n ast.Node, visit func([]ast.Stmt)) bool {
	switch n := n.(type) {
	case *ast.BlockStmt:
		visit(n.List)
	case *ast.CaseClause:
		visit(n.Body)
	case *ast.CommClause:
		visit(n.Body)
	}
	return true
}
