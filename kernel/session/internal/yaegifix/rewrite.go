package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// The rewrites below make cells behave like Go where the interpreter does
// not (yaegi v0.16.1). They only insert text or replace keywords and
// punctuation, so that they nest (a make inside a go statement) and keep the
// cell's lines; each returns edits relative to src.

// Names of the session functions the rewritten cells call.
const (
	deferFunc      = "_portlab.Defer"
	goFunc         = "_portlab.Go"
	checkpointFunc = "_portlab.Checkpoint"
	makeLenFunc    = "_portlab.MakeLen"
)

// builtinCalls are the builtins that cannot be used as function values.
var builtinCalls = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true,
}

// deferredCall rewrites the call of a go or defer statement so that the
// function value and the arguments are evaluated where the statement is,
// as Go does, and the call is handed to wrap (goFunc or deferFunc) as a
// func(): `go f(a, b)` becomes
//
//	_portlab.Go(func() func() { _f, _a0, _a1 := f, a, b; return func() { _f(_a0, _a1) } }())
//
// keyword is the position of `go` or `defer`.
//
// An argument that is recognisably a constant (isConstant) is written into
// the call instead, as its type may come from the parameter (go
// a.Serve(1234) with an int64 parameter), and its place takes _ (with the
// value 0 for nil, which _ := cannot take; nil is written unparenthesised).
func deferredCall(fset *token.FileSet, off int, src string, keyword token.Pos, call *ast.CallExpr, wrap string, consts map[string]bool) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	builtin := false
	if id, ok := call.Fun.(*ast.Ident); ok && builtinCalls[id.Name] {
		builtin = true
	}
	var names []string
	fn := "_f"
	if builtin {
		fn = call.Fun.(*ast.Ident).Name
		if to, ok := printFuncs[fn]; ok {
			fn = to
		}
	} else {
		names = append(names, "_f")
	}
	var args []string
	var nils []edit
	for i, x := range call.Args {
		a := fmt.Sprintf("_a%d", i)
		if !builtin && isConstant(x, consts) {
			names = append(names, "_")
			if isNilIdent(ast.Unparen(x)) {
				// _ := nil does not compile (the interpreter panics with
				// "nil reflect type"): the blank takes a 0 instead; and
				// the interpreter passes (nil) as an invalid value
				// ("reflect: Call using zero Value argument"), nil as nil.
				nils = append(nils, edit{pos(x.Pos()), pos(x.End()), "0"})
				args = append(args, "nil")
				continue
			}
			args = append(args, "("+src[pos(x.Pos()):pos(x.End())]+")")
			continue
		}
		names = append(names, a)
		args = append(args, a)
	}
	ellipsis := ""
	if call.Ellipsis.IsValid() {
		ellipsis = "..."
	}
	body := fmt.Sprintf("return func() { %s(%s%s) }", fn, strings.Join(args, ", "), ellipsis)
	head := wrap + "(func() func() { "
	if len(names) == 0 {
		// A builtin without arguments: nothing to evaluate first.
		return []edit{
			{pos(keyword), pos(call.Pos()), head + body + "; _ = "},
			{pos(call.End()), pos(call.End()), " }())"},
		}
	}
	define := strings.Join(names, ", ") + " := "
	var edits []edit
	if builtin {
		// Drop the builtin's name and the parenthesis: only the arguments stay.
		edits = append(edits, edit{pos(keyword), pos(call.Lparen) + 1, head + define})
	} else {
		edits = append(edits, edit{pos(keyword), pos(call.Pos()), head + define})
		if len(call.Args) > 0 {
			// Without arguments, the edit below replaces the parenthesis.
			edits = append(edits, edit{pos(call.Lparen), pos(call.Lparen) + 1, ", "})
		}
	}
	// From the end of the last argument (or of the function) to the closing
	// parenthesis: the ellipsis and a trailing comma go.
	last := call.Fun.End()
	if len(call.Args) > 0 {
		last = call.Args[len(call.Args)-1].End()
	}
	edits = append(edits, edit{pos(last), pos(call.Rparen) + 1, "; " + body + " }())"})
	return append(edits, nils...)
}

// deferInFunction rewrites a defer statement inside a function so that its
// arguments are evaluated where the statement is. The interpreter keeps
// the arguments of a deferred call as references to the variables they
// were read from and reads them when the function returns: `v := 0.1;
// defer f(v); v = 0.2` calls f(0.2), and a defer in a loop sees the last
// iteration's values. `defer f(a, b)` becomes
//
//	{ _a0 := a; _a1 := b; defer f(_a0, _a1) }
//
// (a variable defined with := is new each time the statement runs, so the
// deferred call keeps this statement's values; f is still the deferred
// function, so recover in it works as in Go). Arguments that are
// constants (literals, nil, true, false and names in consts, operations
// on them, conversions and calls of them) stay where they are, as their type may come from
// the parameter. The arguments' text moves, so a call is left alone (nil
// is returned) when all its arguments are constants, or when one holds a
// function literal or a call that other rewrites change (make, print,
// println, a qualified call).
//
// When lit (a function literal, or a method of a receiver the loop
// declares, deferred in a loop, see closureEdits), the literal is made
// first as well, by a call that closes over the iteration's variables:
// `defer func() {…}()` becomes
//
//	{ _d := func() func() { return func() {…} }(); defer _d() }
//
// and `defer c.Close(x)` becomes
//
//	{ _a0 := x; _d := func() func() { return func() { c.Close(_a0) } }(); defer _d() }
func deferInFunction(fset *token.FileSet, off int, src string, d *ast.DeferStmt, consts map[string]bool, lit bool) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var names, values []string
	var edits []edit
	method := false
	if lit {
		if fl, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit); ok {
			typ := src[pos(fl.Type.Pos()):pos(fl.Type.End())]
			edits = append(edits,
				edit{pos(d.Defer), pos(d.Defer) + len("defer"), "_d := func() " + typ + " { return"},
				edit{pos(d.Call.Fun.End()), pos(d.Call.Fun.End()), " }(); defer _d"})
		} else {
			// A method whose receiver the loop declares: the call goes
			// into a closure made at the statement.
			method = true
			edits = append(edits, edit{pos(d.Defer), pos(d.Defer) + len("defer"), "_d := func() func() { return func() {"})
		}
	}
	for i, a := range d.Call.Args {
		if isConstant(a, consts) {
			continue
		}
		if nestedArg(a) {
			if method {
				return nil // closureEdits refuses it
			}
			if lit {
				// The literal is made first; the arguments stay.
				return append(edits[:2],
					edit{pos(d.Defer), pos(d.Defer), "{ "},
					edit{pos(d.Call.End()), pos(d.Call.End()), " }"})
			}
			return nil
		}
		name := fmt.Sprintf("_a%d", i)
		names = append(names, name)
		values = append(values, src[pos(a.Pos()):pos(a.End())])
		edits = append(edits, edit{pos(a.Pos()), pos(a.End()), name})
	}
	if len(names) == 0 && !lit {
		return nil
	}
	// One definition each: the interpreter evaluates a multiple
	// definition with a receive among its values wrongly (Go's test
	// fixedbugs/issue8039.go, defer copy(s, <-c)).
	head := "{ "
	for i := range names {
		head += names[i] + " := " + values[i] + "; "
	}
	edits = append(edits,
		edit{pos(d.Defer), pos(d.Defer), head},
		edit{pos(d.Call.End()), pos(d.Call.End()), " }"})
	if method {
		// Last, so that applyEdits puts it before the block's end.
		edits = append(edits, edit{pos(d.Call.End()), pos(d.Call.End()), " } }(); defer _d()"})
	}
	return edits
}

// nestedArg reports whether an argument of a deferred call holds a
// function literal or a call that other rewrites change (make, print,
// println, a qualified call), so that deferInFunction cannot move it.
func nestedArg(a ast.Expr) bool {
	nested := false
	ast.Inspect(a, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			nested = true
		case *ast.CallExpr:
			switch f := n.Fun.(type) {
			case *ast.Ident:
				nested = nested || f.Name == "make" || f.Name == "print" || f.Name == "println"
			case *ast.SelectorExpr:
				_, qualified := f.X.(*ast.Ident)
				nested = nested || qualified
			}
		}
		return !nested
	})
	return nested
}

// isConstant reports whether x is recognisably a constant expression.
func isConstant(x ast.Expr, consts map[string]bool) bool {
	switch x := x.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return x.Name == "nil" || x.Name == "true" || x.Name == "false" || consts[x.Name]
	case *ast.ParenExpr:
		return isConstant(x.X, consts)
	case *ast.UnaryExpr:
		return x.Op != token.ARROW && x.Op != token.AND && isConstant(x.X, consts)
	case *ast.BinaryExpr:
		return isConstant(x.X, consts) && isConstant(x.Y, consts)
	case *ast.CallExpr:
		// A conversion of a constant, ([]int)(nil), whose static type
		// print needs, or a call with constant arguments, which no later
		// statement changes.
		if _, lit := x.Fun.(*ast.FuncLit); lit {
			return false
		}
		for _, a := range x.Args {
			if !isConstant(a, consts) {
				return false
			}
		}
		return true
	}
	return false
}

// constNames returns the names declared by const declarations in root.
func constNames(root ast.Node) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				for _, id := range s.(*ast.ValueSpec).Names {
					names[id.Name] = true
				}
			}
		}
		return true
	})
	return names
}

// cellEdits returns the rewrites of a chunk's syntax tree: every go
// statement runs through goFunc (a panic in the goroutine is reported
// instead of ending the process), print and println are the session's
// when builtinPrint (printEdits), every make of a slice, map or channel
// type checks its size with makeLenFunc, and, when topLevel, every defer
// outside a function literal runs through deferFunc (once, when the cell
// ends; the interpreter would run it again after every later cell).
func cellEdits(fset *token.FileSet, root ast.Node, off int, src string, topLevel, builtinPrint bool) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	deferred := map[*ast.CallExpr]bool{} // rewritten by deferredCall
	consts := constNames(root)
	lits := deferredLiterals(root)
	var visit func(n ast.Node, inFunc bool)
	visit = func(n ast.Node, inFunc bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				if !inFunc {
					visit(n.Body, true)
					return false
				}
			case *ast.FuncDecl:
				if topLevel && strings.HasPrefix(n.Name.Name, blockPrefix) {
					// A top-level statement splitBlocks runs in a
					// function: its defers are the cell's.
					return true
				}
				if n.Body != nil && !inFunc {
					visit(n.Body, true)
					return false
				}
			case *ast.GoStmt:
				edits = append(edits, deferredCall(fset, off, src, n.Go, n.Call, goFunc, consts)...)
				deferred[n.Call] = true
			case *ast.DeferStmt:
				if topLevel && !inFunc {
					edits = append(edits, deferredCall(fset, off, src, n.Defer, n.Call, deferFunc, consts)...)
					deferred[n.Call] = true
				} else if e := deferInFunction(fset, off, src, n, consts, lits[n] != nil); e != nil {
					edits = append(edits, e...)
					deferred[n.Call] = true
				}
			case *ast.CallExpr:
				id, ok := n.Fun.(*ast.Ident)
				if !ok || id.Name != "make" || len(n.Args) < 2 {
					return true
				}
				switch n.Args[0].(type) {
				case *ast.ArrayType, *ast.MapType, *ast.ChanType:
				default:
					return true
				}
				typ := src[pos(n.Args[0].Pos()):pos(n.Args[0].End())]
				for _, a := range n.Args[1:] {
					if lit, ok := a.(*ast.BasicLit); ok && len(lit.Value) < 10 {
						continue // a small literal size: no call in hot loops
					}
					edits = append(edits,
						edit{pos(a.Pos()), pos(a.Pos()), makeLenFunc + "(int("},
						edit{pos(a.End()), pos(a.End()), "), (" + typ + ")(nil))"})
				}
			}
			return true
		})
	}
	visit(root, false)
	if builtinPrint {
		edits = append(edits, printEdits(fset, root, off, deferred)...)
	}
	return edits
}

// checkpointEdits inserts a call of checkpointFunc after every top-level
// statement of body but the last: when the cell was interrupted while a
// compiled call ran, the interpreter resumes the rest of the cell once that
// call returns (even during a later cell); the checkpoint stops it there.
//
// The statements are numbered from first; the checkpoint after statement
// k records that the cell has run k statements.
func checkpointEdits(fset *token.FileSet, body *ast.BlockStmt, off int, cell, first int) []edit {
	var edits []edit
	for i, st := range body.List[:max(len(body.List)-1, 0)] {
		if _, ok := st.(*ast.EmptyStmt); ok {
			continue
		}
		end := fset.Position(st.End()).Offset - off
		edits = append(edits, edit{end, end, fmt.Sprintf("; %s(%d, %d)", checkpointFunc, cell, first+i)})
	}
	return edits
}

// splitVarInits works around an interpreter bug: a top-level var
// declaration whose initial value uses a global variable made by an earlier
// evaluation (`d := Dog{}` then `var g Greeter = d`) fails with "variable
// definition loop" when it runs. Such a declaration becomes a declaration
// without value and an assignment statement after the declarations
// (`var g Greeter` and `g = d`); an untyped one (`var g = d`) becomes a
// definition (`g := d`). isVar reports whether a name is a global variable
// of the session or defined with := earlier in the cell.
func splitVarInits(chunks []Chunk, isVar func(string) bool) []Chunk {
	var out []Chunk
	defined := map[string]bool{}
	mentionsVar := func(exprs []ast.Expr) bool {
		found := false
		for _, e := range exprs {
			ast.Inspect(e, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					ast.Inspect(n.X, func(m ast.Node) bool {
						if id, ok := m.(*ast.Ident); ok && (defined[id.Name] || isVar != nil && isVar(id.Name)) {
							found = true
						}
						return !found
					})
					return false
				case *ast.Ident:
					if defined[n.Name] || isVar != nil && isVar(n.Name) {
						found = true
					}
				}
				return !found
			})
		}
		return found
	}
	for _, c := range chunks {
		fset := token.NewFileSet()
		if !c.Decl {
			if f, err := parseStatements(fset, c.Src); err == nil {
				for _, st := range f.List {
					if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
						for _, l := range as.Lhs {
							if id, ok := l.(*ast.Ident); ok {
								defined[id.Name] = true
							}
						}
					}
				}
			}
			out = append(out, c)
			continue
		}
		f, err := parser.ParseFile(fset, "", "package p\n"+c.Src, parser.ParseComments)
		if err != nil {
			out = append(out, c) // prepare reports it
			continue
		}
		const off = len("package p\n")
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		var edits []edit
		var stmts []Chunk
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) == 0 || len(vs.Names) != len(vs.Values) || !mentionsVar(vs.Values) {
					continue
				}
				names := c.Src[pos(vs.Names[0].Pos()):pos(vs.Names[len(vs.Names)-1].End())]
				values := c.Src[pos(vs.Values[0].Pos()):pos(vs.Values[len(vs.Values)-1].End())]
				line := c.Line + strings.Count(c.Src[:pos(vs.Pos())], "\n")
				keep := ""
				op := " := "
				if vs.Type != nil {
					keep = names + " " + c.Src[pos(vs.Type.Pos()):pos(vs.Type.End())]
					op = " = "
				}
				if keep == "" && len(g.Specs) == 1 {
					// The whole declaration goes.
					edits = append(edits, edit{pos(g.Pos()), pos(g.End()), strings.Repeat("\n", strings.Count(c.Src[pos(g.Pos()):pos(g.End())], "\n"))})
				} else {
					edits = append(edits, edit{pos(vs.Pos()), pos(vs.End()), keep + strings.Repeat("\n", strings.Count(c.Src[pos(vs.Pos()):pos(vs.End())], "\n"))})
				}
				stmts = append(stmts, Chunk{Src: names + op + values, Line: line, varInit: true})
			}
		}
		if len(stmts) == 0 {
			out = append(out, c)
			continue
		}
		c.Src = applyEdits(c.Src, edits)
		out = append(out, c)
		out = append(out, stmts...)
	}
	return out
}

// parseStatements parses src as the statements of a function body.
func parseStatements(fset *token.FileSet, src string) (*ast.BlockStmt, error) {
	f, err := parser.ParseFile(fset, "", stmtPrefix+src+"\n}", parser.ParseComments)
	if err != nil {
		return nil, err
	}
	return f.Decls[0].(*ast.FuncDecl).Body, nil
}
