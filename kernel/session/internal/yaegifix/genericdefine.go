package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/stdlib"
)

// GenericDefineEdits rewrites the top-level definitions of a cell src
// whose value is a call of a generic function, x := Map(xs, f), into a
// declaration and an assignment, var x []int; x = Map(xs, f), on the same
// line. yaegi v0.16.1 fails on such a definition: when the function was
// declared by an earlier cell, it panics while it lays out the globals
// ("nil reflect type", printed to the terminal too), and when the cell
// declares it, it reports the function undefined; an assignment works.
// The type of x is the function's result type with the type arguments
// that the call writes or Go infers from the arguments, when the source
// shows their types (see inferCore; an untyped constant gives its default
// type, the variables of earlier cells the types varType names). A
// definition whose type cannot be told so is refused with the rewrite to
// make. earlier holds the generic functions of earlier cells, as
// declarations ("func Map[T, U any](xs []T, f func(T) U) []U"), and
// sessionTypes the types of earlier cells ("T struct{…}").
func GenericDefineEdits(src string, earlier map[string]string, sessionTypes []string, varType func(string) string) (string, error) {
	chunks, err := split(src)
	if err != nil {
		return src, nil // PrepareCell reports it
	}
	funcs := map[string]*ast.FuncDecl{}
	typeSpecs := map[string]*ast.TypeSpec{}
	for name, decl := range earlier {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+decl, 0)
		if err != nil || len(f.Decls) != 1 {
			continue
		}
		if fd, ok := f.Decls[0].(*ast.FuncDecl); ok && fd.Name.Name == name {
			funcs[name] = fd
		}
	}
	for _, s := range sessionTypes {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype "+s, 0)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			for _, sp := range d.(*ast.GenDecl).Specs {
				ts := sp.(*ast.TypeSpec)
				typeSpecs[ts.Name.Name] = ts
			}
		}
	}
	// The cell's own declarations come first.
	for _, c := range chunks {
		if !c.Decl {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+c.Src, 0)
		if err != nil {
			return src, nil
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					if d.Type.TypeParams != nil {
						funcs[d.Name.Name] = d
					} else {
						delete(funcs, d.Name.Name)
					}
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						typeSpecs[sp.Name.Name] = sp
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							delete(funcs, n.Name)
						}
					}
				}
			}
		}
	}
	if len(funcs) == 0 {
		return src, nil
	}
	var edits []edit
	from := 0
	for _, c := range chunks {
		off := strings.Index(src[from:], c.Src)
		if off < 0 {
			return src, nil
		}
		off += from
		from = off + len(c.Src)
		fset := token.NewFileSet()
		if c.Decl {
			f, err := parser.ParseFile(fset, "", "package p\n"+c.Src, 0)
			if err != nil {
				return src, nil
			}
			const prefix = len("package p\n")
			edits = append(edits, typeArgEdits(f, func(p token.Pos) int { return off + fset.Position(p).Offset - prefix }, funcs, typeSpecs, varType, nil)...)
			continue
		}
		body, err := parseStatements(fset, c.Src)
		if err != nil {
			return src, nil
		}
		pos := func(p token.Pos) int { return off + fset.Position(p).Offset - len(stmtPrefix) }
		done := map[*ast.CallExpr]bool{} // calls the definitions below write the type arguments of
		for _, st := range body.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Rhs) != 1 {
				continue
			}
			rhs := ast.Unparen(as.Rhs[0])
			call, ok := rhs.(*ast.CallExpr)
			// The type of x op G(…) (or G(…) op x) is G's result type, but
			// for a comparison.
			comparison := false
			if b, isBin := rhs.(*ast.BinaryExpr); isBin && !ok {
				for _, operand := range []ast.Expr{b.X, b.Y} {
					if c, isCall := ast.Unparen(operand).(*ast.CallExpr); isCall && genericCallee(c, funcs) != nil {
						call, ok = c, true
						break
					}
				}
				switch b.Op {
				case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
					comparison = true
				case token.SHL, token.SHR:
					if c, isCall := ast.Unparen(b.X).(*ast.CallExpr); !isCall || c != call {
						ok = false // the type of a shift is its left operand's
					}
				}
			}
			refuse := func(g string) error {
				var names []string
				for _, l := range as.Lhs {
					names = append(names, types.ExprString(l))
				}
				p := fset.Position(as.Pos())
				p.Line += c.Line - 2
				lhs := strings.Join(names, ", ")
				return scanner.Error{Pos: p, Msg: fmt.Sprintf(Refused+"%s := … at top level, with the type of a call of the generic function %s: the interpreter fails on it "+
					"unless the variable is declared with its type first; write var %s T; %s = …, with the type T of the value", lhs, g, lhs, lhs)}
			}
			if !ok {
				if gc := genericTypeSource(rhs, funcs); gc != nil {
					return "", refuse(genericCallee(gc, funcs).Name)
				}
				continue
			}
			fun, explicit := instantiation(call.Fun)
			id, ok := fun.(*ast.Ident)
			if !ok || funcs[id.Name] == nil || id.Obj != nil && id.Obj.Kind != ast.Fun {
				continue
			}
			fd := funcs[id.Name]
			typeArgs, results := resultTypes(fd, explicit, call, typeSpecs, varType)
			var names []string
			for _, l := range as.Lhs {
				if n, ok := l.(*ast.Ident); ok {
					names = append(names, n.Name)
				}
			}
			if comparison {
				results = []string{"bool"}
			}
			if results == nil || len(results) != len(as.Lhs) || len(names) != len(as.Lhs) {
				return "", refuse(id.Name)
			}
			var decl strings.Builder
			for i, n := range names {
				if n != "_" {
					fmt.Fprintf(&decl, "var %s %s; ", n, results[i])
				}
			}
			edits = append(edits,
				edit{pos(as.Pos()), pos(as.Pos()), decl.String()},
				edit{pos(as.TokPos), pos(as.TokPos) + 2, "="})
			if len(explicit) < len(typeArgs) {
				// The interpreter's own inference can differ (it took U of
				// func(int) string for int): the call names them.
				edits = append(edits, edit{pos(call.Fun.Pos()), pos(call.Fun.End()), id.Name + "[" + strings.Join(typeArgs, ", ") + "]"})
				done[call] = true
			}
		}
		edits = append(edits, typeArgEdits(body, pos, funcs, typeSpecs, varType, done)...)
	}
	if len(edits) == 0 {
		return src, nil
	}
	return applyEdits(src, edits), nil
}

// resultTypes returns the type arguments and the result types, as
// source, of the call of the generic function fd, or nils where they
// cannot be told from the source.
func resultTypes(fd *ast.FuncDecl, explicit []ast.Expr, call *ast.CallExpr, typeSpecs map[string]*ast.TypeSpec, varType func(string) string) (typeArgs, results []string) {
	if call.Ellipsis.IsValid() {
		// f(xs...): xs is of the variadic parameter's slice type.
		if len(fd.Type.Params.List) == 0 {
			return nil, nil
		}
		last := fd.Type.Params.List[len(fd.Type.Params.List)-1]
		e, ok := last.Type.(*ast.Ellipsis)
		if !ok {
			return nil, nil
		}
		params := *fd.Type.Params
		params.List = append(append([]*ast.Field(nil), fd.Type.Params.List[:len(fd.Type.Params.List)-1]...),
			&ast.Field{Names: last.Names, Type: &ast.ArrayType{Elt: e.Elt}})
		ft := *fd.Type
		ft.Params = &params
		d := *fd
		d.Type = &ft
		fd = &d
	}
	var names []string
	for _, field := range fd.Type.TypeParams.List {
		for _, n := range field.Names {
			names = append(names, n.Name)
		}
	}
	args := call.Args
	// The arguments with types the source does not show: untyped
	// constants, and variables of earlier cells.
	lits := make([]ast.Expr, len(args))
	for i, a := range args {
		lits[i] = a
		switch x := ast.Unparen(a).(type) {
		case *ast.BasicLit:
			lits[i] = nil // taken last, by default type
		case *ast.Ident:
			if x.Obj == nil && varType != nil {
				if t := varType(x.Name); t != "" {
					if e, err := parser.ParseExpr(t); err == nil {
						lits[i] = &ast.CompositeLit{Type: e}
					}
				}
			}
		case *ast.CallExpr:
			// A conversion to a type of the cells or a predeclared one.
			if t, ok := x.Fun.(*ast.Ident); ok && len(x.Args) == 1 && (typeSpecs[t.Name] != nil && typeSpecs[t.Name].TypeParams == nil || predeclaredTypeName(t.Name)) &&
				(t.Obj == nil || t.Obj.Kind == ast.Typ) {
				lits[i] = &ast.CompositeLit{Type: t}
			}
		case *ast.SelectorExpr:
			// A function of the standard library (strings.ToUpper).
			if pkg, ok := x.X.(*ast.Ident); ok && pkg.Obj == nil {
				if t := stdlibFuncType(pkg.Name, x.Sel.Name); t != "" {
					if e, err := parser.ParseExpr(t); err == nil {
						lits[i] = &ast.CompositeLit{Type: e}
					}
				}
			}
		}
	}
	text := func(n ast.Node) string { return types.ExprString(n.(ast.Expr)) }
	if len(explicit) == len(names) {
		for _, x := range explicit {
			typeArgs = append(typeArgs, types.ExprString(x))
		}
	} else {
		known := make([]ast.Expr, 0, len(args))
		for _, a := range lits {
			if a == nil {
				a = &ast.BadExpr{}
			}
			known = append(known, a)
		}
		typeArgs = inferCore(fd, explicit, known, typeSpecs, text)
		if typeArgs == nil {
			typeArgs = inferWithConstants(fd, explicit, args, lits, typeSpecs, text)
		}
	}
	if typeArgs == nil {
		return nil, nil
	}
	sub := map[string]ast.Expr{}
	for i, n := range names {
		e, err := parser.ParseExpr(typeArgs[i])
		if err != nil {
			return nil, nil
		}
		sub[n] = e
	}
	if fd.Type.Results != nil {
		for _, r := range fd.Type.Results.List {
			t := types.ExprString(substitute(r.Type, sub))
			for range max(len(r.Names), 1) {
				results = append(results, t)
			}
		}
	}
	return typeArgs, results
}

// stdlibFuncType returns the type of the function pkg.name of yaegi's
// standard library as source, when it is made of predeclared types only
// (func(string) string), else "".
func stdlibFuncType(pkg, name string) string {
	var found reflect.Type
	for path, syms := range stdlib.Symbols {
		if path[strings.LastIndex(path, "/")+1:] != pkg {
			continue
		}
		if v, ok := syms[name]; ok && v.Kind() == reflect.Func {
			if found != nil {
				return ""
			}
			found = v.Type()
		}
	}
	if found == nil {
		return ""
	}
	if t := found.String(); PredeclaredOnly(t) {
		return t
	}
	return ""
}

// inferWithConstants binds the type parameters that only untyped
// constant arguments give, to the constants' default type (the largest
// kind among them, as Go does: Max(1, 2.5) is float64), and infers the
// others from the arguments whose types lits shows.
func inferWithConstants(fd *ast.FuncDecl, explicit, args, lits []ast.Expr, typeSpecs map[string]*ast.TypeSpec, text func(ast.Node) string) []string {
	var params []ast.Expr
	for _, p := range fd.Type.Params.List {
		for range max(len(p.Names), 1) {
			params = append(params, p.Type)
		}
	}
	rank := map[token.Token]int{token.INT: 1, token.CHAR: 2, token.FLOAT: 3, token.IMAG: 4, token.STRING: 5}
	defaults := map[token.Token]string{token.INT: "int", token.CHAR: "rune", token.FLOAT: "float64", token.IMAG: "complex128", token.STRING: "string"}
	// paramType is the type of the parameter of argument i (the element
	// type of a variadic one).
	paramType := func(i int) ast.Expr {
		if n := len(params); n > 0 && i >= n-1 {
			if e, ok := params[n-1].(*ast.Ellipsis); ok {
				return e.Elt
			}
		}
		if i < len(params) {
			return params[i]
		}
		return nil
	}
	best := map[string]token.Token{}
	for i, a := range args {
		lit, ok := ast.Unparen(a).(*ast.BasicLit)
		if !ok || paramType(i) == nil {
			continue
		}
		p, ok := paramType(i).(*ast.Ident)
		if !ok {
			return nil
		}
		if k, seen := best[p.Name]; seen && (k == token.STRING) != (lit.Kind == token.STRING) {
			return nil
		}
		if rank[lit.Kind] > rank[best[p.Name]] {
			best[p.Name] = lit.Kind
		}
	}
	if len(best) == 0 {
		return nil
	}
	// The constants stand for values of their default types.
	known := make([]ast.Expr, len(args))
	for i := range args {
		known[i] = lits[i]
		if known[i] == nil {
			known[i] = &ast.BadExpr{}
			if _, ok := ast.Unparen(args[i]).(*ast.BasicLit); ok && paramType(i) != nil {
				if p, ok := paramType(i).(*ast.Ident); ok {
					known[i] = &ast.CompositeLit{Type: ast.NewIdent(defaults[best[p.Name]])}
				}
			}
		}
	}
	return inferCore(fd, explicit, known, typeSpecs, text)
}

// GenericFuncs returns the generic functions a cell src declares at top
// level, by name, as their declarations' source.
func GenericFuncs(src string) map[string]string {
	chunks, err := split(src)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, c := range chunks {
		if !c.Decl {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", "package p\n"+c.Src, 0)
		if err != nil {
			continue
		}
		const off = len("package p\n")
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Type.TypeParams != nil {
				out[fd.Name.Name] = c.Src[fset.Position(fd.Pos()).Offset-off : fset.Position(fd.End()).Offset-off]
			}
		}
	}
	return out
}

// genericCallee returns the name of the generic function of funcs that
// call calls (G(…) or G[…](…)), or nil.
func genericCallee(call *ast.CallExpr, funcs map[string]*ast.FuncDecl) *ast.Ident {
	fun, _ := instantiation(call.Fun)
	id, ok := fun.(*ast.Ident)
	if !ok || funcs[id.Name] == nil || id.Obj != nil && id.Obj.Kind != ast.Fun {
		return nil
	}
	return id
}

// genericTypeSource returns the call of a generic function of funcs from
// which the type of x derives (-G(…), G(…)[i], G(…).f, x + G(…), …), or
// nil when x's type does not come from such a call (len(G(…)), a call of
// another function, a composite literal).
func genericTypeSource(x ast.Expr, funcs map[string]*ast.FuncDecl) *ast.CallExpr {
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		if genericCallee(x, funcs) != nil {
			return x
		}
	case *ast.UnaryExpr:
		return genericTypeSource(x.X, funcs)
	case *ast.StarExpr:
		return genericTypeSource(x.X, funcs)
	case *ast.BinaryExpr:
		if c := genericTypeSource(x.X, funcs); c != nil {
			return c
		}
		return genericTypeSource(x.Y, funcs)
	case *ast.IndexExpr:
		return genericTypeSource(x.X, funcs)
	case *ast.SliceExpr:
		return genericTypeSource(x.X, funcs)
	case *ast.SelectorExpr:
		return genericTypeSource(x.X, funcs)
	case *ast.TypeAssertExpr:
		return nil
	}
	return nil
}

// typeArgEdits writes the type arguments of the calls in n of the generic
// functions of funcs that leave some out, where resultTypes can tell them
// all: the interpreter fails to infer them from untyped constants
// (Sum(1, 2, 3): "undefined type for T"), from a spread slice
// (Sum(xs...)) and from function literals, and infers some wrongly (U of
// func(int) string as int). Calls in generic functions, and those in
// done, are left alone.
func typeArgEdits(n ast.Node, pos func(token.Pos) int, funcs map[string]*ast.FuncDecl, typeSpecs map[string]*ast.TypeSpec, varType func(string) string, done map[*ast.CallExpr]bool) []edit {
	var edits []edit
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			return n.Type.TypeParams == nil && (n.Recv == nil || !hasTypeParams(n.Recv))
		case *ast.CallExpr:
			id := genericCallee(n, funcs)
			if id == nil || done[n] {
				return true
			}
			_, explicit := instantiation(n.Fun)
			fd := funcs[id.Name]
			if typeArgs, _ := resultTypes(fd, explicit, n, typeSpecs, varType); len(explicit) < len(typeArgs) {
				edits = append(edits, edit{pos(n.Fun.Pos()), pos(n.Fun.End()), id.Name + "[" + strings.Join(typeArgs, ", ") + "]"})
			}
		}
		return true
	})
	return edits
}

// predeclaredTypeName reports whether name is one of Go's predeclared
// types.
func predeclaredTypeName(name string) bool {
	tn, ok := types.Universe.Lookup(name).(*types.TypeName)
	return ok && tn != nil
}

// PredeclaredOnly reports whether the type written t names predeclared
// types only ([]int, map[string]float64, func(int) bool).
func PredeclaredOnly(t string) bool {
	for _, w := range strings.FieldsFunc(t, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.')
	}) {
		if w[0] >= '0' && w[0] <= '9' || w == "map" || w == "chan" || w == "func" {
			continue
		}
		if !predeclaredTypeName(w) {
			return false
		}
	}
	return true
}
