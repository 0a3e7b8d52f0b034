package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
)

// opAssignEdits makes an assignment operation into an element, a field or
// a pointer's target evaluate its right-hand side first, as Go's compiler
// does: yaegi v0.16.1 reads the operand on the left before it calls the
// function on the right and writes it after, so that in
//
//	x := one
//	x[0] += func() int { x = two; return 0 }()
//
// it read one[0] and stored into two[0] (Go's fixedbugs/issue21687.go; the
// same for *p += f() and p.f += f() where f changes p, and for x[i] += f()
// where f changes i, which the interpreter indexes before the call). Inside
// functions, a statement op= whose left side is an index, a selector or a
// dereference without a call, and whose right side calls a function or
// receives, becomes { t := rhs; lhs op= t } with a fresh t. A right side
// holding a shift or no call but of builtins is left alone: its untyped
// constants would take another type in the definition of t.
func opAssignEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	var visit func(n ast.Node, inFunc bool)
	visit = func(root ast.Node, inFunc bool) {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				if !inFunc {
					visit(n.Body, true)
					return false
				}
			case *ast.FuncDecl:
				if n.Body == nil {
					return false
				}
				if n.Name.Name == "_" && n.Recv == nil && !inFunc && off > 0 && pos(n.Pos()) < 0 {
					// The wrapper of a chunk's statements: they are the
					// cell's top level, where a block has no scope.
					return true
				}
				if !inFunc {
					visit(n.Body, true)
					return false
				}
			}
			if !inFunc {
				return true
			}
			for _, st := range stmtList(n) {
				as, ok := st.(*ast.AssignStmt)
				if !ok || !hoistOpAssign(as) {
					continue
				}
				tmp := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
				edits = append(edits, edit{pos(as.Pos()), pos(as.End()),
					"{ " + tmp + " := " + exprText(src, pos, as.Rhs[0]) + "; " +
						exprText(src, pos, as.Lhs[0]) + " " + as.Tok.String() + " " + tmp + " }"})
			}
			return true
		})
	}
	visit(f, false)
	return edits
}

// hoistOpAssign reports whether as is an assignment operation that
// opAssignEdits rewrites.
func hoistOpAssign(as *ast.AssignStmt) bool {
	switch as.Tok {
	case token.ASSIGN, token.DEFINE, token.SHL_ASSIGN, token.SHR_ASSIGN:
		return false
	}
	if len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	switch ast.Unparen(as.Lhs[0]).(type) {
	case *ast.IndexExpr, *ast.SelectorExpr, *ast.StarExpr:
	default:
		return false
	}
	if hasCallOrReceive(as.Lhs[0]) {
		return false // the calls on the left come first in Go
	}
	called, shift := false, false
	ast.Inspect(as.Rhs[0], func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			shift = shift || n.Op == token.SHL || n.Op == token.SHR
		case *ast.UnaryExpr:
			called = called || n.Op == token.ARROW
		case *ast.CallExpr:
			id, ok := ast.Unparen(n.Fun).(*ast.Ident)
			if !ok || !isBuiltinName(id.Name) {
				called = true
			}
		}
		return true
	})
	return called && !shift
}

// isBuiltinName reports whether name is one of Go's builtin functions,
// whose results may be untyped constants.
func isBuiltinName(name string) bool {
	switch name {
	case "len", "cap", "complex", "real", "imag", "min", "max", "unsafe":
		return true
	}
	return false
}
