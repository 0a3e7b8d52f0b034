package yaegifix

import (
	"go/ast"
	"go/token"
	"go/types"
)

// ifaceCaseEdits rewrites the switch statements with a tag where the tag
// is of an interface type and a case expression is not (a constant such
// as 1, a variable of a concrete type), or the
// other way round: yaegi v0.16.1 converts the tag to the type of the case
// before comparing, and fails ("reflect.Value.Convert: value of type
// interface {} cannot be converted to type int" for var i any; switch i {
// case 1: … }). As for a float literal (floatCaseEdits), the tag is
// evaluated once into a variable of the switch's init and each case
// becomes its comparison, one clause each: Equal(t, x) where t or x is an
// interface (the comparison of two interfaces Go makes, a constant x
// taking its default type as it does in such a switch; Equal, as for
// EqualityEdits, tells the values of the cells' types in interfaces
// apart, or stops the cell where the interpreter cannot), t == (x)
// otherwise. A switch with an init statement of its own runs it first in
// a block around the switch, { init; switch t := x; { … } }, unless the
// switch is labeled (a break or continue of the label would name the
// block) or its init holds a function literal (whose text may be
// rewritten too). A case x of an interface type in a switch without a tag
// (which yaegi reads as a bool: "reflect: call of reflect.Value.Bool on
// interface Value") becomes Equal(x, true), the comparison Go makes.
// Types come from go/types, checking the chunk without imports; a switch
// whose types are unknown there or that compares a value of a type
// parameter (which reaches Equal without the interpreter's wrapper of a
// type with methods) is left to the interpreter, and so are
// all where the chunk declares a type other than an interface in a
// function (localTypes): the interpreter represents such a type without
// methods by another (F float64 by float64) that Equal cannot tell apart
// (it knows the types of the top level only).
func ifaceCaseEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var info *types.Info
	labeled := map[ast.Stmt]bool{}
	if localTypes(f) {
		return nil
	}
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok {
			labeled[ls.Stmt] = true
		}
		sw, ok := n.(*ast.SwitchStmt)
		if !ok {
			return true
		}
		if sw.Tag == nil {
			// switch { case x: } with x of an interface type compares
			// x with true.
			for _, c := range sw.Body.List {
				for _, x := range c.(*ast.CaseClause).List {
					if info == nil {
						_, info, _ = checkTypes(fset, f)
					}
					if k, ok := switchKind(info, x); ok && k && !definesTrue(info) {
						edits = append(edits, edit{pos(x.Pos()), pos(x.Pos()), equalFunc + "("}, edit{pos(x.End()), pos(x.End()), ", true)"})
					}
				}
			}
			return true
		}
		if sw.Init != nil && (labeled[sw] || hasFuncLitNode(sw.Init)) {
			return true
		}
		if info == nil {
			_, info, _ = checkTypes(fset, f)
		}
		tag, ok := switchKind(info, sw.Tag)
		if !ok {
			return true
		}
		mixed := false
		for _, c := range sw.Body.List {
			for _, x := range c.(*ast.CaseClause).List {
				if id, isID := ast.Unparen(x).(*ast.Ident); isID && id.Name == "nil" {
					continue
				}
				k, ok := switchKind(info, x)
				if !ok {
					return true // a type unknown, or a type parameter
				}
				if k != tag {
					mixed = true
				}
			}
		}
		if !mixed {
			return true
		}
		cmp := comparisonSwitch(pos, src, sw, func(x ast.Expr) bool {
			k, _ := switchKind(info, x)
			return tag || k
		})
		if sw.Init != nil {
			// { init; switch t := x; { … } }: the init leaves the switch.
			cmp[0] = edit{pos(sw.Init.Pos()), pos(sw.Tag.End()), cmp[0].text}
			cmp = append(cmp,
				edit{pos(sw.Pos()), pos(sw.Pos()), "{ " + src[pos(sw.Init.Pos()):pos(sw.Init.End())] + "; "},
				edit{pos(sw.End()), pos(sw.End()), " }"})
		}
		edits = append(edits, cmp...)
		return true
	})
	return edits
}

// localTypes reports whether f declares a type other than an interface
// type in a function: Equal cannot tell its values from those of the type
// by which the interpreter represents it.
func localTypes(f *ast.File) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		body, ok := n.(*ast.BlockStmt)
		if !ok {
			return !found
		}
		ast.Inspect(body, func(m ast.Node) bool {
			if ts, ok := m.(*ast.TypeSpec); ok {
				if _, iface := ts.Type.(*ast.InterfaceType); !iface {
					found = true
				}
			}
			return !found
		})
		return false
	})
	return found
}

// definesTrue reports whether the chunk declares the name true.
func definesTrue(info *types.Info) bool {
	for id := range info.Defs {
		if id.Name == "true" {
			return true
		}
	}
	return false
}

// hasFuncLitNode reports whether n holds a function literal.
func hasFuncLitNode(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if _, ok := m.(*ast.FuncLit); ok {
			found = true
		}
		return !found
	})
	return found
}

// switchKind reports whether the type go/types gives x is an interface
// type, and whether that type is known and not a type parameter or nil.
func switchKind(info *types.Info, x ast.Expr) (iface, known bool) {
	t := info.Types[x].Type
	if t == nil || t == types.Typ[types.Invalid] {
		return false, false
	}
	if b, ok := t.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return false, false
	}
	if _, ok := t.(*types.TypeParam); ok {
		// A value of a type parameter reaches Equal without the
		// interpreter's wrapper of a type with methods: it would be
		// taken for a value of the type representing that type.
		return false, false
	}
	return types.IsInterface(t), true
}
