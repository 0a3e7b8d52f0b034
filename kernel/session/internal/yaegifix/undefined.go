package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
)

// UndefinedName finds a name that chunk c uses but nothing defines: not
// the chunk, nor the universe, nor known (the session's globals and
// imported packages). yaegi v0.16.1 reports an undefined name as
// "constant definition loop" at the start of the statement, and panics
// with a nil pointer dereference on a package name that is not imported
// in a function's signature (func h(c context.Context)); the session then
// reports "undefined: name" at the name's cell line and column. ok is
// false when no such name is found.
func UndefinedName(c Chunk, known func(string) bool) (name string, line, col int, ok bool) {
	fset := token.NewFileSet()
	var root ast.Node
	prefix := "package p\n"
	if !c.Decl {
		prefix = stmtPrefix
	}
	f, err := parser.ParseFile(fset, "", prefix+c.Src+map[bool]string{true: "", false: "\n}"}[c.Decl], 0)
	if err != nil {
		return "", 0, 0, false
	}
	root = f
	defined := DefinedNames(&Plan{Chunks: []Chunk{c}})
	// Labels, type parameters and the names of struct fields and of
	// methods are not uses.
	skip := map[*ast.Ident]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.File:
			skip[n.Name] = true
		case *ast.SelectorExpr:
			skip[n.Sel] = true
		case *ast.LabeledStmt:
			skip[n.Label] = true
		case *ast.BranchStmt:
			if n.Label != nil {
				skip[n.Label] = true
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				skip[id] = true // a field name, or a map key (a use, missed)
			}
		case *ast.FuncDecl:
			skip[n.Name] = true
		}
		return true
	})
	var found *ast.Ident
	ast.Inspect(root, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		id, isIdent := n.(*ast.Ident)
		if !isIdent || skip[id] || id.Name == "_" || defined[id.Name] || known(id.Name) || types.Universe.Lookup(id.Name) != nil {
			return true
		}
		found = id
		return false
	})
	if found == nil {
		return "", 0, 0, false
	}
	pos := fset.Position(found.Pos())
	return found.Name, c.Line + pos.Line - 2, pos.Column, true
}

// SelectorPos returns the cell line and column of the first selector
// .name in chunk c: yaegi v0.16.1 reports an undefined selector at the
// position of the expression that gave the operand its type (the
// definition of the variable), often lines away.
func SelectorPos(c Chunk, name string) (line, col int, ok bool) {
	fset := token.NewFileSet()
	prefix, suffix := "package p\n", ""
	if !c.Decl {
		prefix, suffix = stmtPrefix, "\n}"
	}
	f, err := parser.ParseFile(fset, "", prefix+c.Src+suffix, 0)
	if err != nil {
		return 0, 0, false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, isSel := n.(*ast.SelectorExpr); isSel && !ok && sel.Sel.Name == name {
			pos := fset.Position(sel.Sel.Pos())
			line, col, ok = c.Line+pos.Line-2, pos.Column, true
		}
		return !ok
	})
	return line, col, ok
}

// nilInstance matches the interpreter's compile panic at a call of an
// explicit instantiation whose compilation failed (the position is the
// cell's).
var nilInstance = regexp.MustCompile(`^(\d+):(\d+): CFG post-order panic: runtime error: invalid memory address or nil pointer dereference$`)

// InstantiationHint explains msg, an error of the interpreter while it
// compiled chunk c, when it is the nil pointer dereference at a call of
// an explicit instantiation of a generic function, f[X](…): yaegi v0.16.1
// drops the error of its compilation of f's body for that type argument
// and panics at the call. The hint names the instantiation and how to see
// the interpreter's own error; "" otherwise.
func InstantiationHint(c Chunk, msg string) string {
	m := nilInstance.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	fset := token.NewFileSet()
	prefix, suffix := "package p\n", ""
	if !c.Decl {
		prefix, suffix = stmtPrefix, "\n}"
	}
	f, err := parser.ParseFile(fset, "", prefix+c.Src+suffix, 0)
	if err != nil {
		return ""
	}
	var fun ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || fun != nil {
			return fun == nil
		}
		pos := fset.Position(call.Pos())
		if c.Line+pos.Line-2 != line || pos.Column != col {
			return true
		}
		switch x := ast.Unparen(call.Fun).(type) {
		case *ast.IndexExpr:
			if _, ok := x.X.(*ast.Ident); ok {
				fun = x
			}
		case *ast.IndexListExpr:
			if _, ok := x.X.(*ast.Ident); ok {
				fun = x
			}
		}
		return true
	})
	if fun == nil {
		return ""
	}
	text := types.ExprString(fun)
	return fmt.Sprintf(" (at the call of %s: the interpreter failed to compile the generic function for these type arguments and does not say why; "+
		"a construct of its body that it rejects for them, where Go accepts it, is the cause: a type switch whose cases these types make alike, "+
		"a method expression or a conversion of a type parameter, a generic type it does not find. "+
		"Where Go can infer the type arguments, the call without them reports the interpreter's error)", text)
}
