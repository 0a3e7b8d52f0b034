package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
)

// standInFunc is the interpreted name of StandIn.
const standInFunc = "_portlab.StandIn"

// StandInEdits checks the type assertions x.(T) and the type switches
// with a case T of the cell p, T a struct type of the cells (declared in
// the cell, or in sessionTypes, the sources of earlier cells' types as
// ConcreteAssertions takes them), through StandIn: x.(T) becomes
// _portlab.StandIn(x, T{}).(T), and switch v := x.(type) becomes switch
// v := _portlab.StandIn(x, T{}, …).(type). An interface of a compiled type
// (error, fmt.Stringer) holds a value of a cell's struct type as the
// interpreter's wrapper of it, which holds the struct's last field, not
// the value (its getConcreteValue): err.(H) failed and case H: did not
// match for an H returned as an error, where Go's succeed. StandIn hands x
// on (as an interface{}, which the interpreter asserts as it asserts x)
// and stops the cell when x is such a wrapper that may hold a value of T.
func StandInEdits(p *Plan, sessionTypes []string) {
	structs := map[string]bool{}
	addSpec := func(ts *ast.TypeSpec) {
		if ts.TypeParams != nil || ts.Assign.IsValid() {
			return
		}
		// The wrapper of a value of an empty struct type holds the value.
		st, ok := ast.Unparen(ts.Type).(*ast.StructType)
		structs[ts.Name.Name] = ok && st.Fields != nil && len(st.Fields.List) > 0
	}
	for _, s := range sessionTypes {
		if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype "+s, 0); err == nil {
			ast.Inspect(f, func(n ast.Node) bool {
				if ts, ok := n.(*ast.TypeSpec); ok {
					addSpec(ts)
				}
				return true
			})
		}
	}
	files := make([]*chunkFile, len(p.Chunks))
	for i, c := range p.Chunks {
		if files[i] = parseChunk(c, c.Src); files[i] != nil {
			ast.Inspect(files[i].f, func(n ast.Node) bool {
				if ts, ok := n.(*ast.TypeSpec); ok {
					addSpec(ts)
				}
				return true
			})
		}
	}
	isStruct := func(x ast.Expr) (string, bool) {
		if id, ok := ast.Unparen(x).(*ast.Ident); ok && structs[id.Name] {
			return id.Name, true
		}
		return "", false
	}
	rewrite := func(pf *chunkFile, src string) string {
		pos := func(p token.Pos) int { return pf.fset.Position(p).Offset - pf.off }
		var edits []edit
		wrap := func(x ast.Expr, types []string) {
			zeros := make([]string, len(types))
			for i, t := range types {
				zeros[i] = t + "{}"
			}
			edits = append(edits,
				edit{pos(x.Pos()), pos(x.Pos()), standInFunc + "("},
				edit{pos(x.End()), pos(x.End()), ", " + strings.Join(zeros, ", ") + ")"})
		}
		ast.Inspect(pf.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeAssertExpr:
				if n.Type == nil {
					return true
				}
				if name, ok := isStruct(n.Type); ok {
					wrap(n.X, []string{name})
				}
			case *ast.TypeSwitchStmt:
				var guard *ast.TypeAssertExpr
				switch a := n.Assign.(type) {
				case *ast.AssignStmt:
					guard, _ = a.Rhs[0].(*ast.TypeAssertExpr)
				case *ast.ExprStmt:
					guard, _ = a.X.(*ast.TypeAssertExpr)
				}
				if guard == nil {
					return true
				}
				var types []string
				for _, cc := range n.Body.List {
					for _, t := range cc.(*ast.CaseClause).List {
						if name, ok := isStruct(t); ok {
							types = append(types, name)
						}
					}
				}
				if len(types) > 0 {
					wrap(guard.X, types)
				}
			}
			return true
		})
		return applyEdits(src, edits)
	}
	for i := range p.Chunks {
		if files[i] != nil {
			p.Chunks[i].Src = rewrite(files[i], p.Chunks[i].Src)
		}
	}
	if p.Unwrapped != "" && len(p.Chunks) > 0 {
		if pf := parseChunk(p.Chunks[len(p.Chunks)-1], p.Unwrapped); pf != nil {
			p.Unwrapped = rewrite(pf, p.Unwrapped)
		}
	}
}

// StandIn returns x, and stops the cell (panics) when x is the
// interpreter's wrapper of a cell value for a compiled interface whose
// inside (see unwrapInterp) may be the last field of a value of the
// struct type of one of zeros, not a value of it (see StandInEdits).
func StandIn(x any, zeros ...any) any {
	w := unwrapInterp(reflect.ValueOf(x))
	if !w.IsValid() {
		return x
	}
	for _, z := range zeros {
		if t := reflect.TypeOf(z); t != nil && t != w.Type() && mayHoldStruct(w, t) {
			panic(Refused + "a type assertion or type switch case to a struct type of the cell (" + t.String() + ") of an interface that holds a value " +
				"of a type of the cell through a compiled interface such as error (returned as an error): the interpreter keeps a struct's last field " +
				"there, not the value, so that the assertion may fail where Go's succeeds; declare the methods on a pointer receiver and assert to the " +
				"pointer type (err.(*H)), or use errors.As with a pointer")
		}
	}
	return x
}
