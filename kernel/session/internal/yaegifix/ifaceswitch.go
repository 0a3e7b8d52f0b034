package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// ifaceSwitchEdits makes an expression switch on a variable of interface
// type compare with ==. yaegi v0.16.1 converts the variable to the type of
// each case value (switch x { case "hello": } with x of type any), and
// fails with "reflect.Value.Convert: value of type interface {} cannot be
// converted to type string". switch x { case a, b: … } becomes switch {
// case x == (a) || x == (b): … }, Go's definition of the switch, where x
// is a name every declaration of which in the chunk gives an interface
// type (any, interface{…}, an interface type of the session (cellIface)
// or the chunk, or a conversion to one) and the case values call nothing
// but conversions, so that reading x again for each case reads the same
// value. A case value of interface type too (a name declared so, v.f with
// f a field of interface type of the chunk's struct types, or a call of a
// function of the chunk with one result of interface type) is compared as
// it is (x == y): the interpreter compares two interfaces of the cell's
// types in a switch by their wrappers, which hold the node that made the
// value, so that switch x { case y: } took default for x and y holding
// the same value made in two places; == (EqualityEdits) compares the
// values. A tag of those forms other than a name, or one beside a case
// value that calls a function, is read once into a variable of the
// switch (switch _sw := tag; { … }), where the switch has no init.
func ifaceSwitchEdits(cellIface func(string) bool) func(*token.FileSet, *ast.File, int, string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		return ifaceSwitchEditsIn(fset, f, off, src, cellIface)
	}
}

func ifaceSwitchEditsIn(fset *token.FileSet, f *ast.File, off int, src string, cellIface func(string) bool) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	types := map[string]bool{}  // type names the chunk declares
	ifaces := map[string]bool{} // interface type names the chunk declares
	ast.Inspect(f, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok {
			types[ts.Name.Name] = true
			if _, ok := ts.Type.(*ast.InterfaceType); ok && ts.TypeParams == nil {
				ifaces[ts.Name.Name] = true
			}
		}
		return true
	})
	isIface := func(t ast.Expr) bool {
		switch t := t.(type) {
		case *ast.InterfaceType:
			return true
		case *ast.Ident:
			return t.Name == "any" || ifaces[t.Name] || !types[t.Name] && cellIface != nil && cellIface(t.Name)
		}
		return false
	}
	// The functions of the chunk with one result, of interface type, and
	// the fields of its struct types by whether they are of one.
	ifaceFuncs := map[string]bool{}
	fields := map[string]int{} // 1: interface, 2: another type
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			r := n.Type.Results
			if n.Recv == nil && n.Type.TypeParams == nil && r != nil && len(r.List) == 1 && len(r.List[0].Names) <= 1 {
				ifaceFuncs[n.Name.Name] = isIface(r.List[0].Type)
			}
		case *ast.StructType:
			for _, fl := range n.Fields.List {
				for _, id := range fl.Names {
					if isIface(fl.Type) && fields[id.Name] != 2 {
						fields[id.Name] = 1
					} else {
						fields[id.Name] = 2
					}
				}
			}
		}
		return true
	})
	// ifaceCall reports whether x calls such a function.
	ifaceCall := func(x ast.Expr) bool {
		c, ok := unparen(x).(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := unparen(c.Fun).(*ast.Ident)
		return ok && ifaceFuncs[id.Name]
	}
	state := map[string]int{} // 1: interface, 2: another or unknown type
	mark := func(id *ast.Ident, iface bool) {
		if iface && state[id.Name] != 2 {
			state[id.Name] = 1
		} else {
			state[id.Name] = 2
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for _, id := range n.Names {
				mark(id, n.Type != nil && isIface(n.Type))
			}
		case *ast.Field:
			for _, id := range n.Names {
				mark(id, isIface(n.Type))
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for k, l := range n.Lhs {
					id, ok := l.(*ast.Ident)
					if !ok {
						continue
					}
					iface := false
					if len(n.Lhs) == len(n.Rhs) {
						if c, ok := n.Rhs[k].(*ast.CallExpr); ok && len(c.Args) == 1 {
							fun := unparen(c.Fun)
							iface = isIface(fun)
						}
						iface = iface || ifaceCall(n.Rhs[k])
					}
					mark(id, iface)
				}
			}
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				if id, ok := x.(*ast.Ident); ok {
					mark(id, false)
				}
			}
		case *ast.FuncDecl:
			mark(n.Name, false)
		case *ast.TypeSpec:
			mark(n.Name, false)
		}
		return true
	})
	// conversionsOnly reports whether x calls nothing but conversions to
	// predeclared types and types the chunk declares.
	// constantLike reports whether x is made of literals, nil, true,
	// false, operators and conversions to predeclared types (or pointers
	// to them) only: values == compares with the interface as Go does.
	var constantLike func(x ast.Expr) bool
	constantLike = func(x ast.Expr) bool {
		predeclared := func(x ast.Expr) bool {
			id, ok := x.(*ast.Ident)
			return ok && (numericTypes[id.Name] || basicTypes[id.Name]) && state[id.Name] == 0
		}
		switch x := unparen(x).(type) {
		case *ast.BasicLit:
			return true
		case *ast.Ident:
			return (x.Name == "nil" || x.Name == "true" || x.Name == "false") && state[x.Name] == 0
		case *ast.UnaryExpr:
			return x.Op != token.ARROW && x.Op != token.AND && constantLike(x.X)
		case *ast.BinaryExpr:
			return constantLike(x.X) && constantLike(x.Y)
		case *ast.CallExpr:
			if len(x.Args) != 1 || !constantLike(x.Args[0]) {
				return false
			}
			fun := unparen(x.Fun)
			if st, ok := fun.(*ast.StarExpr); ok {
				fun = st.X
			}
			return predeclared(fun)
		}
		return false
	}
	// A value of a type the chunk declares is held in an interface as
	// the type it is declared from, which == with a constant cannot tell
	// from it.
	concrete := false
	for name := range types {
		if !ifaces[name] {
			concrete = true
		}
	}
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok {
			return true
		}
		// iface reports whether id names an interface variable; a name
		// the switch's own statement defines has the type it gives.
		iface := func(id *ast.Ident) bool {
			known := state[id.Name] == 1
			if as, ok := sw.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) == len(as.Rhs) {
				for k, l := range as.Lhs {
					if l, ok := l.(*ast.Ident); ok && l.Name == id.Name {
						c, ok := as.Rhs[k].(*ast.CallExpr)
						known = ok && len(c.Args) == 1 && isIface(unparen(c.Fun))
					}
				}
			}
			return known
		}
		if sw.Tag == nil {
			if concrete {
				return true
			}
			// switch { case x: } compares true == x.
			for _, st := range sw.Body.List {
				for _, x := range st.(*ast.CaseClause).List {
					if id, ok := x.(*ast.Ident); ok && iface(id) {
						edits = append(edits, edit{pos(id.Pos()), pos(id.Pos()), "true == "})
					}
				}
			}
			return true
		}
		// ifaceField reports whether x is v.f, v a name and f a field of
		// interface type.
		ifaceField := func(x ast.Expr) bool {
			sel, ok := unparen(x).(*ast.SelectorExpr)
			if !ok {
				return false
			}
			_, ok = unparen(sel.X).(*ast.Ident)
			return ok && fields[sel.Sel.Name] == 1
		}
		// ifaceValue reports whether a case value is of interface type
		// as the tag is: a name, a field or a call.
		ifaceValue := func(x ast.Expr) bool {
			y, ok := unparen(x).(*ast.Ident)
			return ok && iface(y) || ifaceField(x) || ifaceCall(x)
		}
		tag := unparen(sw.Tag)
		id, ok := tag.(*ast.Ident)
		if !(ok && iface(id) || ifaceField(tag) || ifaceCall(tag)) {
			return true
		}
		calls := ifaceCall(tag) // a case value calls a function
		for _, st := range sw.Body.List {
			for _, x := range st.(*ast.CaseClause).List {
				switch {
				case ifaceValue(x):
					calls = calls || ifaceCall(x)
				case concrete || !constantLike(x):
					return true
				}
			}
		}
		// The tag is read once, as Go does, into a variable of the
		// switch where a call could change it between the cases.
		name := src[pos(tag.Pos()):pos(tag.End())]
		if calls || !ok {
			if sw.Init != nil {
				return true
			}
			name = fmt.Sprintf("_sw%d", pos(sw.Pos()))
			edits = append(edits, edit{pos(sw.Tag.Pos()), pos(sw.Tag.End()), name + " := " + src[pos(sw.Tag.Pos()):pos(sw.Tag.End())] + ";"})
		} else {
			edits = append(edits, edit{pos(sw.Tag.Pos()), pos(sw.Tag.End()), ""})
		}
		for _, st := range sw.Body.List {
			cc := st.(*ast.CaseClause)
			if len(cc.List) == 0 {
				continue
			}
			var b strings.Builder
			for k, x := range cc.List {
				if k > 0 {
					b.WriteString(" || ")
				}
				if ifaceValue(x) {
					b.WriteString(name + " == " + src[pos(x.Pos()):pos(x.End())])
				} else {
					b.WriteString(name + " == interface{}(" + src[pos(x.Pos()):pos(x.End())] + ")")
				}
			}
			edits = append(edits, edit{pos(cc.List[0].Pos()), pos(cc.List[len(cc.List)-1].End()), b.String()})
		}
		return true
	})
	return edits
}
