package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
)

// InitOrderEdits writes the package-level var declarations of code, a
// cell, in the order in which Go initializes them, where initOrderRefusals
// would refuse the order they are in: yaegi v0.16.1 orders them by the
// names their initializers mention, not through the functions and
// methods they call, and initializes blank variables in place, so that
// var n = f() before var calledF = false, where f sets calledF, left it
// false (Go's const4.go, fixedbugs/bug446.go, issue22326.go,
// issue51913.go). The order is go/types' (Info.InitOrder), which types
// the cell with the session's declarations (d) and imports, its compiled
// packages through im, and is the spec's; the cell must type without
// error, and the order must keep the cell's declaration chunks in their
// order (a chunk runs before the statements after it). In each chunk the
// var declarations are blanked where they stand (their lines kept) and
// written again at its end: those without initializers first, then one
// declaration per initializer in that order (var a, b = f() stays one).
// Otherwise code is returned unchanged, and initOrderRefusals refuses it.
func InitOrderEdits(code string, d *Decls, imports []ImportSpec, im types.Importer) string {
	if !strings.Contains(code, "var") {
		return code
	}
	chunks, err := split(code)
	if err != nil {
		return code
	}
	refused := false
	for _, c := range chunks {
		if !c.Decl || !strings.Contains(c.Src, "var") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+c.Src, 0)
		if err != nil {
			return code
		}
		initOrderRefusals(f.Decls, func(token.Pos, string, ...any) { refused = true })
	}
	if !refused {
		return code
	}
	cf, ok := layout(code, d, imports)
	if !ok {
		return code
	}
	// The cell must type without error, but for the imports it does not
	// use (the session's are all listed).
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell", cf.src, parser.SkipObjectResolution)
	if err != nil {
		return code
	}
	nerr := 0
	conf := types.Config{Importer: im, Error: func(err error) {
		if te, ok := err.(types.Error); !ok || !te.Soft || !strings.Contains(te.Msg, " and not used") || !strings.Contains(te.Msg, "imported") {
			nerr++
		}
	}}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	if pkg, _ := conf.Check("main", fset, []*ast.File{f}, info); pkg == nil || nerr > 0 {
		return code
	}
	// The piece of the cell a position is in, -1 outside the cell.
	pieceOf := func(p token.Pos) int {
		off := fset.Position(p).Offset
		for i, pc := range cf.pieces {
			if off >= pc.file && off < pc.file+pc.n {
				return i
			}
		}
		return -1
	}
	text := func(n ast.Node) string {
		return cf.src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset]
	}
	// The cell's var declarations, by piece, and their specs by variable.
	decls := map[int][]*ast.GenDecl{}
	specOf := map[types.Object]*ast.ValueSpec{}
	withValues := 0
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		i := pieceOf(g.Pos())
		if i < 0 {
			continue
		}
		decls[i] = append(decls[i], g)
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if len(vs.Values) > 0 {
				withValues += len(vs.Names)
			}
			for _, id := range vs.Names {
				obj := info.Defs[id]
				if obj == nil {
					return code
				}
				specOf[obj] = vs
			}
		}
	}
	// The initializers of the cell's variables, in Go's order, by piece.
	inits := map[int][]string{}
	last, covered := 0, 0
	for _, in := range info.InitOrder {
		vs := specOf[in.Lhs[0]]
		if vs == nil {
			continue // a variable of the session's declarations
		}
		i := pieceOf(vs.Pos())
		if i < last {
			return code
		}
		last = i
		var names []string
		for _, v := range in.Lhs {
			names = append(names, v.Name())
			covered++
		}
		var value ast.Expr
		switch {
		case len(vs.Values) == 1:
			value = vs.Values[0]
		case len(in.Lhs) == 1:
			for j, id := range vs.Names {
				if info.Defs[id] == in.Lhs[0] && j < len(vs.Values) {
					value = vs.Values[j]
				}
			}
		}
		if value == nil {
			return code
		}
		src := "var " + strings.Join(names, ", ")
		if vs.Type != nil {
			src += " " + text(vs.Type)
		}
		inits[i] = append(inits[i], src+" = "+text(value))
	}
	if covered != withValues || !keepsOrder(inits) {
		return code
	}
	var edits []edit
	for i, gs := range decls {
		var plain []string
		for _, g := range gs {
			for _, s := range g.Specs {
				if vs := s.(*ast.ValueSpec); len(vs.Values) == 0 {
					plain = append(plain, "var "+text(vs))
				}
			}
			begin, _ := cf.cellOffset(fset.Position(g.Pos()).Offset)
			end, _ := cf.cellOffset(fset.Position(g.End()).Offset)
			edits = append(edits, edit{begin, end, strings.Repeat("\n", strings.Count(code[begin:end], "\n"))})
		}
		pc := cf.pieces[i]
		edits = append(edits, edit{pc.cell + pc.n, pc.cell + pc.n, "\n" + strings.Join(append(plain, inits[i]...), "\n") + "\n"})
	}
	return applyEdits(code, edits)
}

// keepsOrder says whether yaegi initializes the declarations of each
// chunk (var a = x, one a line) in their order: it initializes the first
// whose dependencies are initialized, where a dependency is any name of
// the initializer that is one of the variables (a local variable of a
// function literal of that name too), and where a blank variable depends
// on the last blank variable declared, so that of two blank ones the
// first waited for the second.
func keepsOrder(inits map[int][]string) bool {
	for _, decls := range inits {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+strings.Join(decls, "\n"), 0)
		if err != nil {
			return false
		}
		at := map[string]int{}
		blanks := 0
		for i, d := range f.Decls {
			for _, id := range d.(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Names {
				if id.Name == "_" {
					blanks++
				}
				at[id.Name] = i
			}
		}
		if blanks > 1 {
			return false
		}
		for i, d := range f.Decls {
			ok := true
			for _, v := range d.(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values {
				ast.Inspect(v, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.SelectorExpr:
						ast.Inspect(n.X, func(m ast.Node) bool {
							if id, isId := m.(*ast.Ident); isId && id.Name != "_" {
								if j, found := at[id.Name]; found && j > i {
									ok = false
								}
							}
							return true
						})
						return false
					case *ast.Ident:
						if j, found := at[n.Name]; found && j > i && n.Name != "_" {
							ok = false
						}
					}
					return true
				})
			}
			if !ok {
				return false
			}
		}
	}
	return true
}
