package yaegifix

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// chanSwitchEdits rewrites a switch whose tag and a case are channels of
// different direction: yaegi v0.16.1 compares them as interface values of
// different types, so that switch ch { case recvOnly: } never matched
// (or panicked in reflect.Value.Convert the other way round) where Go
// compares the channels (Go's test/fixedbugs/issue67190.go). The types
// come from the function's declarations (x := make(chan T), var x <-chan
// T, parameters); where the tag and a case are such variables with
// different channel types, the switch becomes comparisons in order, the
// bidirectional channel converted to the other's type,
//
//	switch t := ch; { case (<-chan T)(t) == recvOnly: fallthrough; case … }
//
// A switch with an init statement of its own is left alone.
func chanSwitchEdits(fset *token.FileSet, root ast.Node, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	text := func(x ast.Node) string { return src[pos(x.Pos()):pos(x.End())] }
	// The channel type of each name, by its declarations in root; a name
	// declared twice with other types is dropped.
	chans := map[string]string{}
	conflict := map[string]bool{}
	note := func(id *ast.Ident, typ ast.Expr) {
		ct, ok := ast.Unparen(typ).(*ast.ChanType)
		if !ok || id.Name == "_" {
			return
		}
		t := strings.Join(strings.Fields(text(ct)), " ")
		if old, ok := chans[id.Name]; ok && old != t {
			conflict[id.Name] = true
		}
		chans[id.Name] = t
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			if n.Type != nil {
				for _, id := range n.Names {
					note(id, n.Type)
				}
			} else if len(n.Values) == len(n.Names) {
				for i, id := range n.Names {
					if c, ok := n.Values[i].(*ast.CallExpr); ok && isMake(c) {
						note(id, c.Args[0])
					}
				}
			}
		case *ast.Field:
			for _, id := range n.Names {
				note(id, n.Type)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					id, ok := l.(*ast.Ident)
					c, ok2 := n.Rhs[i].(*ast.CallExpr)
					if ok && ok2 && isMake(c) {
						note(id, c.Args[0])
					}
				}
			}
		}
		return true
	})
	chanOf := func(x ast.Expr) string {
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok || conflict[id.Name] {
			return ""
		}
		return chans[id.Name]
	}
	var edits []edit
	ast.Inspect(root, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok || sw.Tag == nil || sw.Init != nil {
			return true
		}
		tagType := chanOf(sw.Tag)
		if tagType == "" {
			return true
		}
		differ := false
		for _, c := range sw.Body.List {
			for _, x := range c.(*ast.CaseClause).List {
				if t := chanOf(x); t != "" && t != tagType {
					differ = true
				}
			}
		}
		if !differ {
			return true
		}
		tmp := tempPrefix + strconv.FormatInt(blockSeq.Add(1), 10)
		edits = append(edits, edit{pos(sw.Tag.Pos()), pos(sw.Tag.End()), tmp + " := " + text(sw.Tag) + ";"})
		for _, c := range sw.Body.List {
			cc := c.(*ast.CaseClause)
			if len(cc.List) == 0 {
				continue
			}
			var parts []string
			for _, x := range cc.List {
				l, r := tmp, text(x)
				if _, ok := ast.Unparen(x).(*ast.Ident); !ok {
					r = "(" + r + ")"
				}
				switch t := chanOf(x); {
				case t == "" || t == tagType:
				case strings.HasPrefix(tagType, "chan "):
					l = "(" + t + ")(" + tmp + ")"
				default:
					r = "(" + tagType + ")(" + r + ")"
				}
				parts = append(parts, l+" == "+r)
			}
			edits = append(edits, edit{pos(cc.List[0].Pos()), pos(cc.List[len(cc.List)-1].End()), strings.Join(parts, ": fallthrough; case ")})
		}
		return true
	})
	return edits
}

// isMake reports whether c is make(chan …) or another make with a type.
func isMake(c *ast.CallExpr) bool {
	id, ok := c.Fun.(*ast.Ident)
	return ok && id.Name == "make" && len(c.Args) > 0
}
