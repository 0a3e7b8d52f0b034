package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"sync/atomic"
)

const (
	newDefersFunc = "_portlab.NewDefers"
	deferredFunc  = "_portlab.Deferred"
)

// deferPanicEdits makes a panic in a deferred call stop the cell when the
// function has other deferred calls still to run: yaegi v0.16.1 runs the
// deferred calls of a function in a loop that the panic leaves, so that
// they never run (defer unlock() before defer func() { panic(…) }() left
// the lock held; Go's test/fixedbugs/issue8047.go, where a deferred nil
// function skipped the deferred recover). Go runs them, with the new panic
// for their recover; the interpreter offers no way to, so the cell stops
// with a message instead of running on without them.
//
// In a function with more than one defer statement or one in a loop, the
// body starts with d := _portlab.NewDefers(), which counts the deferred
// calls still to run; defer f() (no arguments: a function literal, a
// method value or a function) becomes defer _portlab.Deferred(d.Add(),
// f), which calls f as the interpreter would (a recover in f still sees
// the function's panic) and stops the cell if f panics while the count
// is not zero; any other defer statement is counted by d.Add(); defer
// d.Done() before it.
func deferPanicEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	var visit func(body *ast.BlockStmt)
	visit = func(body *ast.BlockStmt) {
		var defers []*ast.DeferStmt
		inLoop := false
		var walk func(n ast.Node, loop bool)
		walk = func(root ast.Node, loop bool) {
			ast.Inspect(root, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					visit(n.Body)
					return false
				case *ast.ForStmt:
					if n != root {
						walk(n.Body, true)
						return false
					}
				case *ast.RangeStmt:
					if n != root {
						walk(n.Body, true)
						return false
					}
				case *ast.DeferStmt:
					defers = append(defers, n)
					inLoop = inLoop || loop
				}
				return true
			})
		}
		walk(body, false)
		if len(defers) < 2 && !inLoop {
			return
		}
		d := tempPrefix + "D" + strconv.FormatInt(blockSeq.Add(1), 10)
		edits = append(edits, edit{pos(body.Lbrace) + 1, pos(body.Lbrace) + 1, " " + d + " := " + newDefersFunc + "();"})
		for _, ds := range defers {
			call := ds.Call
			if len(call.Args) == 0 && !call.Ellipsis.IsValid() && !isBuiltinCall(call) {
				edits = append(edits,
					edit{pos(call.Fun.Pos()), pos(call.Fun.Pos()), deferredFunc + "(" + d + ".Add(), "},
					edit{pos(call.Lparen), pos(call.Rparen) + 1, ")"})
				continue
			}
			edits = append(edits, edit{pos(ds.Defer), pos(ds.Defer), d + ".Add(); defer " + d + ".Done(); "})
		}
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		if pos(fd.Pos()) < 0 {
			// The wrapper of a chunk's statements: the cell's top level,
			// whose defers are the session's (cellEdits); its function
			// literals are functions.
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if fl, ok := n.(*ast.FuncLit); ok {
					visit(fl.Body)
					return false
				}
				return true
			})
			continue
		}
		visit(fd.Body)
	}
	return edits
}

// isBuiltinCall reports whether call calls a builtin function (or
// recover, panic, close), which cannot be passed as a value.
func isBuiltinCall(call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	switch id.Name {
	case "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make",
		"max", "min", "new", "panic", "print", "println", "real", "recover":
		return true
	}
	return false
}

// Defers counts the deferred calls of a function call that are still to
// run (deferPanicEdits).
type Defers struct{ n atomic.Int64 }

// NewDefers returns a count for a call of a function with defer
// statements.
func NewDefers() *Defers { return new(Defers) }

// Add counts a deferred call and returns d.
func (d *Defers) Add() *Defers {
	d.n.Add(1)
	return d
}

// Done uncounts a deferred call that has run.
func (d *Defers) Done() { d.n.Add(-1) }

// DeferredPanicMessage starts the message with which Deferred stops a cell.
const DeferredPanicMessage = Refused + "a deferred call panicked"

// Deferred runs the deferred function fn, counted by d: it calls fn and,
// if fn panics while other deferred calls of the function are still to
// run, stops the cell (the interpreter would skip them).
func Deferred(d *Defers, fn any) {
	pending := d.n.Add(-1)
	ok := false
	defer func() {
		if ok {
			return
		}
		r := recover()
		if r == nil {
			return // runtime.Goexit
		}
		if pending > 0 {
			panic(fmt.Sprintf("%s (%s) while %d other deferred calls of the function were still to run: "+
				"the interpreter would skip them, where Go runs them; recover the panic inside the deferred function, or defer one function that makes these calls in turn",
				DeferredPanicMessage, describePanic(r), pending))
		}
		panic(r)
	}()
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() == reflect.Func && v.IsNil() {
		panic(RuntimeError{"runtime error: invalid memory address or nil pointer dereference"})
	}
	v.Call(nil)
	ok = true
}

// describePanic words a panic value for Deferred's message.
func describePanic(r any) string {
	if rv, ok := r.(reflect.Value); ok && rv.IsValid() && rv.CanInterface() {
		r = rv.Interface()
	}
	if e, ok := r.(error); ok {
		return "panic: " + ExplainPanic(e.Error())
	}
	if s, ok := r.(string); ok {
		return "panic: " + ExplainPanic(s)
	}
	return fmt.Sprintf("panic: %v", r)
}
