package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/stdlib"
)

// lacksMethodFunc is the interpreted name of LacksValueMethod.
const lacksMethodFunc = "_portlab.LacksValueMethod"

// The type categories of yaegi v0.16.1 (its tcat constants) that
// LacksValueMethod tells apart; the probe "method set of a value"
// fails if they move.
const (
	yaegiInterfaceT = 18
	yaegiLinkedT    = 24
	yaegiPtrT       = 26
	yaegiStructT    = 30
)

// methodSetEdits makes the comma-ok assertions to an interface type give
// false for a value whose method set lacks a method of the interface
// that its pointer type has. yaegi v0.16.1 adds the methods declared on
// *T to the methods of T, and its assertion x.(I) succeeded for a value of
// type T (or of a struct type embedding T) when I has a method declared
// with a pointer receiver, silently (Go's interface/receiver.go). After
// the statement, LacksValueMethod checks the value the assertion
// succeeded for:
//
//	v, ok := x.(I); if ok && _portlab.LacksValueMethod(x, "M") { v, ok = nil, false }
//
// An x that calls a function is evaluated once, into a temporary, before
// the statement; in the init of an if or switch statement the check is
// added to the condition or tag's operand by a function literal. The
// interface types are those of assertEdits.
func methodSetEdits(isIface func(string) bool, ifaces map[string]*ast.InterfaceType) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		var edits []edit
		// commaOk returns the parts of a comma-ok assertion to an
		// interface type with methods.
		commaOk := func(st ast.Stmt) (lhs []ast.Expr, ta *ast.TypeAssertExpr) {
			as, ok := st.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 || as.Tok != token.DEFINE && as.Tok != token.ASSIGN {
				return nil, nil
			}
			ta, ok = ast.Unparen(as.Rhs[0]).(*ast.TypeAssertExpr)
			if !ok || ta.Type == nil || !isInterfaceType(ta.Type, isIface) || hasFuncLit(ta.X) {
				return nil, nil
			}
			if id, ok := as.Lhs[1].(*ast.Ident); !ok || id.Name == "_" {
				// The status is not kept: nothing to correct, but for a
				// value kept in a blank status (rare) a nil is left.
				if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name == "_" {
					return nil, nil
				}
			}
			return as.Lhs, ta
		}
		// fix returns the statement correcting the results.
		fix := func(lhs []ast.Expr, x string, typ ast.Expr) string {
			name, methods := interfaceName(typ), interfaceMethodList(typ, ifaces)
			v, ok := exprText(src, pos, lhs[0]), exprText(src, pos, lhs[1])
			okName := ok
			if ok == "_" {
				okName = "true"
			}
			var assign []string
			var values []string
			if v != "_" {
				assign, values = append(assign, v), append(values, "nil")
			}
			if ok != "_" {
				assign, values = append(assign, ok), append(values, "false")
			}
			return fmt.Sprintf("if %s && %s(%s, %q, %q) { %s = %s }", okName, lacksMethodFunc, x, name, methods,
				strings.Join(assign, ", "), strings.Join(values, ", "))
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IfStmt:
				if n.Init == nil {
					return true
				}
				lhs, ta := commaOk(n.Init)
				if ta == nil || hasCallOrReceive(ta.X) {
					return true
				}
				check := fix(lhs, exprText(src, pos, ta.X), ta.Type)
				edits = append(edits,
					edit{pos(n.Cond.Pos()), pos(n.Cond.Pos()), "func() bool { " + check + "; return "},
					edit{pos(n.Cond.End()), pos(n.Cond.End()), " }()"})
				return true
			}
			for _, st := range stmtList(n) {
				// switch v, ok := x.(I); … { … }: the init goes before the
				// switch, in a block of its own, with the correction.
				sw := st
				if l, ok := sw.(*ast.LabeledStmt); ok {
					sw = l.Stmt
				}
				if sw, ok := sw.(*ast.SwitchStmt); ok && sw.Init != nil {
					if lhs, ta := commaOk(sw.Init); ta != nil && !hasCallOrReceive(ta.X) {
						edits = append(edits,
							edit{pos(st.Pos()), pos(st.Pos()), "{ " + exprText(src, pos, sw.Init) + "; " + fix(lhs, exprText(src, pos, ta.X), ta.Type) + "; "},
							edit{pos(sw.Init.Pos()), pos(sw.Init.End()), ""},
							edit{pos(st.End()), pos(st.End()), " }"})
					}
					continue
				}
				lhs, ta := commaOk(st)
				if ta == nil {
					continue
				}
				x := exprText(src, pos, ta.X)
				if hasCallOrReceive(ta.X) {
					tmp := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
					edits = append(edits,
						edit{pos(st.Pos()), pos(st.Pos()), tmp + " := " + x + "; "},
						edit{pos(ta.X.Pos()), pos(ta.X.End()), tmp})
					x = tmp
				}
				edits = append(edits, edit{pos(st.End()), pos(st.End()), "; " + fix(lhs, x, ta.Type)})
			}
			return true
		})
		return edits
	}
}

// interfaceMethods returns the method names of the interface type x, its
// embedded interfaces' included, as far as ifaces (the interface types of
// the cell) and the standard library show them; ok is false where a name
// is not found.
func interfaceMethods(x ast.Expr, ifaces map[string]*ast.InterfaceType, depth int) (names []string, ok bool) {
	if depth > 10 {
		return nil, false
	}
	var it *ast.InterfaceType
	switch x := ast.Unparen(x).(type) {
	case *ast.InterfaceType:
		it = x
	case *ast.Ident:
		if x.Name == "error" {
			return []string{"Error"}, true
		}
		if it = ifaces[x.Name]; it == nil {
			// Declared in an earlier cell: LacksValueMethod reads it.
			return []string{"@" + x.Name}, true
		}
	case *ast.SelectorExpr:
		pkg, isIdent := x.X.(*ast.Ident)
		if !isIdent || !stdlibInterfaces()[pkg.Name+"."+x.Sel.Name] {
			return nil, false
		}
		for path, syms := range stdlib.Symbols {
			if path[strings.LastIndex(path, "/")+1:] != pkg.Name {
				continue
			}
			if v, ok := syms[x.Sel.Name]; ok && v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Interface {
				t := v.Type().Elem()
				for i := range t.NumMethod() {
					names = append(names, t.Method(i).Name)
				}
				return names, true
			}
		}
		return nil, false
	default:
		return nil, false
	}
	if it.Methods == nil {
		return nil, true
	}
	for _, f := range it.Methods.List {
		if len(f.Names) == 0 {
			more, ok := interfaceMethods(f.Type, ifaces, depth+1)
			if !ok {
				return nil, false
			}
			names = append(names, more...)
			continue
		}
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	return names, true
}

// InterfaceMethods returns the method names of the interface type a cell
// declared as src ("I interface { M() }", as Plan.TypeSrcs holds it), its
// embedded interfaces looked up by srcOf; "" where one is not found.
func InterfaceMethods(src string, srcOf func(name string) (string, bool)) string {
	ifaces := map[string]*ast.InterfaceType{}
	var add func(src string, depth int) *ast.InterfaceType
	add = func(src string, depth int) *ast.InterfaceType {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype "+src, 0)
		if err != nil || len(f.Decls) != 1 {
			return nil
		}
		ts, ok := f.Decls[0].(*ast.GenDecl).Specs[0].(*ast.TypeSpec)
		if !ok {
			return nil
		}
		it, ok := ts.Type.(*ast.InterfaceType)
		if !ok {
			return nil
		}
		ifaces[ts.Name.Name] = it
		if depth < 10 && it.Methods != nil {
			for _, fd := range it.Methods.List {
				if id, ok := fd.Type.(*ast.Ident); ok && len(fd.Names) == 0 && ifaces[id.Name] == nil {
					if s, ok := srcOf(id.Name); ok {
						add(s, depth+1)
					}
				}
			}
		}
		return it
	}
	it := add(src, 0)
	if it == nil {
		return ""
	}
	names, ok := interfaceMethods(it, ifaces, 0)
	if !ok {
		return ""
	}
	return strings.Join(names, " ")
}

// LacksValueMethod reports whether x, a value of a cell's type the
// interpreter holds in an interface, lacks a method of the interface
// iface of an assertion in Go's method set of its type: the method is
// declared with a pointer receiver and the type is not a pointer (see
// methodSetEdits). methods names the interface's methods (separated by
// spaces), and @I an interface I an earlier cell declared, whose methods
// are read from its declaration, which srcOf returns. It reads
// the interpreter's type of the value by reflection and answers false for
// what it does not recognise; where the methods are unknown and the type
// has a method of pointer receiver, it stops the cell.
func LacksValueMethod(x any, iface, methods string, srcOf func(name string) (string, bool)) bool {
	v := reflect.ValueOf(x)
	if !v.IsValid() || v.Kind() != reflect.Struct || v.Type().String() != "interp.valueInterface" {
		return false
	}
	n := v.FieldByName("node")
	if !n.IsValid() || n.Kind() != reflect.Pointer || n.IsNil() {
		return false
	}
	t := n.Elem().FieldByName("typ")
	unknown := func(name string) {
		if m := anyPointerMethod(t); m != "" {
			panic(Refused + "an assertion to " + name + ", an interface whose methods the kernel does not know, of a value whose type has the method " + m +
				" with a pointer receiver: the interpreter counts such methods in the method set of the value's type, unlike Go; " +
				"assert to an interface the cell declares, or store a pointer in the interface")
		}
	}
	if methods == "" {
		unknown(iface)
		return false
	}
	for _, m := range strings.Fields(methods) {
		if name, ok := strings.CutPrefix(m, "@"); ok {
			// An interface of an earlier cell.
			ms := ""
			if srcOf != nil {
				if src, ok := srcOf(name); ok {
					ms = InterfaceMethods(src, srcOf)
				}
			}
			if ms == "" {
				unknown(name)
			} else if LacksValueMethod(x, name, ms, srcOf) {
				return true
			}
			continue
		}
		if itypeMethod(t, m, 0) == pointerMethod {
			return true
		}
	}
	return false
}

// anyPointerMethod returns the name of a method the interpreter's type t
// (an *itype) holds with a pointer receiver, "" if none or t is a pointer.
func anyPointerMethod(t reflect.Value) string {
	if !t.IsValid() || t.Kind() != reflect.Pointer || t.IsNil() {
		return ""
	}
	e := t.Elem()
	if e.FieldByName("cat").Uint() == yaegiPtrT {
		return ""
	}
	ms := e.FieldByName("method")
	for i := range ms.Len() {
		if m := ms.Index(i); !m.IsNil() {
			name := m.Elem().FieldByName("ident").String()
			if itypeMethod(t, name, 0) == pointerMethod {
				return name
			}
		}
	}
	return ""
}

// A methodKind says how a type has a method.
type methodKind int

const (
	unknownMethod methodKind = iota // not found, or a type not recognised
	valueMethod                     // in the method set of the type
	pointerMethod                   // only in the method set of its pointer type
)

// itypeMethod says how the interpreter's type t (an *itype) has the
// method name.
func itypeMethod(t reflect.Value, name string, depth int) methodKind {
	if depth > 10 || !t.IsValid() || t.Kind() != reflect.Pointer || t.IsNil() {
		return unknownMethod
	}
	e := t.Elem()
	cat, ms := e.FieldByName("cat"), e.FieldByName("method")
	if !cat.IsValid() || !ms.IsValid() || ms.Kind() != reflect.Slice {
		return unknownMethod
	}
	switch cat.Uint() {
	case yaegiPtrT:
		return unknownMethod // a pointer type has all the methods the interpreter finds
	case yaegiInterfaceT:
		return unknownMethod
	}
	for i := range ms.Len() {
		m := ms.Index(i)
		if m.IsNil() || m.Elem().FieldByName("ident").String() != name {
			continue
		}
		if receiverIsPointer(m) {
			return pointerMethod
		}
		return valueMethod
	}
	switch cat.Uint() {
	case yaegiLinkedT:
		return itypeMethod(e.FieldByName("val"), name, depth+1)
	case yaegiStructT:
		fields := e.FieldByName("field")
		for i := range fields.Len() {
			fd := fields.Index(i)
			if !fd.FieldByName("embed").Bool() {
				continue
			}
			ft := fd.FieldByName("typ")
			if ft.IsNil() {
				continue
			}
			if ft.Elem().FieldByName("cat").Uint() == yaegiPtrT {
				// Through an embedded pointer, all the methods of its
				// element are promoted.
				if itypeMethod(ft.Elem().FieldByName("val"), name, depth+1) != unknownMethod {
					return valueMethod
				}
				continue
			}
			if k := itypeMethod(ft, name, depth+1); k != unknownMethod {
				return k
			}
		}
	}
	return unknownMethod
}

// receiverIsPointer reports whether the method declaration m (a *node of
// the interpreter: receiver list, name, type, body) has a receiver of
// pointer type.
func receiverIsPointer(m reflect.Value) bool {
	child := func(n reflect.Value, i int) reflect.Value {
		if !n.IsValid() || n.IsNil() {
			return reflect.Value{}
		}
		c := n.Elem().FieldByName("child")
		if i < 0 {
			i += c.Len()
		}
		if i < 0 || i >= c.Len() {
			return reflect.Value{}
		}
		return c.Index(i)
	}
	rt := child(child(child(m, 0), 0), -1) // the receiver's type expression
	if !rt.IsValid() || rt.IsNil() {
		return false
	}
	typ := rt.Elem().FieldByName("typ")
	return typ.IsValid() && !typ.IsNil() && typ.Elem().FieldByName("cat").Uint() == yaegiPtrT
}

// interfaceTypes adds the interface types root declares to into.
func interfaceTypes(root ast.Node, into map[string]*ast.InterfaceType) {
	ast.Inspect(root, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.TypeParams == nil {
			if it, ok := ast.Unparen(ts.Type).(*ast.InterfaceType); ok {
				into[ts.Name.Name] = it
			}
		}
		return true
	})
}

// pointerMethodOf returns the name of the interpreter's type of x (a
// value of a cell's type in an interface) and the first of methods that
// its method set lacks for a pointer receiver; "", "" if none.
func pointerMethodOf(x any, methods string) (typ, method string) {
	v := reflect.ValueOf(x)
	if !v.IsValid() || v.Kind() != reflect.Struct || v.Type().String() != "interp.valueInterface" {
		return "", ""
	}
	n := v.FieldByName("node")
	if !n.IsValid() || n.Kind() != reflect.Pointer || n.IsNil() {
		return "", ""
	}
	t := n.Elem().FieldByName("typ")
	if !t.IsValid() || t.IsNil() {
		return "", ""
	}
	for _, m := range strings.Fields(methods) {
		if itypeMethod(t, m, 0) == pointerMethod {
			return t.Elem().FieldByName("str").String(), m
		}
	}
	return "", ""
}

// interfaceName returns the name of the interface type typ, "" for a
// literal or a qualified name.
func interfaceName(typ ast.Expr) string {
	if id, ok := ast.Unparen(typ).(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// interfaceMethodList returns the methods of the interface type typ as
// LacksValueMethod takes them, separated by spaces ("" where not found).
func interfaceMethodList(typ ast.Expr, ifaces map[string]*ast.InterfaceType) string {
	if ms, ok := interfaceMethods(typ, ifaces, 0); ok {
		return strings.Join(ms, " ")
	}
	return ""
}
