package yaegifix

import (
	"go/ast"
	"go/token"
	"go/types"
)

// constComparisonRefusals refuses constant declarations whose value
// compares or combines with && or ||: yaegi v0.16.1 gives such a constant
// the value false, whatever the operands (const ok = 1 == 1 is false, and
// if ok takes the else branch), where a var with the same value is right.
func constComparisonRefusals(root ast.Node, refuse func(token.Pos, string, ...any)) {
	ast.Inspect(root, func(n ast.Node) bool {
		g, ok := n.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			return true
		}
		for _, spec := range g.Specs {
			for _, v := range spec.(*ast.ValueSpec).Values {
				var bad *ast.BinaryExpr
				ast.Inspect(v, func(m ast.Node) bool {
					if b, ok := m.(*ast.BinaryExpr); ok && bad == nil {
						switch b.Op {
						case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
							bad = b
						}
					}
					return bad == nil
				})
				if bad != nil {
					refuse(bad.Pos(), "a constant whose value uses %s (%s): the interpreter gives such a constant the value false; "+
						"declare it with var, or write the value it has (true or false)", bad.Op, types.ExprString(bad))
					return false
				}
			}
		}
		return false
	})
}

// constIotaRefusals refuses a constant group that uses iota after a line
// declaring several names: yaegi v0.16.1 counts iota per name, not per
// line, so const ( a, b = iota, iota*10; c, d = iota, iota*10 ) gave c ==
// 2 where Go gives 1.
func constIotaRefusals(root ast.Node, refuse func(token.Pos, string, ...any)) {
	ast.Inspect(root, func(n ast.Node) bool {
		g, ok := n.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			return true
		}
		usesIota := false // the values in force for each line use iota
		several := false  // a line before declares several names
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			if len(vs.Values) > 0 {
				usesIota = false
				for _, v := range vs.Values {
					ast.Inspect(v, func(m ast.Node) bool {
						if id, ok := m.(*ast.Ident); ok && id.Name == "iota" {
							usesIota = true
						}
						return !usesIota
					})
				}
			}
			if usesIota && several {
				refuse(vs.Pos(), "iota in a constant group after a line that declares several names: the interpreter counts iota per name, not per line as Go does; "+
					"write the values out, or declare one name a line")
				return false
			}
			several = several || len(vs.Names) > 1
		}
		return false
	})
}
