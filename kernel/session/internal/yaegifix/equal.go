package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"unsafe"

	"github.com/traefik/yaegi/interp"
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
// variable, operations on them: a constant given to Equal would take its
// default type), where both operands are plainly of no interface type
// (arithmetic, a comparison, a unary expression, len or cap, a
// conversion to a basic type, a composite literal of a type the cell
// declares as no interface, a variable declared in the cell only with
// such a type or from such a value (concreteNames), or one of an earlier
// cell that isConcrete reports), in constant declarations, and in cells
// when neither they nor the session (methods) declare a method. isVar
// reports the variables of earlier cells.
func EqualityEdits(p *Plan, isVar, isConcrete func(string) bool, sessionTypes []string, methods bool) {
	files := make([]*chunkFile, len(p.Chunks))
	vars, consts := map[string]bool{}, map[string]bool{}
	for i, c := range p.Chunks {
		pf := parseChunk(c, c.Src)
		if pf == nil {
			continue
		}
		files[i] = pf
		declaredNames(pf.f, vars, consts, &methods)
	}
	if !methods {
		return
	}
	var fs []*ast.File
	for _, pf := range files {
		if pf != nil {
			fs = append(fs, pf.f)
		}
	}
	concrete, info := concreteNames(fs, sessionTypes)
	isVariable := func(name string) bool {
		if consts[name] {
			return false
		}
		return vars[name] || isVar != nil && isVar(name)
	}
	isConcreteVar := func(name string) bool {
		return concrete[name] || !vars[name] && isConcrete != nil && isConcrete(name)
	}
	// rewritten reports whether the comparison of x and y goes through
	// Equal: neither may be an untyped constant, and one may be an
	// interface.
	rewritten := func(x, y ast.Expr) bool {
		if mayBeConstant(x, isVariable) || mayBeConstant(y, isVariable) {
			return false
		}
		return !noInterface(x, isConcreteVar, info) || !noInterface(y, isConcreteVar, info)
	}
	rewrite := func(pf *chunkFile, src string) string {
		pos := func(p token.Pos) int { return pf.fset.Position(p).Offset - pf.off }
		var edits []edit
		ast.Inspect(pf.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				return n.Tok != token.CONST
			case *ast.ArrayType:
				return false // a length is constant
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ || !rewritten(n.X, n.Y) {
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
		if pf := parseChunk(p.Chunks[len(p.Chunks)-1], p.Unwrapped); pf != nil {
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
		case *ast.TypeSpec:
			if !n.Assign.IsValid() {
				// the interpreter represents it by another type (EqualIn)
				*methods = true
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

// mayBeConstant reports whether the operand x of a comparison may be an
// untyped constant (see EqualityEdits): a literal, nil, true, false, iota,
// a name not known as a variable, a selector of a package or a name not
// known, or an operation on such operands only.
func mayBeConstant(x ast.Expr, isVariable func(string) bool) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return !isVariable(x.Name)
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && !isVariable(id.Name)
	case *ast.BinaryExpr:
		return mayBeConstant(x.X, isVariable) && mayBeConstant(x.Y, isVariable)
	case *ast.UnaryExpr:
		return x.Op != token.AND && x.Op != token.ARROW && mayBeConstant(x.X, isVariable)
	case *ast.CallExpr:
		// len and cap of a constant, complex, real, imag of constants
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && !isVariable(id.Name) {
			switch id.Name {
			case "len", "cap", "complex", "real", "imag", "min", "max":
				for _, a := range x.Args {
					if !mayBeConstant(a, isVariable) {
						return false
					}
				}
				return true
			}
		}
	}
	return false
}

// noInterface reports whether the operand x of a comparison is plainly
// not of an interface type: arithmetic, a comparison, a unary expression,
// len or cap, a conversion to a basic type or to a type info reports as
// no interface, a function literal, a composite literal of such a type, a
// variable concrete reports, or a field of such a type of a variable of
// a struct type the cells declare (or of an earlier cell's variable that
// concrete reports, given "v.f").
func noInterface(x ast.Expr, concrete func(string) bool, info *concreteInfo) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.BasicLit, *ast.BinaryExpr, *ast.FuncLit:
		return true
	case *ast.CompositeLit:
		return x.Type != nil && info.concreteType(x.Type)
	case *ast.UnaryExpr:
		return x.Op != token.ARROW
	case *ast.Ident:
		return concrete(x.Name)
	case *ast.SelectorExpr:
		v, ok := x.X.(*ast.Ident)
		if !ok {
			return false
		}
		if t, ok := info.varType[v.Name]; ok {
			ft := info.fieldType(t, x.Sel.Name)
			return ft != nil && info.concreteType(ft)
		}
		return !info.local[v.Name] && concrete(v.Name+"."+x.Sel.Name)
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && !concrete(id.Name) && basicConversions[id.Name] {
			return true
		}
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && len(x.Args) == 1 && !info.local[id.Name] && info.isType(id.Name) {
			return info.concreteType(id) // a conversion T(v)
		}
		if _, ok := ast.Unparen(x.Fun).(*ast.ArrayType); ok {
			return true // []byte(s)
		}
	}
	return false
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

// EqualIn is Equal for the interpreter it, which also stops the cell
// (panics) where two values the interpreter hands over unwrapped are
// equal and of a type by which it represents a type declared in the
// cells without methods (hasMethods reports the types with methods, whose
// values in interfaces the interpreter may wrap): a value of type U16
// uint16 arrives as a uint16, so that any(U16(1)) == any(uint16(1)) would
// be true where Go's is false.
func EqualIn(it *interp.Interpreter, hasMethods func(string) bool, a, b any) bool {
	_, _, wa := unwrapCell(a)
	_, _, wb := unwrapCell(b)
	checkStandIns(it, a, b)
	eq := Equal(a, b)
	if !eq || wa || wb || a == nil {
		return eq
	}
	if reflect.TypeOf(a).Kind() == reflect.Struct {
		// A struct type a cell declares is represented by an unnamed
		// struct with renamed fields, which other types do not share
		// unless they are declared alike.
		if names := cellTypeRepNames(it)[reflect.TypeOf(a)]; len(names) > 1 {
			panic(Refused + "== of interfaces holding values of the types " + strings.Join(names, " or ") + " declared in cells, " +
				"which the interpreter represents by one type (" + reflect.TypeOf(a).String() + "): it cannot tell them apart; " +
				"compare values of known types (assert to one first), or give the types different fields")
		}
		return eq
	}
	// Any of the types it represents so that has no methods: another
	// with methods may share the representation (T and U int).
	for _, name := range cellTypeRepNames(it)[reflect.TypeOf(a)] {
		if !hasMethods(name) {
			panic(Refused + "== of interfaces holding values of type " + reflect.TypeOf(a).String() + ", by which the interpreter also represents the type " +
				name + " declared in a cell: it cannot tell the two types apart; compare values of known types (convert or assert to " + name + " first)")
		}
	}
	return eq
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

// concreteInfo is what concreteNames finds out about the types of a
// cell and the session.
type concreteInfo struct {
	typeDefs map[string]ast.Expr // a type's definition; nil when unknown
	// varType is the type a variable of the cell is declared with, when
	// it has one only (var x T, a parameter, x := T{…} or &T{…}).
	varType      map[string]ast.Expr
	local        map[string]bool // the names the cell declares otherwise
	concreteType func(t ast.Expr) bool
}

// isType reports whether name is a type the cells declared.
func (c *concreteInfo) isType(name string) bool {
	_, ok := c.typeDefs[name]
	return ok
}

// fieldType returns the type of the field f of the struct type t (a name
// the cells declared, or a pointer to one), or nil.
func (c *concreteInfo) fieldType(t ast.Expr, f string) ast.Expr {
	t = ast.Unparen(t)
	if star, ok := t.(*ast.StarExpr); ok {
		t = ast.Unparen(star.X)
	}
	for range 5 {
		id, ok := t.(*ast.Ident)
		if !ok {
			break
		}
		t = ast.Unparen(c.typeDefs[id.Name])
	}
	st, ok := t.(*ast.StructType)
	if !ok {
		return nil
	}
	for _, field := range st.Fields.List {
		for _, n := range field.Names {
			if n.Name == f {
				return field.Type
			}
		}
	}
	return nil
}

// concreteNames returns the names that the files declare only as
// variables of types that are not interfaces: with such a type (var x
// int, parameters), or defined from a literal, arithmetic, a conversion to
// a basic type, len or cap, or a composite literal of such a type; and
// what it learnt of the types of the files and of the session's types
// (sessionTypes: the declarations earlier cells made, "T int").
func concreteNames(files []*ast.File, sessionTypes []string) (map[string]bool, *concreteInfo) {
	typeDefs := map[string]ast.Expr{}
	for _, src := range sessionTypes {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype "+src, 0)
		if err != nil {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if ts.TypeParams != nil || ts.Assign.IsValid() {
					typeDefs[ts.Name.Name] = nil
				} else {
					typeDefs[ts.Name.Name] = ts.Type
				}
			}
			return true
		})
	}
	cellTypes := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if cellTypes[ts.Name.Name] || ts.TypeParams != nil {
					typeDefs[ts.Name.Name] = nil
				} else {
					typeDefs[ts.Name.Name] = ts.Type
				}
				cellTypes[ts.Name.Name] = true
			}
			return true
		})
	}
	var concreteType func(t ast.Expr, depth int) bool
	concreteType = func(t ast.Expr, depth int) bool {
		switch t := ast.Unparen(t).(type) {
		case *ast.Ident:
			if def, ok := typeDefs[t.Name]; ok {
				return def != nil && depth < 5 && concreteType(def, depth+1)
			}
			o := types.Universe.Lookup(t.Name)
			if tn, ok := o.(*types.TypeName); ok {
				_, iface := tn.Type().Underlying().(*types.Interface)
				return !iface
			}
			return false
		case *ast.StarExpr, *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.StructType:
			return true
		case *ast.SelectorExpr:
			if pkg, ok := t.X.(*ast.Ident); ok {
				if rt := stdlibType(pkg.Name, t.Sel.Name); rt != nil {
					return rt.Kind() != reflect.Interface
				}
			}
		}
		return false
	}
	concreteValue := func(x ast.Expr) bool {
		switch x := ast.Unparen(x).(type) {
		case *ast.BasicLit, *ast.BinaryExpr:
			return true
		case *ast.UnaryExpr:
			return x.Op != token.ARROW
		case *ast.Ident:
			return x.Name == "true" || x.Name == "false"
		case *ast.CompositeLit:
			return x.Type != nil && concreteType(x.Type, 0)
		case *ast.CallExpr:
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
				if basicConversions[id.Name] && typeDefs[id.Name] == nil {
					_, shadow := typeDefs[id.Name]
					return !shadow
				}
				if def, ok := typeDefs[id.Name]; ok && def != nil && len(x.Args) == 1 {
					return concreteType(id, 0) // a conversion T(v)
				}
			}
		}
		return false
	}
	yes, no := map[string]bool{}, map[string]bool{}
	varType, local := map[string]ast.Expr{}, map[string]bool{}
	typed := func(id *ast.Ident, t ast.Expr) {
		if id == nil || id.Name == "_" {
			return
		}
		if old, ok := varType[id.Name]; ok && (old == nil || t == nil || types.ExprString(old) != types.ExprString(t)) {
			t = nil
		}
		varType[id.Name] = t
	}
	mark := func(id *ast.Ident, concrete bool) {
		if id == nil || id.Name == "_" {
			return
		}
		local[id.Name] = true
		if concrete {
			yes[id.Name] = true
		} else {
			no[id.Name] = true
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, id := range n.Names {
					switch {
					case n.Type != nil:
						typed(id, n.Type)
						mark(id, concreteType(n.Type, 0))
					case len(n.Values) == len(n.Names):
						typed(id, litType(n.Values[i]))
						mark(id, concreteValue(n.Values[i]))
					default:
						typed(id, nil)
						mark(id, false)
					}
				}
			case *ast.Field:
				for _, id := range n.Names {
					typed(id, n.Type)
					mark(id, concreteType(n.Type, 0))
				}
			case *ast.FuncDecl:
				if n.Recv == nil {
					typed(n.Name, nil)
					local[n.Name.Name] = true
				}
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE {
					return true
				}
				for i, l := range n.Lhs {
					id, _ := l.(*ast.Ident)
					if len(n.Lhs) == len(n.Rhs) {
						typed(id, litType(n.Rhs[i]))
					} else {
						typed(id, nil)
					}
					mark(id, len(n.Lhs) == len(n.Rhs) && concreteValue(n.Rhs[i]))
				}
			case *ast.RangeStmt:
				for _, x := range []ast.Expr{n.Key, n.Value} {
					id, _ := x.(*ast.Ident)
					typed(id, nil)
					mark(id, false)
				}
			case *ast.TypeSwitchStmt:
				if as, ok := n.Assign.(*ast.AssignStmt); ok {
					for _, l := range as.Lhs {
						id, _ := l.(*ast.Ident)
						typed(id, nil)
						mark(id, false)
					}
				}
			}
			return true
		})
	}
	out := map[string]bool{}
	for name := range yes {
		if !no[name] {
			out[name] = true
		}
	}
	return out, &concreteInfo{
		typeDefs:     typeDefs,
		varType:      varType,
		local:        local,
		concreteType: func(t ast.Expr) bool { return concreteType(t, 0) },
	}
}

// litType returns T for a composite literal T{…} or &T{…}, *T for the
// latter, and nil for other values.
func litType(x ast.Expr) ast.Expr {
	x = ast.Unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		if c, ok := ast.Unparen(u.X).(*ast.CompositeLit); ok && c.Type != nil {
			return &ast.StarExpr{X: c.Type}
		}
		return nil
	}
	if c, ok := x.(*ast.CompositeLit); ok {
		return c.Type
	}
	return nil
}

// checkStandIns stops the cell (panics) where a or b is the interpreter's
// wrapper of a cell value for a compiled interface (error's interp._error:
// see unwrapInterp) that may stand for a value of a struct type of the
// cells, whose wrapper holds the struct's last field instead of the value
// (the interpreter's getConcreteValue): err == H{1}, with err returned as
// an error by a function, was false where Go's is true. It stops when the
// other operand is of such a struct type and the wrapper may hold its
// last field, and when both are wrappers with equal insides that a struct
// type of the cells with methods may hold as its last field.
func checkStandIns(it *interp.Interpreter, a, b any) {
	wa, wb := unwrapInterp(reflect.ValueOf(a)), unwrapInterp(reflect.ValueOf(b))
	if !wa.IsValid() && !wb.IsValid() {
		return
	}
	stop := func(typ string) {
		panic(Refused + "== of an interface holding a value of a struct type of the cell (" + typ + ") that went through a compiled interface such as " +
			"error (returned as an error): the interpreter keeps the struct's last field there, not the value, so that the comparison may differ " +
			"from Go's; declare the methods on a pointer receiver and compare pointers, or compare the fields after an assertion of a pointer type")
	}
	for _, p := range [][2]any{{a, b}, {b, a}} {
		w, other := unwrapInterp(reflect.ValueOf(p[0])), p[1]
		if !w.IsValid() || other == nil {
			continue
		}
		if t := reflect.TypeOf(other); t != w.Type() && mayHoldStruct(w, t) {
			stop(t.String())
		}
	}
	if !wa.IsValid() || !wb.IsValid() || wa.Type() != wb.Type() || !wa.Type().Comparable() || wa.Interface() != wb.Interface() {
		return
	}
	ft := readFmtTypes(it)
	na, exactA := ft.candidates(reflect.ValueOf(a))
	nb, exactB := ft.candidates(reflect.ValueOf(b))
	if len(na) > 0 && len(nb) > 0 && !(exactA && exactB && na[0] == nb[0]) {
		stop(strings.Join(append(na, nb...), ", "))
	}
}

// A chunkFile is the source of a chunk parsed, as a file of a package for
// declarations or as the body of a function for statements, with the
// offset of the chunk's first byte.
type chunkFile struct {
	fset *token.FileSet
	f    *ast.File
	off  int
}

// parseChunk parses src, the source of chunk c or a version of it; nil if
// it does not parse.
func parseChunk(c Chunk, src string) *chunkFile {
	prefix, suffix := stmtPrefix, "\n}"
	if c.Decl {
		prefix, suffix = "package p\n", ""
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", prefix+src+suffix, 0)
	if err != nil {
		return nil
	}
	return &chunkFile{fset, f, len(prefix)}
}
