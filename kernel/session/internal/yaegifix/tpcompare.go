package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// typedComparisons makes each comparison (== or !=) where an operand is of
// an interface type or a type parameter a call of EqualAs with what
// go/types knows of the types the operands can hold. yaegi v0.16.1 holds a
// value of a type declared in the cells in an empty interface as the type
// it is declared from, so that any(3) == any(M(3)) was true for a type M
// int with methods (Go: false): EqualAs tells the types apart where the
// static types allow and stops the cell where they do not. It also
// compares a value of a type parameter with one of an interface type as Go
// does, converting the value to the interface (the interpreter compared it
// with its wrapper of the interface: h(myint(3), myint(3)) with func h[T
// C](t T, i I) bool { return t == i } was false, Go's typeparam/equal.go).
// Comparisons with nil are left alone; a constant compared with an
// interface is of its type (its default type if untyped), as in Go.
//
// A comparison of two values of one concrete type that is not a struct is
// written with each operand converted to that type, T(x) == T(y), which
// changes nothing in Go and tells EqualityEdits that no interface is
// compared (it would hand the values to Equal, which cannot tell a
// declared type from its representation).
func typedComparisons(f *ast.File, info *types.Info, pkg *types.Package, cf *cellFile, fset *token.FileSet, spell func(types.Type) (string, bool)) []edit {
	var edits []edit
	at := func(p token.Pos) (int, bool) { return cf.cellOffset(fset.Position(p).Offset) }
	ast.Inspect(f, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL && b.Op != token.NEQ {
			return true
		}
		tx, okx := info.Types[b.X]
		ty, oky := info.Types[b.Y]
		if !okx || !oky || tx.Type == nil || ty.Type == nil || tx.IsNil() || ty.IsNil() || tx.Value != nil && ty.Value != nil {
			return true
		}
		px, py := isTypeParam(tx.Type), isTypeParam(ty.Type)
		ix, iy := types.IsInterface(tx.Type) && !px, types.IsInterface(ty.Type) && !py
		if (tx.Value != nil || ty.Value != nil) && !(ix && !py || iy && !px) {
			// A constant is compared with an interface only: given to
			// EqualAs it takes its default type, which is the one Go
			// converts it to there (and not a type parameter's).
			return true
		}
		var dx, dy, hint string
		switch {
		case px && py:
			if !types.Identical(tx.Type, ty.Type) {
				return true
			}
			dx, dy, hint = "P", "P", "any(new("+types.TypeString(tx.Type, nil)+"))"
		case px && iy:
			dx = describeType(ty.Type, pkg)
			dy = dx
		case py && ix:
			dx = describeType(tx.Type, pkg)
			dy = dx
		case ix || iy:
			if px || py {
				return true
			}
			dx, dy = describeOperand(b.X, info, pkg), describeOperand(b.Y, info, pkg)
		default:
			if tx.Value != nil || ty.Value != nil || !types.Identical(tx.Type, ty.Type) {
				return true
			}
			if _, isStruct := tx.Type.Underlying().(*types.Struct); isStruct {
				return true
			}
			if _, named := types.Unalias(tx.Type).(*types.Named); !named {
				if _, basic := tx.Type.(*types.Basic); !basic {
					return true
				}
			}
			ts, ok := spell(tx.Type)
			if !ok {
				return true
			}
			var es []edit
			for _, x := range []ast.Expr{b.X, b.Y} {
				begin, ok1 := at(x.Pos())
				end, ok2 := at(x.End())
				if !ok1 || !ok2 {
					return true
				}
				es = append(es, edit{begin, begin, ts + "("}, edit{end, end, ")"})
			}
			edits = append(edits, es...)
			return true
		}
		if hint == "" {
			hint = "nil"
		}
		xb, ok1 := at(b.X.Pos())
		xe, ok2 := at(b.X.End())
		yb, ok3 := at(b.Y.Pos())
		ye, ok4 := at(b.Y.End())
		if !ok1 || !ok2 || !ok3 || !ok4 || !(xb < xe && xe < yb && yb < ye) {
			return true
		}
		open := equalAsFunc + "("
		if b.Op == token.NEQ {
			open = "!" + open
		}
		edits = append(edits, edit{xb, xb, open}, edit{xe, yb, ", "}, edit{ye, ye, fmt.Sprintf(", %q, %q, %s)", dx, dy, hint)})
		return true
	})
	return edits
}

// describeType describes for EqualAs the types a value of static type t
// can hold.
func describeType(t types.Type, pkg *types.Package) string {
	t = types.Unalias(t)
	if it, ok := t.Underlying().(*types.Interface); ok {
		if it.NumMethods() == 0 {
			return "*"
		}
		var ms []string
		for i := range it.NumMethods() {
			ms = append(ms, it.Method(i).Name())
		}
		sort.Strings(ms)
		return "I:" + strings.Join(ms, ",")
	}
	if nt, ok := t.(*types.Named); ok {
		o := nt.Obj()
		if o.Pkg() == pkg {
			if o.Parent() != pkg.Scope() || nt.TypeArgs().Len() > 0 {
				return "*" // a local type or an instantiation: not named in the session's scope
			}
			return "T:" + o.Name()
		}
	}
	return "C"
}

// describeOperand describes for EqualAs the types the operand x can hold:
// those of its static type, or, for a conversion of a value of a concrete
// type to an interface (any(m)), that type.
func describeOperand(x ast.Expr, info *types.Info, pkg *types.Package) string {
	t := info.TypeOf(x)
	if call, ok := ast.Unparen(x).(*ast.CallExpr); ok && len(call.Args) == 1 && !call.Ellipsis.IsValid() {
		if ftv, ok := info.Types[call.Fun]; ok && ftv.IsType() && types.IsInterface(ftv.Type) {
			if at := info.TypeOf(call.Args[0]); at != nil && !types.IsInterface(at) && !isTypeParam(at) {
				if b, ok := at.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
					at = types.Default(at)
				}
				t = at
			}
		}
	}
	return describeType(t, pkg)
}

// anyEdits writes each use of the predeclared any as interface{}. yaegi
// v0.16.1 takes them for different types where Go's are identical: &x ==
// &y for var x any and var y interface{} failed to compile with
// "mismatched types *any and *interface{}" (Go's fixedbugs/issue49665.go).
// Only cells that write interface{} too are rewritten (the columns of
// the interpreter's messages on the lines rewritten would differ).
func anyEdits(f *ast.File, info *types.Info, cf *cellFile, fset *token.FileSet) []edit {
	inCell := func(n ast.Node) bool {
		_, ok := cf.cellOffset(fset.Position(n.Pos()).Offset)
		return ok
	}
	mixed := false
	ast.Inspect(f, func(n ast.Node) bool {
		if it, ok := n.(*ast.InterfaceType); ok && len(it.Methods.List) == 0 && inCell(it) {
			mixed = true
		}
		return !mixed
	})
	if !mixed {
		return nil
	}
	universeAny := types.Universe.Lookup("any")
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || id.Name != "any" || info.Uses[id] != universeAny {
			return true
		}
		b, ok1 := cf.cellOffset(fset.Position(id.Pos()).Offset)
		e, ok2 := cf.cellOffset(fset.Position(id.End()).Offset)
		if ok1 && ok2 && e == b+len("any") {
			edits = append(edits, edit{b, e, "interface{}"})
		}
		return true
	})
	return edits
}

// typedSwitches rewrites the switch statements whose tag is of a type
// parameter and a case of an interface type, or the other way round, into
// switches without a tag whose cases compare through EqualAs, as
// typedComparisons does for ==: the interpreter matched func same[V
// comparable](v V, x any) bool { switch v { case x: … } } for same(T(3),
// 3) and not for same(T(3), T(3)) (Go: the other way round). The tag is
// evaluated once, into a variable the switch declares (a switch with an
// init statement goes into a block of its own, one with a label too is
// left alone); the cases are compared in order, as Go does.
func typedSwitches(f *ast.File, info *types.Info, pkg *types.Package, cf *cellFile, fset *token.FileSet) []edit {
	var edits []edit
	at := func(p token.Pos) (int, bool) { return cf.cellOffset(fset.Position(p).Offset) }
	labeled := map[ast.Stmt]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok {
			labeled[ls.Stmt] = true
		}
		sw, ok := n.(*ast.SwitchStmt)
		if !ok || sw.Tag == nil {
			return true
		}
		tt := info.TypeOf(sw.Tag)
		if tt == nil {
			return true
		}
		tagParam, tagIface := isTypeParam(tt), types.IsInterface(tt) && !isTypeParam(tt)
		if !tagParam && !tagIface || sw.Init != nil && labeled[sw] {
			return true
		}
		tmp := fmt.Sprintf("%s%dsw", tempPrefix, blockSeq.Add(1))
		var es []edit
		mixed := false
		for _, st := range sw.Body.List {
			for _, e := range st.(*ast.CaseClause).List {
				tv, ok := info.Types[e]
				if !ok || tv.Type == nil {
					return true
				}
				b, ok1 := at(e.Pos())
				end, ok2 := at(e.End())
				if !ok1 || !ok2 {
					return true
				}
				open, close := tmp+" == (", ")"
				if !tv.IsNil() && tv.Value == nil {
					eParam, eIface := isTypeParam(tv.Type), types.IsInterface(tv.Type) && !isTypeParam(tv.Type)
					var d1, d2, hint string
					switch {
					case tagParam && eIface:
						d1 = describeType(tv.Type, pkg)
						d2, mixed = d1, true
					case tagIface && eParam:
						d1 = describeType(tt, pkg)
						d2, mixed = d1, true
					case tagParam && eParam && types.Identical(tt, tv.Type):
						d1, d2, hint = "P", "P", "any(new("+types.TypeString(tt, nil)+"))"
					case tagIface && !eParam:
						d1, d2 = describeType(tt, pkg), describeOperand(e, info, pkg)
					default:
						return true
					}
					if hint == "" {
						hint = "nil"
					}
					open, close = equalAsFunc+"("+tmp+", ", fmt.Sprintf(", %q, %q, %s)", d1, d2, hint)
				}
				es = append(es, edit{b, b, open}, edit{end, end, close})
			}
		}
		if !mixed {
			return true
		}
		tb, ok1 := at(sw.Tag.Pos())
		te, ok2 := at(sw.Tag.End())
		sb, ok3 := at(sw.Switch)
		rb, ok4 := at(sw.Body.Rbrace)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return true
		}
		if sw.Init == nil {
			es = append(es, edit{tb, tb, tmp + " := "}, edit{te, te, ";"})
		} else {
			ib, ok5 := at(sw.Init.Pos())
			ie, ok6 := at(sw.Init.End())
			if !ok5 || !ok6 {
				return true
			}
			es = append(es, edit{sb, ib, "{ "}, edit{ie, tb, "; switch " + tmp + " := "}, edit{te, te, ";"}, edit{rb + 1, rb + 1, " }"})
		}
		edits = append(edits, es...)
		return true
	})
	return edits
}
