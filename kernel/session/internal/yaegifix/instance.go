package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
)

// instanceVar names the variable that instanceFixes declares of a
// generic type's instantiation.
const instanceVar = tempPrefix + "Inst"

// instanceFixes rewrites, in src (a chunk of declarations when decl, else
// of statements), two uses of generic types that yaegi v0.16.1 fails to
// compile although they are Go:
//
//   - a conversion to an instantiation of a generic type, G[int](x): the
//     interpreter looks the instantiation up before it has made it ("type
//     not found: G[int]" at top level, a "CFG post-order panic" with a nil
//     pointer dereference in a generic function). A variable of the type
//     declared first makes it, so the conversion becomes
//     func() G[int] { var v G[int]; _ = v; return G[int](x) }(), which
//     evaluates x where Go does and gives the same value. generic names
//     the generic types the cell declared in earlier chunks; those of src
//     are added to it. Conversions whose operand calls recover, those in
//     constant declarations, and those in the tag or a case of an
//     expression switch are left alone (the interpreter compares interface
//     values of two interface types there unequal where Go finds them
//     equal: such a conversion had better keep failing to compile).
//     A conversion to a pointer to an instantiation, (*G[T])(x), is
//     written alike with *G[T].
//   - a method whose receiver of a generic type has no name,
//     func (S[T]) M(): the interpreter panics when it compiles a use of
//     the method. The receiver is named _, which Go treats alike.
//   - an assertion to a type parameter of a variable of an interface type
//     with methods (typeParamAssertEdits).
//   - an instantiation of a generic type as a type argument,
//     f[G[T]]() (typeArgInstanceEdits).
//
// The rewrite inserts text on the lines it changes only, so positions keep
// their lines.
func instanceFixes(src string, decl bool, generic map[string]bool) string {
	// A conversion to an instantiation of a generic interface type is
	// rewritten only in a generic function, where it fails to compile:
	// made in a function literal elsewhere, the interface no longer
	// asserted to the type it holds (fixedbugs/issue53309.go:
	// v.(*taskResult) failed, silently). generic holds such types under
	// "interface " and their names.
	prefix := stmtPrefix
	suffix := "\n}"
	if decl {
		prefix, suffix = "package p\n", ""
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", prefix+src+suffix, 0)
	if err != nil {
		return src
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			if ts := s.(*ast.TypeSpec); ts.TypeParams != nil {
				generic[ts.Name.Name] = true
				if _, ok := ast.Unparen(ts.Type).(*ast.InterfaceType); ok {
					generic["interface "+ts.Name.Name] = true
				}
			}
		}
	}
	types := map[string]*ast.TypeSpec{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, s := range g.Specs {
				types[s.(*ast.TypeSpec).Name.Name] = s.(*ast.TypeSpec)
			}
		}
	}
	var body *ast.BlockStmt
	if !decl && len(f.Decls) == 1 {
		if fd, ok := f.Decls[0].(*ast.FuncDecl); ok {
			body = fd.Body
		}
	}
	off := len(prefix)
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	text := func(n ast.Node) string { return src[pos(n.Pos()):pos(n.End())] }
	var edits []edit
	inSwitch := 0 // > 0 in the tag or a case of an expression switch
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			return n.Tok != token.CONST
		case *ast.SwitchStmt:
			if n.Init != nil {
				ast.Inspect(n.Init, visit)
			}
			if n.Tag != nil {
				inSwitch++
				ast.Inspect(n.Tag, visit)
				inSwitch--
			}
			ast.Inspect(n.Body, visit)
			return false
		case *ast.CaseClause:
			inSwitch++
			for _, x := range n.List {
				ast.Inspect(x, visit)
			}
			inSwitch--
			for _, st := range n.Body {
				if d, ok := st.(*ast.DeclStmt); ok {
					edits = append(edits, typedVarEdits(d, pos, text)...)
				}
				ast.Inspect(st, visit)
			}
			return false
		case *ast.CommClause:
			for _, st := range n.Body {
				if d, ok := st.(*ast.DeclStmt); ok {
					edits = append(edits, typedVarEdits(d, pos, text)...)
				}
			}
		case *ast.BlockStmt:
			// The statements of a chunk of statements are the cell's,
			// whose variables the session keeps: only nested blocks.
			for _, st := range n.List {
				if d, ok := st.(*ast.DeclStmt); ok && (decl || n != body) {
					edits = append(edits, typedVarEdits(d, pos, text)...)
				}
			}
		case *ast.FieldList:
			// [M interface{ ~map[K]V }] is [M ~map[K]V].
			if p := pos(n.Opening); n.Opening.IsValid() && p >= 0 && src[p] == '[' {
				for _, field := range n.List {
					if t := singleTerm(field.Type); t != nil {
						edits = append(edits, edit{pos(field.Type.Pos()), pos(field.Type.End()), text(t)})
					}
				}
			}
		case *ast.FuncDecl:
			if n.Recv != nil && len(n.Recv.List) == 1 && len(n.Recv.List[0].Names) == 0 && genericReceiver(n.Recv.List[0].Type) {
				p := pos(n.Recv.List[0].Type.Pos())
				edits = append(edits, edit{p, p, "_ "})
			}
		case *ast.CallExpr:
			if t := directionalChan(n, types); t != nil {
				// make(T, n) of a receive- or send-only channel type T is
				// T(make(chan E, n)).
				edits = append(edits, edit{pos(n.Pos()), pos(n.Pos()), "(" + text(n.Args[0]) + ")("},
					edit{pos(n.Args[0].Pos()), pos(n.Args[0].End()), "chan " + text(t.Value)},
					edit{pos(n.End()), pos(n.End()), ")"})
			}
			if inSwitch > 0 || len(n.Args) != 1 || n.Ellipsis.IsValid() || callsRecover(n.Args[0]) {
				return true
			}
			fun := ast.Unparen(n.Fun)
			// (*G[T])(x), a conversion to a pointer to an
			// instantiation, fails alike and is written alike.
			inst := fun
			if st, ok := fun.(*ast.StarExpr); ok {
				inst = st.X
			}
			var name ast.Expr
			switch x := inst.(type) {
			case *ast.IndexExpr:
				name = x.X
			case *ast.IndexListExpr:
				name = x.X
			}
			// A name the chunk declares otherwise than as a type (a local
			// variable) is not the generic type.
			if id, ok := name.(*ast.Ident); ok && generic[id.Name] && (id.Obj == nil || id.Obj.Kind == ast.Typ) && !strings.Contains(text(fun), "\n") &&
				(!generic["interface "+id.Name] || inGenericFunc(f, n.Pos())) {
				t := text(fun)
				edits = append(edits,
					edit{pos(n.Pos()), pos(n.Pos()), "func() " + t + " { var " + instanceVar + " " + t + "; _ = " + instanceVar + "; return "},
					edit{pos(n.End()), pos(n.End()), " }()"})
			}
		}
		return true
	}
	ast.Inspect(f, visit)
	edits = append(edits, typeArgInstanceEdits(f, generic, pos, text)...)
	edits = append(edits, typeParamAssertEdits(f, types, pos)...)
	edits = append(edits, coreTypeEdits(fset, f, pos, text)...)
	if len(edits) == 0 {
		return src
	}
	return applyEdits(src, edits)
}

// typeArgInstanceEdits declares, at the start of a function's body, a
// variable of each instantiation of a generic type that the body passes
// as a type argument, f[G[T]](): the interpreter looks G[T] up before
// it has made it ("type not found: G[T]", in a generic function a "CFG
// post-order panic" at its call), and a variable declared first makes
// it. Only instantiations of one type argument (the interpreter fails
// on G[K, V] as a type argument all the same) of struct and other
// non-interface types the cell declared, whose names are all declared outside the body (the
// function's type parameters, the package's types), are declared so;
// the variable is only assigned to _, so nothing else changes.
func typeArgInstanceEdits(f *ast.File, generic map[string]bool, pos func(token.Pos) int, text func(ast.Node) string) []edit {
	var edits []edit
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		body := fd.Body
		outside := func(x ast.Expr) bool {
			ok := true
			ast.Inspect(x, func(n ast.Node) bool {
				if id, isId := n.(*ast.Ident); isId && id.Obj != nil {
					if id.Obj.Kind != ast.Typ {
						ok = false
					}
					if d, isNode := id.Obj.Decl.(ast.Node); !isNode || d.Pos() >= body.Pos() && d.Pos() < body.End() {
						ok = false
					}
				}
				return ok
			})
			return ok
		}
		seen := map[string]bool{}
		var decls []string
		ast.Inspect(body, func(n ast.Node) bool {
			var args []ast.Expr
			switch x := n.(type) {
			case *ast.IndexExpr:
				args = []ast.Expr{x.Index}
			case *ast.IndexListExpr:
				args = x.Indices
			}
			for _, a := range args {
				a = ast.Unparen(a)
				x, ok := a.(*ast.IndexExpr)
				if !ok {
					continue
				}
				id, ok := x.X.(*ast.Ident)
				if !ok || !generic[id.Name] || generic["interface "+id.Name] || !outside(a) {
					continue
				}
				t := text(a)
				if strings.Contains(t, "\n") || seen[t] {
					continue
				}
				seen[t] = true
				v := fmt.Sprintf("%s%d", instanceVar, len(decls))
				decls = append(decls, " var "+v+" "+t+"; _ = "+v+";")
			}
			return true
		})
		if len(decls) > 0 {
			p := pos(body.Lbrace) + 1
			edits = append(edits, edit{p, p, strings.Join(decls, "")})
		}
	}
	return edits
}

// genericReceiver reports whether a receiver type is an instantiation of
// a generic type (G[T] or *G[T]).
func genericReceiver(t ast.Expr) bool {
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	t = ast.Unparen(t)
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// callsRecover reports whether x calls recover.
func callsRecover(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "recover" {
				found = true
			}
		}
		return !found
	})
	return found
}

// singleTerm returns the term of a constraint written as an interface
// with that one type term and nothing else (interface{ ~[]E }), or nil.
// A term that starts with * is left alone: [P *T] can read as an array
// length.
func singleTerm(x ast.Expr) ast.Expr {
	it, ok := x.(*ast.InterfaceType)
	if !ok || len(it.Methods.List) != 1 || len(it.Methods.List[0].Names) != 0 {
		return nil
	}
	t := it.Methods.List[0].Type
	if u, ok := t.(*ast.UnaryExpr); ok && u.Op == token.TILDE {
		return u
	}
	return nil
}

// directionalChan returns the channel type of make(T) or make(T, n) when
// T is a receive- or send-only channel type, written out or declared in
// the chunk; the interpreter fails on it ("reflect.MakeChan:
// unidirectional channel type").
func directionalChan(call *ast.CallExpr, types map[string]*ast.TypeSpec) *ast.ChanType {
	id, ok := call.Fun.(*ast.Ident)
	if !ok || id.Name != "make" || id.Obj != nil || len(call.Args) == 0 || len(call.Args) > 2 || call.Ellipsis.IsValid() {
		return nil
	}
	t := ast.Unparen(call.Args[0])
	if name, ok := t.(*ast.Ident); ok {
		ts := types[name.Name]
		if ts == nil || ts.TypeParams != nil || ts.Assign.IsValid() || name.Obj == nil || name.Obj.Decl != ts {
			return nil
		}
		t = ts.Type
	}
	if ct, ok := t.(*ast.ChanType); ok && ct.Dir != ast.SEND|ast.RECV {
		return ct
	}
	return nil
}

// typedVarEdits splits var x T = v, in a function, into var x T; x = v
// when v calls a function that may be generic: yaegi v0.16.1 gives x the
// zero value there (var d int = Id(3), Id generic, made d 0; so did
// var d int = Id(3) + 1 and var d any = Id(3)). The declaration is left
// alone in a group, when it spans lines at the =, and when v mentions a
// name it declares (which v would then read).
func typedVarEdits(d *ast.DeclStmt, pos func(token.Pos) int, text func(ast.Node) string) []edit {
	g, ok := d.Decl.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR || g.Lparen.IsValid() || len(g.Specs) != 1 {
		return nil
	}
	vs := g.Specs[0].(*ast.ValueSpec)
	if vs.Type == nil || len(vs.Values) == 0 {
		return nil
	}
	declared := map[string]bool{}
	var names []string
	for _, n := range vs.Names {
		declared[n.Name] = true
		names = append(names, n.Name)
	}
	calls, shadows := false, false
	for _, v := range vs.Values {
		shadows = shadows || mentions(v, declared) != ""
		ast.Inspect(v, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && mayBeGeneric(c.Fun) {
				calls = true
			}
			return !calls
		})
	}
	between := text(vs)[pos(vs.Type.End())-pos(vs.Pos()) : pos(vs.Values[0].Pos())-pos(vs.Pos())]
	if !calls || strings.Contains(between, "\n") {
		return nil
	}
	if shadows && !strings.Contains(text(vs), "\n") {
		// var d int = Id(d): the values go to temporaries first, which
		// read the outer d as Go does.
		var tmps []string
		for i := range vs.Names {
			tmps = append(tmps, fmt.Sprintf("%sV%d_%d", tempPrefix, pos(vs.Pos()), i))
		}
		b, e := pos(vs.Values[0].Pos()), pos(vs.Values[len(vs.Values)-1].End())
		return []edit{
			{pos(d.Pos()), pos(d.Pos()), strings.Join(tmps, ", ") + " := " + text(vs)[b-pos(vs.Pos()):e-pos(vs.Pos())] + "; "},
			{b, e, strings.Join(tmps, ", ")},
		}
	}
	if shadows {
		return nil
	}
	return []edit{{pos(vs.Type.End()), pos(vs.Values[0].Pos()), "; " + strings.Join(names, ", ") + " = "}}
}

// mayBeGeneric reports whether a called expression may be a generic
// function: a name (or an instantiation of one) that is neither a local
// variable nor a predeclared function or type.
func mayBeGeneric(fun ast.Expr) bool {
	fun = ast.Unparen(fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
	id, ok := fun.(*ast.Ident)
	if !ok {
		return false
	}
	if id.Obj != nil {
		return id.Obj.Kind == ast.Fun
	}
	return types.Universe.Lookup(id.Name) == nil
}

// inGenericFunc reports whether p is in a generic function or a method of
// a generic type of f.
func inGenericFunc(f *ast.File, p token.Pos) bool {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if ok && fd.Pos() <= p && p < fd.End() {
			return fd.Type.TypeParams != nil || fd.Recv != nil && hasTypeParams(fd.Recv)
		}
	}
	return false
}

// asAnyFunc converts a value to any, giving a nil interface for nil
// (Builtins).
const asAnyFunc = "_portlabAsAny"

// typeParamAssertEdits rewrites x.(P), in a generic function or a method
// of a generic type, where P is a type parameter of it and x a parameter
// or variable of the function declared with an interface type with
// methods (an interface literal, error, an interface type of the chunk
// or of the standard library, or the interface of a comma-ok assertion
// that defines x): yaegi v0.16.1 checks the assertion when it
// instantiates the function, and for a type argument without those
// methods it refuses it ("impossible type assertion", where Go's
// assertion merely fails when it runs; Go's typeparam/issue51700.go and
// issue52228.go), which reaches the cell as a "CFG post-order panic" at
// the call of the instantiation. x.(P) becomes _portlabAsAny(x).(P),
// which has the same value and outcome: the value is x's dynamic value
// (a nil x gives a nil interface, where any(x) would give the
// interpreter's invalid value). Instantiated with an interface of the
// cell, the assertion keeping the value then stops the cell ("reflect.Set:
// value of type interface {} is not assignable to type
// interp.valueInterface"), an interpreter failure reported as such.
func typeParamAssertEdits(f *ast.File, chunkTypes map[string]*ast.TypeSpec, pos func(token.Pos) int) []edit {
	withMethods := func(t ast.Expr) bool {
		t = ast.Unparen(t)
		switch t := t.(type) {
		case *ast.InterfaceType:
			return len(t.Methods.List) > 0
		case *ast.Ident:
			if t.Name == "error" {
				return t.Obj == nil
			}
			if ts := chunkTypes[t.Name]; ts != nil && ts.TypeParams == nil && t.Obj != nil && t.Obj.Decl == ts {
				it, ok := ast.Unparen(ts.Type).(*ast.InterfaceType)
				return ok && len(it.Methods.List) > 0
			}
		case *ast.SelectorExpr:
			return compiledIfaceWithMethods(t)
		}
		return false
	}
	// declaredType returns the interface type x is declared with in the
	// function, or nil.
	declaredType := func(x *ast.Ident) ast.Expr {
		if x.Obj == nil || x.Obj.Kind != ast.Var {
			return nil
		}
		switch d := x.Obj.Decl.(type) {
		case *ast.Field:
			return d.Type
		case *ast.ValueSpec:
			return d.Type
		case *ast.AssignStmt:
			// v, ok := y.(I)
			if id, ok := d.Lhs[0].(*ast.Ident); ok && d.Tok == token.DEFINE && len(d.Lhs) == 2 && len(d.Rhs) == 1 && id.Obj == x.Obj {
				if ta, ok := ast.Unparen(d.Rhs[0]).(*ast.TypeAssertExpr); ok && ta.Type != nil {
					return ta.Type
				}
			}
		}
		return nil
	}
	var edits []edit
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		params := map[string]bool{}
		if fd.Type.TypeParams != nil {
			for _, field := range fd.Type.TypeParams.List {
				for _, n := range field.Names {
					params[n.Name] = true
				}
			}
		}
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			t := fd.Recv.List[0].Type
			if star, ok := t.(*ast.StarExpr); ok {
				t = star.X
			}
			var idx []ast.Expr
			switch t := ast.Unparen(t).(type) {
			case *ast.IndexExpr:
				idx = []ast.Expr{t.Index}
			case *ast.IndexListExpr:
				idx = t.Indices
			}
			for _, x := range idx {
				if id, ok := x.(*ast.Ident); ok && id.Name != "_" {
					params[id.Name] = true
				}
			}
		}
		if len(params) == 0 {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			ta, ok := n.(*ast.TypeAssertExpr)
			if !ok || ta.Type == nil {
				return true
			}
			p, ok := ta.Type.(*ast.Ident)
			if !ok || !params[p.Name] {
				return true
			}
			if p.Obj != nil {
				// Not a type the function declares in its body.
				if _, local := p.Obj.Decl.(*ast.TypeSpec); local {
					return true
				}
			}
			x, ok := ast.Unparen(ta.X).(*ast.Ident)
			if !ok {
				return true
			}
			if t := declaredType(x); t != nil && withMethods(t) {
				edits = append(edits, edit{pos(ta.X.Pos()), pos(ta.X.Pos()), asAnyFunc + "("}, edit{pos(ta.X.End()), pos(ta.X.End()), ")"})
			}
			return true
		})
	}
	return edits
}
