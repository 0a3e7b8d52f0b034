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
