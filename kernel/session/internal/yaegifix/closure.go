package yaegifix

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
)

// closureEdits works around two ways in which yaegi v0.16.1 runs the
// function literals of a function with defer statements unlike Go:
//
//   - A closure made in a function and called while that function runs
//     its deferred calls never returns: the interpreter holds a lock of
//     the function's frame while it runs them, and a closure takes the
//     lock of the frame it was made in when it returns (`c := func() {…};
//     defer c()` hangs). In a function with a defer statement, every
//     function literal that is not called where it is written becomes
//     `func() T { return func… }()` (T its type): the closure is made in
//     the frame of that call, whose lock nobody holds, and it sees the
//     function's variables as before.
//   - A function literal deferred directly reads the variables it uses
//     when the deferred call runs, from the frame of the function: in a
//     loop, the last iteration's variables (`for i := …` { defer func() {
//     print(i) }() } prints the last i each time; Go prints every i).
//     deferredLiterals picks out those defer statements, and
//     deferInFunction makes their literal first, in the same way.
//
// Both change the frame in which recover looks for the function's panic,
// so a literal that calls recover is refused in those places, with the
// rewrite the user can make.
func closureEdits(fset *token.FileSet, root ast.Node, off int, src string) ([]edit, error) {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	var errs scanner.ErrorList
	refuse := func(p token.Pos, format string, args ...any) {
		errs.Add(fset.Position(p), Refused+fmt.Sprintf(format, args...))
	}
	forEachFunction(root, func(body *ast.BlockStmt) {
		if !hasDefer(body) {
			return
		}
		called := map[*ast.FuncLit]bool{} // the callee of a call: made and called at once
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
					called[lit] = true
				}
			case *ast.FuncLit:
				if n.Body == body {
					return true
				}
				if !called[n] {
					if r := directRecover(n.Body); r != nil {
						refuse(r.Pos(), "a function literal that calls recover and is kept as a value in a function with defer statements "+
							"(the interpreter cannot run it from the function's deferred calls): defer the literal where it is written, "+
							"defer func() { … recover() … }()")
					} else {
						typ := src[pos(n.Type.Pos()):pos(n.Type.End())]
						edits = append(edits,
							edit{pos(n.Pos()), pos(n.Pos()), "func() " + typ + " { return "},
							edit{pos(n.End()), pos(n.End()), " }()"})
					}
				}
				return false
			}
			return true
		})
	})
	for d, names := range deferredLiterals(root) {
		lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit)
		if !ok {
			for _, a := range d.Call.Args {
				if nestedArg(a) {
					refuse(a.Pos(), "an argument that makes a closure or calls a function, of a method deferred in a loop on %s, which the loop declares "+
						"(the interpreter would evaluate it when the deferred call runs): evaluate it into a variable first, v := …, and defer the call with v",
						names[0])
					break
				}
			}
			continue
		}
		if r := directRecover(lit.Body); r != nil {
			refuse(d.Pos(), "a deferred function literal that calls recover and uses %s, declared in the loop around it "+
				"(the interpreter runs it with the last iteration's %s): pass %s as an argument, defer func(%s T) { … }(%s)",
				names[0], names[0], names[0], names[0], names[0])
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return edits, nil
}

// forEachFunction calls fn with the body of every function declared or
// written as a literal in root.
func forEachFunction(root ast.Node, fn func(body *ast.BlockStmt)) {
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil && !isBlockFunc(n) {
				fn(n.Body)
			}
		case *ast.FuncLit:
			fn(n.Body)
		}
		return true
	})
}

// isBlockFunc reports whether d is a function in which splitBlocks runs
// a top-level statement: its defer statements are the cell's.
func isBlockFunc(d *ast.FuncDecl) bool {
	return len(d.Name.Name) > len(blockPrefix) && d.Name.Name[:len(blockPrefix)] == blockPrefix
}

// hasDefer reports whether a function body has a defer statement of its
// own (not one of a function literal in it).
func hasDefer(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			found = true
		}
		return !found
	})
	return found
}

// directRecover returns a recover() called by the function whose body is
// given (not by a function literal in it), nil if there is none.
func directRecover(body *ast.BlockStmt) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if isRecoverCall(n) {
				found = n
			}
		}
		return found == nil
	})
	return found
}

// deferredLiterals returns the defer statements of root that defer a
// function literal inside a loop of their function, where the literal
// uses a variable declared in the loop (in its header or its body), with
// the names of those variables.
func deferredLiterals(root ast.Node) map[*ast.DeferStmt][]string {
	out := map[*ast.DeferStmt][]string{}
	var walk func(n ast.Node, loops []ast.Stmt)
	walk = func(n ast.Node, loops []ast.Stmt) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				if m != n {
					walk(m.Body, nil) // a function of its own
					return false
				}
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					walk(m, append(loops[:len(loops):len(loops)], m.(ast.Stmt)))
					return false
				}
			case *ast.DeferStmt:
				if len(loops) == 0 {
					return true
				}
				declared := loopNames(loops[0])
				var lit ast.Node
				switch f := ast.Unparen(m.Call.Fun).(type) {
				case *ast.FuncLit:
					lit = f
				case *ast.SelectorExpr:
					// A method of a receiver the loop declares: the
					// interpreter reads the receiver when the call runs.
					if name := rootIdent(f.X); declared[name] {
						out[m] = []string{name}
					}
					return true
				default:
					return true
				}
				var names []string
				seen := map[string]bool{}
				ast.Inspect(lit, func(k ast.Node) bool {
					switch k := k.(type) {
					case *ast.SelectorExpr:
						ast.Inspect(k.X, func(x ast.Node) bool {
							if id, ok := x.(*ast.Ident); ok && declared[id.Name] && !seen[id.Name] {
								seen[id.Name] = true
								names = append(names, id.Name)
							}
							return true
						})
						return false
					case *ast.Ident:
						if declared[k.Name] && !seen[k.Name] {
							seen[k.Name] = true
							names = append(names, k.Name)
						}
					}
					return true
				})
				if len(names) > 0 {
					out[m] = names
				}
			}
			return true
		})
	}
	walk(root, nil)
	return out
}

// loopNames returns the names a statement declares anywhere in it
// (with :=, var, or as range and type switch variables), but not in the
// function literals in it.
func loopNames(st ast.Stmt) map[string]bool {
	names := map[string]bool{}
	add := func(xs ...ast.Expr) {
		for _, x := range xs {
			if id, ok := x.(*ast.Ident); ok && id.Name != "_" {
				names[id.Name] = true
			}
		}
	}
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				add(n.Lhs...)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				add(n.Key, n.Value)
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				add(id)
			}
		}
		return true
	})
	return names
}
