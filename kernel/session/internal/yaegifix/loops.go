package yaegifix

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"sort"
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
//     three-clause loop whose body both captures and changes its variable
//     is refused (the copy would hide the change from the post statement).
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
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
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
			if name := changed(n.Body, names); name != "" {
				errs.Add(fset.Position(n.For), fmt.Sprintf(Refused+"this loop's body changes its variable %s and captures it in a closure, goroutine or pointer; "+
					"the interpreter shares %s between iterations (Go 1.22 gives each iteration its own): "+
					"copy it in the body (v := %s) and capture the copy, or keep the change out of the closure", name, name, name))
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
