package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"unsafe"
)

// equalFunc is the interpreted name of Equal.
const equalFunc = "_portlab.Equal"

// EqualityEdits rewrites the comparisons a == b and a != b of the cell p
// whose operands may be interfaces holding values of the cell's types
// into Equal(a, b) (!Equal(a, b)). yaegi v0.16.1 holds a value of a type
// with methods in an interface as its own wrapper (the node that made
// it and the value) and compares the wrappers: two interfaces holding the
// same pointer, or an interface and the value it holds, compared unequal
// (Go's convT2X.go, fixedbugs/issue18595.go, typeparam/eface.go). A
// comparison is left alone where an operand may be an untyped constant
// (a literal, nil, a constant, a name of a package or one not known as a
// variable: a constant given to Equal would take its default type) or is
// no interface (arithmetic, a comparison, a unary expression, len or cap,
// a conversion to a basic type), in constant declarations, and in cells
// when neither they nor the session (methods) declare a method. isVar
// reports the variables of earlier cells.
func EqualityEdits(p *Plan, isVar func(string) bool, methods bool) {
	type parsed struct {
		fset *token.FileSet
		f    *ast.File
		off  int
	}
	parse := func(c Chunk, src string) *parsed {
		prefix, suffix := stmtPrefix, "\n}"
		if c.Decl {
			prefix, suffix = "package p\n", ""
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", prefix+src+suffix, 0)
		if err != nil {
			return nil
		}
		return &parsed{fset, f, len(prefix)}
	}
	files := make([]*parsed, len(p.Chunks))
	vars, consts := map[string]bool{}, map[string]bool{}
	for i, c := range p.Chunks {
		pf := parse(c, c.Src)
		if pf == nil {
			continue
		}
		files[i] = pf
		declaredNames(pf.f, vars, consts, &methods)
	}
	if !methods {
		return
	}
	isVariable := func(name string) bool {
		if consts[name] {
			return false
		}
		return vars[name] || isVar != nil && isVar(name)
	}
	rewrite := func(pf *parsed, src string) string {
		pos := func(p token.Pos) int { return pf.fset.Position(p).Offset - pf.off }
		var edits []edit
		ast.Inspect(pf.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				return n.Tok != token.CONST
			case *ast.ArrayType:
				return false // a length is constant
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ || !mayBeInterface(n.X, isVariable) || !mayBeInterface(n.Y, isVariable) {
					return true
				}
				open := equalFunc + "("
				if n.Op == token.NEQ {
					open = "!" + open
				}
				edits = append(edits,
					edit{pos(n.X.Pos()), pos(n.X.Pos()), open},
					edit{pos(n.X.End()), pos(n.Y.Pos()), ", "},
					edit{pos(n.Y.End()), pos(n.Y.End()), ")"})
			}
			return true
		})
		return applyEdits(src, edits)
	}
	for i := range p.Chunks {
		if files[i] == nil {
			continue
		}
		p.Chunks[i].Src = rewrite(files[i], p.Chunks[i].Src)
	}
	if p.Unwrapped != "" && len(p.Chunks) > 0 {
		if pf := parse(p.Chunks[len(p.Chunks)-1], p.Unwrapped); pf != nil {
			p.Unwrapped = rewrite(pf, p.Unwrapped)
		}
	}
}

// declaredNames adds the names f declares as variables (var, :=, range,
// parameters, results, functions) and constants; methods becomes true if
// f declares a method.
func declaredNames(f *ast.File, vars, consts map[string]bool, methods *bool) {
	addIdents := func(into map[string]bool, xs ...ast.Expr) {
		for _, x := range xs {
			if id, ok := x.(*ast.Ident); ok && id.Name != "_" {
				into[id.Name] = true
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			for _, s := range n.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for _, id := range vs.Names {
					if n.Tok == token.CONST {
						consts[id.Name] = true
					} else {
						vars[id.Name] = true
					}
				}
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				addIdents(vars, n.Lhs...)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				addIdents(vars, n.Key, n.Value)
			}
		case *ast.Field:
			for _, id := range n.Names {
				vars[id.Name] = true
			}
		case *ast.FuncDecl:
			if n.Recv != nil {
				*methods = true
			} else {
				vars[n.Name.Name] = true
			}
		}
		return true
	})
}

// mayBeInterface reports whether the operand x of a comparison may be of
// an interface type and is not an untyped constant (see EqualityEdits).
func mayBeInterface(x ast.Expr, isVariable func(string) bool) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.BasicLit, *ast.BinaryExpr, *ast.UnaryExpr, *ast.FuncLit:
		return false
	case *ast.Ident:
		return isVariable(x.Name)
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && !isVariable(id.Name) {
			return false // of a package, or not known
		}
		return true
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && !isVariable(id.Name) && basicConversions[id.Name] {
			return false
		}
		if _, ok := ast.Unparen(x.Fun).(*ast.ArrayType); ok {
			return false // []byte(s)
		}
		return true
	}
	return true
}

// basicConversions are the builtins and basic types whose calls give no
// interface.
var basicConversions = map[string]bool{
	"len": true, "cap": true, "real": true, "imag": true, "complex": true, "copy": true,
	"bool": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true, "byte": true, "rune": true,
}

// Equal compares a and b as Go's == does where one of them may be an
// interface holding a value of a cell's type, which the interpreter
// wraps (see EqualityEdits): two wrapped values are equal when their
// types and values are; a wrapped value and another are equal when the
// other has the type the wrapped value is represented by and the same
// value.
func Equal(a, b any) bool {
	ta, va, wa := unwrapCell(a)
	tb, vb, wb := unwrapCell(b)
	switch {
	case wa && wb:
		return ta == tb && va == vb
	case wa:
		return reflect.TypeOf(va) == reflect.TypeOf(b) && va == b
	case wb:
		return reflect.TypeOf(vb) == reflect.TypeOf(a) && a == vb
	}
	return a == b
}

// unwrapCell returns the interpreter's type name and the value of x when
// x is the interpreter's wrapper of a cell's value in an interface.
func unwrapCell(x any) (typ string, v any, ok bool) {
	rv := reflect.ValueOf(x)
	if rv.IsValid() && rv.Kind() == reflect.Struct && strings.HasPrefix(rv.Type().String(), "interp._") {
		// The interpreter's wrapper for a compiled interface (error's
		// interp._error): the value is in its field IValue.
		if iv := rv.FieldByName("IValue"); iv.IsValid() && iv.Kind() == reflect.Interface && iv.CanInterface() {
			if t, v, ok := unwrapCell(iv.Interface()); ok {
				return t, v, true
			}
			return "", iv.Interface(), true
		}
	}
	if !rv.IsValid() || rv.Kind() != reflect.Struct || rv.Type().String() != "interp.valueInterface" {
		return "", nil, false
	}
	n, val := rv.FieldByName("node"), rv.FieldByName("value")
	if !n.IsValid() || n.Kind() != reflect.Pointer || n.IsNil() || !val.IsValid() || val.Type() != reflect.TypeOf(reflect.Value{}) {
		return "", nil, false
	}
	t := n.Elem().FieldByName("typ")
	if !t.IsValid() || t.Kind() != reflect.Pointer || t.IsNil() {
		return "", nil, false
	}
	c := reflect.New(rv.Type()).Elem()
	c.Set(rv)
	f := c.FieldByName("value")
	inner := *(*reflect.Value)(unsafe.Pointer(f.UnsafeAddr()))
	if !inner.IsValid() || !inner.CanInterface() {
		return "", nil, false
	}
	v = inner.Interface()
	if _, _, nested := unwrapCell(v); nested {
		_, v, _ = unwrapCell(v)
	}
	return t.Elem().FieldByName("str").String(), v, true
}
