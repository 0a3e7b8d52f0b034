package yaegifix

import (
	"go/ast"
	"go/token"
	"strings"
)

// namedResultEdits zeroes the named results of every function and
// function literal when it starts: yaegi v0.16.1 gives a called function
// the caller's slot for each result (the variable assigned, or the call's
// own slot, which keeps its value between runs of the call), and a named
// result starts with what that slot holds. So got := f(); got = f() with
// func f() (r []int) { r = append(r, 1); return } gave [1 1], and
// fmt.Print(h()) in a loop counted up for func h() (n int) { n++; return }.
// The body gets n = *new(T) for each named result n of type T, on the line
// of its opening brace (blank results cannot be read and are left alone).
func namedResultEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	zero := func(typ *ast.FuncType, body *ast.BlockStmt) {
		if typ.Results == nil || body == nil {
			return
		}
		var sets []string
		for _, field := range typ.Results.List {
			t := exprText(src, pos, field.Type)
			for _, name := range field.Names {
				if name.Name != "_" {
					sets = append(sets, name.Name+" = *new("+t+");")
				}
			}
		}
		if len(sets) > 0 {
			at := pos(body.Lbrace) + 1
			edits = append(edits, edit{at, at, " " + strings.Join(sets, " ")})
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			zero(n.Type, n.Body)
		case *ast.FuncLit:
			zero(n.Type, n.Body)
		}
		return true
	})
	return edits
}

// compositeEdits works around two faults of yaegi v0.16.1 with composite
// literals:
//
//   - In an assignment or definition of several values (a, b := f(), S{1};
//     var a, b = 1, []int{2}), a composite literal among the values left
//     the others zero (a was 0), silently. A parenthesised literal, (S{1}),
//     is right: every composite literal among several values is put in
//     parentheses.
//   - A composite literal of a generic type with two or more type
//     arguments, A[K, V]{…}, shares its type's node with the other literals
//     of that instantiation, and the interpreter's control flow jumped from
//     the first such literal to what follows the last one, silently skipping
//     the statements between (also from one function into another). It
//     becomes the element of a one-element slice, []A[K, V]{{…}}[0], whose
//     literal the interpreter compiles as Go's (the element is addressable,
//     so &A[K, V]{…} keeps its meaning).
func compositeEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	paren := func(values []ast.Expr) {
		if len(values) < 2 {
			return
		}
		for _, v := range values {
			if lit, ok := v.(*ast.CompositeLit); ok {
				edits = append(edits, edit{pos(lit.Pos()), pos(lit.Pos()), "("}, edit{pos(lit.End()), pos(lit.End()), ")"})
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			paren(n.Rhs)
		case *ast.ValueSpec:
			paren(n.Values)
		case *ast.CompositeLit:
			if _, ok := n.Type.(*ast.IndexListExpr); ok {
				slice := true
				for i, e := range edits {
					if e.begin == pos(n.Pos()) && e.end == e.begin && e.text == "(" {
						// Parenthesized among several values: ([]A[K, V]{{…}}[0]).
						edits[i].text = "([]"
						slice = false
					}
				}
				if slice {
					edits = append(edits, edit{pos(n.Pos()), pos(n.Pos()), "[]"})
				}
				edits = append(edits,
					edit{pos(n.Lbrace), pos(n.Lbrace) + 1, "{{"},
					edit{pos(n.Rbrace), pos(n.Rbrace) + 1, "}}[0]"})
			}
		}
		return true
	})
	return edits
}

// nilCaseEdits rewrites the switch statements with a tag and a case nil:
// yaegi v0.16.1 matches case nil only for a tag of an interface type, so
// that switch s { case nil: … } with a nil slice, map, pointer, function
// or channel s took the default (== works). As for a float literal
// (floatCaseEdits), the tag is evaluated once into a variable of the
// switch's init and each case becomes its comparison, one clause each:
//
//	switch t := s; { case t == nil: fallthrough; case t == (x): … }
//
// A switch with an init statement of its own is left alone.
func nilCaseEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return caseComparisonEdits(fset, f, off, src, func(x ast.Expr) bool {
		id, ok := x.(*ast.Ident)
		return ok && id.Name == "nil"
	})
}
