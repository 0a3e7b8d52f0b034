package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
)

// shiftCountFunc is the interpreted name of ShiftCount, negativeShiftVar
// that of ErrNegativeShift.
const (
	shiftCountFunc   = "_portlab.ShiftCount"
	negativeShiftVar = "_portlab.ErrNegativeShift"
)

// laterPass applies the edits of pass to src, which the other rewrites
// have made, parsed again: src is a whole file when decl, else the
// statements of a chunk. The edits of the other rewrites copy and move
// source text, so that an edit inside such text would land elsewhere;
// the edits of a later pass cannot. A source that does not parse is
// returned as it is (the interpreter reports it).
func laterPass(src string, decl bool, pass func(fset *token.FileSet, f *ast.File, off int, src string) []edit) string {
	prefix, suffix := stmtPrefix, "\n}"
	if decl {
		prefix, suffix = "package p\n", ""
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", prefix+src+suffix, 0)
	if err != nil {
		return src
	}
	return applyEdits(src, pass(fset, f, len(prefix), src))
}

// shiftEdits makes shifts by a negative count panic as in Go: yaegi
// v0.16.1 shifts x << n and x >> n by a negative n as by a huge unsigned
// count (1 << n is 0), silently. A count that reads a variable (of the
// chunk, or one isVar reports), calls a function or indexes goes through
// ShiftCount, x << _portlab.ShiftCount(n), as do the counts of <<= and
// >>=; conversions to unsigned types, len and cap, and shifts in constant
// declarations and array lengths are left alone.
func shiftEdits(isVar func(string) bool) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		vars := map[string]bool{} // names the chunk declares as variables
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GenDecl); ok && g.Tok != token.VAR {
				return g.Tok != token.CONST
			}
			addDeclared(n, vars)
			return true
		})
		variable := func(name string) bool { return vars[name] || isVar != nil && isVar(name) }
		// mayBeNegative reports whether the count n is computed at run
		// time.
		mayBeNegative := func(n ast.Expr) bool {
			if unsignedCount(n) {
				return false
			}
			found := false
			ast.Inspect(n, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.Ident:
					found = found || variable(m.Name)
				case *ast.SelectorExpr:
					if id, ok := m.X.(*ast.Ident); ok && !variable(id.Name) {
						return false // a package's constant
					}
					found = true
				case *ast.CallExpr:
					if id, ok := m.Fun.(*ast.Ident); !ok || !numericTypes[id.Name] {
						found = true
					}
				case *ast.IndexExpr, *ast.StarExpr, *ast.FuncLit:
					found = true
				case *ast.UnaryExpr:
					found = found || m.Op == token.ARROW
				}
				return !found
			})
			return found
		}
		// pure reports whether evaluating the count again before its
		// statement gives the same value and no effect.
		pure := func(n ast.Expr) bool {
			ok := true
			ast.Inspect(n, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.CallExpr:
					if id, isID := m.Fun.(*ast.Ident); !isID || !numericTypes[id.Name] || len(m.Args) != 1 {
						ok = false
					}
				case *ast.FuncLit, *ast.StarExpr, *ast.TypeAssertExpr, *ast.CompositeLit:
					ok = false
				case *ast.UnaryExpr:
					ok = ok && m.Op != token.ARROW
				}
				return ok
			})
			return ok
		}
		var edits []edit
		checked := map[*ast.BinaryExpr]bool{}       // shifts checked before their statement
		checkedAssign := map[*ast.AssignStmt]bool{} // <<= and >>= checked before
		// checkBefore inserts a check of the counts of the shifts of st
		// that are evaluated whenever st runs, before anything of st,
		// when they are pure: an interpreted comparison costs less than
		// the call of ShiftCount.
		checkBefore := func(st ast.Stmt, parts ...ast.Node) {
			var pre strings.Builder
			seen := map[string]bool{}
			visit := func(n ast.Node) {
				if n, ok := n.(*ast.BinaryExpr); ok && (n.Op == token.SHL || n.Op == token.SHR) && mayBeNegative(n.Y) && pure(n.Y) {
					checked[n] = true
					if c := exprText(src, pos, n.Y); !seen[c] {
						seen[c] = true
						fmt.Fprintf(&pre, "if (%s) < 0 { panic(%s) }; ", c, negativeShiftVar)
					}
				}
			}
			if as, ok := st.(*ast.AssignStmt); ok && (as.Tok == token.SHL_ASSIGN || as.Tok == token.SHR_ASSIGN) &&
				len(as.Rhs) == 1 && mayBeNegative(as.Rhs[0]) && pure(as.Rhs[0]) {
				checkedAssign[as] = true
				c := exprText(src, pos, as.Rhs[0])
				seen[c] = true
				fmt.Fprintf(&pre, "if (%s) < 0 { panic(%s) }; ", c, negativeShiftVar)
			}
			inspectEvaluated(parts, visit)
			if pre.Len() > 0 {
				edits = append(edits, edit{pos(st.Pos()), pos(st.Pos()), pre.String()})
			}
		}
		checkedStatements(f, checkBefore)
		wrap := func(n ast.Expr) {
			if mayBeNegative(n) {
				edits = append(edits, edit{pos(n.Pos()), pos(n.Pos()), shiftCountFunc + "("}, edit{pos(n.End()), pos(n.End()), ")"})
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				return n.Tok != token.CONST
			case *ast.ArrayType:
				return false // a length is a constant
			case *ast.BinaryExpr:
				if (n.Op == token.SHL || n.Op == token.SHR) && !checked[n] {
					wrap(n.Y)
				}
			case *ast.AssignStmt:
				if (n.Tok == token.SHL_ASSIGN || n.Tok == token.SHR_ASSIGN) && len(n.Rhs) == 1 && !checkedAssign[n] {
					wrap(n.Rhs[0])
				}
			}
			return true
		})
		return edits
	}
}

// unsignedCount reports whether a shift count is recognisably never
// negative: a conversion to an unsigned integer type, len or cap.
func unsignedCount(n ast.Expr) bool {
	call, ok := ast.Unparen(n).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	id, ok := call.Fun.(*ast.Ident)
	if !ok {
		return false
	}
	switch id.Name {
	case "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte", "len", "cap":
		return true
	}
	return false
}

// ShiftCount is called by the cells with the count of a shift (see
// shiftEdits): it panics as Go does when the count is negative and
// returns it as an unsigned count otherwise.
func ShiftCount(n any) uint64 {
	switch n := n.(type) {
	case int:
		if n < 0 {
			panic(runtimeError("negative shift amount"))
		}
		return uint64(n)
	case uint:
		return uint64(n)
	case uint64:
		return n
	case uint32:
		return uint64(n)
	case uint8:
		return uint64(n)
	}
	v := reflect.ValueOf(n)
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Int() < 0 {
			panic(runtimeError("negative shift amount"))
		}
		return uint64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint()
	}
	panic(runtimeError("shift count of type " + v.Type().String() + ", not an integer"))
}

// ErrNegativeShift is the runtime.Error of a shift by a negative count,
// which the cells panic with (see shiftEdits).
var ErrNegativeShift error = runtimeError("negative shift amount")

// runtimeError is a runtime.Error with the text Go's runtime gives it.
type runtimeError string

func (e runtimeError) Error() string { return "runtime error: " + string(e) }

// RuntimeError marks it as a runtime.Error.
func (runtimeError) RuntimeError() {}

// addDeclared adds to names the names n declares as a variable, parameter,
// result or field (var x, x T in a field list, x := …, for x := range).
func addDeclared(n ast.Node, names map[string]bool) {
	switch n := n.(type) {
	case *ast.ValueSpec:
		for _, id := range n.Names {
			names[id.Name] = true
		}
	case *ast.Field:
		for _, id := range n.Names {
			names[id.Name] = true
		}
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE {
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					names[id.Name] = true
				}
			}
		}
	case *ast.RangeStmt:
		for _, x := range []ast.Expr{n.Key, n.Value} {
			if id, ok := x.(*ast.Ident); ok {
				names[id.Name] = true
			}
		}
	}
}
