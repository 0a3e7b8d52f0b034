package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"runtime"
	"strconv"
	"strings"
)

// MethodValueEdits rewrites the method values that methodValueRefusals
// refuses (x.M of a method with a value receiver, where yaegi v0.16.1
// reads x when the function is called instead of copying it where the
// method value is made) into the method value of a copy made there,
//
//	func() T { _portlabTmpR := x; return _portlabTmpR }().M
//
// (*x for a pointer x, x.E.F for a method promoted through embedded
// fields, so that a nil pointer panics there, as in Go), which yaegi runs
// as Go: the receiver is a call's result nothing else holds. go x.M(a)
// and defer x.M(a) are rewritten alike where the arguments are literals
// or names. A method expression of a type literal or a pointer type,
// struct{ T }.M, (*G[int]).M or (*T).M (called or not: the interpreter
// failed to pass the pointer to a value method), becomes a function
// literal calling the method. Method values the refusals let through
// that reach the receiver through a pointer (p := &v; f := p.M) are
// rewritten too. The types come from go/types over the cell with the types and
// methods of the session (sessionTypes, sessionMethods); a selector whose
// types it does not know, or where the statement calls other functions
// (whose order with the copy Go leaves to the compiler), is left alone,
// and refused by methodValueRefusals.
func MethodValueEdits(src string, sessionTypes []string, sessionMethods []CellMethod, isVar func(string) bool) string {
	chunks, err := split(src)
	if err != nil || !strings.Contains(src, ".") {
		return src
	}
	files := parseChunks(chunks)
	if len(files) != len(chunks) {
		return src
	}
	var sites []methodValueSite
	methodValueSites(files, sessionTypes, sessionMethods, isVar, func(s methodValueSite) bool {
		if s.value {
			sites = append(sites, s)
		}
		return true
	})
	if len(sites) == 0 && !mayCopyMethods(files, sessionMethods) {
		return src
	}
	// One file for go/types: the session's types and methods the cell
	// does not declare again, the cell's declarations, and its
	// statements in functions of their own.
	declared := map[string]bool{}
	for _, p := range files {
		for _, d := range p.f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					if ts, ok := sp.(*ast.TypeSpec); ok {
						declared[ts.Name.Name] = true
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil {
					declared[receiverName(d)] = true
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("package p\n")
	for _, t := range sessionTypes {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype "+t, 0)
		if err != nil || len(f.Decls) != 1 || len(f.Decls[0].(*ast.GenDecl).Specs) != 1 {
			return src
		}
		if declared[f.Decls[0].(*ast.GenDecl).Specs[0].(*ast.TypeSpec).Name.Name] {
			continue
		}
		b.WriteString("type " + t + "\n")
	}
	for _, m := range sessionMethods {
		if !declared[m.Recv] {
			b.WriteString(m.Decl + " { panic(0) }\n")
		}
	}
	starts := make([]int, len(chunks)) // where each chunk's text starts in b
	offs := make([]int, len(chunks))   // and in src
	from := 0
	for i, c := range chunks {
		off := strings.Index(src[from:], c.Src)
		if off < 0 {
			return src
		}
		offs[i] = from + off
		from = offs[i] + len(c.Src)
		if c.Decl {
			starts[i] = b.Len()
			b.WriteString(c.Src + "\n")
		} else {
			b.WriteString("func _() {\n")
			starts[i] = b.Len()
			b.WriteString(c.Src + "\n}\n")
		}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", b.String(), 0)
	if err != nil {
		return src
	}
	var errPos []token.Pos
	redeclared := false
	conf := types.Config{
		Importer: noImports{},
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				errPos = append(errPos, te.Pos)
				// A name of the session the cell declares otherwise:
				// go/types would keep the first declaration.
				redeclared = redeclared || strings.Contains(te.Msg, "redeclared")
			}
		},
		Sizes: types.SizesFor("gc", runtime.GOARCH),
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, _ := conf.Check("p", fset, []*ast.File{f}, info)
	if pkg == nil || redeclared {
		return src
	}
	// A type declaration go/types did not understand (a field of an
	// imported type) may promote other methods than Go's.
	typeErr := false
	ast.Inspect(f, func(n ast.Node) bool {
		if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, p := range errPos {
				if g.Pos() <= p && p < g.End() {
					typeErr = true
				}
			}
		}
		return !typeErr
	})
	if typeErr {
		return src
	}
	// The selectors of the file by offset, with their statements and the
	// calls that take them as arguments.
	bySel := map[int]*ast.SelectorExpr{}
	stmtOf := map[*ast.SelectorExpr]ast.Node{}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if se, ok := n.(*ast.SelectorExpr); ok {
			bySel[fset.Position(se.Pos()).Offset] = se
			for i := len(stack) - 1; i >= 0; i-- {
				if s, ok := stack[i].(ast.Stmt); ok {
					if _, block := s.(*ast.BlockStmt); !block {
						stmtOf[se] = s
						break
					}
				}
				if _, ok := stack[i].(*ast.FuncLit); ok {
					break
				}
				if _, ok := stack[i].(*ast.GenDecl); ok {
					stmtOf[se] = stack[i]
					break
				}
			}
		}
		return true
	})
	text := b.String()
	var edits []edit
	var done []*ast.SelectorExpr
	// The method values the refusals leave to a copy nothing changes
	// that still reach the receiver through a pointer (p := &v; f :=
	// p.M, or a pointer embedded on the way): the pointed-to value may
	// change before the call.
	seen := map[token.Pos]bool{}
	for _, s := range sites {
		seen[s.sel.Pos()] = true
	}
	for ci, p := range files {
		called := map[*ast.SelectorExpr]bool{}
		ast.Inspect(p.f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
					called[se] = true
				}
			}
			se, ok := n.(*ast.SelectorExpr)
			if !ok || seen[se.Pos()] {
				return true
			}
			prefix := len(stmtPrefix)
			if chunks[ci].Decl {
				prefix = len("package p\n")
			}
			tse := bySel[starts[ci]+p.fset.Position(se.Pos()).Offset-prefix]
			if tse == nil || tse.Sel.Name != se.Sel.Name {
				return true
			}
			sel := info.Selections[tse]
			if sel != nil && sel.Kind() == types.MethodExpr {
				// (*T).M of a method with a value receiver, called or
				// not: the interpreter failed to pass the pointer
				// ("reflect.Set: value of type *T is not assignable").
				_, ptrX := info.Types[tse.X].Type.(*types.Pointer)
				if fn, ok := sel.Obj().(*types.Func); ok && ptrX {
					if r := fn.Type().(*types.Signature).Recv(); r != nil && !types.IsInterface(r.Type()) {
						if _, ptr := r.Type().(*types.Pointer); !ptr {
							sites = append(sites, methodValueSite{p: p, sel: se, value: true})
						}
					}
				}
				return true
			}
			if sel != nil && sel.Kind() == types.MethodVal && sel.Indirect() && !called[se] {
				if fn, ok := sel.Obj().(*types.Func); ok {
					if r := fn.Type().(*types.Signature).Recv(); r != nil && !types.IsInterface(r.Type()) {
						if _, ptr := r.Type().(*types.Pointer); !ptr {
							sites = append(sites, methodValueSite{p: p, sel: se, value: true})
						}
					}
				}
			}
			return true
		})
	}
	for _, s := range sites {
		ci := -1
		for i := range files {
			if files[i].f == s.p.f {
				ci = i
			}
		}
		if ci < 0 {
			continue
		}
		prefix := len(stmtPrefix)
		if chunks[ci].Decl {
			prefix = len("package p\n")
		}
		inChunk := s.p.fset.Position(s.sel.Pos()).Offset - prefix
		se := bySel[starts[ci]+inChunk]
		if se == nil || se.Sel.Name != s.sel.Sel.Name {
			continue
		}
		lit := methodCopy(se, info, pkg, fset, text, errPos, stmtOf[se])
		if lit == "" {
			continue
		}
		// A selector inside another one rewritten would be rewritten
		// twice.
		nested := false
		for _, d := range done {
			if d.Pos() <= se.Pos() && se.End() <= d.End() || se.Pos() <= d.Pos() && d.End() <= se.End() {
				nested = true
			}
		}
		if nested {
			continue
		}
		done = append(done, se)
		at := func(p token.Pos) int { return offs[ci] + fset.Position(p).Offset - starts[ci] }
		edits = append(edits, edit{at(se.Pos()), at(se.End()), lit})
	}
	if len(edits) == 0 {
		return src
	}
	return applyEdits(src, edits)
}

// methodCopy returns the text that replaces the selector se (see
// MethodValueEdits), "" to leave it alone.
func methodCopy(se *ast.SelectorExpr, info *types.Info, pkg *types.Package, fset *token.FileSet, text string, errPos []token.Pos, stmt ast.Node) string {
	for _, p := range errPos {
		if se.Pos() <= p && p < se.End() {
			return "" // go/types did not understand the selector
		}
	}
	sel := info.Selections[se]
	if sel == nil || stmt == nil {
		return ""
	}
	fn, ok := sel.Obj().(*types.Func)
	if !ok {
		return ""
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return ""
	}
	_, ptrRecv := sig.Recv().Type().(*types.Pointer)
	ifaceRecv := types.IsInterface(sig.Recv().Type())
	if ptrRecv && sel.Kind() == types.MethodExpr {
		return ""
	}
	pos := se.Pos()
	scope := pkg.Scope().Innermost(pos)
	if scope == nil {
		return ""
	}
	// typeText writes t as the cell would at pos, "" where a name of it
	// does not name the same type there.
	typeText := func(t types.Type) string {
		ok := true
		var check func(t types.Type, depth int)
		check = func(t types.Type, depth int) {
			if depth > 20 || !ok {
				ok = false
				return
			}
			switch t := t.(type) {
			case *types.Basic:
				if t.Kind() == types.Invalid || t.Kind() == types.UnsafePointer {
					ok = false
				}
				if t.Info()&types.IsUntyped != 0 {
					ok = false
				}
			case *types.Named:
				obj := t.Obj()
				if obj.Pkg() != nil && obj.Pkg() != pkg {
					ok = false
					return
				}
				if obj.Pkg() == nil {
					if types.Universe.Lookup(obj.Name()) != obj {
						ok = false
					}
				} else if _, o := scope.LookupParent(obj.Name(), pos); o != obj {
					ok = false
				}
				if ta := t.TypeArgs(); ta != nil {
					for i := 0; i < ta.Len(); i++ {
						check(ta.At(i), depth+1)
					}
				}
			case *types.TypeParam:
				if _, o := scope.LookupParent(t.Obj().Name(), pos); o != t.Obj() {
					ok = false
				}
			case *types.Alias:
				ok = false
			case *types.Pointer:
				check(t.Elem(), depth+1)
			case *types.Slice:
				check(t.Elem(), depth+1)
			case *types.Array:
				check(t.Elem(), depth+1)
			case *types.Map:
				check(t.Key(), depth+1)
				check(t.Elem(), depth+1)
			case *types.Chan:
				check(t.Elem(), depth+1)
			case *types.Signature:
				if t.TypeParams() != nil {
					ok = false
				}
				for _, tu := range []*types.Tuple{t.Params(), t.Results()} {
					for i := 0; i < tu.Len(); i++ {
						check(tu.At(i).Type(), depth+1)
					}
				}
			case *types.Struct:
				for i := 0; i < t.NumFields(); i++ {
					if t.Field(i).Embedded() {
						ok = false // named after its type, which may be written otherwise
					}
					check(t.Field(i).Type(), depth+1)
				}
			case *types.Interface:
				if t.NumEmbeddeds() > 0 {
					ok = false
				}
				for i := 0; i < t.NumExplicitMethods(); i++ {
					check(t.ExplicitMethod(i).Type(), depth+1)
				}
			default:
				ok = false
			}
		}
		check(t, 0)
		if !ok {
			return ""
		}
		return types.TypeString(t, func(*types.Package) string { return "" })
	}
	src := func(n ast.Node) string {
		return text[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset]
	}
	const recv = tempPrefix + "R"
	switch sel.Kind() {
	case types.MethodExpr:
		// A function literal: its parameters are the method
		// expression's, the receiver first.
		ft, ok := info.Types[se].Type.(*types.Signature)
		if !ok || !info.Types[se.X].IsType() || ifaceRecv {
			return ""
		}
		var params, args, results []string
		spread := ""
		for i := 0; i < ft.Params().Len(); i++ {
			t := ft.Params().At(i).Type()
			name := "_p" + strconv.Itoa(i)
			if i == 0 {
				name = recv
			} else {
				args = append(args, name)
			}
			if ft.Variadic() && i == ft.Params().Len()-1 {
				t = t.(*types.Slice).Elem()
				tt := typeText(t)
				if tt == "" {
					return ""
				}
				params = append(params, name+" ..."+tt)
				spread = "..."
				continue
			}
			tt := typeText(t)
			if i == 0 {
				tt = src(se.X) // as written
			}
			if tt == "" {
				return ""
			}
			params = append(params, name+" "+tt)
		}
		for i := 0; i < ft.Results().Len(); i++ {
			tt := typeText(ft.Results().At(i).Type())
			if tt == "" {
				return ""
			}
			results = append(results, tt)
		}
		body := recv + "." + se.Sel.Name + "(" + strings.Join(args, ", ") + spread + ")"
		if len(results) > 0 {
			body = "return " + body
		}
		return "func(" + strings.Join(params, ", ") + ") (" + strings.Join(results, ", ") + ") { " + body + " }"
	case types.MethodVal:
	default:
		return ""
	}
	if !soleEffect(se, stmt, info) {
		return ""
	}
	// The receiver: x, through the embedded fields of the path, and
	// dereferenced where a pointer holds the value.
	t := info.Types[se.X].Type
	if t == nil {
		return ""
	}
	expr := "(" + src(se.X) + ")"
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		u := t
		if p, ok := u.Underlying().(*types.Pointer); ok {
			u = p.Elem()
		}
		st, ok := u.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() || !st.Field(i).Embedded() {
			return ""
		}
		expr += "." + st.Field(i).Name()
		t = st.Field(i).Type()
	}
	if _, ok := t.(*types.TypeParam); ok {
		return ""
	}
	if _, ok := t.Underlying().(*types.Pointer); ok {
		if _, named := t.(*types.Named); named {
			return "" // a defined pointer type has no methods
		}
		if !ptrRecv {
			expr = "*" + expr
			t = t.Underlying().(*types.Pointer).Elem()
		}
	} else if ptrRecv {
		// The method value of an addressable x with a pointer
		// receiver holds &x.
		expr = "&" + expr
		t = types.NewPointer(t)
	}
	check := ""
	if types.IsInterface(t) != ifaceRecv {
		return ""
	}
	if ifaceRecv {
		if _, ok := t.Underlying().(*types.Interface); !ok || len(idx) != 1 {
			return ""
		}
		// A method value of a nil interface panics where it is made.
		check = "if " + recv + " == nil { panic(" + nilMethodVar + ") }; "
	}
	tt := typeText(t)
	if tt == "" {
		return ""
	}
	return "func() " + tt + " { " + recv + " := " + expr + "; " + check + "return " + recv + " }()." + se.Sel.Name
}

// soleEffect reports whether the statement stmt of the method value se
// has no other effect whose order with the copy of the receiver Go
// leaves to the compiler: no calls (but conversions, and the call of a
// go or defer statement whose arguments are literals or names, or the
// call that takes se as an argument) and no receive.
func soleEffect(se *ast.SelectorExpr, stmt ast.Node, info *types.Info) bool {
	ok := true
	ast.Inspect(stmt, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.CallExpr:
			if tv, found := info.Types[n.Fun]; found && tv.IsType() {
				return true
			}
			if ast.Unparen(n.Fun) == se {
				// go x.M(a) or defer x.M(a).
				for _, a := range n.Args {
					if !simpleOperand(a) {
						ok = false
					}
				}
				return true
			}
			arg := false
			for _, a := range n.Args {
				if ast.Unparen(a) == se {
					arg = true
				}
			}
			if !arg {
				ok = false
				return false
			}
			for _, a := range n.Args {
				if ast.Unparen(a) != se && !simpleOperand(a) {
					if _, lit := ast.Unparen(a).(*ast.BasicLit); !lit {
						if _, fl := ast.Unparen(a).(*ast.FuncLit); !fl {
							ok = false
						}
					}
				}
			}
		}
		return true
	})
	return ok
}

// mayCopyMethods reports, without types, whether the chunks hold a
// selector of the further rewrites of MethodValueEdits: a method value
// (a selector not called) or a method expression of a pointer type,
// (*T).M, named as a method with a value receiver of the cell or the
// session.
func mayCopyMethods(files []parsedChunk, sessionMethods []CellMethod) bool {
	names := map[string]bool{}
	addMethod := func(d *ast.FuncDecl) {
		if d.Recv != nil && len(d.Recv.List) == 1 {
			if _, ptr := d.Recv.List[0].Type.(*ast.StarExpr); !ptr {
				names[d.Name.Name] = true
			}
		}
	}
	for _, m := range sessionMethods {
		if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+m.Decl+" {}", 0); err == nil && len(f.Decls) == 1 {
			if d, ok := f.Decls[0].(*ast.FuncDecl); ok {
				addMethod(d)
			}
		}
	}
	for _, p := range files {
		for _, d := range p.f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok {
				addMethod(d)
			}
		}
	}
	if len(names) == 0 {
		return false
	}
	found := false
	for _, p := range files {
		called := map[*ast.SelectorExpr]bool{}
		ast.Inspect(p.f, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.CallExpr:
				if se, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
					if _, star := ast.Unparen(se.X).(*ast.StarExpr); !star {
						called[se] = true
					}
				}
			case *ast.SelectorExpr:
				found = names[n.Sel.Name] && !called[n]
			}
			return true
		})
	}
	return found
}
