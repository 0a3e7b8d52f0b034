package yaegifix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// blankTypes removes the blank type declarations (type _ B) of the chunk
// src (declarations when decl, else statements): yaegi v0.16.1 fails on
// them with "cannot use _ as value". They declare nothing and run no
// code, in Go. A declaration of blank types only goes entirely, a blank
// spec of a group alone; the lines of the cell stay where they were.
func blankTypes(src string, decl bool) string {
	if !strings.Contains(src, "_") || !strings.Contains(src, "type") {
		return src
	}
	prefix, suffix := "package p\n", ""
	if !decl {
		prefix, suffix = stmtPrefix, "\n}"
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", prefix+src+suffix, 0)
	if err != nil {
		return src
	}
	off := len(prefix)
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	blank := func(s ast.Spec) bool { return s.(*ast.TypeSpec).Name.Name == "_" }
	// cut removes [begin, end) but its line breaks.
	var edits []edit
	cut := func(begin, end int) {
		edits = append(edits, edit{begin, end, strings.Repeat("\n", strings.Count(src[begin:end], "\n"))})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		g, ok := n.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			return true
		}
		all := true
		for _, s := range g.Specs {
			all = all && blank(s)
		}
		if all {
			cut(pos(g.Pos()), pos(g.End()))
			return false
		}
		for _, s := range g.Specs {
			if blank(s) {
				cut(pos(s.Pos()), pos(s.End()))
			}
		}
		return false
	})
	return applyEdits(src, edits)
}

// blankFieldRefusals refuses a struct type with several blank fields
// (struct{ _ int; X any; _ string }): yaegi v0.16.1 exports each under
// the same name, X_, and reflect.StructOf panics ("duplicate field X_")
// when the type is built.
func blankFieldRefusals(root ast.Node, refuse func(token.Pos, string, ...any)) {
	ast.Inspect(root, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok {
			return true
		}
		var blanks []*ast.Ident
		for _, f := range st.Fields.List {
			for _, name := range f.Names {
				if name.Name == "_" {
					blanks = append(blanks, name)
				}
			}
		}
		if len(blanks) > 1 {
			refuse(blanks[1].Pos(), "a struct type with several blank fields (_): the interpreter gives them one name and fails to build the type; "+
				"keep one blank field, or give the others names (which == and map keys then compare, unlike blank fields)")
			return false
		}
		return true
	})
}
