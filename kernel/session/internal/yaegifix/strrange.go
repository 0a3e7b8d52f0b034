package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// rangeStringFunc is the interpreted name of RangeString.
const rangeStringFunc = "_portlab.RangeString"

// rangeStringEdits guards the range loops with a key over what may be a
// string. yaegi v0.16.1 ranges over a string by converting it to []rune:
// `for i := range s` gives rune counts (0 1 2 for "héllo"'s first three
// runes, where Go gives the byte offsets 0 1 3), and `for i, c := range s`
// computes each offset by encoding the runes before it again, so that
// from the first byte that is not valid UTF-8 on (which Go yields as
// U+FFFD, one byte wide) the offsets are Go's plus two for each such byte.
// The values and the number of iterations are right.
//
// The type of the range expression is not known before the interpreter
// compiles it, so each such loop calls RangeString with the expression
// first, which stops the cell with a message when the loop would go wrong
// (and does nothing for other values). An expression that calls a
// function is evaluated once, into a temporary that the loop ranges over.
// Loops whose expression cannot be a string (a composite literal, make, a
// conversion to a slice, a variable or field that the chunk declares with
// another type only, a range over an integer that rangeEdits rewrites)
// are left alone.
func rangeStringEdits(fset *token.FileSet, root ast.Node, off int, src string, isInt func(string) bool) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	declared := declaredTypes(root)
	// Functions of the chunk that return a string: a call of one is a
	// string (as declared gives it for a name).
	ast.Inspect(root, func(n ast.Node) bool {
		if fd, ok := n.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Type.Results != nil && len(fd.Type.Results.List) == 1 && len(fd.Type.Results.List[0].Names) <= 1 {
			if id, ok := fd.Type.Results.List[0].Type.(*ast.Ident); ok && id.Name == "string" {
				declared[fd.Name.Name+"()"] = append(declared[fd.Name.Name+"()"], id)
			}
		}
		return true
	})
	labeled := map[ast.Stmt]*ast.LabeledStmt{}
	var edits []edit
	ast.Inspect(root, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok {
			labeled[ls.Stmt] = ls
			if outer := labeled[ls]; outer != nil {
				labeled[ls.Stmt] = outer
			}
		}
		rs, ok := n.(*ast.RangeStmt)
		if !ok || rs.Key == nil || rs.Value == nil && isIntExpr(rs.X, isInt) || notString(rs.X, declared) {
			return true
		}
		if isBlank(rs.Key) {
			return true // no offset is used: the values are right
		}
		at := rs.Pos()
		if ls := labeled[rs]; ls != nil {
			at = ls.Pos()
		}
		keyOnly := rs.Value == nil
		if keyOnly && isString(rs.X, declared) && rs.Tok == token.DEFINE {
			// for i, _ := range s gives Go's offsets for valid UTF-8.
			edits = append(edits, edit{pos(rs.Key.End()), pos(rs.Key.End()), ", _"})
			keyOnly = false
		}
		x := exprText(src, pos, rs.X)
		if hasCallOrReceive(rs.X) && !pureConversion(rs.X) {
			if hasFuncLit(rs.X) {
				return true // its text may be rewritten inside
			}
			tmp := fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
			edits = append(edits,
				edit{pos(at), pos(at), fmt.Sprintf("%s := %s; %s(%s, %t); ", tmp, x, rangeStringFunc, tmp, keyOnly)},
				edit{pos(rs.X.Pos()), pos(rs.X.End()), tmp})
			return true
		}
		edits = append(edits, edit{pos(at), pos(at), fmt.Sprintf("%s(%s, %t); ", rangeStringFunc, x, keyOnly)})
		return true
	})
	return edits
}

// RangeString is called by the cells before a range loop with a key over
// x (see rangeStringEdits): when x is a string that the interpreter would
// range over with offsets other than Go's, it panics with a message that
// says so and what to write instead.
func RangeString(x any, keyOnly bool) {
	v := reflect.ValueOf(x)
	if v.Kind() != reflect.String {
		return
	}
	s := v.String()
	if keyOnly {
		for i := 0; i < len(s); i++ {
			if s[i] >= utf8.RuneSelf {
				panic(Refused + "for i := range s over a string with characters beyond ASCII (the interpreter counts runes, Go gives byte offsets): " +
					"write for i, _ := range s")
			}
		}
		return
	}
	if !utf8.ValidString(s) {
		panic(Refused + "for i, r := range s over a string that is not valid UTF-8 (from the first invalid byte on, the interpreter's offsets differ from Go's): " +
			"decode it with utf8.DecodeRuneInString in a loop, r, n := utf8.DecodeRuneInString(s[i:]); i += n")
	}
}

// isBlank reports whether x is the blank identifier.
func isBlank(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == "_"
}

// hasFuncLit reports whether x holds a function literal.
func hasFuncLit(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			found = true
		}
		return !found
	})
	return found
}

// pureConversion reports whether x calls nothing but conversions to
// string and len (which can be evaluated twice).
func pureConversion(x ast.Expr) bool {
	pure := true
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			pure = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				pure = false
			}
		case *ast.CallExpr:
			id, ok := n.Fun.(*ast.Ident)
			if !ok || id.Name != "string" && id.Name != "len" {
				pure = false
			}
		}
		return pure
	})
	return pure
}

// declaredTypes returns, for each name that root declares with a type
// (parameters, results, var declarations, struct fields) or defines with
// := from a composite literal or make, the type expressions it is
// declared with; a nil entry stands for a declaration whose type is not
// written.
func declaredTypes(root ast.Node) map[string][]ast.Expr {
	m := map[string][]ast.Expr{}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				m[id.Name] = append(m[id.Name], n.Type)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				t := n.Type
				if t == nil && len(n.Values) == len(n.Names) {
					t = literalType(n.Values[i])
				}
				m[id.Name] = append(m[id.Name], t)
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				break
			}
			for i, l := range n.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				var t ast.Expr
				if len(n.Lhs) == len(n.Rhs) {
					t = literalType(n.Rhs[i])
				}
				m[id.Name] = append(m[id.Name], t)
			}
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				if id, ok := x.(*ast.Ident); ok && n.Tok == token.DEFINE {
					m[id.Name] = append(m[id.Name], nil)
				}
			}
		}
		return true
	})
	return m
}

// literalType returns the type of a composite literal, a make or new call
// or a conversion to a slice, map or channel type, or nil.
func literalType(x ast.Expr) ast.Expr {
	switch x := ast.Unparen(x).(type) {
	case *ast.CompositeLit:
		if x.Type != nil {
			return x.Type
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			if _, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok {
				return &ast.StarExpr{X: x.X}
			}
		}
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "make" || id.Name == "new") && len(x.Args) > 0 {
			if id.Name == "new" {
				return &ast.StarExpr{X: x.Args[0]}
			}
			return x.Args[0]
		}
		switch f := ast.Unparen(x.Fun).(type) {
		case *ast.ArrayType, *ast.MapType, *ast.ChanType:
			return f
		}
	}
	return nil
}

// notString reports whether the range expression x cannot be a string:
// a composite literal, make, a conversion to a slice, map or channel type,
// an address, or a name or field that declared gives only such types.
func notString(x ast.Expr, declared map[string][]ast.Expr) bool {
	if literalType(x) != nil {
		return true
	}
	if lit, ok := ast.Unparen(x).(*ast.BasicLit); ok && lit.Kind == token.STRING {
		// A literal the interpreter ranges over as Go does.
		s, err := strconv.Unquote(lit.Value)
		for i := 0; err == nil && i < len(s); i++ {
			if s[i] >= utf8.RuneSelf {
				return false
			}
		}
		return err == nil
	}
	var name string
	switch x := ast.Unparen(x).(type) {
	case *ast.UnaryExpr:
		return x.Op == token.AND
	case *ast.StarExpr:
		// *p of a pointer to an array, slice or map (declared so only).
		id, ok := ast.Unparen(x.X).(*ast.Ident)
		if !ok || len(declared[id.Name]) == 0 {
			return false
		}
		for _, t := range declared[id.Name] {
			st, ok := t.(*ast.StarExpr)
			if !ok {
				return false
			}
			switch st.X.(type) {
			case *ast.ArrayType, *ast.MapType:
			default:
				return false
			}
		}
		return true
	case *ast.Ident:
		name = x.Name
	case *ast.SelectorExpr:
		name = x.Sel.Name
	default:
		return false
	}
	ts := declared[name]
	if len(ts) == 0 {
		return false
	}
	for _, t := range ts {
		switch t.(type) {
		case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.StarExpr, *ast.FuncType:
		default:
			return false
		}
	}
	return true
}

// isString reports whether x is a string literal, a name or field that
// declared gives only the type string, or a call of a function of the
// chunk that returns a string (declared holds it as name()).
func isString(x ast.Expr, declared map[string][]ast.Expr) bool {
	var name string
	switch x := ast.Unparen(x).(type) {
	case *ast.BasicLit:
		return x.Kind == token.STRING
	case *ast.CallExpr:
		id, ok := x.Fun.(*ast.Ident)
		if !ok {
			return false
		}
		name = id.Name + "()"
	case *ast.Ident:
		name = x.Name
	case *ast.SelectorExpr:
		name = x.Sel.Name
	default:
		return false
	}
	ts := declared[name]
	for _, t := range ts {
		if id, ok := t.(*ast.Ident); !ok || id.Name != "string" {
			return false
		}
	}
	return len(ts) > 0
}

// stringRangeLoops rewrites each range loop with a key over a string,
// known to be one by go/types, into a loop over byte offsets that decodes
// each rune as Go's range does. yaegi v0.16.1 computes the offset of each
// rune by encoding the runes before it again, which is wrong from the first
// byte that is not valid UTF-8 on (see rangeStringEdits) and takes time
// quadratic in the length of the string. The loop
//
//	for k, v := range x { body }
//
// becomes
//
//	for i, s, w := 0, x, 0; i < len(s); i += w {
//		c := rune(0xFFFD); w = 1 // an invalid byte: U+FFFD, one byte wide
//		e := i + 4; if e > len(s) { e = len(s) }
//		for _, r := range s[i:e] { if r != 0xFFFD || e-i >= 3 && s[i:i+3] == "\uFFFD" { c, w = r, len(string(r)) }; break }
//		k, v := i, c
//		{ body }
//	}
//
// with fresh names: the first rune of at most four bytes from i is the one
// Go decodes at i (the interpreter's values are right), and U+FFFD is one
// byte wide unless it is written out in the string. The key and value are
// declared in each iteration, as Go 1.22 does, and the body stays a block
// of its own, where it may declare them again. A loop that assigns (=) to
// other than plain variables is left to rangeStringEdits' guard.
func stringRangeLoops(f *ast.File, info *types.Info, cf *cellFile, fset *token.FileSet) []edit {
	var edits []edit
	at := func(p token.Pos) (int, bool) { return cf.cellOffset(fset.Position(p).Offset) }
	ast.Inspect(f, func(n ast.Node) bool {
		rs, ok := n.(*ast.RangeStmt)
		if !ok || rs.Key == nil || isBlank(rs.Key) || rs.Body == nil {
			return true
		}
		tv, ok := info.Types[rs.X]
		if !ok || tv.Type == nil {
			return true
		}
		if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
			return true
		}
		if rs.Tok == token.ASSIGN {
			for _, x := range []ast.Expr{rs.Key, rs.Value} {
				if _, ok := x.(*ast.Ident); x != nil && !ok {
					return true
				}
			}
		}
		key, ok1 := at(rs.Key.Pos())
		xb, ok2 := at(rs.X.Pos())
		xe, ok3 := at(rs.X.End())
		lb, ok4 := at(rs.Body.Lbrace)
		rb, ok5 := at(rs.Body.Rbrace)
		if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !(key < xb && xb < xe && xe <= lb && lb < rb) {
			return true
		}
		seq := blockSeq.Add(1)
		name := func(s string) string { return fmt.Sprintf("%s%d%s", tempPrefix, seq, s) }
		i, s, w, c, e, r := name("i"), name("s"), name("w"), name("c"), name("e"), name("r")
		lhs, rhs := types.ExprString(rs.Key), i
		if rs.Value != nil && !isBlank(rs.Value) {
			lhs += ", " + types.ExprString(rs.Value)
			rhs += ", " + c
		} else {
			rhs += "; _ = " + c
		}
		head := fmt.Sprintf("; %[1]s < len(%[2]s); %[1]s += %[3]s { %[4]s := rune(0xFFFD); %[3]s = 1; %[5]s := %[1]s + 4; "+
			"if %[5]s > len(%[2]s) { %[5]s = len(%[2]s) }; "+
			"for _, %[6]s := range %[2]s[%[1]s:%[5]s] { if %[6]s != 0xFFFD || %[5]s-%[1]s >= 3 && %[2]s[%[1]s:%[1]s+3] == \"\\uFFFD\" { %[4]s, %[3]s = %[6]s, len(string(%[6]s)) }; break }; "+
			"%[7]s %[8]s %[9]s; {", i, s, w, c, e, r, lhs, rs.Tok, rhs)
		edits = append(edits,
			edit{key, xb, fmt.Sprintf("%s, %s, %s := 0, ", i, s, w)},
			edit{xe, lb + 1, fmt.Sprintf(", 0%s", head)},
			edit{rb + 1, rb + 1, " }"})
		return true
	})
	return edits
}
