package yaegifix

import (
	"go/ast"
	"go/token"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// recoverReadFunc is the session function for a recovered value that the
// cell may read beyond comparing it with nil (RecoverRead).
const recoverReadFunc = "_portlab.RecoverRead"

// recoverReadStop starts the message with which RecoverRead stops a cell.
const recoverReadStop = Refused + "the text of a recovered "

// RecoverRead is RecoverIn for a recovered value that the cell may read
// (print it, take its Error text): it stops the cell when the value is one
// of the interpreter's runtime errors whose text lacks what Go's holds —
// an index or slice bound out of range, for which Go's message gives the
// index and the length ("index out of range [3] with length 3"; yaegi
// v0.16.1 indexes by reflect, whose panic gives neither; Go's
// test/fixedbugs/issue30116.go, issue75327.go). A value compared with nil
// only goes through RecoverIn (nilCheckedRecovers). It also stops the
// cell when the value is the interpreter's own failure (InterpreterFault),
// such as "reflect: call of reflect.Value.Set on zero Value" for a nil
// pointer's value read (Go's text is "invalid memory address or nil
// pointer dereference", or "value method main.T.F called using nil *T
// pointer" when an interface holding the nil pointer calls a value method,
// Go's test/fixedbugs/issue19040.go), unless usesReflect (the session
// imports reflect, whose misuse in the cell gives such texts in Go too,
// Go's test/fixedbugs/issue28748.go).
func RecoverRead(it *interp.Interpreter, v any, usesReflect bool) any {
	v = RecoverIn(it, v)
	if !usesReflect {
		var msg string
		switch x := v.(type) {
		case string:
			msg = x
		case error:
			if _, ok := x.(RuntimeError); !ok {
				msg = x.Error()
			}
		}
		if msg != "" && InterpreterFault(msg) && !strings.HasPrefix(msg, Refused) {
			panic(recoverReadStop + "panic: the interpreter failed (" + msg + ") where compiled Go panics with a runtime error of its own " +
				"(for a nil pointer, \"invalid memory address or nil pointer dereference\", or \"value method main.T.M called using nil *T pointer\" " +
				"through an interface), or does not panic; compare the recovered value with nil instead of reading it")
		}
	}
	if e, ok := v.(RuntimeError); ok {
		switch e.Msg {
		case "runtime error: index out of range", "runtime error: slice bounds out of range":
			panic(recoverReadStop + "\"" + e.Msg + "\": Go's message gives the index and the length, " +
				"which the interpreter's does not know; compare the recovered value with nil, or test for runtime.Error, instead of reading its text")
		}
	}
	return v
}

// RecoverIn is Recover for a cell of the interpreter it, which also words
// the map's panic for an unhashable key as Go's runtime does: yaegi
// v0.16.1 stores into maps by reflect, whose panic is the runtime's
// internal "hash of unhashable type: T" error, not a runtime.Error, and
// names a cell's struct type by the unnamed struct the interpreter builds
// for it, where compiled Go panics with "runtime error: hash of unhashable
// type main.T" (Go's test/recover2.go).
func RecoverIn(it *interp.Interpreter, v any) any {
	if s, ok := v.(string); ok && strings.HasPrefix(s, recoverReadStop) {
		// RecoverRead's stop of the cell: not for the cell's recover.
		panic(s)
	}
	v = Recover(v)
	if e, ok := v.(RuntimeError); ok {
		// Go's runtime says no more than this; the kernel's explanation
		// in parentheses is for its own report of the panic.
		if i := strings.Index(e.Msg, "nil pointer dereference ("); i >= 0 {
			return RuntimeError{e.Msg[:i+len("nil pointer dereference")]}
		}
	}
	e, ok := v.(error)
	if !ok || e == nil {
		return v
	}
	const prefix = "hash of unhashable type: "
	msg := e.Error()
	if !strings.HasPrefix(msg, prefix) || reflect.TypeOf(e).PkgPath() == "main" {
		return v
	}
	return RuntimeError{"runtime error: hash of unhashable type " + cellTypeName(it, msg[len(prefix):])}
}

// cellTypeName returns main.T for the literal of a struct type the cell
// declared as T (how the interpreter builds it), else literal.
func cellTypeName(it *interp.Interpreter, literal string) string {
	if it == nil || !strings.HasPrefix(literal, "struct {") {
		return literal
	}
	for _, syms := range it.Symbols("main") {
		for name, v := range syms {
			if !v.IsValid() || v.Kind() != reflect.Pointer {
				continue
			}
			if t := v.Type().Elem(); t.Kind() == reflect.Struct && t.Name() == "" && t.String() == literal {
				return "main." + name
			}
		}
	}
	return literal
}

// deferRecoverRefusals refuses defer recover(): yaegi v0.16.1 calls a
// deferred recover at the defer statement, where it stops a panic under
// way at once (or finds none), instead of when the function returns (Go's
// test/recover1.go). Go's own rule for it (it recovers only when the
// function returns normally while a panic runs its deferred calls) has no
// plain equivalent; the message says to call recover in the body of a
// deferred function.
func deferRecoverRefusals(root ast.Node, refuse func(token.Pos, string, ...any)) {
	ast.Inspect(root, func(n ast.Node) bool {
		if d, ok := n.(*ast.DeferStmt); ok && isRecoverCall(d.Call) {
			refuse(d.Pos(), "defer recover() (the interpreter calls the deferred recover at the defer statement, not when the function returns): "+
				"call recover() in the body of a deferred function, defer func() { recover() }(), if that is what you mean")
		}
		return true
	})
}

// isRecoverCall reports whether call is recover().
func isRecoverCall(call *ast.CallExpr) bool {
	id, ok := call.Fun.(*ast.Ident)
	return ok && id.Name == "recover" && len(call.Args) == 0
}

// nilCheckedRecovers returns the recover() calls of root whose value is
// only compared with nil or dropped: recover() as a statement, recover()
// == nil, and v := recover() (or v = recover(), if v := recover(); …)
// where every use of the variable v in the function is v == nil, v !=
// nil or _, ok := v.(T). RecoverRead is for the others.
func nilCheckedRecovers(root ast.Node) map[*ast.CallExpr]bool {
	checked := map[*ast.CallExpr]bool{}
	isNil := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && id.Name == "nil"
	}
	var visit func(body ast.Node)
	visit = func(body ast.Node) {
		// The variables assigned from recover() in this body, with the
		// calls, and the uses of names that are not nil checks.
		assigned := map[string][]*ast.CallExpr{}
		otherUse := map[string]bool{}
		nilUse := map[*ast.Ident]bool{}
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				if n.Body != body {
					visit(n.Body)
				}
				// Its uses of the names count too (a closure reading v).
			case *ast.ExprStmt:
				if c, ok := n.X.(*ast.CallExpr); ok && isRecoverCall(c) {
					checked[c] = true
				}
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					break
				}
				for _, pair := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
					if !isNil(pair[1]) {
						continue
					}
					switch x := ast.Unparen(pair[0]).(type) {
					case *ast.CallExpr:
						if isRecoverCall(x) {
							checked[x] = true
						}
					case *ast.Ident:
						nilUse[x] = true
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
					// _, ok := v.(T) tests the type only.
					ta, ok := n.Rhs[0].(*ast.TypeAssertExpr)
					blank, ok2 := n.Lhs[0].(*ast.Ident)
					if ok && ok2 && blank.Name == "_" {
						if id, ok := ast.Unparen(ta.X).(*ast.Ident); ok {
							nilUse[id] = true
						}
					}
				}
				if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
					if c, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && isRecoverCall(c) {
						if id, ok := n.Lhs[0].(*ast.Ident); ok {
							assigned[id.Name] = append(assigned[id.Name], c)
							nilUse[id] = true // the definition is no read
						}
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == 1 && len(n.Values) == 1 {
					if c, ok := ast.Unparen(n.Values[0]).(*ast.CallExpr); ok && isRecoverCall(c) {
						assigned[n.Names[0].Name] = append(assigned[n.Names[0].Name], c)
						nilUse[n.Names[0]] = true
					}
				}
			}
			return true
		})
		ast.Inspect(body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && !nilUse[id] {
				otherUse[id.Name] = true
			}
			return true
		})
		for name, calls := range assigned {
			if !otherUse[name] {
				for _, c := range calls {
					checked[c] = true
				}
			}
		}
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				visit(n.Body)
			}
			return false
		case *ast.FuncLit:
			visit(n.Body)
			return false
		}
		return true
	})
	return checked
}
