package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// fmtArgFunc is the interpreted function (FmtArgSource) that fmtArgEdits
// puts around the arguments of fmt's functions.
const fmtArgFunc = "_portlabFmtArg"

// FmtArgFunc is fmtArgFunc, for the session, which declares it
// (FmtArgSource) before the first cell that calls it: compiled with the
// prelude, it made every session start 2.5 ms slower.
const FmtArgFunc = fmtArgFunc

// fmtPrinters are fmt's functions whose arguments fmtArgEdits hands over
// through fmtArgFunc, with the number of their leading arguments that are
// not printed (a writer, a format).
var fmtPrinters = map[string]int{
	"Print": 0, "Println": 0, "Sprint": 0, "Sprintln": 0, "Fprint": 1, "Fprintln": 1,
	"Printf": 1, "Sprintf": 1, "Errorf": 1, "Fprintf": 2,
}

// FmtArgSource is Go source that declares fmtArgFunc: for a value of a type of the cells
// in the interpreter's stand-in (interp.valueInterface), it hands fmt the
// wrapper the interpreter would (the first of FmtWrappers the type has
// the methods of), built by FmtWrap from method values of the stand-in,
// which call the methods with the value the stand-in holds. Any other
// value it returns as it is. The assertions follow FmtWrappers' order;
// they are comma-ok assertions of s, the stand-in as a compiled function
// returns it (FmtSame): a type switch matched its first case of an
// interface type of the interpreter's for any stand-in, and an assertion
// of v, a variable of type any, failed ("reflect.Set: value of type
// interface {} is not assignable to type interp.valueInterface").
const FmtArgSource = `
func _portlabFmtArg(v any) any {
	if !_portlab.FmtStandIn(v) {
		return v
	}
	s := _portlab.FmtSame(v)
	if x, ok := s.(interface{ Format(_portlab.FmtState, rune) }); ok {
		return _portlab.FmtWrap(v, 0, x.Format, nil, nil)
	}
	if x, ok := s.(interface{ Error() string; Unwrap() error; Is(error) bool }); ok {
		return _portlab.FmtWrap(v, 1, x.Error, x.Unwrap, x.Is)
	}
	if x, ok := s.(interface{ Error() string; Unwrap() error }); ok {
		return _portlab.FmtWrap(v, 2, x.Error, x.Unwrap, nil)
	}
	if x, ok := s.(interface{ Error() string; Unwrap() []error }); ok {
		return _portlab.FmtWrap(v, 3, x.Error, x.Unwrap, nil)
	}
	if x, ok := s.(interface{ Error() string; Is(error) bool }); ok {
		return _portlab.FmtWrap(v, 4, x.Error, nil, x.Is)
	}
	if x, ok := s.(interface{ Error() string }); ok {
		return _portlab.FmtWrap(v, 5, x.Error, nil, nil)
	}
	if x, ok := s.(interface{ String() string }); ok {
		return _portlab.FmtWrap(v, 6, x.String, nil, nil)
	}
	return v
}
`

// FmtStandIn reports whether v is the interpreter's stand-in for a value
// of a type of the cells with methods (interp.valueInterface), as compiled
// code receives it in an interface when no wrapper is asked for.
func FmtStandIn(v any) bool {
	return v != nil && reflect.TypeOf(v).String() == "interp.valueInterface"
}

// FmtSame returns v (FmtArgSource).
func FmtSame(v any) any { return v }

// standInValue returns the value inside the interpreter's stand-ins v.
func standInValue(v reflect.Value) reflect.Value {
	for v.IsValid() && v.Kind() == reflect.Struct && v.Type().String() == "interp.valueInterface" {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		f := c.FieldByName("value")
		if !f.IsValid() || f.Type() != reflect.TypeOf(reflect.Value{}) {
			return reflect.Value{}
		}
		v = *(*reflect.Value)(unsafe.Pointer(f.UnsafeAddr()))
	}
	return v
}

// concreteValue is what the interpreter puts in a wrapper's IValue for
// the value v (its getConcreteValue): v, or for a struct without methods
// its last field that holds a value.
func concreteValue(v reflect.Value) reflect.Value {
	if v.NumMethod() > 0 || v.Kind() != reflect.Struct {
		return v
	}
	for i := v.NumField() - 1; i >= 0; i-- {
		f := v.Field(i)
		if f.Kind() == reflect.Interface {
			f = f.Elem()
		}
		if f.IsValid() {
			return f
		}
	}
	return v
}

// FmtWrap builds the interpreter's wrapper (as its genInterfaceWrapper
// does) of the value in the stand-in v for FmtWrappers[kind], with the
// method values fs: Format, Error or String first, then Unwrap and Is.
// yaegi v0.16.1 builds the wrapper of a stand-in it hands to fmt's
// functions by reading again the variable or expression the stand-in was
// made from, in the frame of the call (see fmtArgEdits).
func FmtWrap(it *interp.Interpreter, v any, kind int, fs ...any) any {
	inside := standInValue(reflect.ValueOf(v))
	if !inside.IsValid() || kind < 0 || kind >= len(FmtWrappers) {
		panic(Refused + "fmt of a value of a type of the cells in an interface: the kernel did not find the value in the interpreter's stand-in")
	}
	wrap := fmtWrapperType(it, FmtWrappers[kind])
	if wrap == nil {
		panic(Refused + "fmt of a value of a type of the cells in an interface: the kernel did not find the interpreter's wrapper for " + FmtWrappers[kind].String())
	}
	w := reflect.New(wrap).Elem()
	if c := concreteValue(inside); c.IsValid() {
		w.Field(0).Set(c)
	}
	for i := 1; i < wrap.NumField(); i++ {
		var f any
		switch wrap.Field(i).Name[1:] {
		case "Format", "Error", "String":
			f = fs[0]
		case "Unwrap":
			f = fs[1]
		case "Is":
			f = fs[2]
		}
		fv := reflect.ValueOf(f)
		if !fv.IsValid() || !fv.Type().AssignableTo(wrap.Field(i).Type) {
			panic(Refused + "fmt of a value of a type of the cells in an interface: its method " + wrap.Field(i).Name[1:] + " does not fit the interpreter's wrapper")
		}
		w.Field(i).Set(fv)
	}
	return w.Interface()
}

// fmtWrapperType returns the interpreter's wrapper type for the interface
// t (its getWrapper): the type the table of compiled packages lists as
// "_"+name in t's package. It returns nil where the interpreter would
// pick among composed wrappers, which FmtWrap does not.
func fmtWrapperType(it *interp.Interpreter, t reflect.Type) (wt reflect.Type) {
	defer func() {
		if recover() != nil {
			wt = nil
		}
	}()
	pkgs := reflect.ValueOf(it).Elem().FieldByName("binPkg")
	if !pkgs.IsValid() || pkgs.Kind() != reflect.Map {
		return nil
	}
	syms := writable(pkgs).MapIndex(reflect.ValueOf(t.PkgPath()))
	if !syms.IsValid() || syms.Type() != reflect.TypeOf(map[string]reflect.Value{}) {
		return nil
	}
	w, ok := syms.Interface().(map[string]reflect.Value)["_"+t.Name()]
	if !ok || !w.IsValid() || w.Kind() != reflect.Pointer || w.Type().Elem().Kind() != reflect.Struct {
		return nil
	}
	if mt := reflect.ValueOf(it).Elem().FieldByName("mapTypes"); mt.IsValid() && mt.Kind() == reflect.Map {
		if composed := writable(mt).MapIndex(reflect.ValueOf(w)); composed.IsValid() && composed.Len() > 0 {
			return nil
		}
	}
	return w.Type().Elem()
}

// fmtArgEdits puts the arguments that fmt's functions print (fmtPrinters,
// called as fmt.F(…)) in fmtArgFunc(…): yaegi v0.16.1 hands fmt a value of
// a type of the cells with methods held in an interface (var a any = v;
// fmt.Println(a)) as a wrapper it builds by evaluating again the variable
// or expression the interface was made from, in the frame of the call:
// another variable of the frame, where the interface was made in another
// function (returned by it, or stored in a global), so that fmt printed
// another value or a panic of the interpreter's inside String ("reflect.Set:
// value of type … is not assignable"), and the variable's new value where
// it was assigned since. fmtArgFunc builds the wrapper from the value the
// interface holds. An argument that is not of an interface type for sure
// (plainExpr), whose wrapper the interpreter builds right, keeps its
// place, and so do the arguments of a call with args… and a lone argument
// that is a call, which may give several values, unless of a function of
// the cells with one result (results). isPkg reports whether fmt is the
// package.
func fmtArgEdits(isPkg func(string) bool, results map[string]int) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		if !isPkg("fmt") {
			return nil
		}
		// Names the chunk binds: fmt may be a variable, a function of the
		// cells may be hidden.
		local := boundNames(f)
		if local["fmt"] {
			return nil
		}
		var edits []edit
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || call.Ellipsis.IsValid() {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "fmt" || id.Obj != nil {
				return true
			}
			skip, ok := fmtPrinters[sel.Sel.Name]
			if !ok || len(call.Args) <= skip {
				return true
			}
			args := call.Args[skip:]
			if _, paren := args[0].(*ast.ParenExpr); len(args) == 1 && !paren {
				// (f()) is one value (callArgEdits puts such calls in
				// parentheses).
				if c, ok := args[0].(*ast.CallExpr); ok {
					fun, ok := ast.Unparen(c.Fun).(*ast.Ident)
					if !ok || local[fun.Name] || results[fun.Name] != 1 {
						return true
					}
				}
			}
			for _, a := range args {
				if plainExpr(a, 0) {
					continue
				}
				edits = append(edits, edit{pos(a.Pos()), pos(a.Pos()), fmtArgFunc + "("}, edit{pos(a.End()), pos(a.End()), ")"})
			}
			return true
		})
		return edits
	}
}

// anyReturnEdits gives the result of a return statement of a function
// whose one result is of type any (or interface{}) a variable of that
// type first: yaegi v0.16.1 returns a value of a type of the cells as the
// value of the type it is declared from, without its methods, so that
// fmt.Println(f()) printed 3 for func f() any { return W(3) } where Go
// calls W's String; a variable of type any keeps the type. return x
// becomes { var t any = x; return t }.
func anyReturnEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	isAny := func(t ast.Expr) bool {
		switch t := t.(type) {
		case *ast.Ident:
			return t.Name == "any" && t.Obj == nil
		case *ast.InterfaceType:
			return t.Methods == nil || len(t.Methods.List) == 0
		}
		return false
	}
	var edits []edit
	var visit func(n ast.Node, anyResult bool)
	visit = func(n ast.Node, anyResult bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			var ft *ast.FuncType
			var body *ast.BlockStmt
			switch m := m.(type) {
			case *ast.FuncDecl:
				ft, body = m.Type, m.Body
			case *ast.FuncLit:
				ft, body = m.Type, m.Body
			case *ast.ReturnStmt:
				if !anyResult || len(m.Results) != 1 {
					return true
				}
				switch x := ast.Unparen(m.Results[0]).(type) {
				case *ast.BasicLit:
					return true
				case *ast.Ident:
					if x.Name == "nil" && x.Obj == nil {
						return true
					}
				}
				tmp := fmt.Sprintf("%sA%d", tempPrefix, blockSeq.Add(1))
				edits = append(edits, edit{pos(m.Pos()), pos(m.Results[0].Pos()), "{ var " + tmp + " any = "},
					edit{pos(m.End()), pos(m.End()), "; return " + tmp + " }"})
				return true
			default:
				return true
			}
			if body == nil {
				return false
			}
			one := ft.Results != nil && len(ft.Results.List) == 1 && len(ft.Results.List[0].Names) <= 1 && isAny(ft.Results.List[0].Type)
			visit(body, one)
			return false
		})
	}
	visit(f, false)
	return edits
}

// plainExpr reports whether x is not of an interface type for sure: a
// literal, an operation (not a receive), a call of len, cap, real, imag or
// complex or a conversion to a predeclared type, or a variable the chunk
// declares so (plainVar).
func plainExpr(x ast.Expr, depth int) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.BasicLit, *ast.CompositeLit, *ast.FuncLit, *ast.BinaryExpr:
		return true
	case *ast.UnaryExpr:
		return x.Op != token.ARROW
	case *ast.CallExpr:
		id, ok := ast.Unparen(x.Fun).(*ast.Ident)
		if !ok || id.Obj != nil {
			return false
		}
		switch id.Name {
		case "len", "cap", "real", "imag", "complex":
			return true
		}
		return basicTypes[id.Name] || integerTypes[id.Name]
	case *ast.Ident:
		if x.Obj == nil {
			return x.Name == "true" || x.Name == "false" || x.Name == "iota"
		}
		return depth < 8 && plainVar(x, depth+1)
	}
	return false
}

// plainVar reports whether id is a variable the chunk declares not of an
// interface type for sure: defined from a plainExpr, or declared (a
// variable or a parameter) with a predeclared type other than any and
// error, or an array, slice, map, channel, function, struct or pointer
// type.
func plainVar(id *ast.Ident, depth int) bool {
	if id.Obj.Kind != ast.Var {
		return false
	}
	plainType := func(t ast.Expr) bool {
		switch t := t.(type) {
		case *ast.Ident:
			return t.Obj == nil && (basicTypes[t.Name] || integerTypes[t.Name])
		case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.StructType, *ast.StarExpr:
			return true
		}
		return false
	}
	switch d := id.Obj.Decl.(type) {
	case *ast.AssignStmt:
		if d.Tok != token.DEFINE || len(d.Lhs) != len(d.Rhs) {
			return false
		}
		for i, l := range d.Lhs {
			if l, ok := l.(*ast.Ident); ok && l.Name == id.Name {
				return plainExpr(d.Rhs[i], depth)
			}
		}
	case *ast.ValueSpec:
		if d.Type != nil {
			return plainType(d.Type)
		}
		for i, n := range d.Names {
			if n.Name == id.Name && len(d.Values) == len(d.Names) {
				return plainExpr(d.Values[i], depth)
			}
		}
	case *ast.Field:
		return plainType(d.Type)
	}
	return false
}

// boundNames returns the names f binds other than by a function or type
// declaration: by assignments, var and const specs, parameters, results
// and fields, and range clauses.
func boundNames(f ast.Node) map[string]bool {
	local := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					local[id.Name] = true
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				local[id.Name] = true
			}
		case *ast.Field:
			for _, id := range n.Names {
				local[id.Name] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					local[id.Name] = true
				}
			}
		}
		return true
	})
	return local
}
