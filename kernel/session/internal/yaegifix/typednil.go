package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
)

// TypedNilRefusals refuses the conversions of a pointer variable to an
// interface that yaegi v0.16.1 gets wrong for a nil pointer, unless a nil
// check guards them: converted to a compiled interface type such as error
// or fmt.Stringer, or by an explicit conversion to any interface type
// (any(p), error(p), I(p)), a nil pointer becomes a nil interface, so that
// an error holding a typed nil compares equal to nil where Go's does not
// (the Go FAQ's "Why is my nil error value not equal to nil?"). The
// conversions seen are return p from a function whose result there is of
// a compiled interface type, var e error = p, e = p with e declared with
// such a type (or a field of that type of a struct the cell declares), an
// element or field of such a type in a composite literal, an element
// stored into or appended to a slice, array, map or channel of such a type
// (errs[i] = p, append(errs, p), c <- p), an argument for such a parameter
// of a function the cell declares or of errors.Is, As, Unwrap and Join,
// and explicit conversions. The pointer variables are the function's
// parameters, results and locals declared with a pointer type (p *T, var
// p *T, p := (*T)(nil)), those defined as &T{…} or new(T) that the
// function assigns again, the cell's package-level variables of those
// kinds, and the variables of earlier cells that isPtr reports (isIface:
// those of a compiled interface type); the statements of the cell count
// as a function. An implicit conversion to any or to an interface type of
// the cell is right and left alone.
func TypedNilRefusals(src string, isPtr, isIface func(string) bool) error {
	chunks, err := split(src)
	if err != nil {
		return nil // PrepareCell reports it
	}
	type parsed struct {
		fset  *token.FileSet
		root  ast.Node
		delta int
	}
	var roots []parsed
	for _, c := range chunks {
		fset := token.NewFileSet()
		if c.Decl {
			f, err := parser.ParseFile(fset, "", "package p\n"+c.Src, 0)
			if err != nil {
				return nil
			}
			roots = append(roots, parsed{fset, f, c.Line - 2})
			continue
		}
		f, err := parser.ParseFile(fset, "", stmtPrefix+c.Src+"\n}", 0)
		if err != nil || len(f.Decls) != 1 {
			return nil
		}
		roots = append(roots, parsed{fset, f.Decls[0].(*ast.FuncDecl).Body, c.Line - 2})
	}
	nodes := make([]ast.Node, len(roots))
	for i, r := range roots {
		nodes[i] = r.root
	}
	var errs scanner.ErrorList
	typedNilRefusals(nodes, isPtr, isIface, func(n ast.Node, p token.Pos, format string, args ...any) {
		for _, r := range roots {
			if r.root == n && len(errs) == 0 {
				pos := r.fset.Position(p)
				pos.Line += r.delta
				errs.Add(pos, fmt.Sprintf(Refused+format, args...))
			}
		}
	})
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// typedNilRefusals is TypedNilRefusals for the parsed chunks of a cell
// (a file of declarations or the block of statements each); refuse is
// given the chunk.
func typedNilRefusals(chunks []ast.Node, isPtr, isIface func(string) bool, refuse func(ast.Node, token.Pos, string, ...any)) {
	// The interface types the chunk declares, and the fields of its
	// struct types that have a compiled interface type.
	cellIfaces := map[string]bool{}
	ifaceFields := map[string]bool{}
	funcParams := map[string][]bool{} // the parameters of compiled interface type of the chunk's functions
	inspect := func(f func(ast.Node) bool) {
		for _, c := range chunks {
			ast.Inspect(c, f)
		}
	}
	inspect(func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			switch t := n.Type.(type) {
			case *ast.InterfaceType:
				cellIfaces[n.Name.Name] = true
			case *ast.StructType:
				for _, f := range t.Fields.List {
					if compiledIface(f.Type) {
						for _, id := range f.Names {
							ifaceFields[id.Name] = true
						}
					}
				}
			}
		case *ast.FuncDecl:
			if n.Recv == nil && n.Type.TypeParams == nil {
				var at []bool
				for _, f := range n.Type.Params.List {
					if _, ok := f.Type.(*ast.Ellipsis); ok {
						at = nil // variadic: not followed
						break
					}
					for range max(len(f.Names), 1) {
						at = append(at, compiledIface(f.Type))
					}
				}
				funcParams[n.Name.Name] = at
			}
		}
		return true
	})
	conversion := func(fun ast.Expr) bool {
		switch t := ast.Unparen(fun).(type) {
		case *ast.InterfaceType:
			return true
		case *ast.Ident:
			return t.Name == "error" || t.Name == "any" || cellIfaces[t.Name]
		}
		return false
	}
	// vars are what declarations tell of the variables of a function
	// (or of the cell's top level).
	type vars struct {
		ptrs      map[string]bool // of a pointer type
		ifaceVars map[string]bool // of a compiled interface type
		elems     map[string]bool // slices, arrays, maps and channels of a compiled interface type
	}
	// collect adds to v what the declarations in body (but not in its
	// function literals) and the fields ft declares tell.
	collect := func(v vars, ft *ast.FuncType, body *ast.BlockStmt) {
		newPtrs := map[string]bool{} // defined as &T{…} or new(T)
		assigned := map[string]bool{}
		addFields := func(fl *ast.FieldList) {
			if fl == nil {
				return
			}
			for _, f := range fl.List {
				_, ptr := f.Type.(*ast.StarExpr)
				for _, n := range f.Names {
					if ptr {
						v.ptrs[n.Name] = true
					}
					if compiledIface(f.Type) {
						v.ifaceVars[n.Name] = true
					}
					if ifaceElems(f.Type) {
						v.elems[n.Name] = true
					}
				}
			}
		}
		if ft != nil {
			addFields(ft.Params)
			addFields(ft.Results)
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ValueSpec:
				_, ptr := n.Type.(*ast.StarExpr)
				for i, id := range n.Names {
					switch {
					case ptr && len(n.Values) == len(n.Names) && allocates(n.Values[i]):
						newPtrs[id.Name] = true // var p *T = &T{}
					case ptr:
						v.ptrs[id.Name] = true
					}
					if compiledIface(n.Type) {
						v.ifaceVars[id.Name] = true
					}
					if ifaceElems(n.Type) {
						v.elems[id.Name] = true
					}
				}
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE {
					for _, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							assigned[id.Name] = true
						}
					}
				}
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					for i, r := range n.Rhs {
						id, ok := n.Lhs[i].(*ast.Ident)
						if !ok {
							continue
						}
						if allocates(r) {
							newPtrs[id.Name] = true
						}
						switch r := ast.Unparen(r).(type) {
						case *ast.CallExpr:
							fun := ast.Unparen(r.Fun)
							if _, ok := fun.(*ast.StarExpr); ok && len(r.Args) == 1 {
								v.ptrs[id.Name] = true // p := (*T)(nil)
							}
							if f, ok := fun.(*ast.Ident); ok && f.Name == "make" && len(r.Args) > 0 && ifaceElems(r.Args[0]) {
								v.elems[id.Name] = true
							}
						case *ast.CompositeLit:
							if r.Type != nil && ifaceElems(r.Type) {
								v.elems[id.Name] = true
							}
						}
					}
				}
			}
			return true
		})
		for name := range newPtrs {
			if assigned[name] {
				v.ptrs[name] = true
			}
		}
	}
	newVars := func() vars { return vars{map[string]bool{}, map[string]bool{}, map[string]bool{}} }
	// The cell's package-level variables and those its statements define.
	top := newVars()
	for _, c := range chunks {
		switch c := c.(type) {
		case *ast.BlockStmt:
			collect(top, nil, c)
		case *ast.File:
			collect(top, nil, packageVars(c))
		}
	}
	check := func(chunk ast.Node, ft *ast.FuncType, body *ast.BlockStmt) {
		if body == nil {
			return
		}
		var errAt []bool // the results that are of compiled interface type, in order
		if ft != nil && ft.Results != nil {
			for _, f := range ft.Results.List {
				for range max(len(f.Names), 1) {
					errAt = append(errAt, compiledIface(f.Type))
				}
			}
		}
		local := newVars()
		collect(local, ft, body)
		ptrs := func(name string) bool {
			return local.ptrs[name] || top.ptrs[name] || isPtr != nil && isPtr(name)
		}
		ifaceVars := func(name string) bool {
			return local.ifaceVars[name] || top.ifaceVars[name] || isIface != nil && isIface(name)
		}
		elems := func(x ast.Expr) bool {
			id, ok := ast.Unparen(x).(*ast.Ident)
			return ok && (local.elems[id.Name] || top.elems[id.Name])
		}
		// A nil check guards the conversions: if p == nil { return … }
		// before them, or a conversion inside if p != nil { … }.
		guarded := map[string]bool{}
		type span struct {
			name       string
			begin, end token.Pos
		}
		var nonNil []span
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				name, op := nilCheck(n.Cond)
				switch {
				case op == token.EQL && endsInReturn(n.Body):
					guarded[name] = true
				case op == token.NEQ:
					nonNil = append(nonNil, span{name, n.Body.Pos(), n.Body.End()})
				}
			}
			return true
		})
		// at reports the pointer variable x is when it may be nil there.
		at := func(x ast.Expr) (string, bool) {
			id, ok := ast.Unparen(x).(*ast.Ident)
			if !ok || !ptrs(id.Name) || guarded[id.Name] {
				return "", false
			}
			for _, s := range nonNil {
				if s.name == id.Name && s.begin <= id.Pos() && id.Pos() < s.end {
					return "", false
				}
			}
			return id.Name, true
		}
		convert := func(x ast.Expr, what string) {
			if name, ok := at(x); ok {
				refuse(chunk, x.Pos(), "%s %s, a pointer, as an interface: Go's interface then holds the pointer and is not nil even when %s is, "+
					"the interpreter gives a nil interface for a nil pointer; use nil explicitly where %s is nil (if %s == nil { … }), or declare %s with the interface type",
					what, name, name, name, name, name)
			}
		}
		litElems := func(lit *ast.CompositeLit) {
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				convert(e, "the element")
			}
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) != len(errAt) {
					return true
				}
				for i, r := range n.Results {
					if !errAt[i] {
						continue
					}
					if name, ok := at(r); ok {
						refuse(chunk, r.Pos(), "return %s, a pointer, as an error: Go's error then holds the pointer and is not nil even when %s is, "+
							"the interpreter gives a nil error for a nil pointer; return nil explicitly where %s is nil (if %s == nil { return nil }), or declare %s as an error",
							name, name, name, name, name)
					}
				}
			case *ast.ValueSpec:
				if compiledIface(n.Type) {
					for _, v := range n.Values {
						convert(v, "the value")
					}
				}
			case *ast.AssignStmt:
				if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, l := range n.Lhs {
					switch l := ast.Unparen(l).(type) {
					case *ast.Ident:
						if ifaceVars(l.Name) {
							convert(n.Rhs[i], "the value")
						}
					case *ast.SelectorExpr:
						if ifaceFields[l.Sel.Name] {
							convert(n.Rhs[i], "the value")
						}
					case *ast.IndexExpr:
						if elems(l.X) {
							convert(n.Rhs[i], "the element")
						}
					}
				}
			case *ast.SendStmt:
				if elems(n.Chan) {
					convert(n.Value, "the value")
				}
			case *ast.CompositeLit:
				switch t := n.Type.(type) {
				case *ast.ArrayType:
					if compiledIface(t.Elt) {
						litElems(n)
					}
				case *ast.MapType:
					if compiledIface(t.Value) {
						for _, e := range n.Elts {
							if kv, ok := e.(*ast.KeyValueExpr); ok {
								convert(kv.Value, "the element")
							}
						}
					}
				default:
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok && ifaceFields[k.Name] {
								convert(kv.Value, "the field")
							}
						}
					}
				}
			case *ast.CallExpr:
				if len(n.Args) == 1 && conversion(n.Fun) {
					convert(n.Args[0], "the conversion of")
					return true
				}
				switch fun := ast.Unparen(n.Fun).(type) {
				case *ast.Ident:
					if fun.Name == "append" && len(n.Args) > 1 && elems(n.Args[0]) && !n.Ellipsis.IsValid() {
						for _, a := range n.Args[1:] {
							convert(a, "the element")
						}
					}
					if params, ok := funcParams[fun.Name]; ok && len(params) == len(n.Args) {
						for i, a := range n.Args {
							if params[i] {
								convert(a, "the argument")
							}
						}
					}
				case *ast.SelectorExpr:
					if pkg, ok := fun.X.(*ast.Ident); ok && pkg.Name == "errors" {
						switch fun.Sel.Name {
						case "Is", "As", "Unwrap", "Join":
							for _, a := range n.Args {
								convert(a, "the argument")
							}
						}
					}
				}
			}
			return true
		})
	}
	for _, c := range chunks {
		if b, ok := c.(*ast.BlockStmt); ok {
			check(c, nil, b) // the statements of the cell
		}
		ast.Inspect(c, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				check(c, n.Type, n.Body)
			case *ast.FuncLit:
				check(c, n.Type, n.Body)
			}
			return true
		})
	}
	// The package-level variables of the declarations, as statements.
	for _, c := range chunks {
		if f, ok := c.(*ast.File); ok {
			check(c, nil, packageVars(f))
		}
	}
}

// packageVars returns the variable declarations of f as the statements of
// a block.
func packageVars(f *ast.File) *ast.BlockStmt {
	b := &ast.BlockStmt{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			b.List = append(b.List, &ast.DeclStmt{Decl: g})
		}
	}
	return b
}

// allocates reports whether x is &T{…}, &v or new(T): never nil.
func allocates(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.UnaryExpr:
		return x.Op == token.AND
	case *ast.CallExpr:
		f, ok := ast.Unparen(x.Fun).(*ast.Ident)
		return ok && f.Name == "new" && len(x.Args) == 1
	}
	return false
}

// ifaceElems reports whether a type expression is a slice, array, map or
// channel type whose elements are of a compiled interface type.
func ifaceElems(t ast.Expr) bool {
	switch t := ast.Unparen(t).(type) {
	case *ast.ArrayType:
		return compiledIface(t.Elt)
	case *ast.MapType:
		return compiledIface(t.Value)
	case *ast.ChanType:
		return compiledIface(t.Value)
	}
	return false
}

// compiledIface reports whether a type expression names a compiled
// interface type: error, or a type of a package (fmt.Stringer); a
// pointer cannot be converted to a package's other types.
func compiledIface(t ast.Expr) bool {
	switch t := ast.Unparen(t).(type) {
	case *ast.Ident:
		return t.Name == "error"
	case *ast.SelectorExpr:
		_, ok := t.X.(*ast.Ident)
		return ok
	}
	return false
}

// nilCheck returns the name compared with nil by cond (p == nil, nil !=
// p) and the comparison, or "" and 0.
func nilCheck(cond ast.Expr) (string, token.Token) {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return "", 0
	}
	x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
	if id, ok := y.(*ast.Ident); ok && id.Name == "nil" {
		x, y = y, x
	}
	if id, ok := x.(*ast.Ident); !ok || id.Name != "nil" {
		return "", 0
	}
	if id, ok := y.(*ast.Ident); ok {
		return id.Name, b.Op
	}
	return "", 0
}

// endsInReturn reports whether a block's last statement is a return.
func endsInReturn(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok
}
