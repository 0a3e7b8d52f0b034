package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
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
//   - a method whose receiver of a generic type has no name,
//     func (S[T]) M(): the interpreter panics when it compiles a use of
//     the method. The receiver is named _, which Go treats alike.
//
// The rewrite inserts text on the lines it changes only, so positions keep
// their lines.
func instanceFixes(src string, decl bool, generic map[string]bool) string {
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
			}
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
				ast.Inspect(st, visit)
			}
			return false
		case *ast.FuncDecl:
			if n.Recv != nil && len(n.Recv.List) == 1 && len(n.Recv.List[0].Names) == 0 && genericReceiver(n.Recv.List[0].Type) {
				p := pos(n.Recv.List[0].Type.Pos())
				edits = append(edits, edit{p, p, "_ "})
			}
		case *ast.CallExpr:
			if inSwitch > 0 || len(n.Args) != 1 || n.Ellipsis.IsValid() || callsRecover(n.Args[0]) {
				return true
			}
			fun := ast.Unparen(n.Fun)
			var name ast.Expr
			switch x := fun.(type) {
			case *ast.IndexExpr:
				name = x.X
			case *ast.IndexListExpr:
				name = x.X
			}
			// A name the chunk declares otherwise than as a type (a local
			// variable) is not the generic type.
			if id, ok := name.(*ast.Ident); ok && generic[id.Name] && (id.Obj == nil || id.Obj.Kind == ast.Typ) && !strings.Contains(text(fun), "\n") {
				t := text(fun)
				edits = append(edits,
					edit{pos(n.Pos()), pos(n.Pos()), "func() " + t + " { var " + instanceVar + " " + t + "; _ = " + instanceVar + "; return "},
					edit{pos(n.End()), pos(n.End()), " }()"})
			}
		}
		return true
	}
	ast.Inspect(f, visit)
	if len(edits) == 0 {
		return src
	}
	return applyEdits(src, edits)
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
