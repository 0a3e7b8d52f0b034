package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/traefik/yaegi/stdlib"
)

// assertFunc is the interpreted name of AssertFailed.
const assertFunc = "_portlab.AssertFailed"

// assertEdits makes the type assertions to an interface type panic as in
// Go when the value does not implement it. Inside functions, yaegi
// v0.16.1 gives the nil interface instead, silently (var e any = &S{};
// i := e.(I) runs on with i == nil when *S lacks a method of I; a nil e
// panics as it should, and the comma-ok form is right). An x.(I) in an
// assignment, definition, return, send or expression statement of a
// function is checked first by the comma-ok form:
//
//	if _, ok := x.(I); !ok { _portlab.AssertFailed(x, "main.I", "Foo") }; i := x.(I)
//
// when nothing in the statement is called before it and it is not the
// right operand of && or || (which may not evaluate it); an x that calls
// a function is evaluated once, into a temporary, before the statement.
// The comma-ok form that keeps the value, a function literal returning it
// and any(x) fail in the interpreter for an interface of the cell
// (reflect.Set: … interp.valueInterface), hence the check with a blank
// value. A value of a cell's struct type that came back from reflect has
// lost its methods, so that the check fails where Go's assertion
// succeeds: AssertFailed stops the cell with a message for it instead.
// The interface types are interface literals with methods, error, the names isIface reports and the
// interfaces of the standard library (pkg.Name); assertions to other
// types are left alone (yaegi panics there as Go does), as are assertions
// at a cell's top level (yaegi panics there).
func assertEdits(fset *token.FileSet, root ast.Node, off int, src string, isIface func(string) bool) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	var inFunc func(n ast.Node)
	rewriteList := func(list []ast.Stmt) {
		for _, st := range list {
			switch st := st.(type) {
			case *ast.AssignStmt:
				if len(st.Lhs) == 2 && len(st.Rhs) == 1 {
					continue // comma-ok
				}
			case *ast.DeclStmt:
				if g, ok := st.Decl.(*ast.GenDecl); !ok || g.Tok != token.VAR || len(g.Specs) != 1 ||
					len(g.Specs[0].(*ast.ValueSpec).Names) == 2 && len(g.Specs[0].(*ast.ValueSpec).Values) == 1 {
					continue
				}
			case *ast.ReturnStmt, *ast.SendStmt, *ast.ExprStmt:
			default:
				continue
			}
			var found []*ast.TypeAssertExpr
			called := false // a call or receive before the assertion
			var walk func(n ast.Node) bool
			walk = func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.BinaryExpr:
					if n.Op == token.LAND || n.Op == token.LOR {
						ast.Inspect(n.X, walk)
						called = true // the right operand may not run
						return false
					}
				case *ast.TypeAssertExpr:
					if n.Type != nil && !called && isInterfaceType(n.Type, isIface) && !hasAssert(n.X) && !hasFuncLit(n.X) {
						found = append(found, n)
						return false
					}
				case *ast.CallExpr:
					ast.Inspect(n.Fun, walk)
					for _, a := range n.Args {
						ast.Inspect(a, walk)
					}
					called = true
					return false
				case *ast.UnaryExpr:
					if n.Op == token.ARROW {
						ast.Inspect(n.X, walk)
						called = true
						return false
					}
				}
				return true
			}
			ast.Inspect(st, walk)
			if len(found) == 0 {
				continue
			}
			var pre strings.Builder
			for _, a := range found {
				typ := exprText(src, pos, a.Type)
				name := typ
				if _, ok := a.Type.(*ast.Ident); ok && typ != "error" {
					name = "main." + typ
				}
				x := exprText(src, pos, a.X)
				if hasCallOrReceive(a.X) {
					// Evaluated once, into a temporary, before the
					// statement (nothing in it is called before).
					tmp := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
					fmt.Fprintf(&pre, "%s := %s; ", tmp, x)
					edits = append(edits, edit{pos(a.X.Pos()), pos(a.X.End()), tmp})
					x = tmp
				}
				fmt.Fprintf(&pre, "if _, _portlabAok := %s.(%s); !_portlabAok { %s(%s, %q, %q) }; ", x, typ, assertFunc, x, name, methods(a.Type, root))
			}
			edits = append(edits, edit{pos(st.Pos()), pos(st.Pos()), pre.String()})
		}
	}
	inFunc = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if list := stmtList(n); list != nil {
				rewriteList(list)
			}
			return true
		})
	}
	for _, d := range fileDecls(root) {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			inFunc(fd.Body)
		}
	}
	return edits
}

// hasAssert reports whether x holds a type assertion.
func hasAssert(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if _, ok := n.(*ast.TypeAssertExpr); ok {
			found = true
		}
		return !found
	})
	return found
}

// isInterfaceType reports whether the type expression x is recognisably
// an interface type with methods.
func isInterfaceType(x ast.Expr, isIface func(string) bool) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.InterfaceType:
		return x.Methods != nil && len(x.Methods.List) > 0
	case *ast.Ident:
		return x.Name == "error" || isIface != nil && isIface(x.Name)
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok {
			return stdlibInterfaces()[pkg.Name+"."+x.Sel.Name]
		}
	}
	return false
}

// interfaceNames returns the names root declares as interface types with
// methods.
func interfaceNames(root ast.Node, into map[string]bool) {
	ast.Inspect(root, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.TypeParams == nil {
			into[ts.Name.Name] = isInterfaceType(ts.Type, func(name string) bool { return into[name] })
		}
		return true
	})
}

// stdlibInterfaces holds the interface types of yaegi's standard library
// with methods by package name and type name ("io.Reader"); a name that
// two packages of one name give differently is left out.
var stdlibInterfaces = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	other := map[string]bool{}
	for path, syms := range stdlib.Symbols {
		pkg := path[strings.LastIndex(path, "/")+1:]
		for name, v := range syms {
			if v.Kind() != reflect.Pointer || !v.IsNil() {
				continue // not a type
			}
			t := v.Type().Elem()
			key := pkg + "." + name
			if t.Kind() == reflect.Interface && t.NumMethod() > 0 {
				m[key] = true
			} else {
				other[key] = true
			}
		}
	}
	for k := range other {
		delete(m, k)
	}
	return m
})

// AssertFailed panics as Go does when the value x of an interface does
// not implement the interface typ of a type assertion (see assertEdits).
func AssertFailed(x any, typ, methods string) {
	if x == nil {
		panic(assertError("interface conversion: interface is nil, not " + typ))
	}
	t := reflect.TypeOf(x)
	if s := t; s.Kind() == reflect.Struct && s.Name() == "" || s.Kind() == reflect.Pointer && s.Elem().Kind() == reflect.Struct && s.Elem().Name() == "" {
		// A value of a cell's struct type as the interpreter builds it
		// (an unnamed struct), without its methods: it reached the
		// interface through reflect or compiled code, and the
		// interpreter no longer knows its type.
		panic(Refused + "a value of a struct type of the cell that came back from reflect or compiled code (here " + t.String() + ") has lost its methods in the interpreter, " +
			"so the assertion to " + typ + " fails where Go's succeeds: keep the value in a variable of its own type or of the interface instead of passing it through reflect")
	}
	name := t.String()
	missing := ""
	if strings.HasPrefix(name, "interp.") {
		name = "a type of the cell" // the interpreter's wrapper hides it and its methods
		if tn, m := pointerMethodOf(x, methods); m != "" {
			name, missing = tn, " "+m
		}
	} else {
		for _, m := range strings.Fields(methods) {
			if _, ok := t.MethodByName(m); !ok {
				missing = " " + m
				break
			}
		}
	}
	panic(assertError(fmt.Sprintf("interface conversion: %s is not %s: missing method%s", name, typ, missing)))
}

// methods returns the method names of the interface type x, sorted and
// separated by spaces, as far as root or the standard library shows them.
func methods(x ast.Expr, root ast.Node) string {
	var names []string
	var iface *ast.InterfaceType
	switch x := ast.Unparen(x).(type) {
	case *ast.InterfaceType:
		iface = x
	case *ast.Ident:
		if x.Name == "error" {
			return "Error"
		}
		ast.Inspect(root, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == x.Name {
				iface, _ = ts.Type.(*ast.InterfaceType)
			}
			return iface == nil
		})
	}
	if iface != nil {
		for _, f := range iface.Methods.List {
			for _, n := range f.Names {
				names = append(names, n.Name)
			}
		}
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

// assertError is the runtime.Error of a failed type assertion.
type assertError string

func (e assertError) Error() string { return string(e) }

// RuntimeError marks it as a runtime.Error.
func (assertError) RuntimeError() {}

// funcValueFunc is the interpreted name of FuncValue.
const funcValueFunc = "_portlab.FuncValue"

// funcSwitchEdits guards the type switches with a case of a function type:
// a function that reached an interface by some conversions (return f from
// a function whose result is interface{}) is the interpreter's internal
// node there, which matches no function type, silently (Go's
// typeswitch.go fell to default). Before such a switch, FuncValue stops
// the cell with a message when the value is such a node; a guard
// expression that calls a function is evaluated once, into a temporary.
// The alias any inside a case type (case func(int) any:) is written out as
// interface{}: the interpreter's type switch matches no function of
// func(int) interface{} with it.
func funcSwitchEdits(fset *token.FileSet, root ast.Node, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	inList := map[ast.Stmt]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		for _, st := range stmtList(n) {
			inList[st] = true
		}
		ts, ok := n.(*ast.TypeSwitchStmt)
		if !ok || ts.Init != nil || !inList[ts] {
			return true
		}
		funcCase := false
		for _, c := range ts.Body.List {
			for _, t := range c.(*ast.CaseClause).List {
				if _, ok := ast.Unparen(t).(*ast.FuncType); ok {
					funcCase = true
				}
				if id, ok := t.(*ast.Ident); ok && id.Name == "any" {
					continue
				}
				// any inside a case type (func(int) any) matches no
				// interface{} there; written out it does.
				ast.Inspect(t, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && id.Name == "any" {
						edits = append(edits, edit{pos(id.Pos()), pos(id.End()), "interface{}"})
					}
					return true
				})
			}
		}
		if !funcCase {
			return true
		}
		var ta *ast.TypeAssertExpr
		switch a := ts.Assign.(type) {
		case *ast.AssignStmt:
			ta, _ = a.Rhs[0].(*ast.TypeAssertExpr)
		case *ast.ExprStmt:
			ta, _ = a.X.(*ast.TypeAssertExpr)
		}
		if ta == nil || hasFuncLit(ta.X) {
			return true
		}
		x := exprText(src, pos, ta.X)
		if hasCallOrReceive(ta.X) {
			tmp := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
			edits = append(edits,
				edit{pos(ts.Pos()), pos(ts.Pos()), fmt.Sprintf("%s := %s; %s(%s); ", tmp, x, funcValueFunc, tmp)},
				edit{pos(ta.X.Pos()), pos(ta.X.End()), tmp})
			return true
		}
		edits = append(edits, edit{pos(ts.Pos()), pos(ts.Pos()), fmt.Sprintf("%s(%s); ", funcValueFunc, x)})
		return true
	})
	return edits
}

// FuncValue is called by the cells before a type switch with a case of a
// function type (see funcSwitchEdits): it panics when x is the
// interpreter's internal node of a function, which matches no case.
func FuncValue(x any) {
	if x != nil && reflect.TypeOf(x).String() == "*interp.node" {
		panic(Refused + "a function value that reached an interface by a conversion the interpreter does not wrap (such as return f from a function whose result is interface{}) " +
			"cannot match a function type in a type switch: convert it where it is made, var v interface{} = f, and use v")
	}
}

// RunsNoCode reports whether a chunk of declarations runs none of the
// cell's code when evaluated: it declares types, constants, functions and
// variables without initial values, and no init function.
func RunsNoCode(src string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, 0)
	if err != nil {
		return false
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" {
				return false
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, sp := range d.Specs {
				if len(sp.(*ast.ValueSpec).Values) > 0 {
					return false
				}
			}
		}
	}
	return true
}
