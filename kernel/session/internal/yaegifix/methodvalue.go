package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"strings"
)

// methodValueRefusals refuses the method values x.M of the cell (a
// selector that is not called) of a method M that the cell or an earlier
// cell declares with a value receiver. Go evaluates the receiver there
// and keeps a copy: f := p.M with a nil pointer p panics, and a change of
// *p or v after f := v.M is not seen by f. yaegi v0.16.1 keeps the
// variable instead: f saw the later value, and a nil pointer (also one
// embedded on the way to M) panicked only when f was called (Go's
// method5.go). The method of a go or defer statement, go v.M(…), is
// evaluated there too, and is refused alike. A method value is left alone where x is a variable
// defined with := and never assigned, incremented or taken the address
// of in the cell (a copy: r := *p; f := r.M), one declared only with an
// interface type, a composite literal or a call, and where M is also the
// name of a field of a struct type of the cell or the session (a
// function-typed field). sessionTypes and sessionMethods are the sources
// of the types of earlier cells and their methods' declarations; isVar
// reports the variables of earlier cells, whose changes after the method
// value cannot be followed: their method values are refused alike.
func methodValueRefusals(files []parsedChunk, sessionTypes []string, sessionMethods []CellMethod, isVar func(string) bool) error {
	var errs scanner.ErrorList
	methodValueSites(files, sessionTypes, sessionMethods, isVar, func(s methodValueSite) bool {
		errs.Add(s.pos, s.msg)
		return false
	})
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// A methodValueSite is a selector methodValueRefusals refuses: its chunk,
// the selector, whether M has a value receiver (not a pointer receiver
// that a go or defer statement evaluates), the position in the cell and
// the message.
type methodValueSite struct {
	p     parsedChunk
	sel   *ast.SelectorExpr
	value bool
	pos   token.Position
	msg   string
}

// methodValueSites calls visit with each selector methodValueRefusals
// refuses, in order, until visit returns false.
func methodValueSites(files []parsedChunk, sessionTypes []string, sessionMethods []CellMethod, isVar func(string) bool, visit func(methodValueSite) bool) {
	valueMethods := map[string]string{} // method name → receiver type
	ptrMethods := map[string]bool{}
	var assigned []string // the left sides of assignments, as text
	fields := map[string]bool{}
	addType := func(ts *ast.TypeSpec) {
		if st, ok := ast.Unparen(ts.Type).(*ast.StructType); ok {
			for _, f := range st.Fields.List {
				for _, n := range f.Names {
					fields[n.Name] = true
				}
				if len(f.Names) == 0 {
					fields[embeddedName(f.Type)] = true
				}
			}
		}
	}
	addMethod := func(d *ast.FuncDecl) {
		if d.Recv == nil || len(d.Recv.List) == 0 {
			return
		}
		if _, ptr := d.Recv.List[0].Type.(*ast.StarExpr); !ptr {
			valueMethods[d.Name.Name] = receiverName(d)
		} else {
			ptrMethods[d.Name.Name] = true
		}
	}
	for _, src := range sessionTypes {
		if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype "+src, 0); err == nil {
			ast.Inspect(f, func(n ast.Node) bool {
				if ts, ok := n.(*ast.TypeSpec); ok {
					addType(ts)
				}
				return true
			})
		}
	}
	for _, m := range sessionMethods {
		if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+m.Decl+" {}", 0); err == nil && len(f.Decls) == 1 {
			if d, ok := f.Decls[0].(*ast.FuncDecl); ok {
				addMethod(d)
			}
		}
	}
	defined := map[string]int{} // names defined by :=, by count
	changed := map[string]bool{}
	vars := map[string]bool{}
	consts := map[string]bool{}
	hasMethod := false
	typeParams := map[string]bool{}
	// Names declared only with an interface type (parameters, var x I):
	// a method value of an interface has nothing to copy.
	ifaceNames := map[string]bool{}
	for _, p := range files {
		interfaceNames(p.f, ifaceNames)
	}
	onlyIface := map[string]bool{}
	notIface := map[string]bool{}
	declType := func(names []*ast.Ident, typ ast.Expr) {
		for _, id := range names {
			if typ != nil && isInterfaceType(typ, func(n string) bool { return ifaceNames[n] }) {
				onlyIface[id.Name] = true
			} else {
				notIface[id.Name] = true
			}
		}
	}
	for _, p := range files {
		ast.Inspect(p.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				declType(n.Names, n.Type)
			case *ast.ValueSpec:
				declType(n.Names, n.Type)
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							notIface[id.Name] = true
						}
					}
				}
			case *ast.RangeStmt:
				for _, x := range []ast.Expr{n.Key, n.Value} {
					if id, ok := x.(*ast.Ident); ok {
						notIface[id.Name] = true
					}
				}
			}
			return true
		})
	}
	for _, p := range files {
		declaredNames(p.f, vars, consts, &hasMethod)
		ast.Inspect(p.f, func(n ast.Node) bool {
			var tps *ast.FieldList
			switch n := n.(type) {
			case *ast.FuncType:
				tps = n.TypeParams
			case *ast.TypeSpec:
				tps = n.TypeParams
			}
			if tps != nil {
				for _, f := range tps.List {
					for _, id := range f.Names {
						typeParams[id.Name] = true
					}
				}
			}
			switch n := n.(type) {
			case *ast.TypeSpec:
				addType(n)
			case *ast.FuncDecl:
				addMethod(n)
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if n.Tok != token.DEFINE {
						assigned = append(assigned, types.ExprString(ast.Unparen(l)))
					}
					if id, ok := ast.Unparen(l).(*ast.Ident); ok && n.Tok == token.DEFINE {
						defined[id.Name]++
					} else if name := rootVar(l); name != "" {
						// x = …, x.f = …, x[i] = …, *x = … change x.
						changed[name] = true
					}
				}
			case *ast.IncDecStmt:
				if name := rootVar(n.X); name != "" {
					changed[name] = true
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if name := rootVar(n.X); name != "" {
						changed[name] = true
					}
				}
			case *ast.RangeStmt:
				for _, x := range []ast.Expr{n.Key, n.Value} {
					if name := rootVar(x); x != nil && name != "" {
						changed[name] = true
					}
				}
			}
			return true
		})
	}
	if len(valueMethods) == 0 && len(ptrMethods) == 0 {
		return
	}
	// reassigned reports whether the cell assigns x, or a part of x's
	// expression (s or s.p for s.p), or defines it again with :=.
	reassigned := func(x ast.Expr) bool {
		text := types.ExprString(x)
		for _, a := range assigned {
			if a == text || strings.HasPrefix(text, a) && strings.ContainsAny(text[len(a):len(a)+1], ".[") {
				return true
			}
		}
		id, ok := x.(*ast.Ident)
		return ok && defined[id.Name] > 1
	}
	stopped := false
	for _, p := range files {
		called := map[*ast.SelectorExpr]bool{}
		// The method of a go or defer statement is evaluated at the
		// statement, receiver included, as a method value is.
		statement := map[*ast.SelectorExpr]string{}
		ast.Inspect(p.f, func(n ast.Node) bool {
			if stopped {
				return false
			}
			switch n := n.(type) {
			case *ast.GoStmt:
				if se, ok := ast.Unparen(n.Call.Fun).(*ast.SelectorExpr); ok {
					statement[se] = "go"
				}
			case *ast.DeferStmt:
				if se, ok := ast.Unparen(n.Call.Fun).(*ast.SelectorExpr); ok {
					statement[se] = "defer"
				}
			case *ast.CallExpr:
				if se, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && statement[se] == "" {
					called[se] = true
				}
			case *ast.SelectorExpr:
				recv, ok := valueMethods[n.Sel.Name]
				if kw := statement[n]; !ok && kw != "" && ptrMethods[n.Sel.Name] && !fields[n.Sel.Name] && reassigned(ast.Unparen(n.X)) {
					// A pointer receiver is evaluated at the statement
					// too: p.Inc() after which p = q incremented *q.
					pos := p.fset.Position(n.Pos())
					pos.Line += p.delta
					stopped = !visit(methodValueSite{p, n, false, pos, fmt.Sprintf(Refused+"%s %s.%s(…) where the cell assigns %s again: Go evaluates the receiver at the %s statement, "+
						"the interpreter when the call runs; copy it into a variable nothing assigns, r := %s, and write %s r.%s(…)",
						kw, types.ExprString(n.X), n.Sel.Name, types.ExprString(n.X), kw, types.ExprString(n.X), kw, n.Sel.Name)})
					return true
				}
				if !ok || called[n] || fields[n.Sel.Name] {
					return true
				}
				x := ast.Unparen(n.X)
				if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
					x = ast.Unparen(u.X)
				}
				switch x.(type) {
				case *ast.InterfaceType:
					return true // a method expression (methodExprEdits)
				case *ast.CompositeLit, *ast.CallExpr, *ast.IndexExpr, *ast.IndexListExpr:
					// A value nothing else holds (T{…}.M, (&T{…}).M), the
					// result of a call, or a method expression of a
					// generic type.
					if _, ok := x.(*ast.IndexExpr); !ok || isTypeName(x) {
						return true
					}
				}
				if id, ok := x.(*ast.Ident); ok {
					if !vars[id.Name] && isVar != nil && isVar(id.Name) && id.Name != recv {
						pos := p.fset.Position(n.Pos())
						pos.Line += p.delta
						stopped = !visit(methodValueSite{p, n, true, pos, fmt.Sprintf(Refused+"the method value %s.%s of a method with a value receiver, %s a variable of an earlier cell: Go copies the receiver "+
							"where the method value is made, the interpreter reads the variable when the function is called, and later cells may change it; "+
							"copy the receiver into a variable of this cell first, r := %s, and take r.%s", id.Name, n.Sel.Name, id.Name, id.Name, n.Sel.Name)})
						return true
					}
					if id.Name == recv || !vars[id.Name] || typeParams[id.Name] {
						return true // a method expression T.M, or a package's name
					}
					if onlyIface[id.Name] && !notIface[id.Name] {
						return true // an interface
					}
					if defined[id.Name] == 1 && !changed[id.Name] {
						return true // a copy nothing changes
					}
				}
				if star, ok := x.(*ast.StarExpr); ok {
					if id, ok := star.X.(*ast.Ident); ok && id.Name == recv {
						return true // (*T).M
					}
				}
				pos := p.fset.Position(n.Pos())
				pos.Line += p.delta
				if kw := statement[n]; kw != "" {
					stopped = !visit(methodValueSite{p, n, true, pos, fmt.Sprintf(Refused+"%s %s.%s(…) with a method with a value receiver: Go copies the receiver at the %s statement "+
						"(and panics there for a nil pointer), the interpreter reads it when the call runs; copy the receiver into a variable of its own first, "+
						"r := %s (or r := *p for a pointer p), and write %s r.%s(…)", kw, types.ExprString(n.X), n.Sel.Name, kw, types.ExprString(n.X), kw, n.Sel.Name)})
					return true
				}
				stopped = !visit(methodValueSite{p, n, true, pos, fmt.Sprintf(Refused+"the method value %s.%s of a method with a value receiver: Go copies the receiver where the method value is made "+
					"(and panics there for a nil pointer), the interpreter reads it when the function is called; copy the receiver into a variable of its own first, "+
					"r := %s (or r := *p for a pointer p), and take r.%s", types.ExprString(n.X), n.Sel.Name, types.ExprString(n.X), n.Sel.Name)})
			}
			return true
		})
		if stopped {
			return
		}
	}
}

// rootVar returns the name of the variable at the root of x (x in
// x.f[i], *x), "" if none.
func rootVar(x ast.Expr) string {
	if x == nil {
		return ""
	}
	if star, ok := ast.Unparen(x).(*ast.StarExpr); ok {
		return rootVar(star.X)
	}
	return rootIdent(x)
}

// isTypeName reports whether x looks like an instantiated generic type,
// T[int]: an index expression whose index is a type name or type literal
// of the universe or a composite type.
func isTypeName(x ast.Expr) bool {
	ix, ok := x.(*ast.IndexExpr)
	if !ok {
		return true
	}
	switch i := ix.Index.(type) {
	case *ast.Ident:
		return types.Universe.Lookup(i.Name) != nil && i.Name != "true" && i.Name != "false" && i.Name != "nil" && i.Name != "iota"
	case *ast.ArrayType, *ast.MapType, *ast.StarExpr, *ast.FuncType, *ast.InterfaceType, *ast.StructType, *ast.ChanType:
		return true
	}
	return false
}

// isReflectMethodExpr reports whether se is a method expression of one of
// reflect's method-set functions: reflect.Type.Method, reflect.Value.NumMethod.
func isReflectMethodExpr(se *ast.SelectorExpr) bool {
	switch se.Sel.Name {
	case "NumMethod", "Method", "MethodByName":
	default:
		return false
	}
	x, ok := ast.Unparen(se.X).(*ast.SelectorExpr)
	if !ok || x.Sel.Name != "Type" && x.Sel.Name != "Value" {
		return false
	}
	id, ok := x.X.(*ast.Ident)
	return ok && id.Name == "reflect"
}

// reflectMethodRefusals refuses the calls of reflect's method-set
// functions (NumMethod, Method, MethodByName), and their method
// expressions (reflect.Type.Method), in a cell that uses reflect
// (imported by the cell, or by an earlier one: reflectImported) where the
// cell or an earlier one (methods) declares methods: yaegi v0.16.1 builds
// the types of the cells without methods for reflect, so that
// reflect.PointerTo(reflect.TypeOf(S(0))).MethodByName("M") found
// nothing where Go finds S's method M (Go's reflectmethod7.go).
func reflectMethodRefusals(files []parsedChunk, reflectImported, methods bool) error {
	for _, p := range files {
		for _, is := range p.f.Imports {
			if is.Path.Value == `"reflect"` {
				reflectImported = true
			}
		}
		for _, d := range p.f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
				methods = true
			}
		}
	}
	if !reflectImported || !methods {
		return nil
	}
	var errs scanner.ErrorList
	for _, p := range files {
		ast.Inspect(p.f, func(n ast.Node) bool {
			if len(errs) > 0 {
				return false
			}
			var se *ast.SelectorExpr
			switch n := n.(type) {
			case *ast.CallExpr:
				se, _ = ast.Unparen(n.Fun).(*ast.SelectorExpr)
				if se == nil {
					return true
				}
				switch {
				case se.Sel.Name == "NumMethod" && len(n.Args) == 0,
					se.Sel.Name == "MethodByName" && len(n.Args) == 1,
					se.Sel.Name == "Method" && len(n.Args) == 1:
				default:
					if isReflectMethodExpr(se) {
						break // a call of reflect.Type.Method(t, 0)
					}
					return true
				}
			case *ast.SelectorExpr:
				// reflect.Type.Method as a value (Go's reflectmethod5.go).
				if se = n; !isReflectMethodExpr(se) {
					return true
				}
			default:
				return true
			}
			pos := p.fset.Position(se.Pos())
			pos.Line += p.delta
			errs.Add(pos, fmt.Sprintf(Refused+"%s of reflect in a session with types that have methods: the interpreter builds the types of the cells "+
				"without methods for reflect, so that reflect's method sets of them are empty where Go's are not; call the methods directly or through an interface", se.Sel.Name))
			return false
		})
		if len(errs) > 0 {
			return errs
		}
	}
	return nil
}
