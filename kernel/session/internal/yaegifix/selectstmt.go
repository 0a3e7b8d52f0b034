package yaegifix

import (
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"strings"
)

// selectFunc and relayFunc are the interpreted names of Select and Relay.
const (
	selectFunc = "_portlab.Select"
	relayFunc  = "_portlab.Relay"
)

// selectEdits rewrites the select statements inside functions: yaegi
// v0.16.1 compiles a select statement into one list of cases, which every
// run of the statement fills with its channels and values before it
// selects, so that goroutines running the same select at once take each
// other's channels (a goroutine receives from another one's channel, or
// sends another one's value), silently. Each select with cases becomes a
// call of Select, which builds the cases afresh on every run, and a
// switch on the case it chose:
//
//	select { case v, ok := <-c: A; case d <- x: B; default: C }
//
// becomes
//
//	{ s0 := c; s1 := d; r1 := s1; _portlab.Relay(&r1); r1 <- x
//	switch _portlab.Select("rsd", &s0, &s1, &r1) { case 0: v, ok := <-s0; A; case 1: B; case 2: C } }
//
// The channels and the values sent are evaluated once, in source order,
// before selecting, as in Go. Values cross between the cell and Select
// only inside channels of the cell's own types: the cell sends the value
// of a send case into a relay channel (Relay makes it) from which Select
// takes it, and Select hands a received value over in a relay channel
// that replaces the case's channel variable, from which the cell receives
// it (closed when the channel was), so that the interpreter converts no
// value of a cell type (interfaces and functions of the cell have
// representations of the interpreter's own). break and continue keep
// their meaning in the switch; a label of the select moves to the switch.
//
// A select at top level of a chunk (not in a function) runs once per
// evaluation, in one goroutine, and is left alone, as is one whose label
// a goto names and one inside an operand of another rewritten select (its
// text is moved), and select {}.
func selectEdits(decl bool) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		span := func(a, b token.Pos) string { return src[pos(a):pos(b)] }
		labels := map[*ast.SelectStmt]*ast.LabeledStmt{}
		gotos := map[string]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.LabeledStmt:
				if sel, ok := n.Stmt.(*ast.SelectStmt); ok {
					labels[sel] = n
				}
			case *ast.BranchStmt:
				if n.Tok == token.GOTO && n.Label != nil {
					gotos[n.Label.Name] = true
				}
			}
			return true
		})
		var edits []edit
		var moved [][2]token.Pos // operand text moved by an edit
		inMoved := func(p token.Pos) bool {
			for _, m := range moved {
				if m[0] <= p && p < m[1] {
					return true
				}
			}
			return false
		}
		var visit func(n ast.Node, inFunc bool)
		visit = func(n ast.Node, inFunc bool) {
			ast.Inspect(n, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.FuncDecl:
					if m != n && m.Body != nil {
						// The statements of a statement chunk are the body
						// of the function its parse wraps them in.
						visit(m.Body, decl)
					}
					return false
				case *ast.FuncLit:
					if m != n {
						visit(m.Body, true)
						return false
					}
				case *ast.SelectStmt:
					if !inFunc || len(m.Body.List) == 0 || inMoved(m.Pos()) {
						return true
					}
					if l := labels[m]; l != nil && gotos[l.Label.Name] {
						return true
					}
					e, ops := selectRewrite(m, labels[m], pos, span)
					edits = append(edits, e...)
					moved = append(moved, ops...)
				}
				return true
			})
		}
		visit(f, false)
		return edits
	}
}

// selectRewrite returns the edits that rewrite sel (labelled by l, or
// nil) and the ranges of the operands they move.
func selectRewrite(sel *ast.SelectStmt, l *ast.LabeledStmt, pos func(token.Pos) int, span func(a, b token.Pos) string) ([]edit, [][2]token.Pos) {
	text := func(n ast.Node) string { return span(n.Pos(), n.End()) }
	n := strconv.FormatInt(blockSeq.Add(1), 10)
	name := func(kind string, i int) string { return "_portlabSel" + n + kind + strconv.Itoa(i) }
	var head strings.Builder
	var kinds strings.Builder
	var args []string
	var edits []edit
	var moved [][2]token.Pos
	head.WriteString("{ ")
	// define writes v := x into the head, x's text moved there. A
	// variable defined from a receive is one yaegi cannot take the
	// address of ("reflect.Value.Addr of unaddressable value"): it is
	// copied into v.
	define := func(v string, x ast.Expr) {
		moved = append(moved, [2]token.Pos{x.Pos(), x.End()})
		if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			head.WriteString(v + "x := " + text(x) + "; " + v + " := " + v + "x; ")
			return
		}
		head.WriteString(v + " := " + text(x) + "; ")
	}
	for i, st := range sel.Body.List {
		cc := st.(*ast.CommClause)
		c := name("c", i)
		header := "case " + strconv.Itoa(i) + ":"
		switch comm := cc.Comm.(type) {
		case nil:
			kinds.WriteByte('d')
		case *ast.SendStmt:
			r := name("r", i)
			define(c, comm.Chan)
			head.WriteString(r + " := " + c + "; " + relayFunc + "(&" + r + "); " + r + " <- " + text(comm.Value) + "; ")
			moved = append(moved, [2]token.Pos{comm.Value.Pos(), comm.Value.End()})
			kinds.WriteByte('s')
			args = append(args, "&"+c, "&"+r)
		case *ast.ExprStmt:
			define(c, recvOperand(comm.X))
			kinds.WriteByte('R')
			args = append(args, "&"+c)
		case *ast.AssignStmt:
			define(c, recvOperand(comm.Rhs[0]))
			kinds.WriteByte('r')
			args = append(args, "&"+c)
			lhs := span(comm.Lhs[0].Pos(), comm.Lhs[len(comm.Lhs)-1].End())
			if comm.Tok == token.DEFINE {
				// The variables are copies, addressable (see define).
				v, ok := name("v", i), name("ok", i)
				if len(comm.Lhs) == 1 {
					header += " " + v + " := <-" + c + "; " + lhs + " := " + v + ";"
				} else {
					header += " " + v + ", " + ok + " := <-" + c + "; " + lhs + " := " + v + ", " + ok + ";"
				}
			} else {
				header += " " + lhs + " = <-" + c + ";"
			}
		}
		edits = append(edits, edit{pos(cc.Case), pos(cc.Colon) + 1, header})
	}
	label := ""
	begin := pos(sel.Pos())
	if l != nil {
		label = l.Label.Name + ": "
		begin = pos(l.Pos())
	}
	call := selectFunc + "(" + strconv.Quote(kinds.String())
	for _, a := range args {
		call += ", " + a
	}
	call += ")"
	edits = append(edits,
		edit{begin, pos(sel.Body.Lbrace) + 1, head.String() + label + "switch " + call + " {"},
		edit{pos(sel.Body.Rbrace), pos(sel.Body.Rbrace) + 1, "} }"})
	return edits, moved
}

// recvOperand returns the channel of the receive expression x (<-c,
// possibly in parentheses).
func recvOperand(x ast.Expr) ast.Expr {
	if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X
	}
	return x
}

// Relay sets the channel variable *ptr of a select case that sends to a
// new channel of its type with room for one value: the cell sends the
// case's value into it, and Select takes it from there (selectEdits).
func Relay(ptr any) {
	v := reflect.ValueOf(ptr).Elem()
	t := v.Type()
	v.Set(reflect.MakeChan(reflect.ChanOf(reflect.BothDir, t.Elem()), 1).Convert(t))
}

// Select runs a select statement of a cell as selectEdits rewrote it and
// returns the index of the case it chose, or stopped true when stop was
// closed first (the cell was interrupted). kinds has a letter per case:
// r for a receive whose value the cell reads, R for one whose value it
// drops, s for a send, d for default. ptrs holds a pointer to the channel
// variable of each receive and send and, for a send, one to its relay
// (filled by the cell). For a chosen receive r, the channel variable is
// replaced by a relay that holds the value received, or is closed.
func Select(stop <-chan struct{}, kinds string, ptrs ...any) (chosen int, stopped bool) {
	cases := make([]reflect.SelectCase, 0, len(kinds)+1)
	chans := make([]reflect.Value, len(kinds)) // the channel variables
	p := 0
	for i := 0; i < len(kinds); i++ {
		switch kinds[i] {
		case 'r', 'R':
			chans[i] = reflect.ValueOf(ptrs[p]).Elem()
			p++
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: chans[i]})
		case 's':
			chans[i] = reflect.ValueOf(ptrs[p]).Elem()
			relay := reflect.ValueOf(ptrs[p+1])
			p += 2
			// The relay's variable may be of a send-only type: read it
			// as the channel it is.
			both := reflect.ChanOf(reflect.BothDir, relay.Type().Elem().Elem())
			x, ok := reflect.NewAt(both, relay.UnsafePointer()).Elem().TryRecv()
			if !ok {
				panic("select: the value of a send case is missing from its relay")
			}
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectSend, Chan: chans[i], Send: x})
		case 'd':
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectDefault})
		}
	}
	cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(stop)})
	i, x, ok := reflect.Select(cases)
	if i == len(kinds) {
		return -1, true
	}
	if kinds[i] == 'r' {
		t := chans[i].Type()
		relay := reflect.MakeChan(reflect.ChanOf(reflect.BothDir, t.Elem()), 1)
		if ok {
			relay.Send(x)
		} else {
			relay.Close()
		}
		chans[i].Set(relay.Convert(t))
	}
	return i, false
}
