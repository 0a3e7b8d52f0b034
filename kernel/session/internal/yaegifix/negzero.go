package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// negZeroFunc is the interpreted name of NegativeZeroArgument.
const negZeroFunc = "_portlab.NegativeZeroArgument"

// floatParams returns, for the functions f declares without type
// parameters, which of their parameters are float32 or float64 (by
// position; nil for a function with none).
func floatParams(f *ast.File, into map[string][]bool) {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams != nil || fd.Type.Params == nil {
			continue
		}
		var ps []bool
		hasFloat := false
		for _, fl := range fd.Type.Params.List {
			id, _ := fl.Type.(*ast.Ident)
			isFloat := id != nil && (id.Name == "float64" || id.Name == "float32")
			hasFloat = hasFloat || isFloat
			n := len(fl.Names)
			if n == 0 {
				n = 1
			}
			for range n {
				ps = append(ps, isFloat)
			}
		}
		if hasFloat {
			into[fd.Name.Name] = ps
		} else {
			delete(into, fd.Name.Name)
		}
	}
}

// negZeroEdits stops a cell before a function of the cell is called with
// negative zero for a float32 or float64 parameter: yaegi v0.16.1 leaves
// a parameter whose argument is a zero value (reflect's IsZero, true for
// -0) at its own zero, +0, so that the sign was lost, silently (calls
// through a function value or of a method keep it). Before a statement
// that calls such a function (named by funcs) with an argument that can be
// evaluated again without effect and is not a constant, it inserts
//
//	if (x) == 0 { if 1/(x) < 0 { _portlab.NegativeZeroArgument("f", 1) } };
//
// (nested: yaegi fails on x == 0 && 1/x < 0 for an x that a compiled
// function returned). The comparison costs little next to the call; calls in loop headers,
// in the right operand of && or ||, and with arguments that call are not
// checked.
func negZeroEdits(funcs map[string][]bool) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		if len(funcs) == 0 {
			return nil
		}
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		consts := constNames(f)
		var edits []edit
		checkBefore := func(st ast.Stmt, parts ...ast.Node) {
			var pre strings.Builder
			seen := map[string]bool{}
			inspectEvaluated(parts, func(n ast.Node) {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return
				}
				id, ok := call.Fun.(*ast.Ident)
				if !ok || funcs[id.Name] == nil || call.Ellipsis.IsValid() {
					return
				}
				ps := funcs[id.Name]
				for i, a := range call.Args {
					if i >= len(ps) || !ps[i] || isConstant(a, consts) || !pureValue(a) {
						continue
					}
					x := exprText(src, pos, a)
					if key := id.Name + "\x00" + x; !seen[key] {
						seen[key] = true
						fmt.Fprintf(&pre, "if (%s) == 0 { if 1/(%s) < 0 { %s(%q, %d) } }; ", x, x, negZeroFunc, id.Name, i+1)
					}
				}
			})
			if pre.Len() > 0 {
				edits = append(edits, edit{pos(st.Pos()), pos(st.Pos()), pre.String()})
			}
		}
		checkedStatements(f, checkBefore)
		return edits
	}
}

// pureValue reports whether x can be evaluated again with the same value
// and no effect: names, fields, constants and arithmetic on them (no
// calls other than numeric conversions, receives, dereferences or
// indexes, which may panic).
func pureValue(x ast.Expr) bool {
	ok := true
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, isID := n.Fun.(*ast.Ident); !isID || !numericTypes[id.Name] || len(n.Args) != 1 {
				ok = false
			}
		case *ast.FuncLit, *ast.StarExpr, *ast.IndexExpr, *ast.TypeAssertExpr, *ast.CompositeLit, *ast.SliceExpr:
			ok = false
		case *ast.UnaryExpr:
			ok = ok && n.Op != token.ARROW
		case *ast.BinaryExpr:
			ok = ok && n.Op != token.QUO && n.Op != token.REM
		}
		return ok
	})
	return ok
}

// NegativeZeroArgument is called by the cells when an argument for a
// float parameter is negative zero (see negZeroEdits): it stops the cell,
// as the interpreter would pass +0.
func NegativeZeroArgument(fn string, arg int) {
	panic(fmt.Sprintf(Refused+"argument %d of %s is negative zero, which the interpreter passes as +0 to a function declared in a cell: "+
		"call it through a function value, g := %s; g(…), or pass the sign separately", arg, fn, fn))
}
