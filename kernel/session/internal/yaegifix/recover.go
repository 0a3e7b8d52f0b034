package yaegifix

import (
	"go/ast"
	"go/token"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// RecoverIn is Recover for a cell of the interpreter it, which also words
// the map's panic for an unhashable key as Go's runtime does: yaegi
// v0.16.1 stores into maps by reflect, whose panic is the runtime's
// internal "hash of unhashable type: T" error, not a runtime.Error, and
// names a cell's struct type by the unnamed struct the interpreter builds
// for it, where compiled Go panics with "runtime error: hash of unhashable
// type main.T" (Go's test/recover2.go).
func RecoverIn(it *interp.Interpreter, v any) any {
	v = Recover(v)
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
