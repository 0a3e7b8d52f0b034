package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/traefik/yaegi/stdlib"
)

// methodExprEdits rewrites the method expressions of interface types,
// I.M, which yaegi v0.16.1 does not compile: a call I.M(x, a) is "too
// many arguments" (Go's method.go and fixedbugs/issue4495.go), and
// error.Error(err) panics in the compiler (fixedbugs/issue29304.go). A
// call becomes a conversion of x followed by the method call,
//
//	func() I { var _r I = x; if _r == nil { panic(ErrNilMethod) }; return _r }().M(a)
//
// (the conversion I(x) itself fails at run time for a struct x, "invalid
// interface value", where the assignment works), which evaluates x and
// then a, as Go does where a has no effect (other calls are left alone:
// Go evaluates a before it panics for a nil x), and panics as Go's
// runtime does for a nil x (the interpreter panics with reflect's string
// there). A method expression that is not called becomes a
// function literal when the method's signature is known (an interface
// type the chunk declares, an interface literal, error):
//
//	func(_r I, _p0 int) string { return _r.M(_p0) }
//
// An interface type that uses a type parameter is left alone: the
// interpreter's generic code misreads a nil interface there (a call on
// it panics with reflect's words, not as Go's runtime does).
//
// isIface reports the interface types of the cell and the session (as
// for assertEdits); ifaces holds the cell's interface declarations.
func methodExprEdits(isIface func(string) bool, ifaces map[string]*ast.InterfaceType) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		values := valueNames(f)
		typeParams := map[string]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			var tps *ast.FieldList
			switch n := n.(type) {
			case *ast.FuncType:
				tps = n.TypeParams
			case *ast.TypeSpec:
				tps = n.TypeParams
			}
			if tps != nil {
				for _, fl := range tps.List {
					for _, id := range fl.Names {
						typeParams[id.Name] = true
					}
				}
			}
			return true
		})
		isType := func(x ast.Expr) bool {
			generic := false
			ast.Inspect(x, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && typeParams[id.Name] {
					generic = true
				}
				return !generic
			})
			if generic {
				return false
			}
			switch x := ast.Unparen(x).(type) {
			case *ast.Ident:
				return !values[x.Name] && isInterfaceType(x, isIface)
			case *ast.SelectorExpr:
				id, ok := x.X.(*ast.Ident)
				return ok && !values[id.Name] && isInterfaceType(x, isIface)
			case *ast.InterfaceType:
				return isInterfaceType(x, isIface)
			}
			return false
		}
		const recv = tempPrefix + "R"
		var edits []edit
		called := map[*ast.SelectorExpr]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				if !ok || !isType(sel.X) || len(call.Args) == 0 || call.Ellipsis.IsValid() && len(call.Args) == 1 {
					return true
				}
				for _, a := range call.Args[1:] {
					if !simpleOperand(a) {
						// Go evaluates a before the call panics for a nil
						// x; the conversion's check would panic first.
						return true
					}
				}
				called[sel] = true
				typ := src[pos(ast.Unparen(sel.X).Pos()):pos(ast.Unparen(sel.X).End())]
				x := call.Args[0]
				next := call.Rparen
				if len(call.Args) > 1 {
					next = call.Args[1].Pos()
				}
				edits = append(edits,
					edit{pos(call.Pos()), pos(x.Pos()), "func() " + typ + " { var " + recv + " " + typ + " = "},
					edit{pos(x.End()), pos(next), "; if " + recv + " == nil { panic(" + nilMethodVar + ") }; return " + recv + " }()." + sel.Sel.Name + "("})
				return true
			}
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || called[sel] || !isType(sel.X) {
				return true
			}
			ft := methodType(sel.X, sel.Sel.Name, ifaces, 0)
			if ft == nil {
				return true
			}
			typ := src[pos(ast.Unparen(sel.X).Pos()):pos(ast.Unparen(sel.X).End())]
			params := []string{recv + " " + typ}
			var args []string
			spread := ""
			if ft.Params != nil {
				for _, field := range ft.Params.List {
					names := max(len(field.Names), 1)
					for range names {
						p := "_p" + strconv.Itoa(len(args))
						args = append(args, p)
						params = append(params, p+" "+types.ExprString(field.Type))
						if _, ok := field.Type.(*ast.Ellipsis); ok {
							spread = "..."
						}
					}
				}
			}
			var results []string
			if ft.Results != nil {
				for _, field := range ft.Results.List {
					for range max(len(field.Names), 1) {
						results = append(results, types.ExprString(field.Type))
					}
				}
			}
			body := recv + "." + sel.Sel.Name + "(" + strings.Join(args, ", ") + spread + ")"
			if len(results) > 0 {
				body = "return " + body
			}
			body = "if " + recv + " == nil { panic(" + nilMethodVar + ") }; " + body
			lit := "func(" + strings.Join(params, ", ") + ") (" + strings.Join(results, ", ") + ") { " + body + " }"
			edits = append(edits, edit{pos(sel.Pos()), pos(sel.End()), lit})
			return false
		})
		return edits
	}
}

// nilMethodVar is the interpreted name of ErrNilMethod.
const nilMethodVar = "_portlab.ErrNilMethod"

// ErrNilMethod is the panic of a method expression of an interface type
// called with a nil interface, as Go's runtime gives it (the interpreter
// panics with a string of reflect's there).
var ErrNilMethod error = runtimeError("invalid memory address or nil pointer dereference")

// simpleOperand reports whether evaluating x has no effect and cannot
// panic: a literal or a name.
func simpleOperand(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.BasicLit, *ast.Ident:
		return true
	case *ast.CompositeLit:
		for _, e := range x.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			if !simpleOperand(e) {
				return false
			}
		}
		return true
	}
	return false
}

// methodType returns the signature of the method name of the interface
// type x: an interface literal, a name ifaces declares (with its embedded
// interfaces) or error; nil if unknown.
func methodType(x ast.Expr, name string, ifaces map[string]*ast.InterfaceType, depth int) *ast.FuncType {
	if depth > 10 {
		return nil
	}
	var it *ast.InterfaceType
	switch x := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok {
			return compiledMethodType(pkg.Name, x.Sel.Name, name)
		}
		return nil
	case *ast.InterfaceType:
		it = x
	case *ast.Ident:
		if x.Name == "error" && ifaces[x.Name] == nil {
			if name != "Error" {
				return nil
			}
			return &ast.FuncType{Results: &ast.FieldList{List: []*ast.Field{{Type: ast.NewIdent("string")}}}}
		}
		it = ifaces[x.Name]
	}
	if it == nil || it.Methods == nil {
		return nil
	}
	for _, m := range it.Methods.List {
		if len(m.Names) == 0 {
			if ft := methodType(m.Type, name, ifaces, depth+1); ft != nil {
				return ft
			}
			continue
		}
		for _, n := range m.Names {
			if ft, ok := m.Type.(*ast.FuncType); ok && n.Name == name {
				return ft
			}
		}
	}
	return nil
}

// stdlibInterfaceTypes holds the interface types of yaegi's standard
// library by package name and type name ("reflect.Type"); a name that two
// packages of one name give is left out.
var stdlibInterfaceTypes = sync.OnceValue(func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	seen := map[string]int{}
	for path, syms := range stdlib.Symbols {
		pkg := path[strings.LastIndex(path, "/")+1:]
		for name, v := range syms {
			key := pkg + "." + name
			seen[key]++
			if v.Kind() == reflect.Pointer && v.IsNil() && v.Type().Elem().Kind() == reflect.Interface {
				m[key] = v.Type().Elem()
			}
		}
	}
	for k, n := range seen {
		if n > 1 {
			delete(m, k)
		}
	}
	return m
})

// compiledMethodType returns the signature of the method name of the
// interface type pkg.typ of the standard library (reflect.Type.Method:
// func(int) reflect.Method), if all its types can be written: predeclared
// ones, the package's own (as pkg.T) and pointers, slices, arrays and
// maps of them.
func compiledMethodType(pkg, typ, name string) *ast.FuncType {
	it := stdlibInterfaceTypes()[pkg+"."+typ]
	if it == nil {
		return nil
	}
	m, ok := it.MethodByName(name)
	if !ok {
		return nil
	}
	var write func(t reflect.Type) (string, bool)
	write = func(t reflect.Type) (string, bool) {
		if t.Name() != "" {
			switch t.PkgPath() {
			case "":
				return t.Name(), true // int, error
			case it.PkgPath():
				return pkg + "." + t.Name(), true
			}
			return "", false
		}
		var elem string
		var ok bool
		if k := t.Kind(); k == reflect.Pointer || k == reflect.Slice || k == reflect.Array || k == reflect.Map {
			if elem, ok = write(t.Elem()); !ok {
				return "", false
			}
		}
		switch t.Kind() {
		case reflect.Pointer:
			return "*" + elem, true
		case reflect.Slice:
			return "[]" + elem, true
		case reflect.Array:
			return "[" + strconv.Itoa(t.Len()) + "]" + elem, true
		case reflect.Map:
			key, ok := write(t.Key())
			return "map[" + key + "]" + elem, ok
		}
		return "", false
	}
	ft := m.Type
	var params, results []string
	for i := range ft.NumIn() {
		t := ft.In(i)
		prefix := ""
		if ft.IsVariadic() && i == ft.NumIn()-1 {
			t, prefix = t.Elem(), "..."
		}
		text, ok := write(t)
		if !ok {
			return nil
		}
		params = append(params, prefix+text)
	}
	for i := range ft.NumOut() {
		text, ok := write(ft.Out(i))
		if !ok {
			return nil
		}
		results = append(results, text)
	}
	x, err := parser.ParseExpr("func(" + strings.Join(params, ", ") + ") (" + strings.Join(results, ", ") + ")")
	if err != nil {
		return nil
	}
	f, _ := x.(*ast.FuncType)
	return f
}

// valueNames returns the names root declares as variables, constants,
// functions or parameters.
func valueNames(root ast.Node) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
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
				if id, ok := x.(*ast.Ident); ok && n.Tok == token.DEFINE {
					names[id.Name] = true
				}
			}
		case *ast.FuncDecl:
			if n.Recv == nil {
				names[n.Name.Name] = true
			}
		case *ast.FuncType:
			for _, fl := range []*ast.FieldList{n.Params, n.Results} {
				if fl == nil {
					continue
				}
				for _, f := range fl.List {
					for _, id := range f.Names {
						names[id.Name] = true
					}
				}
			}
		}
		return true
	})
	return names
}
