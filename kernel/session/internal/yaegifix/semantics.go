package yaegifix

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/scanner"
	"go/token"
	"reflect"
	"strings"
)

// semanticEdits rewrites or refuses constructs that yaegi v0.16.1 runs
// with a result other than Go's, without an error:
//
//   - `m[k], ok = x.(T)` (or `= m2[k]`, `= <-c`): a comma-ok result
//     assigned to a map element leaves the map unchanged. The statement
//     becomes `{ _v, _ok := x.(T); m[k], ok = _v, _ok }` where it stands
//     in a statement list (needsFunction runs such a statement of the
//     cell in a function); elsewhere (an if or switch header) it is
//     refused.
//   - `case x = <-c:` (and `case x, ok = <-c:`) in a select fails at run
//     time ("reflect.Select: invalid Dir"); it becomes `case _v := <-c: x
//     = _v;`, which is what Go does (the left side is evaluated when the
//     case is chosen).
//   - a type switch case that is an interface type using a type
//     parameter of the enclosing generic function (`case interface{ M()
//     T }`): the interpreter matches it against the wrong type.
//   - == or != between a value whose type is a type parameter and one of
//     another declared type (an interface with methods): the interpreter
//     compares them as different. With any on the other side it works.
//   - a receive among the values of a definition, `a, b := <-c, f()` or
//     `var a, b = f(), <-c`: the interpreter sets the other variables to
//     zero. The operands up to the last receive are evaluated first, in
//     order, into temporaries (`_rv12_0 := <-c; _rv12_1 := f(); a, b :=
//     _rv12_0, _rv12_1`); in the header of an if, switch or for in a
//     statement list the temporaries go into a block opened before the
//     statement; elsewhere (an else if, a labeled statement's header, a
//     package-level var) it is refused.
//   - an assignment of several values whose left side indexes with a
//     variable the same statement assigns, `i, m[i] = 1, 2`: Go evaluates
//     the index first, the interpreter after assigning i. The indexes
//     are evaluated into temporaries before the statement (`_lx7_0 := i;
//     i, m[_lx7_0] = 1, 2`); an indexed or dereferenced operand that uses
//     such a variable (`x, x[0] = y, 1`, `p, *p = q, 1`) is refused.
//   - `v, ok := m[k]` or `var v, ok = m[k]` (or x.(T), <-c) as a
//     statement of the cell: the compiler fails with "nil type", which
//     reads as the failure of a range over an integer.
//   - a blank package-level var (var _ = f(b)) whose initializer uses a
//     var declared after it in the cell and initialized by a call: Go
//     initializes in dependency order, the interpreter initializes blank
//     vars in the order of the declarations, so the calls' side effects
//     come in another order.
//   - a struct type with several blank fields (blankFieldRefusals).
func semanticEdits(fset *token.FileSet, root ast.Node, off int, src string) ([]edit, error) {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	var errs scanner.ErrorList
	refuse := func(p token.Pos, format string, args ...any) {
		errs.Add(fset.Position(p), fmt.Sprintf(Refused+format, args...))
	}
	inList := map[ast.Stmt]bool{} // statements directly in a statement list
	results := namedResults(root)
	topLevel := map[ast.Stmt]bool{} // statements of the cell (blankEdits rewrites their _ = x)
	if b, ok := root.(*ast.BlockStmt); ok {
		for _, st := range b.List {
			topLevel[st] = true
		}
	}
	consts := constNames(root)
	deferReturns := returnsWithDefer(root)
	deferRecoverRefusals(root, refuse)
	constComparisonRefusals(root, refuse)
	constIotaRefusals(root, refuse)
	blankFieldRefusals(root, refuse)
	edits = append(edits, chanSwitchEdits(fset, root, off, src)...)
	selectRecv := map[*ast.AssignStmt]bool{} // case x = <-c, rewritten
	inDeclStmt := map[ast.Node]bool{}        // declarations of DeclStmts
	hoistedInit := map[ast.Node]bool{}       // header definitions with a receive, hoisted
	ast.Inspect(root, func(n ast.Node) bool {
		for _, st := range stmtList(n) {
			inList[st] = true
		}
		if sel, ok := n.(*ast.SelectStmt); ok && inList[sel] {
			edits = append(edits, selectOperands(sel, pos, src, consts)...)
		}
		if cc, ok := n.(*ast.CommClause); ok {
			if as, ok := cc.Comm.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Rhs) == 1 {
				// case x = <-c: fails at run time ("reflect.Select:
				// invalid Dir"); case _v := <-c: x = _v does what Go does
				// (the left side is evaluated once the case is chosen).
				names := "_v"
				if len(as.Lhs) == 2 {
					names = "_v, _ok"
				}
				lhs := src[pos(as.Lhs[0].Pos()):pos(as.Lhs[len(as.Lhs)-1].End())]
				edits = append(edits,
					edit{pos(as.Lhs[0].Pos()), pos(as.Rhs[0].Pos()), names + " := "},
					edit{pos(cc.Colon) + 1, pos(cc.Colon) + 1, " " + lhs + " = " + names + ";"})
				selectRecv[as] = true
			}
			return true
		}
		if ds, ok := n.(*ast.DeclStmt); ok {
			inDeclStmt[ds.Decl] = true
		}
		if hdr, init := headerDefineWithReceive(n); init != nil && inList[hdr] {
			// if a, b := <-c, f(); …: the values go into temporaries in
			// a block opened before the statement (the init runs first,
			// once, so evaluating its values just before is the same).
			hs := hoistOperands(hdr, init.Rhs, pos, src, consts)
			hs[0].text = "{ " + hs[0].text
			edits = append(edits, hs...)
			edits = append(edits, edit{pos(hdr.End()), pos(hdr.End()), " }"})
			hoistedInit[init] = true
		}
		if st, values := multiValueWithReceive(n); st != nil && !inDeclStmt[st] && !hoistedInit[st] {
			if stmt, ok := st.(ast.Stmt); !ok || !inList[stmt] || values == nil {
				refuse(st.Pos(), "a receive among several values defined at once here (the interpreter sets the other values to zero): "+
					"receive into a variable in a statement before, v := <-c, and use v")
				return true
			}
			edits = append(edits, hoistOperands(st, values, pos, src, consts)...)
			return true
		}
		if as, ok := n.(*ast.AssignStmt); ok && inList[as] && !topLevel[as] && blankOfOperand(as) {
			// _ = *p, _ = p.f, _ = m[k]: the interpreter evaluates the
			// operands but not the dereference, the field or the index,
			// so a nil pointer or an unhashable key does not panic.
			r := as.Rhs[0]
			tmp := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
			edits = append(edits,
				edit{pos(as.Pos()), pos(r.Pos()), "{ " + tmp + " := "},
				edit{pos(as.End()), pos(as.End()), "; _ = " + tmp + " }"})
			return true
		}
		if st, init, post := headerAssign(n); init != nil || post != nil {
			// if a, b = x, f(); … (or switch, for): in a header, the
			// interpreter leaves the values other than the call
			// unassigned. The values of an init are evaluated first,
			// before the statement; a post becomes a function literal
			// that does so, called as the post statement.
			if post != nil {
				// A function literal called as the post statement
				// evaluates the values into temporaries first.
				funcLit := false
				for _, r := range post.Rhs {
					funcLit = funcLit || hasFuncLit(r)
				}
				if funcLit {
					refuse(post.Pos(), "an assignment of several values with a call in a loop's post statement (the interpreter leaves the other values unassigned): "+
						"assign them at the end of the loop body (and before each continue)")
				} else {
					var b strings.Builder
					b.WriteString("func() { ")
					vals := make([]string, len(post.Rhs))
					for i, r := range post.Rhs {
						vals[i] = exprText(src, pos, r)
						if isConstant(r, consts) && !hasCallOrReceive(r) {
							continue
						}
						name := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
						fmt.Fprintf(&b, "%s := %s; ", name, vals[i])
						vals[i] = name
					}
					fmt.Fprintf(&b, "%s = %s }()", src[pos(post.Lhs[0].Pos()):pos(post.Lhs[len(post.Lhs)-1].End())], strings.Join(vals, ", "))
					edits = append(edits, edit{pos(post.Pos()), pos(post.End()), b.String()})
				}
			}
			switch {
			case init == nil:
			case !inList[st]:
				refuse(init.Pos(), "an assignment of several values with a call in a statement's header here (the interpreter leaves the other values unassigned): "+
					"assign them in a statement before")
			default:
				if idx, bad := lhsIndexAfterAssign(init); idx == nil && bad == nil {
					edits = append(edits, hoistValues(st.Pos(), init.Rhs, pos, src, consts)...)
					edits = append(edits, edit{pos(st.End()), pos(st.End()), " }"})
				}
			}
		}
		if as, ok := n.(*ast.AssignStmt); ok && inList[as] && !topLevel[as] && as.Tok == token.ASSIGN && len(as.Lhs) == 2 && len(as.Rhs) == 1 &&
			isBlank(as.Lhs[0]) && isBlank(as.Lhs[1]) {
			if _, index := ast.Unparen(as.Rhs[0]).(*ast.IndexExpr); index {
				// _, _ = m[k]: the interpreter does not index, so an
				// unhashable key does not panic. Into temporaries first.
				t1 := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
				t2 := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
				edits = append(edits,
					edit{pos(as.Pos()), pos(as.Rhs[0].Pos()), "{ " + t1 + ", " + t2 + " := "},
					edit{pos(as.End()), pos(as.End()), "; _, _ = " + t1 + ", " + t2 + " }"})
				return true
			}
		}
		if as, ok := n.(*ast.AssignStmt); ok && inList[as] && !topLevel[as] && derefIntoElement(as) {
			// m[k] = *p: with a nil p the interpreter deletes m[k]
			// instead of panicking. The value is read first.
			r := as.Rhs[0]
			tmp := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
			edits = append(edits,
				edit{pos(as.Pos()), pos(as.Pos()), "{ " + tmp + " := " + exprText(src, pos, r) + "; "},
				edit{pos(r.Pos()), pos(r.End()), tmp},
				edit{pos(as.End()), pos(as.End()), " }"})
			return true
		}
		if as, ok := n.(*ast.AssignStmt); ok && !selectRecv[as] && receiveIntoElement(as) {
			// x[i] = <-c (or s.f, *p, several values): the interpreter
			// drops the received value. Receive into temporaries first.
			if !inList[as] {
				refuse(as.Pos(), "a receive assigned to %s here (the interpreter drops the value): receive into a variable in a statement before, v := <-c, then assign v",
					exprText(src, pos, as.Lhs[0]))
				return true
			}
			for _, l := range as.Lhs {
				if hasCallOrReceive(l) {
					refuse(l.Pos(), "a receive assigned to %s, whose operands call a function (the interpreter drops the received value, and receiving first would change the order of the calls): "+
						"evaluate the operands into variables first", exprText(src, pos, l))
					return true
				}
			}
			var pre strings.Builder
			pre.WriteString("{ ")
			for _, r := range as.Rhs {
				if isConstant(r, consts) && !hasCallOrReceive(r) {
					continue // its type comes from the left side
				}
				name := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
				fmt.Fprintf(&pre, "%s := %s; ", name, exprText(src, pos, r))
				edits = append(edits, edit{pos(r.Pos()), pos(r.End()), name})
			}
			edits = append(edits, edit{pos(as.Pos()), pos(as.Pos()), pre.String()}, edit{pos(as.End()), pos(as.End()), " }"})
			return false
		}
		if as, ok := n.(*ast.AssignStmt); ok && !selectRecv[as] && inList[as] && !topLevel[as] && (multiAssignWithCall(as) || blankOfSeveral(as)) {
			if idx, bad := lhsIndexAfterAssign(as); idx == nil && bad == nil {
				// a, b = f(), g(): the interpreter assigns a before it
				// calls g, which may read a.
				edits = append(edits, hoistValues(as.Pos(), as.Rhs, pos, src, consts)...)
				edits = append(edits, edit{pos(as.End()), pos(as.End()), " }"})
				return true
			}
		}
		if st, ok := n.(ast.Stmt); ok && inList[st] && !topLevel[st] {
			if call := appendOfSeveral(st); call != nil {
				// append(s[:i], x, s[i]): the interpreter stores x
				// before it reads s[i]. The values are read first.
				edits = append(edits, hoistValues(st.Pos(), call.Args[1:], pos, src, consts)...)
				edits = append(edits, edit{pos(st.End()), pos(st.End()), " }"})
				return true
			}
		}
		if rs, ok := n.(*ast.ReturnStmt); ok && inList[rs] && len(rs.Results) > 1 && (returnMentions(rs, results) || deferReturns[rs] && laterMayPanic(rs.Results)) {
			// return b, a with named results a, b: the interpreter
			// assigns a before it reads a.
			edits = append(edits, hoistValues(rs.Pos(), rs.Results, pos, src, consts)...)
			edits = append(edits, edit{pos(rs.End()), pos(rs.End()), " }"})
			return true
		}
		if as, ok := n.(*ast.AssignStmt); ok && !selectRecv[as] {
			if idx, bad := lhsIndexAfterAssign(as); bad != nil {
				refuse(bad.Pos(), "an assignment of several values whose left side %s uses a variable the same statement assigns "+
					"(the interpreter would use the new value): copy it before, as in old := x, and use old there", exprText(src, pos, bad))
				return true
			} else if idx != nil {
				if !inList[as] {
					refuse(as.Pos(), "an assignment of several values whose index %s uses a variable the same statement assigns "+
						"(the interpreter would use the new value): copy the index before, as in j := i, and use j there", exprText(src, pos, idx[0]))
					return true
				}
				var pre strings.Builder
				for i, x := range idx {
					if isConstant(x, consts) {
						continue // its type may come from the map's key
					}
					name := fmt.Sprintf("_lx%d_%d", pos(as.Pos()), i)
					fmt.Fprintf(&pre, "%s := %s; ", name, exprText(src, pos, x))
					edits = append(edits, edit{pos(x.Pos()), pos(x.End()), name})
				}
				edits = append(edits, edit{pos(as.Pos()), pos(as.Pos()), pre.String()})
			}
		}
		as, ok := n.(*ast.AssignStmt)
		if ok && as.Tok == token.ASSIGN && len(as.Lhs) == 2 && len(as.Rhs) == 1 {
			// *f(), ok = g().(T): the interpreter calls g before f; Go
			// evaluates the operands on the left first.
			if ta, isAssert := ast.Unparen(as.Rhs[0]).(*ast.TypeAssertExpr); isAssert && hasCallOrReceive(ta.X) {
				for _, l := range as.Lhs {
					if hasEffect(l) {
						refuse(l.Pos(), "a comma-ok assertion of a call's result assigned to %s, whose operands call a function (the interpreter calls the right side first, Go the left side's operands): "+
							"evaluate the operands into variables first", exprText(src, pos, l))
						return true
					}
				}
			}
		}
		if ok && !selectRecv[as] && commaOkIntoVars(as) {
			// i, ok = m[k] with k missing, or i, ok = x.(T) failing,
			// left i unchanged; Go sets it to the zero value.
			for _, l := range as.Lhs {
				if hasEffect(l) {
					refuse(l.Pos(), "a comma-ok result assigned to %s, whose operands call a function (the interpreter leaves the variable unchanged when the result is not ok): "+
						"evaluate the operands into variables first", exprText(src, pos, l))
					return true
				}
			}
			if !inList[as] {
				refuse(as.Pos(), "a comma-ok result assigned to existing variables here (the interpreter leaves %s unchanged when the result is not ok, where Go sets it to zero): "+
					"assign it in a statement before, %s", exprText(src, pos, as.Lhs[0]), src[pos(as.Pos()):pos(as.End())])
				return true
			}
			r := as.Rhs[0]
			edits = append(edits,
				edit{pos(as.Pos()), pos(as.Pos()), "{ _v, _ok := " + src[pos(r.Pos()):pos(r.End())] + "; "},
				edit{pos(r.Pos()), pos(r.End()), "_v, _ok"},
				edit{pos(as.End()), pos(as.End()), " }"})
			return true
		}
		if !ok || selectRecv[as] || !commaOkIntoIndex(as) {
			return true
		}
		idx := 0
		for i, l := range as.Lhs {
			if _, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
				idx = i
				break
			}
		}
		r := as.Rhs[0]
		if _, call := ast.Unparen(r).(*ast.CallExpr); call {
			// m[k], err = f(): the interpreter leaves the map unchanged.
			if !inList[as] {
				refuse(as.Pos(), "the results of a call assigned to an indexed element here (the interpreter leaves a map unchanged): "+
					"assign them to new variables in a statement before, v, err := …, then %s = v", exprText(src, pos, as.Lhs[idx]))
				return true
			}
			for _, l := range as.Lhs {
				if hasEffect(l) {
					refuse(l.Pos(), "the results of a call assigned to %s, whose operands call a function (the interpreter leaves a map unchanged, and calling first would change the order of the calls): "+
						"evaluate the operands into variables first", exprText(src, pos, l))
					return true
				}
			}
			names := make([]string, len(as.Lhs))
			for i := range names {
				names[i] = fmt.Sprintf("_v%d", i)
			}
			list := strings.Join(names, ", ")
			edits = append(edits,
				edit{pos(as.Pos()), pos(as.Pos()), "{ " + list + " := " + src[pos(r.Pos()):pos(r.End())] + "; "},
				edit{pos(r.Pos()), pos(r.End()), list},
				edit{pos(as.End()), pos(as.End()), " }"})
			return true
		}
		if !inList[as] {
			refuse(as.Pos(), "a comma-ok result assigned to an indexed element here (the interpreter leaves a map unchanged): "+
				"assign it to new variables in a statement before, v, ok := …, then %s = v", exprText(src, pos, as.Lhs[idx]))
			return true
		}
		edits = append(edits,
			edit{pos(as.Pos()), pos(as.Pos()), "{ _v, _ok := " + src[pos(r.Pos()):pos(r.End())] + "; "},
			edit{pos(r.Pos()), pos(r.End()), "_v, _ok"},
			edit{pos(as.End()), pos(as.End()), " }"})
		return true
	})
	for _, d := range fileDecls(root) {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		tparams := map[string]bool{}
		for _, fl := range []*ast.FieldList{fd.Type.TypeParams, recvTypeParams(fd)} {
			if fl == nil {
				continue
			}
			for _, f := range fl.List {
				for _, nm := range f.Names {
					tparams[nm.Name] = true
				}
			}
		}
		if len(tparams) == 0 {
			continue
		}
		// The declared types of the function's named variables.
		declared := map[string]ast.Expr{}
		addFields := func(fl *ast.FieldList) {
			if fl == nil {
				return
			}
			for _, f := range fl.List {
				for _, nm := range f.Names {
					declared[nm.Name] = f.Type
				}
			}
		}
		addFields(fd.Type.Params)
		addFields(fd.Type.Results)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok && vs.Type != nil {
				for _, nm := range vs.Names {
					declared[nm.Name] = vs.Type
				}
			}
			return true
		})
		isParam := func(x ast.Expr) bool {
			id, ok := x.(*ast.Ident)
			return ok && tparams[id.Name]
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSwitchStmt:
				// case T: for a type parameter T: when T is an interface
				// type, the interpreter matches other values than Go.
				guarded := map[string]bool{}
				for _, c := range n.Body.List {
					for _, t := range c.(*ast.CaseClause).List {
						if id, ok := t.(*ast.Ident); ok && tparams[id.Name] && !guarded[id.Name] && inList[n] {
							guarded[id.Name] = true
							edits = append(edits, edit{pos(n.Pos()), pos(n.Pos()), fmt.Sprintf("%s(new(%s), %q); ", typeParamCaseFunc, id.Name, id.Name)})
						}
					}
				}
				for _, c := range n.Body.List {
					for _, t := range c.(*ast.CaseClause).List {
						// case interface{ M() T }: (case T: and struct
						// types with T work in Go's typeparam tests).
						if _, iface := t.(*ast.InterfaceType); !iface {
							continue
						}
						if p := mentions(t, tparams); p != "" {
							refuse(t.Pos(), "a type switch case that uses the type parameter %s of the generic function %s (the interpreter matches it against another type): "+
								"use a type assertion, if v, ok := x.(%s); ok { … }, or compare reflect types", p, fd.Name.Name, exprText(src, pos, t))
						}
					}
				}
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					return true
				}
				x, xok := n.X.(*ast.Ident)
				y, yok := n.Y.(*ast.Ident)
				if !xok || !yok || declared[x.Name] == nil || declared[y.Name] == nil {
					return true
				}
				tx, ty := declared[x.Name], declared[y.Name]
				if isParam(tx) != isParam(ty) && !isEmptyInterface(tx) && !isEmptyInterface(ty) {
					refuse(n.OpPos, "%s %s %s compares a value of the type parameter %s with one of another type, which the interpreter gets wrong: "+
						"convert the type parameter's value to that type first, %s(%s)", x.Name, n.Op, y.Name,
						exprText(src, pos, map[bool]ast.Expr{true: tx, false: ty}[isParam(tx)]),
						exprText(src, pos, map[bool]ast.Expr{true: ty, false: tx}[isParam(tx)]),
						map[bool]string{true: x.Name, false: y.Name}[isParam(tx)])
				}
			}
			return true
		})
	}
	// A comma-ok definition at top level: the interpreter's compiler fails
	// with "nil type".
	commaOkDef := func(p token.Pos, names []string, rhs ast.Expr) {
		refuse(p, "a comma-ok definition at top level (%s := %s) fails in the interpreter: declare the variables first, "+
			"var %s T; var %s bool, then assign them: %s = %s (or do it inside a function)",
			strings.Join(names, ", "), exprText(src, pos, rhs), names[0], names[1], strings.Join(names, ", "), exprText(src, pos, rhs))
	}
	if b, ok := root.(*ast.BlockStmt); ok {
		for _, st := range b.List {
			switch st := st.(type) {
			case *ast.AssignStmt:
				if st.Tok == token.DEFINE && len(st.Lhs) == 2 && len(st.Rhs) == 1 && commaOk(st.Rhs[0]) {
					commaOkDef(st.Pos(), []string{exprText(src, pos, st.Lhs[0]), exprText(src, pos, st.Lhs[1])}, st.Rhs[0])
				}
			case *ast.DeclStmt:
				if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
					for _, sp := range g.Specs {
						if vs := sp.(*ast.ValueSpec); len(vs.Names) == 2 && len(vs.Values) == 1 && commaOk(vs.Values[0]) {
							commaOkDef(vs.Pos(), []string{vs.Names[0].Name, vs.Names[1].Name}, vs.Values[0])
						}
					}
				}
			}
		}
	}
	// main: a cell cannot declare func main (PrepareCell refuses it), and
	// the name then stands for the interpreter's package main, whose call
	// panics in reflect.
	declaresMain := false
	var mainUses []*ast.Ident
	declaring := map[*ast.Ident]bool{} // names being declared, selected fields and methods
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			declaring[n.Sel] = true
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						declaring[id] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				declaring[id] = true
			}
		case *ast.Field:
			for _, id := range n.Names {
				declaring[id] = true
			}
		case *ast.FuncDecl:
			declaring[n.Name] = true
		case *ast.Ident:
			if n.Name != "main" {
				break
			}
			if declaring[n] {
				declaresMain = true
			} else {
				mainUses = append(mainUses, n)
			}
		}
		return true
	})
	if !declaresMain && len(mainUses) > 0 {
		errs.Add(fset.Position(mainUses[0].Pos()), "undefined: main (a cell cannot declare func main, which the interpreter would run after every later cell: name it run and call run())")
	}
	// Package-level vars that use a var declared after them.
	initOrderRefusals(fileDecls(root), refuse)
	// case a, b: with a b that is not a name or literal (in a switch
	// without a tag, any b): the interpreter tests a only. Each
	// expression gets a clause of its own that falls through to the next,
	// case a: fallthrough; case b: body, which tests them in order as Go
	// does.
	ast.Inspect(root, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok {
			return true
		}
		for _, c := range sw.Body.List {
			cc := c.(*ast.CaseClause)
			if len(cc.List) < 2 {
				continue
			}
			split := sw.Tag == nil
			for _, x := range cc.List[1:] {
				switch ast.Unparen(x).(type) {
				case *ast.BasicLit, *ast.Ident:
				default:
					split = true
				}
			}
			if !split {
				continue
			}
			for i := 1; i < len(cc.List); i++ {
				b, e := pos(cc.List[i-1].End()), pos(cc.List[i].Pos())
				edits = append(edits, edit{b, e, ": fallthrough; case " + strings.Replace(src[b:e], ",", "", 1)})
			}
		}
		return true
	})
	// -c of a constant c: the interpreter negates at run time, so that
	// -zero for a constant zero of 0.0 is negative zero; Go's constants
	// have no negative zero. 0 - c is the same constant otherwise.
	// A negated literal that a float64 cannot hold (-1e-10000) is
	// negative zero even so (the interpreter converts the exact constant):
	// in Go it rounds to 0. Unless it is an operand of more arithmetic,
	// where the exact value counts, it becomes (0 * lit).
	operand := map[ast.Expr]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok {
			operand[b.X], operand[b.Y] = true, true
		}
		return true
	})
	ast.Inspect(root, func(n ast.Node) bool {
		u, ok := n.(*ast.UnaryExpr)
		if !ok || u.Op != token.SUB || !isConstExpr(u.X, consts) {
			return true
		}
		lit, isLit := ast.Unparen(u.X).(*ast.BasicLit)
		if isLit && lit.Kind == token.INT {
			return true // -1: no zero to sign
		}
		op := "(0 - "
		if isLit && lit.Kind == token.FLOAT && !operand[u] && underflows(lit.Value) {
			op = "(0 * "
		}
		edits = append(edits, edit{pos(u.Pos()), pos(u.X.Pos()), op}, edit{pos(u.X.End()), pos(u.X.End()), ")"})
		return false
	})
	// new(expr) of Go 1.26: the interpreter allocates a zero value.
	typeNames, varNames := map[string]bool{}, map[string]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			typeNames[n.Name.Name] = true
		case *ast.ValueSpec:
			for _, id := range n.Names {
				varNames[id.Name] = true
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						varNames[id.Name] = true
					}
				}
			}
		}
		return true
	})
	ast.Inspect(root, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "new" {
			return true
		}
		isExpr := false
		switch a := ast.Unparen(call.Args[0]).(type) {
		case *ast.BasicLit, *ast.BinaryExpr, *ast.CompositeLit, *ast.CallExpr:
			isExpr = true
		case *ast.UnaryExpr:
			isExpr = a.Op != token.MUL
		case *ast.Ident:
			isExpr = varNames[a.Name] && !typeNames[a.Name] || a.Name == "true" || a.Name == "false" || a.Name == "nil"
		}
		if isExpr {
			x := exprText(src, pos, call.Args[0])
			refuse(call.Pos(), "new(%s) with a value (Go 1.26) gives a pointer to a zero value in the interpreter: "+
				"write v := %s, then &v", x, x)
		}
		return true
	})
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return edits, nil
}

// selectOperands hoists the channel and value operands of a select's
// cases into fresh variables evaluated before it, in source order, when
// one of them calls a function: Go evaluates them all, once, on entering
// the select, and the interpreter evaluates them otherwise (a call that
// closes or replaces a channel another case receives from changed the
// outcome: Go's test fixedbugs/issue43111.go). select { case <-ch: case
// c <- f(): } becomes
//
//	{ _sc0 := ch; _sc1 := c; _sv1 := f(); select { case <-_sc0: case _sc1 <- _sv1: } }
//
// Constant send values stay, as their type comes from the channel.
func selectOperands(sel *ast.SelectStmt, pos func(token.Pos) int, src string, consts map[string]bool) []edit {
	var ops []ast.Expr
	var names []string
	calls := false
	add := func(x ast.Expr, name string) {
		call := false
		ast.Inspect(x, func(n ast.Node) bool {
			if _, ok := n.(*ast.CallExpr); ok {
				call = true
			}
			_, lit := n.(*ast.FuncLit)
			return !lit
		})
		if isConstant(x, consts) && !call {
			return
		}
		ops = append(ops, x)
		names = append(names, name)
		calls = calls || call
	}
	for i, st := range sel.Body.List {
		cc := st.(*ast.CommClause)
		var recv ast.Expr
		switch c := cc.Comm.(type) {
		case *ast.SendStmt:
			add(c.Chan, fmt.Sprintf("_sc%d", i))
			add(c.Value, fmt.Sprintf("_sv%d", i))
		case *ast.ExprStmt:
			recv = c.X
		case *ast.AssignStmt:
			recv = c.Rhs[0]
		}
		if u, ok := ast.Unparen(recv).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			add(u.X, fmt.Sprintf("_sc%d", i))
		}
	}
	if !calls {
		return nil
	}
	for _, x := range ops {
		ast.Inspect(x, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				calls = false // its text would be moved with rewrites inside
			}
			return calls
		})
	}
	if !calls {
		return nil
	}
	// One definition each: the interpreter reads the variables of a
	// multiple definition after the calls on its right.
	head := "{ "
	var edits []edit
	for i, x := range ops {
		head += names[i] + " := " + src[pos(x.Pos()):pos(x.End())] + "; "
		edits = append(edits, edit{pos(x.Pos()), pos(x.End()), names[i]})
	}
	return append(edits,
		edit{pos(sel.Pos()), pos(sel.Pos()), head},
		edit{pos(sel.End()), pos(sel.End()), " }"})
}

// commaOkIntoIndex reports whether as assigns a comma-ok result or the
// results of a call to an indexed element: m[k], ok = x.(T), m[k], err =
// f().
func commaOkIntoIndex(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Rhs) != 1 {
		return false
	}
	if _, call := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); !call && (len(as.Lhs) != 2 || !commaOk(as.Rhs[0])) {
		return false
	}
	for _, l := range as.Lhs {
		if _, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
			return true
		}
	}
	return false
}

// commaOkIntoVars reports whether as assigns the comma-ok form of a map
// index or a type assertion to a variable (not an indexed element, which
// commaOkIntoIndex covers, nor the blank identifier): i, ok = m[k].
func commaOkIntoVars(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) != 2 || len(as.Rhs) != 1 || isBlank(as.Lhs[0]) {
		return false
	}
	switch ast.Unparen(as.Rhs[0]).(type) {
	case *ast.IndexExpr, *ast.TypeAssertExpr:
	default:
		return false
	}
	for _, l := range as.Lhs {
		if _, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
			return false
		}
	}
	return true
}

// commaOk reports whether x is an expression with a comma-ok form: a type
// assertion, an index (of a map) or a receive.
func commaOk(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.TypeAssertExpr, *ast.IndexExpr:
		return true
	case *ast.UnaryExpr:
		return x.Op == token.ARROW
	}
	return false
}

// isEmptyInterface reports whether x is any or interface{}.
func isEmptyInterface(x ast.Expr) bool {
	if id, ok := x.(*ast.Ident); ok {
		return id.Name == "any"
	}
	it, ok := x.(*ast.InterfaceType)
	return ok && len(it.Methods.List) == 0
}

// mentions returns the first name of names used in x, or "".
func mentions(x ast.Expr, names map[string]bool) string {
	found := ""
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && names[id.Name] && found == "" {
			found = id.Name
		}
		return found == ""
	})
	return found
}

// recvTypeParams returns the type parameters a method's receiver names
// (func (l *List[T]) …), or nil.
func recvTypeParams(fd *ast.FuncDecl) *ast.FieldList {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return nil
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	var idents []ast.Expr
	switch t := t.(type) {
	case *ast.IndexExpr:
		idents = []ast.Expr{t.Index}
	case *ast.IndexListExpr:
		idents = t.Indices
	}
	fl := &ast.FieldList{}
	for _, x := range idents {
		if id, ok := x.(*ast.Ident); ok {
			fl.List = append(fl.List, &ast.Field{Names: []*ast.Ident{id}})
		}
	}
	return fl
}

// fileDecls returns the declarations of root when it is a file.
func fileDecls(root ast.Node) []ast.Decl {
	if f, ok := root.(*ast.File); ok {
		return f.Decls
	}
	return nil
}

// exprText is the source text of x.
func exprText(src string, pos func(token.Pos) int, x ast.Node) string {
	return src[pos(x.Pos()):pos(x.End())]
}

// multiValueWithReceive returns a definition of several variables, by :=
// or by a var declaration in a function or cell, one of whose values is a
// receive operation, with those values; nil if n is not one. A
// package-level var declaration is returned as its GenDecl.
func multiValueWithReceive(n ast.Node) (ast.Node, []ast.Expr) {
	hasRecv := func(xs []ast.Expr) bool {
		if len(xs) < 2 {
			return false
		}
		for _, x := range xs {
			if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				return true
			}
		}
		return false
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE && hasRecv(n.Rhs) {
			return n, n.Rhs
		}
	case *ast.DeclStmt, *ast.GenDecl:
		gd, ok := n.(*ast.GenDecl)
		if ds, isStmt := n.(*ast.DeclStmt); isStmt {
			gd, ok = ds.Decl.(*ast.GenDecl)
		}
		if !ok || gd.Tok != token.VAR {
			return nil, nil
		}
		for _, sp := range gd.Specs {
			if vs, ok := sp.(*ast.ValueSpec); ok && hasRecv(vs.Values) {
				if len(gd.Specs) != 1 {
					return n, nil // refused unless alone (a DeclStmt in a list with one spec)
				}
				return n, vs.Values
			}
		}
	}
	return nil, nil
}

// headerDefineWithReceive returns, for an if, switch, type switch or for
// statement whose init defines several variables one of whose values is
// a receive (if a, b := <-c, f(); …), the statement and that init.
func headerDefineWithReceive(n ast.Node) (ast.Stmt, *ast.AssignStmt) {
	var in ast.Stmt
	switch n := n.(type) {
	case *ast.IfStmt:
		in = n.Init
	case *ast.SwitchStmt:
		in = n.Init
	case *ast.TypeSwitchStmt:
		in = n.Init
	case *ast.ForStmt:
		in = n.Init
	default:
		return nil, nil
	}
	as, ok := in.(*ast.AssignStmt)
	if !ok {
		return nil, nil
	}
	if st, values := multiValueWithReceive(as); st == nil || values == nil {
		return nil, nil
	}
	return n.(ast.Stmt), as
}

// hoistOperands evaluates the values of st up to its last receive, in
// order, into temporaries declared just before st on the same line, and
// puts the temporaries in their place. Constants stay (their type may
// come from the other side).
func hoistOperands(st ast.Node, values []ast.Expr, pos func(token.Pos) int, src string, consts map[string]bool) []edit {
	last := 0
	for i, x := range values {
		if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			last = i
		}
	}
	var pre strings.Builder
	var edits []edit
	for i, x := range values[:last+1] {
		if isConstant(x, consts) {
			continue
		}
		name := fmt.Sprintf("_rv%d_%d", pos(st.Pos()), i)
		fmt.Fprintf(&pre, "%s := %s; ", name, src[pos(x.Pos()):pos(x.End())])
		edits = append(edits, edit{pos(x.Pos()), pos(x.End()), name})
	}
	return append([]edit{{pos(st.Pos()), pos(st.Pos()), pre.String()}}, edits...)
}

// lhsIndexAfterAssign looks at an assignment of several values for left
// sides that use a variable the statement assigns as a plain name: it
// returns the index expressions of the left side to evaluate first when
// only indexes use one, or the operand (of an index, a dereference or a
// selector) that uses one, which cannot be evaluated first without
// copying an array or struct.
func lhsIndexAfterAssign(as *ast.AssignStmt) (idx []ast.Expr, bad ast.Expr) {
	if as.Tok != token.ASSIGN || len(as.Lhs) < 2 {
		return nil, nil
	}
	assigned := map[string]bool{}
	for _, l := range as.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok && id.Name != "_" {
			assigned[id.Name] = true
		}
	}
	if len(assigned) == 0 {
		return nil, nil
	}
	uses := func(x ast.Expr) bool {
		found := false
		ast.Inspect(x, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && assigned[id.Name] {
				found = true
			}
			return !found
		})
		return found
	}
	needed := false
	for _, l := range as.Lhs {
		switch l := ast.Unparen(l).(type) {
		case *ast.IndexExpr:
			if uses(l.X) {
				return nil, l.X
			}
			idx = append(idx, l.Index)
			needed = needed || uses(l.Index)
		case *ast.StarExpr:
			if uses(l.X) {
				return nil, l.X
			}
		case *ast.SelectorExpr:
			if uses(l.X) {
				return nil, l.X
			}
		}
	}
	if !needed {
		return nil, nil
	}
	return idx, nil
}

// receiveIntoElement reports whether as assigns the value of a receive
// operation (not its comma-ok form) to something other than variables
// alone: x[i] = <-c, s.f = <-c, *p = <-c, a, x[0] = <-c, <-d. yaegi
// v0.16.1 drops the received value there (the element keeps its old
// value), silently; a map element and an operation assignment (x[i] +=
// <-c) work.
func receiveIntoElement(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	recv := false
	for _, r := range as.Rhs {
		if u, ok := ast.Unparen(r).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			recv = true
		}
	}
	if !recv {
		return false
	}
	if len(as.Lhs) > 1 {
		return true
	}
	_, ident := ast.Unparen(as.Lhs[0]).(*ast.Ident)
	return !ident
}

// hasCallOrReceive reports whether x calls a function or receives
// (outside function literals); a conversion counts as a call.
func hasCallOrReceive(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = true
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		}
		return !found
	})
	return found
}

// blankOfOperand reports whether as is _ = x where x dereferences a
// pointer, selects a field or indexes (outside function literals): yaegi
// v0.16.1 does not do these for the blank identifier, so _ = *p with a nil
// p or _ = m[k] with an unhashable key did not panic.
func blankOfOperand(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isBlank(as.Lhs[0]) {
		return false
	}
	found := false
	ast.Inspect(as.Rhs[0], func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.CompositeLit:
			return false
		case *ast.StarExpr, *ast.SelectorExpr, *ast.IndexExpr:
			found = true
		}
		return !found
	})
	return found
}

// derefIntoElement reports whether as is x[i] = *p (an index on the
// left whose operands call nothing, a dereference on the right): yaegi
// v0.16.1 deletes a map element given a nil p, silently, where Go panics.
func derefIntoElement(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	if _, ok := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr); !ok || hasEffect(as.Lhs[0]) {
		return false
	}
	_, ok := ast.Unparen(as.Rhs[0]).(*ast.StarExpr)
	return ok
}

// blankOfSeveral reports whether as assigns several values, one of which
// goes to the blank identifier and dereferences, selects or indexes:
// yaegi v0.16.1 does not evaluate that value (ok, _ = true, *p with a nil
// p does not panic), so all are evaluated first (hoistValues).
func blankOfSeveral(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for _, l := range as.Lhs {
		if hasCallOrReceive(l) {
			return false
		}
	}
	for i, l := range as.Lhs {
		if isBlank(l) && blankOfOperand(&ast.AssignStmt{Lhs: []ast.Expr{l}, Tok: token.ASSIGN, Rhs: []ast.Expr{as.Rhs[i]}}) {
			return true
		}
	}
	return false
}

// multiAssignWithCall reports whether as assigns several values, one of
// which calls a function, to variables or elements whose operands call
// nothing.
func multiAssignWithCall(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for _, l := range as.Lhs {
		if hasCallOrReceive(l) {
			return false
		}
	}
	for _, r := range as.Rhs {
		if hasCallOrReceive(r) {
			return true
		}
	}
	return false
}

// namedResults returns the names of the named results of every function
// in root.
func namedResults(root ast.Node) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		if ft, ok := n.(*ast.FuncType); ok && ft.Results != nil {
			for _, f := range ft.Results.List {
				for _, id := range f.Names {
					names[id.Name] = true
				}
			}
		}
		return true
	})
	return names
}

// returnMentions reports whether a return statement's values use a name
// of results (outside function literals).
func returnMentions(rs *ast.ReturnStmt, results map[string]bool) bool {
	for _, r := range rs.Results {
		if hasCallOrReceive(r) {
			return true
		}
		if mentions(r, results) != "" {
			return true
		}
	}
	return false
}

// hoistValues evaluates values in order into temporaries defined one by
// one in a block opened at at (the caller closes it after the statement),
// and puts the temporaries in their place; constants stay (their type
// comes from the other side).
func hoistValues(at token.Pos, values []ast.Expr, pos func(token.Pos) int, src string, consts map[string]bool) []edit {
	var pre strings.Builder
	pre.WriteString("{ ")
	var edits []edit
	for _, x := range values {
		if isConstant(x, consts) && !hasCallOrReceive(x) {
			continue
		}
		name := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
		fmt.Fprintf(&pre, "%s := %s; ", name, exprText(src, pos, x))
		edits = append(edits, edit{pos(x.Pos()), pos(x.End()), name})
	}
	return append([]edit{{pos(at), pos(at), pre.String()}}, edits...)
}

// numericTypes are the predeclared numeric types, whose conversions of
// constants are constants.
var numericTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true, "rune": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true}

// isConstExpr reports whether x is a constant expression: literals, the
// constants consts names, and operations and numeric conversions of them.
func isConstExpr(x ast.Expr, consts map[string]bool) bool {
	switch x := x.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return consts[x.Name]
	case *ast.ParenExpr:
		return isConstExpr(x.X, consts)
	case *ast.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD) && isConstExpr(x.X, consts)
	case *ast.BinaryExpr:
		return isConstExpr(x.X, consts) && isConstExpr(x.Y, consts)
	case *ast.CallExpr:
		id, ok := x.Fun.(*ast.Ident)
		return ok && numericTypes[id.Name] && len(x.Args) == 1 && isConstExpr(x.Args[0], consts)
	}
	return false
}

// appendOfSeveral returns the call append(s, a, b, …) with two or more
// values, one of which indexes or dereferences, in an assignment or
// expression statement st where nothing is called before it, or nil.
func appendOfSeveral(st ast.Stmt) *ast.CallExpr {
	var exprs []ast.Expr
	switch st := st.(type) {
	case *ast.AssignStmt:
		if len(st.Rhs) != 1 {
			return nil
		}
		for _, l := range st.Lhs {
			if hasEffect(l) {
				return nil
			}
		}
		exprs = st.Rhs
	case *ast.ExprStmt:
		exprs = []ast.Expr{st.X}
	default:
		return nil
	}
	call, ok := ast.Unparen(exprs[0]).(*ast.CallExpr)
	if !ok || len(call.Args) < 3 || call.Ellipsis.IsValid() {
		return nil
	}
	if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "append" || hasEffect(call.Args[0]) {
		return nil
	}
	reads := false
	for _, a := range call.Args[1:] {
		if hasFuncLit(a) {
			return nil
		}
		ast.Inspect(a, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.IndexExpr, *ast.StarExpr:
				reads = true
			}
			return !reads
		})
	}
	if !reads {
		return nil
	}
	return call
}

// hasEffect reports whether x calls a function other than len, cap and
// numeric or string conversions, or receives.
func hasEffect(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			found = true
		case *ast.CallExpr:
			id, ok := n.Fun.(*ast.Ident)
			if !ok || id.Name != "len" && id.Name != "cap" && id.Name != "string" && !numericTypes[id.Name] {
				found = true
			}
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		}
		return !found
	})
	return found
}

// typeParamCaseFunc is the interpreted name of TypeParamCase.
const typeParamCaseFunc = "_portlab.TypeParamCase"

// TypeParamCase is called by the cells before a type switch of a generic
// function with a case of its type parameter (case T:), with new(T): it
// stops the cell when T is an interface type, which the interpreter
// matches against other values than Go (Go's typeparam/typeswitch6.go).
func TypeParamCase(p any, name string) {
	t := reflect.TypeOf(p)
	if t != nil && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Interface {
		panic(fmt.Sprintf(Refused+"a type switch case %s for the type parameter %s, here the interface type %s, matches other values in the interpreter than in Go: "+
			"test with a type assertion, if v, ok := x.(%s); ok { … }", name, name, t.Elem(), name))
	}
}

// stmtList returns the statement list n holds: a block's, or a case or
// select clause's body; nil for any other node.
// checkedStatements calls check for every statement of f's statement
// lists before which a check can run: a simple statement (assignment,
// expression, return, send, declaration) with itself, an if or switch
// without an init statement with its condition or tag (nil for a switch
// without one), where a check inserted before the statement sees the
// values the part reads.
func checkedStatements(f ast.Node, check func(st ast.Stmt, parts ...ast.Node)) {
	ast.Inspect(f, func(n ast.Node) bool {
		for _, st := range stmtList(n) {
			switch st := st.(type) {
			case *ast.AssignStmt, *ast.ExprStmt, *ast.ReturnStmt, *ast.SendStmt, *ast.DeclStmt:
				check(st, st)
			case *ast.IfStmt:
				if st.Init == nil {
					check(st, st.Cond)
				}
			case *ast.SwitchStmt:
				if st.Init == nil {
					check(st, st.Tag)
				}
			}
		}
		return true
	})
}

// inspectEvaluated calls visit for the nodes of parts that run whenever
// the parts are evaluated: function literals and the right operands of &&
// and || (which may not run) are not entered.
func inspectEvaluated(parts []ast.Node, visit func(ast.Node)) {
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				ast.Inspect(n.X, walk)
				return false
			}
		}
		visit(n)
		return true
	}
	for _, p := range parts {
		if p != nil {
			ast.Inspect(p, walk)
		}
	}
}

func stmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}

// initOrderRefusals refuses the package-level var declarations whose
// initializers the interpreter runs in another order than Go. Go
// initializes a variable after the variables its initializer refers to,
// also through the functions and methods it calls (and their function
// literals); the interpreter orders named variables by the names their
// initializers mention, function literals included, but not through calls
// of declared functions or methods (var d = f() before var a = g(), where f
// returns a, gave 0), and initializes blank variables (var _ = …) in
// place, in the order of the declarations. A variable declared later with
// an initializer reached that way is refused: declare it before.
func initOrderRefusals(decls []ast.Decl, refuse func(token.Pos, string, ...any)) {
	order := map[string]int{} // named vars with initializers, by spec number from 1
	// Vars initialized with a function literal, which a blank var's
	// initializer can use by name (the interpreter sets them first).
	funcLit := map[string]bool{}
	var specs []*ast.ValueSpec
	funcs := map[string][]*ast.FuncDecl{}   // functions by name
	methods := map[string][]*ast.FuncDecl{} // methods by method name
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, s := range d.Specs {
				vs := s.(*ast.ValueSpec)
				specs = append(specs, vs)
				if len(vs.Values) == 0 {
					continue
				}
				for _, nm := range vs.Names {
					if len(vs.Values) == 1 && isFuncLit(vs.Values[0]) {
						funcLit[nm.Name] = true
					}
					if nm.Name != "_" {
						order[nm.Name] = len(specs)
					}
				}
			}
		case *ast.FuncDecl:
			if d.Body == nil {
				continue
			}
			if d.Recv != nil {
				methods[d.Name.Name] = append(methods[d.Name.Name], d)
			} else {
				funcs[d.Name.Name] = append(funcs[d.Name.Name], d)
			}
		}
	}
	for i, vs := range specs {
		blank := len(vs.Names) == 1 && vs.Names[0].Name == "_"
		visited := map[*ast.FuncDecl]bool{}
		refused := false
		// visit walks n; through says through which function or method
		// it was reached ("" for the initializer itself); local holds the
		// names the function declares, which are not the globals.
		var visit func(n ast.Node, through string, local map[string]bool)
		visit = func(n ast.Node, through string, local map[string]bool) {
			enter := func(fds []*ast.FuncDecl, name string) {
				for _, fd := range fds {
					if !visited[fd] {
						visited[fd] = true
						if through != "" && through != "a function literal" {
							name = through
						}
						visit(fd.Body, name, localNames(fd))
					}
				}
			}
			ast.Inspect(n, func(n ast.Node) bool {
				if refused {
					return false
				}
				switch n := n.(type) {
				case *ast.FuncLit:
					if through == "" && !blank {
						// The interpreter orders by the names of a
						// function literal, but not through its calls.
						visit(n.Body, "a function literal", local)
						return false
					}
				case *ast.SelectorExpr:
					enter(methods[n.Sel.Name], "the method "+n.Sel.Name)
					visit(n.X, through, local)
					return false
				case *ast.KeyValueExpr:
					if _, field := n.Key.(*ast.Ident); !field {
						visit(n.Key, through, local)
					}
					visit(n.Value, through, local)
					return false
				case *ast.Ident:
					if local[n.Name] {
						break
					}
					enter(funcs[n.Name], "the function "+n.Name)
					j := order[n.Name]
					direct := through == "" || through == "a function literal"
					if j <= i+1 || direct && (!blank || funcLit[n.Name]) {
						break
					}
					refused = true
					if through == "" || through == "a function literal" {
						refuse(n.Pos(), "this initializer of a blank variable uses %s, a variable declared after it: Go initializes %s first, "+
							"the interpreter in the order of the declarations; declare %s before", n.Name, n.Name, n.Name)
					} else {
						refuse(vs.Pos(), "this initializer reaches %s, a variable declared after it, through %s: Go initializes %s first, "+
							"the interpreter does not follow calls; declare %s before", n.Name, through, n.Name, n.Name)
					}
				}
				return true
			})
		}
		for _, v := range vs.Values {
			visit(v, "", nil)
		}
	}
}

// localNames returns the names a function declares: its receiver,
// parameters and results, and the variables, constants and types of its
// body (wherever they are in it).
func localNames(fd *ast.FuncDecl) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				names[id.Name] = true
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						names[id.Name] = true
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, x := range []ast.Expr{n.Key, n.Value} {
					if id, ok := x.(*ast.Ident); ok {
						names[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				names[id.Name] = true
			}
		case *ast.TypeSpec:
			names[n.Name.Name] = true
		}
		return true
	})
	return names
}

// underflows reports whether the floating-point literal lit is not zero
// but rounds to zero as a float64.
func underflows(lit string) bool {
	v := constant.MakeFromLiteral(lit, token.FLOAT, 0)
	if v.Kind() == constant.Unknown || constant.Sign(v) == 0 {
		return false
	}
	f, _ := constant.Float64Val(v)
	return f == 0
}

// returnsWithDefer returns the return statements of the functions (and
// function literals) in root that have a defer statement: a deferred
// recover shows the results a panic in a return statement left.
func returnsWithDefer(root ast.Node) map[*ast.ReturnStmt]bool {
	out := map[*ast.ReturnStmt]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		}
		if body == nil {
			return true
		}
		var returns []*ast.ReturnStmt
		defers := false
		ast.Inspect(body, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.DeferStmt:
				defers = true
			case *ast.ReturnStmt:
				returns = append(returns, m)
			}
			return true
		})
		if defers {
			for _, r := range returns {
				out[r] = true
			}
		}
		return true
	})
	return out
}

// laterMayPanic reports whether a value after the first of values
// dereferences, selects, indexes, divides or asserts (outside function
// literals): a return statement of yaegi v0.16.1 stores the values before
// it one by one, so that a panic there leaves them set (return true, *p
// with a nil p returned true to a deferred recover; Go's results stay
// zero).
func laterMayPanic(values []ast.Expr) bool {
	found := false
	for _, v := range values[1:] {
		ast.Inspect(v, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.CompositeLit:
				return false
			case *ast.StarExpr, *ast.SelectorExpr, *ast.IndexExpr, *ast.TypeAssertExpr, *ast.SliceExpr:
				found = true
			case *ast.BinaryExpr:
				found = found || n.Op == token.QUO || n.Op == token.REM
			}
			return !found
		})
	}
	return found
}

// isFuncLit reports whether x is a function literal.
func isFuncLit(x ast.Expr) bool {
	_, ok := ast.Unparen(x).(*ast.FuncLit)
	return ok
}

// headerAssign returns, for an if, switch, type switch or for statement
// whose init or post statement assigns several values one of which calls
// a function (if a, b = x, f(); …), the statement and that init or post.
func headerAssign(n ast.Node) (st ast.Stmt, init, post *ast.AssignStmt) {
	var in, ps ast.Stmt
	switch n := n.(type) {
	case *ast.IfStmt:
		st, in = n, n.Init
	case *ast.SwitchStmt:
		st, in = n, n.Init
	case *ast.TypeSwitchStmt:
		st, in = n, n.Init
	case *ast.ForStmt:
		st, in, ps = n, n.Init, n.Post
	default:
		return nil, nil, nil
	}
	if as, ok := in.(*ast.AssignStmt); ok && multiAssignWithCall(as) {
		init = as
	}
	if as, ok := ps.(*ast.AssignStmt); ok && multiAssignWithCall(as) {
		post = as
	}
	return st, init, post
}
