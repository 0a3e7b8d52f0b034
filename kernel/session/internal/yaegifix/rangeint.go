package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// intTypes are the names of Go's integer types.
var intTypes = map[string]bool{
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "byte": true, "rune": true,
}

// withLocalInts records integer types and functions returning an integer
// under these prefixes of their names (the names of variables cannot
// contain a space).
const (
	intTypeKey = "type "
	intFuncKey = "func "
)

// intRangeEdits rewrites rs, a range over the integer expression rs.X (the
// n-th range statement rangeEdits rewrites), into a three-clause loop with
// Go's semantics: the bound is evaluated once, the counter has the type of
// the operand (int for an untyped constant) and each iteration has a
// variable of its own, which the body may change without changing the
// number of iterations:
//
//	for i := range x { body }
//	for _i, _n := 0*(x), (x); _i < _n; _i++ { i := _i; _ = i; { body } }
//
// (or for i, _n := 0*(x), (x); i < _n; i++ { body } when the body does not
// assign i). The counter starts at 0*(x), which has x's type, when x can be evaluated
// again without effect (names, constants, len and conversions of them);
// otherwise at 0, which is right for the int results of len, cap and
// int(…), and fails to compile against another integer type. for i = range
// x assigns the counter to i at the start of each iteration.
func intRangeEdits(pos func(token.Pos) int, rs *ast.RangeStmt, n int, src string, isInt func(string) bool) []edit {
	key := fmt.Sprintf("_portlab_i%d", n)
	limit := fmt.Sprintf("_portlab_n%d", n)
	start := "0"
	if pureIntExpr(rs.X, isInt) {
		start = "0*(" + src[pos(rs.X.Pos()):pos(rs.X.End())] + ")"
	}
	// The operand stays where it is, for the other rewrites of its text.
	head := fmt.Sprintf("for %s, %s := %s, (", key, limit, start)
	tail := fmt.Sprintf("); %s < %s; %s++ {", key, limit, key)
	edits := []edit{{pos(rs.For), pos(rs.X.Pos()), head}}
	id, named := rs.Key.(*ast.Ident)
	switch {
	case named && id.Name != "_" && rs.Tok == token.DEFINE && !assigns(rs.Body, id.Name):
		// A body that does not assign the variable: it can count
		// (loopEdits gives a body that captures it copies of its own).
		head = strings.Replace(head, key, id.Name, 1)
		tail = strings.ReplaceAll(tail, key, id.Name)
		return append([]edit{{pos(rs.For), pos(rs.X.Pos()), head}}, edit{pos(rs.X.End()), pos(rs.Body.Lbrace) + 1, tail})
	case named && id.Name != "_" && rs.Tok == token.DEFINE:
		return append(edits,
			edit{pos(rs.X.End()), pos(rs.Body.Lbrace) + 1, tail + " " + id.Name + " := " + key + "; _ = " + id.Name + "; {"},
			edit{pos(rs.Body.Rbrace), pos(rs.Body.Rbrace), "}"})
	case rs.Tok == token.ASSIGN && rs.Key != nil:
		// The target may be any addressable expression: i, a[0], p.f.
		target := src[pos(rs.Key.Pos()):pos(rs.Key.End())]
		return append(edits, edit{pos(rs.X.End()), pos(rs.Body.Lbrace) + 1, tail + " " + target + " = " + key + ";"})
	}
	return append(edits, edit{pos(rs.X.End()), pos(rs.Body.Lbrace) + 1, tail})
}

// pureIntExpr reports whether x, an integer expression of isIntExpr's
// kinds, calls nothing but len, cap and conversions to integer types.
func pureIntExpr(x ast.Expr, isInt func(string) bool) bool {
	pure := true
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			id, ok := n.Fun.(*ast.Ident)
			if !ok || id.Name != "len" && id.Name != "cap" && !intTypes[id.Name] && (isInt == nil || !isInt(intTypeKey+id.Name)) {
				pure = false
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				pure = false
			}
		case *ast.FuncLit:
			pure = false
		}
		return pure
	})
	return pure
}

// withLocalInts extends isInt by the names f declares as integers: with
// := from an integer expression (n := 10), as constants or variables of
// an integer type or value (const N = 40, var n uint8) and as parameters
// and results of an integer type (func f(n int)). Names are not scoped: a
// name f also declares otherwise (as a variable of another type or of a
// value of unknown type, a parameter of another type) is not taken for an
// integer, nor is a global isInt knows that f declares otherwise. A name
// taken for an integer wrongly makes the rewritten loop fail to compile
// (0*(s) for a slice s), never run differently.
func withLocalInts(f *ast.File, isInt func(string) bool) func(string) bool {
	ints, other := map[string]bool{}, map[string]bool{}
	probe := func(name string) bool {
		if name == "iota" {
			return true
		}
		if other[name] {
			return false
		}
		return ints[name] || isInt != nil && isInt(name)
	}
	record := func(id *ast.Ident, isInt bool) {
		if id.Name == "_" {
			return
		}
		if isInt {
			ints[id.Name] = true
		} else {
			other[id.Name] = true
		}
	}
	intType := func(t ast.Expr) bool {
		id, ok := t.(*ast.Ident)
		return ok && intTypes[id.Name]
	}
	// Two rounds, so that n := 10 before m := n + 1 and const N = M
	// after const M = 3 both count; the second also finds the other
	// declarations.
	for round := 0; round < 2; round++ {
		other = map[string]bool{}
		lastInt := false // the last constant's value, for const ( A = iota; B )
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE {
					return true
				}
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						record(id, len(n.Lhs) == len(n.Rhs) && isIntExpr(n.Rhs[i], probe))
					}
				}
			case *ast.ValueSpec:
				if len(n.Values) > 0 {
					lastInt = n.Type == nil && isIntExpr(n.Values[0], probe) || n.Type != nil && intType(n.Type)
				}
				for i, id := range n.Names {
					switch {
					case n.Type != nil:
						record(id, intType(n.Type))
					case len(n.Values) == len(n.Names):
						record(id, isIntExpr(n.Values[i], probe))
					default:
						record(id, len(n.Values) == 0 && lastInt)
					}
				}
			case *ast.TypeSpec:
				if n.TypeParams == nil {
					ints[intTypeKey+n.Name.Name] = intType(n.Type) || ints[intTypeKey+identName(n.Type)]
				}
			case *ast.FuncDecl:
				if n.Recv == nil && n.Type.Results != nil && len(n.Type.Results.List) == 1 && len(n.Type.Results.List[0].Names) <= 1 {
					ints[intFuncKey+n.Name.Name] = intType(n.Type.Results.List[0].Type)
				}
			case *ast.FuncType:
				for _, fl := range []*ast.FieldList{n.Params, n.Results} {
					if fl == nil {
						continue
					}
					for _, field := range fl.List {
						for _, id := range field.Names {
							record(id, intType(field.Type))
						}
					}
				}
			}
			return true
		})
	}
	return probe
}

// identName is the name of x if it is an identifier.
func identName(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// CommaOkMessage explains the interpreter's "nil type" panic for a chunk
// without a range statement: a comma-ok form in a package-level var
// declaration (var v, ok = m[k]) fails so (as v, ok := m[k] at top level).
const CommaOkMessage = "the interpreter failed to compile this code (\"nil type\"); without a range statement, the construct it fails so on " +
	"is a comma-ok form in a package-level declaration (var v, ok = m[k], var x, ok = i.(T), var v, ok = <-c): declare the variables " +
	"with their types and assign them inside a function: var v V; var ok bool; func init() { v, ok = m[k] }"

// NilTypeMessage is the message for the interpreter's "nil type" panic
// while it compiled src, a chunk: RangeIntMessage when src has a range
// statement, else CommaOkMessage.
func NilTypeMessage(src string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package p\n"+src, 0)
	if err != nil {
		f, err = parser.ParseFile(fset, "", stmtPrefix+src+"\n}", 0)
	}
	if err != nil {
		return RangeIntMessage
	}
	hasRange := false
	ast.Inspect(f, func(n ast.Node) bool {
		_, ok := n.(*ast.RangeStmt)
		hasRange = hasRange || ok
		return !hasRange
	})
	if hasRange {
		return RangeIntMessage
	}
	return CommaOkMessage
}

// cellDecls extends isInt by the integer types, functions returning an
// integer and integer constants and variables the declaration chunks
// declare at top level, and returns the iterator functions they declare
// (yieldTypes), so that the range loops of the cell's other chunks see
// them.
func cellDecls(chunks []Chunk, isInt func(string) bool) (func(string) bool, map[string]string) {
	ints := map[string]bool{}
	seqs := map[string]string{}
	probe := func(name string) bool { return ints[name] || isInt != nil && isInt(name) }
	for _, c := range chunks {
		if !c.Decl {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", "package p\n"+c.Src, 0)
		if err != nil {
			continue
		}
		for k, v := range yieldTypes(fset, f, 10, c.Src, nil) {
			seqs[k] = v
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Type.TypeParams == nil && d.Type.Results != nil && len(d.Type.Results.List) == 1 && len(d.Type.Results.List[0].Names) <= 1 {
					if id, ok := d.Type.Results.List[0].Type.(*ast.Ident); ok && intTypes[id.Name] {
						ints[intFuncKey+d.Name.Name] = true
					}
				}
			case *ast.GenDecl:
				last := false
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if id, ok := s.Type.(*ast.Ident); ok && s.TypeParams == nil && (intTypes[id.Name] || ints[intTypeKey+id.Name]) {
							ints[intTypeKey+s.Name.Name] = true
						}
					case *ast.ValueSpec:
						if len(s.Values) > 0 {
							last = s.Type == nil && isIntExpr(s.Values[0], probe)
						}
						for i, id := range s.Names {
							typ, _ := s.Type.(*ast.Ident)
							switch {
							case typ != nil:
								ints[id.Name] = intTypes[typ.Name]
							case len(s.Values) == len(s.Names):
								ints[id.Name] = isIntExpr(s.Values[i], probe)
							default:
								ints[id.Name] = len(s.Values) == 0 && d.Tok == token.CONST && last
							}
						}
					}
				}
			}
		}
	}
	return probe, seqs
}

// assigns reports whether body assigns the variable name: with =, op=,
// ++, -- (changed) or as the target of a range loop.
func assigns(body *ast.BlockStmt, name string) bool {
	if changed(body, map[string]bool{name: true}) != "" {
		return true
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if rs, ok := n.(*ast.RangeStmt); ok && rs.Tok == token.ASSIGN {
			for _, x := range []ast.Expr{rs.Key, rs.Value} {
				if id, ok := x.(*ast.Ident); ok && id.Name == name {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
