package yaegifix

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// Refused starts the messages of the constructs the kernel refuses rather
// than let the interpreter run them differently from Go.
const Refused = "not supported by the interpreter: "

// loopEdits rewrites loops so that the interpreter runs them as Go does:
//
//   - Per-iteration loop variables (Go 1.22). yaegi v0.16.1 has one
//     variable per loop, so closures and goroutines made in the body see
//     its last value. When the body makes a function literal, starts a
//     goroutine, defers or takes an address, the body becomes
//     `{ i := i; _ = i; { body } }` for the loop's := variables. A
//     three-clause loop whose body may also change its variable (an
//     assignment, a pointer, a method) copies it back for the post
//     statement (writeBack).
//   - The variables of a select case, case x := <-c: yaegi v0.16.1 has one
//     for every run of the select; a body that captures them gets its own
//     copies as a loop body does.
//   - Labeled break and continue in a select. yaegi v0.16.1 ignores the
//     label of a break or continue that is a statement of a select case
//     (`for { select { default: break L } }` never ends); inside an if it
//     works, so such a statement becomes `if true { break L }`.
func loopEdits(fset *token.FileSet, root ast.Node, off int, src string) ([]edit, error) {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	var errs scanner.ErrorList
	wrapped := map[token.Pos]bool{}
	labels := map[*ast.ForStmt]*ast.Ident{}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.LabeledStmt:
			if f, ok := n.Stmt.(*ast.ForStmt); ok {
				labels[f] = n.Label
			}
		case *ast.SelectStmt:
			for _, cc := range n.Body.List {
				// case x := <-c: the interpreter has one x for every run
				// of the select, as for loop variables.
				cc := cc.(*ast.CommClause)
				if as, ok := cc.Comm.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(cc.Body) > 0 {
					names := identNames(as.Lhs)
					if len(names) > 0 && captures(&ast.BlockStmt{List: cc.Body}, names) {
						// The clause is the variables' block: copy them in
						// a block of its own.
						e := perIteration(pos, &ast.BlockStmt{Lbrace: cc.Colon, Rbrace: cc.End()}, names)
						e[0].text = " {" + e[0].text
						e[1].text += " }"
						edits = append(edits, e...)
					}
				}
				ast.Inspect(cc, func(m ast.Node) bool {
					switch m := m.(type) {
					case *ast.FuncLit:
						return false
					case *ast.BranchStmt:
						if m.Label != nil && (m.Tok == token.BREAK || m.Tok == token.CONTINUE) && !wrapped[m.Pos()] {
							wrapped[m.Pos()] = true
							edits = append(edits, edit{pos(m.Pos()), pos(m.Pos()), "if true { "}, edit{pos(m.End()), pos(m.End()), " }"})
						}
					}
					return true
				})
			}
		case *ast.ForStmt:
			as, ok := n.Init.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE {
				return true
			}
			names := identNames(as.Lhs)
			if len(names) == 0 || !captures(n.Body, names) {
				return true
			}
			if changed(n.Body, names) != "" || addressed(n.Body, names) {
				edits = append(edits, writeBack(pos, src, n, labels[n], names)...)
				return true
			}
			edits = append(edits, perIteration(pos, n.Body, names)...)
		case *ast.RangeStmt:
			if n.Tok != token.DEFINE {
				return true
			}
			names := identNames([]ast.Expr{n.Key, n.Value})
			if len(names) == 0 || !captures(n.Body, names) {
				return true
			}
			edits = append(edits, perIteration(pos, n.Body, names)...)
		}
		return true
	})
	if len(errs) > 0 {
		return nil, errs
	}
	return edits, nil
}

// writeBack gives the body of a three-clause loop its own copies of the
// loop variables when the body may change them (an assignment, or through
// a pointer or a method), and copies them back for the post statement, as
// Go 1.22 does (a new variable for each iteration, with the value the last
// one ended with): `L: for i := 0; i < n; i++ { body }` becomes
//
//	L: for i := 0; i < n; i++ { _p := &i; i := i; _ = i; O: for once := true; once; once = false { body }; *_p = i }
//
// where a continue of the loop leaves the inner one (continue L becomes
// break O) and a break of the loop breaks L (a label is added when the
// loop has none).
func writeBack(pos func(token.Pos) int, src string, loop *ast.ForStmt, label *ast.Ident, names map[string]bool) []edit {
	var list []string
	for name := range names {
		list = append(list, name)
	}
	sort.Strings(list)
	k := strconv.FormatInt(blockSeq.Add(1), 10)
	outer, inner, once := tempPrefix+"L"+k, tempPrefix+"O"+k, tempPrefix+"Once"+k
	if label != nil {
		outer = label.Name
	}
	var edits []edit
	breaks, continues := false, false
	// The break and continue statements of the loop: those in the body
	// outside nested loops, switches and selects (unlabeled) or naming
	// the loop's label.
	var walk func(n ast.Node, nested bool)
	walk = func(root ast.Node, nested bool) {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if n != root {
					walk(n, true)
					return false
				}
			case *ast.BranchStmt:
				switch {
				case n.Tok == token.BREAK && n.Label == nil && !nested:
					breaks = true
					edits = append(edits, edit{pos(n.End()), pos(n.End()), " " + outer})
				case n.Tok == token.CONTINUE && n.Label != nil && label != nil && n.Label.Name == label.Name:
					continues = true
					edits = append(edits, edit{pos(n.Pos()), pos(n.End()), "break " + inner})
				}
			}
			return true
		})
	}
	walk(loop.Body, false)
	// A continue without a label in a nested switch or select is the
	// loop's too, and leaves the inner loop as it should.
	var ptrs, addrs, assigns []string
	for i, v := range list {
		ptrs = append(ptrs, tempPrefix+"P"+k+"_"+strconv.Itoa(i))
		addrs = append(addrs, "&"+v)
		assigns = append(assigns, "*"+ptrs[i])
	}
	vars := strings.Join(list, ", ")
	head := " " + strings.Join(ptrs, ", ") + " := " + strings.Join(addrs, ", ") + "; " + vars + " := " + vars + ";"
	for _, v := range list {
		head += " _ = " + v + ";"
	}
	if continues {
		head += " " + inner + ":"
	}
	head += " for " + once + " := true; " + once + "; " + once + " = false {"
	if breaks && label == nil {
		edits = append(edits, edit{pos(loop.For), pos(loop.For), outer + ": "})
	}
	return append(edits,
		edit{pos(loop.Body.Lbrace) + 1, pos(loop.Body.Lbrace) + 1, head},
		edit{pos(loop.Body.Rbrace), pos(loop.Body.Rbrace), "}; " + strings.Join(assigns, ", ") + " = " + vars + " "})
}

// addressed reports whether a loop body may change a loop variable
// through a pointer: it takes its address (or a part's) or calls a method
// on it.
func addressed(body *ast.BlockStmt, names map[string]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && names[rootIdent(n.X)]
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && names[rootIdent(sel.X)] {
				found = true
			}
		}
		return !found
	})
	return found
}

// perIteration gives the body its own copies of the loop variables.
func perIteration(pos func(token.Pos) int, body *ast.BlockStmt, names map[string]bool) []edit {
	var list []string
	for name := range names {
		list = append(list, name)
	}
	sort.Strings(list)
	vars := strings.Join(list, ", ")
	text := " " + vars + " := " + vars + ";"
	for _, v := range list {
		text += " _ = " + v + ";"
	}
	return []edit{
		{pos(body.Lbrace) + 1, pos(body.Lbrace) + 1, text + " {"},
		{pos(body.Rbrace), pos(body.Rbrace), "}"},
	}
}

func identNames(xs []ast.Expr) map[string]bool {
	names := map[string]bool{}
	for _, x := range xs {
		if id, ok := x.(*ast.Ident); ok && id.Name != "_" {
			names[id.Name] = true
		}
	}
	return names
}

// captures reports whether a loop body may keep a loop variable beyond
// its iteration: it makes a function literal, a go or defer statement, or
// takes the address of a loop variable (or of a part of it).
func captures(body *ast.BlockStmt, names map[string]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			found = true
		case *ast.UnaryExpr:
			if n.Op == token.AND && names[rootIdent(n.X)] {
				found = true
			}
		case *ast.CallExpr:
			// A method call with a pointer receiver takes the address
			// implicitly: v.Add(1).
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && names[rootIdent(sel.X)] {
				found = true
			}
		}
		return !found
	})
	return found
}

// rootIdent returns the name of the variable x is a part of (v in v.f[2]).
func rootIdent(x ast.Expr) string {
	for {
		switch y := x.(type) {
		case *ast.Ident:
			return y.Name
		case *ast.SelectorExpr:
			x = y.X
		case *ast.IndexExpr:
			x = y.X
		case *ast.ParenExpr:
			x = y.X
		default:
			return ""
		}
	}
}

// changed returns a loop variable the body assigns to, "" if none.
func changed(body *ast.BlockStmt, names map[string]bool) string {
	name := ""
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			// An assignment in a closure changes the closure's copy in Go
			// too only if… it is the iteration's variable: refuse as well.
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && names[id.Name] {
						name = id.Name
					}
				}
			}
		case *ast.IncDecStmt:
			if id, ok := n.X.(*ast.Ident); ok && names[id.Name] {
				name = id.Name
			}
		}
		return name == ""
	})
	return name
}
