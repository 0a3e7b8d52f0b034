package yaegifix

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math/big"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"
)

// foldConstants writes out, as literals, the constant values that yaegi
// v0.16.1 computes wrongly or not at all, in the chunk src (declarations
// when decl, else statements); the values are go/types' (Go's own
// arithmetic of constants, exact):
//
//   - real(c) and imag(c) of a constant c fail to compile ("CFG
//     post-order panic: reflect: call of reflect.Value.Complex on int64
//     Value"): the call becomes its value, 0.0 or float32(1.5) for a typed
//     result.
//   - A constant declaration group with a comparison or && or || in a
//     value (which the interpreter makes false), with iota after a line of
//     several names (which it counts per name), or with real, imag,
//     complex or a conversion to string of a constant: every line of the
//     group is written out with its values, keeping the declared types.
//   - An array length or a shift count that is an untyped float or
//     complex constant ([1e1]int, "10 not an Int") becomes its integer,
//     and the untyped float constant shifted by a variable (1. << s) the
//     integer of the type Go gives it from the context, uint(1) << s.
//
// A value is left to the interpreter (and its refusals) where go/types
// does not know it: it uses a name of an earlier cell or chunk, an
// imported package, or a complex constant (which has no literal); the
// universe names real, imag, complex, iota, true and false must not be
// variables or functions of the session (isVar). A multi-line real or imag
// call is left alone too (its line breaks would end the statement).
func foldConstants(src string, decl bool, isVar func(string) bool) string {
	prefix, suffix := "package p\n", ""
	if !decl {
		prefix, suffix = stmtPrefix, "\n}"
	}
	if !mayFold(src) {
		return src
	}
	for _, name := range []string{"real", "imag", "complex", "iota", "true", "false"} {
		if isVar != nil && isVar(name) {
			return src
		}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", prefix+src+suffix, 0)
	if err != nil {
		return src
	}
	pkg, info, errPos := checkTypes(fset, f)
	if pkg == nil {
		return src
	}
	failsIn := func(n ast.Node) bool {
		for _, p := range errPos {
			if p >= n.Pos() && p < n.End() {
				return true
			}
		}
		return false
	}
	off := len(prefix)
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return "?"
	}
	// Whether the cell declares true or false, which a folded comparison
	// must not name then.
	boolsDeclared := false
	for id := range info.Defs {
		if id.Name == "true" || id.Name == "false" {
			boolsDeclared = true
		}
	}
	var edits []edit
	var inConst *ast.GenDecl // the const declaration being walked
	ast.Inspect(f, func(n ast.Node) bool {
		if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.CONST {
			if e, ok := foldGroup(g, info, pos, src, qual); ok && !failsIn(g) {
				edits = append(edits, e...)
				return false
			}
			inConst = g
			return true
		}
		if x, ok := n.(ast.Expr); ok && !failsIn(x) {
			// An operation on untyped integer constants beyond int64: the
			// interpreter computes it in an int64 and fails ("constant
			// … overflows int64"); the literal of its value works.
			if text, ok := hugeConstant(x, info, boolsDeclared); ok {
				edits = append(edits, edit{pos(x.Pos()), pos(x.End()), text})
				return false
			}
		}
		if x := integerOperand(n); x != nil && !failsIn(x) {
			// An array length or a shift count given as an untyped float
			// or complex constant: the interpreter wants an integer.
			if tv := info.Types[x]; tv.Value != nil && isUntypedNonInteger(tv.Type) {
				if v := constant.ToInt(tv.Value); v.Kind() == constant.Int {
					edits = append(edits, edit{pos(x.Pos()), pos(x.End()), "(" + v.ExactString() + ")"})
					return false
				}
			}
		}
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.SHL || b.Op == token.SHR) && info.Types[b].Value == nil && !failsIn(b) {
			// A non-constant shift of an untyped float or complex
			// constant: Go gives the constant the integer type of its
			// context, the interpreter keeps it a float ("operator < not
			// defined on untyped complex").
			if tv := info.Types[b.X]; tv.Value != nil {
				if t, ok := tv.Type.(*types.Basic); ok && t.Info()&types.IsInteger != 0 && t.Info()&types.IsUntyped == 0 && hasNonIntegerLiteral(b.X) {
					if v := constant.ToInt(tv.Value); v.Kind() == constant.Int {
						edits = append(edits, edit{pos(b.X.Pos()), pos(b.X.End()), t.Name() + "(" + v.ExactString() + ")"})
					}
				}
			}
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || failsIn(call) {
			return true
		}
		// In a constant declaration, len(x) or cap(x) of an array, or of
		// a pointer to one, is a constant, and x is not evaluated (it
		// has no receive or call); the interpreter evaluates it: const n
		// = len(s[10]) for an s of type [][30]int panicked (Go's
		// const4.go).
		lenOfArray := inConst != nil && call.Pos() >= inConst.Pos() && call.End() <= inConst.End() &&
			isBuiltin(call.Fun, info, "len", "cap") && len(call.Args) == 1 && info.Types[call.Args[0]].Value == nil
		if !lenOfArray && !isBuiltin(call.Fun, info, "real", "imag") {
			return true
		}
		tv := info.Types[call]
		if tv.Value == nil || fset.Position(call.Pos()).Line != fset.Position(call.End()).Line {
			return true
		}
		text, ok := constLiteral(tv.Value, tv.Type, qual, true)
		if !ok {
			return true
		}
		edits = append(edits, edit{pos(call.Pos()), pos(call.End()), text})
		return false
	})
	return applyEdits(src, edits)
}

// hugeConstant returns the literal of x's value if x is an operation
// (not a lone name or literal) on untyped integer constants, or a
// comparison of such, that goes beyond the range of int64 somewhere: the
// value itself or one of its operands. The literal is an untyped integer
// constant too, (N), or true or false (unless the cell declares those
// names, boolsDeclared), so that the context converts it exactly as Go
// converts x (but not to float32 or complex64). The value is computed here from the constants' exact values
// (go/types records the value converted to the context's type). iota is
// left alone (the lines of a constant group that repeat the expression
// give it other values).
func hugeConstant(x ast.Expr, info *types.Info, boolsDeclared bool) (string, bool) {
	switch ast.Unparen(x).(type) {
	case *ast.BinaryExpr, *ast.UnaryExpr:
	default:
		return "", false
	}
	tv := info.Types[x]
	if tv.Value == nil {
		return "", false
	}
	if b, ok := tv.Type.Underlying().(*types.Basic); ok && (b.Kind() == types.Float32 || b.Kind() == types.Complex64) {
		// The interpreter rounds a huge integer to float64 first, and
		// rounding that again can differ from Go's single rounding.
		return "", false
	}
	huge := false
	var intVal func(ast.Expr) constant.Value
	var boolVal func(ast.Expr) constant.Value
	intVal = func(e ast.Expr) (v constant.Value) {
		defer func() {
			if v == nil || v.Kind() != constant.Int {
				v = nil
			} else if _, exact := constant.Int64Val(v); !exact {
				huge = true
			}
		}()
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind == token.INT {
				return constant.MakeFromLiteral(e.Value, token.INT, 0)
			}
		case *ast.Ident:
			if c, ok := info.Uses[e].(*types.Const); ok && c.Parent() != types.Universe && c.Type() == types.Typ[types.UntypedInt] {
				return c.Val()
			}
		case *ast.ParenExpr:
			return intVal(e.X)
		case *ast.UnaryExpr:
			if e.Op == token.ADD || e.Op == token.SUB || e.Op == token.XOR {
				if a := intVal(e.X); a != nil {
					return constant.UnaryOp(e.Op, a, 0)
				}
			}
		case *ast.BinaryExpr:
			a, b := intVal(e.X), intVal(e.Y)
			if a == nil || b == nil {
				return nil
			}
			switch e.Op {
			case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT:
				return constant.BinaryOp(a, e.Op, b)
			case token.QUO, token.REM:
				if constant.Sign(b) == 0 {
					return nil
				}
				op := e.Op
				if op == token.QUO {
					op = token.QUO_ASSIGN // integer division
				}
				return constant.BinaryOp(a, op, b)
			case token.SHL, token.SHR:
				if n, ok := constant.Uint64Val(b); ok && n < 10000 {
					return constant.Shift(a, e.Op, uint(n))
				}
			}
		}
		return nil
	}
	boolVal = func(e ast.Expr) constant.Value {
		switch e := e.(type) {
		case *ast.ParenExpr:
			return boolVal(e.X)
		case *ast.UnaryExpr:
			if e.Op == token.NOT {
				if a := boolVal(e.X); a != nil {
					return constant.UnaryOp(e.Op, a, 0)
				}
			}
		case *ast.BinaryExpr:
			switch e.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				if a, b := intVal(e.X), intVal(e.Y); a != nil && b != nil {
					return constant.MakeBool(constant.Compare(a, e.Op, b))
				}
			case token.LAND, token.LOR:
				if a, b := boolVal(e.X), boolVal(e.Y); a != nil && b != nil {
					return constant.BinaryOp(a, e.Op, b)
				}
			}
		}
		return nil
	}
	if v := intVal(x); v != nil && huge {
		return "(" + v.ExactString() + ")", true
	}
	huge = false
	if v := boolVal(x); v != nil && huge && !boolsDeclared {
		return strconv.FormatBool(constant.BoolVal(v)), true
	}
	return "", false
}

// integerOperand returns the length of an array type or the count of a
// shift n is, if any.
func integerOperand(n ast.Node) ast.Expr {
	switch n := n.(type) {
	case *ast.ArrayType:
		if _, ok := n.Len.(*ast.Ellipsis); !ok {
			return n.Len
		}
	case *ast.BinaryExpr:
		if n.Op == token.SHL || n.Op == token.SHR {
			return n.Y
		}
	case *ast.AssignStmt:
		if n.Tok == token.SHL_ASSIGN || n.Tok == token.SHR_ASSIGN {
			return n.Rhs[0]
		}
	}
	return nil
}

// hasNonIntegerLiteral reports whether x holds a float or imaginary
// literal.
func hasNonIntegerLiteral(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && (lit.Kind == token.FLOAT || lit.Kind == token.IMAG) {
			found = true
		}
		return !found
	})
	return found
}

// isUntypedNonInteger reports whether t is the untyped float or complex
// type.
func isUntypedNonInteger(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && (b.Kind() == types.UntypedFloat || b.Kind() == types.UntypedComplex)
}

// mayFold reports, cheaply, whether src may hold something foldConstants
// rewrites.
func mayFold(src string) bool {
	return strings.Contains(src, "real") || strings.Contains(src, "imag") || strings.Contains(src, "const") ||
		strings.Contains(src, "<<") || strings.Contains(src, ">>") || strings.Contains(src, "[") || longNumber.MatchString(src)
}

// longNumber matches a literal that may be beyond int64 (see
// hugeConstant).
var longNumber = regexp.MustCompile(`[0-9]{19}`)

// checkTypes type-checks f without imports (see noImports) and returns
// what go/types knows and where it failed.
func checkTypes(fset *token.FileSet, f *ast.File) (*types.Package, *types.Info, []token.Pos) {
	var errPos []token.Pos
	conf := types.Config{
		Importer: noImports{},
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				errPos = append(errPos, te.Pos)
			}
		},
		Sizes: types.SizesFor("gc", runtime.GOARCH),
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, _ := conf.Check("p", fset, []*ast.File{f}, info)
	return pkg, info, errPos
}

// noImports is the importer of foldConstants: values that need a package
// are left to the interpreter.
type noImports struct{}

func (noImports) Import(path string) (*types.Package, error) {
	return nil, errors.New("no imports")
}

// isBuiltin reports whether x names one of the builtins names.
func isBuiltin(x ast.Expr, info *types.Info, names ...string) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	if !ok {
		return false
	}
	for _, n := range names {
		if b.Name() == n {
			return true
		}
	}
	return false
}

// foldGroup returns the edits writing out every line of the constant
// declaration g with its values, if g needs it (see foldConstants) and
// all its values are known and have literals.
func foldGroup(g *ast.GenDecl, info *types.Info, pos func(token.Pos) int, src string, qual types.Qualifier) ([]edit, bool) {
	need := false
	several := false // a line before declares several names
	usesIota := false
	for _, spec := range g.Specs {
		vs := spec.(*ast.ValueSpec)
		if len(vs.Values) > 0 {
			usesIota = false
		}
		for _, v := range vs.Values {
			ast.Inspect(v, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.BinaryExpr:
					switch m.Op {
					case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
						need = true
					}
				case *ast.Ident:
					if m.Name == "iota" {
						usesIota = true
					}
				case *ast.CallExpr:
					if isBuiltin(m.Fun, info, "real", "imag", "complex") {
						need = true
					}
					if tv := info.Types[m.Fun]; tv.IsType() && isStringType(tv.Type) {
						need = true
					}
				}
				return true
			})
		}
		if usesIota && several {
			need = true
		}
		several = several || len(vs.Names) > 1
	}
	if !need {
		return nil, false
	}
	var edits []edit
	var typ ast.Expr // the type of the last line with values
	for _, spec := range g.Specs {
		vs := spec.(*ast.ValueSpec)
		if len(vs.Values) > 0 {
			typ = vs.Type
		}
		var lits []string
		for _, name := range vs.Names {
			c, ok := info.Defs[name].(*types.Const)
			if !ok || c.Val().Kind() == constant.Unknown {
				return nil, false
			}
			text, ok := constLiteral(c.Val(), c.Type(), qual, typ == nil)
			if !ok {
				return nil, false
			}
			lits = append(lits, text)
		}
		text := " = " + strings.Join(lits, ", ")
		if typ != nil {
			text = " " + src[pos(typ.Pos()):pos(typ.End())] + text
		}
		end := pos(vs.End())
		if vs.Comment != nil && pos(vs.Comment.Pos()) < end {
			end = pos(vs.Comment.Pos())
		}
		begin := pos(vs.Names[len(vs.Names)-1].End())
		// Keep the lines of the cell where they were.
		text += strings.Repeat("\n", strings.Count(src[begin:end], "\n"))
		edits = append(edits, edit{begin, end, text})
	}
	return edits, true
}

// isStringType reports whether t is a string type.
func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// constLiteral returns Go source whose value is v, of type t: an untyped
// literal, converted to t when typed is set and t is a typed type. It
// fails for complex values, floats that go/constant holds as big.Float (no
// exact short literal), and types named outside the cell (qual gives "?").
func constLiteral(v constant.Value, t types.Type, qual types.Qualifier, typed bool) (string, bool) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return "", false
	}
	var lit string
	switch info := b.Info(); {
	case info&types.IsBoolean != 0:
		lit = strconv.FormatBool(constant.BoolVal(v))
	case info&types.IsString != 0:
		lit = strconv.Quote(constant.StringVal(v))
	case b.Kind() == types.UntypedRune:
		r, ok := constant.Int64Val(constant.ToInt(v))
		if !ok || r < 0 || r > utf8.MaxRune || !utf8.ValidRune(rune(r)) {
			return "", false
		}
		lit = strconv.QuoteRuneToASCII(rune(r))
	case info&types.IsInteger != 0:
		lit = constant.ToInt(v).ExactString()
		if strings.HasPrefix(lit, "-") {
			lit = "(" + lit + ")"
		}
	case info&types.IsFloat != 0:
		lit, ok = floatLiteral(v)
		if !ok {
			return "", false
		}
	default:
		return "", false
	}
	if !typed || b.Info()&types.IsUntyped != 0 {
		return lit, true
	}
	name := types.TypeString(t, qual)
	if strings.Contains(name, "?") {
		return "", false
	}
	return name + "(" + lit + ")", true
}

// floatLiteral returns an untyped float literal (or quotient of two)
// whose value is exactly v.
func floatLiteral(v constant.Value) (string, bool) {
	var r *big.Rat
	switch x := constant.Val(constant.ToFloat(v)).(type) {
	case int64:
		r = new(big.Rat).SetInt64(x)
	case *big.Int:
		r = new(big.Rat).SetInt(x)
	case *big.Rat:
		r = x
	default:
		return "", false
	}
	var lit string
	if r.IsInt() {
		lit = r.Num().String() + ".0"
	} else if digits, ok := decimalDigits(r.Denom()); ok {
		lit = r.FloatString(digits)
	} else {
		lit = fmt.Sprintf("%s.0/%s", r.Num(), r.Denom())
	}
	if r.Sign() < 0 || strings.Contains(lit, "/") {
		lit = "(" + lit + ")"
	}
	return lit, true
}

// decimalDigits returns the number of decimals that writes 1/d exactly,
// if d is of the form 2^a·5^b.
func decimalDigits(d *big.Int) (int, bool) {
	d = new(big.Int).Set(d)
	two, five := big.NewInt(2), big.NewInt(5)
	var a, b int
	m := new(big.Int)
	for d.Cmp(big.NewInt(1)) > 0 {
		if m.Mod(d, two).Sign() == 0 {
			d.Div(d, two)
			a++
		} else if m.Mod(d, five).Sign() == 0 {
			d.Div(d, five)
			b++
		} else {
			return 0, false
		}
	}
	return max(a, b), true
}
