package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// floatCaseEdits rewrites the switch statements with a tag and a case
// expression holding a floating-point literal: yaegi v0.16.1 compares
// such a case as floats, so that case 1e16: matched a uint64 tag of
// 1e16+1, silently (== works). The tag is evaluated once into a variable
// of the switch's init and each case becomes the comparisons Go's switch
// makes, in order, one clause each (the interpreter tests only the first
// of a list without a tag, and fails on a || of them):
//
//	switch t := x; { case t == (1e16): fallthrough; case t == (1e17): … }
//
// A switch with an init statement of its own is left alone.
func floatCaseEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return caseComparisonEdits(fset, f, off, src, func(x ast.Expr) bool {
		float := false
		ast.Inspect(x, func(m ast.Node) bool {
			if lit, ok := m.(*ast.BasicLit); ok && lit.Kind == token.FLOAT {
				float = true
			}
			return !float
		})
		return float
	})
}

// caseComparisonEdits rewrites the switch statements with a tag, without
// an init statement, and a case expression for which wrong reports true
// into a switch without a tag comparing a variable holding the tag with
// each case expression (nil compared as itself: the interpreter fails on
// t == (nil) in a generic function).
func caseComparisonEdits(fset *token.FileSet, f *ast.File, off int, src string, wrong func(ast.Expr) bool) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok || sw.Tag == nil || sw.Init != nil {
			return true
		}
		found := false
		for _, c := range sw.Body.List {
			for _, x := range c.(*ast.CaseClause).List {
				found = found || wrong(x)
			}
		}
		if !found {
			return true
		}
		edits = append(edits, comparisonSwitch(pos, src, sw, nil)...)
		return true
	})
	return edits
}

// comparisonSwitch rewrites the switch statement sw, which has a tag and
// no init statement, into one without a tag that compares a variable
// holding the tag with each case expression, one clause each: with ==,
// or with Equal for the case expressions for which equal reports true.
func comparisonSwitch(pos func(token.Pos) int, src string, sw *ast.SwitchStmt, equal func(ast.Expr) bool) []edit {
	tmp := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
	edits := []edit{{pos(sw.Tag.Pos()), pos(sw.Tag.End()), tmp + " := " + exprText(src, pos, sw.Tag) + ";"}}
	for _, c := range sw.Body.List {
		cc := c.(*ast.CaseClause)
		if len(cc.List) == 0 {
			continue
		}
		var parts []string
		for _, x := range cc.List {
			if id, ok := x.(*ast.Ident); ok && id.Name == "nil" {
				parts = append(parts, tmp+" == nil")
				continue
			}
			if equal != nil && equal(x) {
				parts = append(parts, equalFunc+"("+tmp+", "+exprText(src, pos, x)+")")
				continue
			}
			parts = append(parts, tmp+" == ("+exprText(src, pos, x)+")")
		}
		edits = append(edits, edit{pos(cc.List[0].Pos()), pos(cc.List[len(cc.List)-1].End()), strings.Join(parts, ": fallthrough; case ")})
	}
	return edits
}
