package yaegifix

import (
	"fmt"
	"go/ast"
	"go/printer"
	"go/scanner"
	"go/token"
	"sort"
	"strings"
)

// instanceRefusals refuses, in a chunk of declarations whose lines are
// shifted by delta to be the cell's, the generic types whose
// instantiations yaegi v0.16.1 makes one type where Go has several:
//
//   - a generic type, other than an interface, with a blank type
//     parameter (type T[_ any] struct{}), when the chunk instantiates it
//     with two different type argument lists (outside method receivers):
//     T[int]{} and T[string]{} were equal as interface values, map keys
//     and assertion targets (instantiations in other chunks are not
//     followed).
//   - a generic type with a named type parameter that neither its
//     definition nor the constraints of its other parameters use (type
//     V[P any] []int), wherever it is instantiated: instantiations of
//     other cells cannot be followed, so the definition is refused.
//   - a type argument that is a struct type with field tags
//     (T[struct{ int "x" }]): the interpreter takes the instantiation of
//     the same struct without tags, T[struct{ int }], for it.
func instanceRefusals(fset *token.FileSet, f *ast.File, delta int) error {
	var errs scanner.ErrorList
	refuse := func(p token.Pos, msg string) {
		pos := fset.Position(p)
		pos.Line += delta
		errs.Add(pos, Refused+msg)
	}
	// The generic types with a blank parameter (not interfaces: values
	// never have an interface type as their dynamic type, so the
	// instantiations of a generic interface cannot be told apart by them),
	// and the instantiations of each outside method receivers.
	phantom := map[string]*ast.TypeSpec{}
	unused := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.TypeParams == nil {
			return true
		}
		if _, iface := ts.Type.(*ast.InterfaceType); iface {
			return true
		}
		for _, field := range ts.TypeParams.List {
			for _, p := range field.Names {
				if p.Name == "_" && phantom[ts.Name.Name] == nil {
					phantom[ts.Name.Name] = ts
					unused[ts.Name.Name] = p.Name
				}
				if p.Name != "_" && !usesName(ts, p.Name) {
					refuse(p.Pos(), fmt.Sprintf("the generic type %s does not use its type parameter %s in its definition: "+
						"the interpreter makes all its instantiations one type (%s[int] and %s[string] compare equal as interface values "+
						"and map keys, and an assertion to one accepts the others); use the parameter in the definition "+
						"(in a struct, add a field such as _ [0]%s)", ts.Name.Name, p.Name, ts.Name.Name, ts.Name.Name, p.Name))
				}
			}
		}
		return true
	})
	instances := map[string]map[string]bool{}
	var recv func(n ast.Node) bool
	recv = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			// A receiver G[T] names the type's own parameters.
			if n.Type != nil {
				ast.Inspect(n.Type, recv)
			}
			if n.Body != nil {
				ast.Inspect(n.Body, recv)
			}
			return false
		case *ast.IndexExpr:
			tagArgument(n.Index, refuse)
			instance(fset, instances, phantom, n.X, []ast.Expr{n.Index})
		case *ast.IndexListExpr:
			for _, x := range n.Indices {
				tagArgument(x, refuse)
			}
			instance(fset, instances, phantom, n.X, n.Indices)
		}
		return true
	}
	ast.Inspect(f, recv)
	for name, ts := range phantom {
		if len(instances[name]) < 2 {
			continue
		}
		var args []string
		for a := range instances[name] {
			args = append(args, name+"["+a+"]")
		}
		sort.Strings(args)
		refuse(ts.Name.Pos(), fmt.Sprintf("the generic type %s has a blank type parameter %s, and the code instantiates it "+
			"with different type arguments (%s): the interpreter makes all its instantiations one type (they compare equal as interface values "+
			"and map keys, and an assertion to one accepts the others); use the parameter in the definition (name it P and, in a struct, add a field such as _ [0]P)",
			name, unused[name], strings.Join(args, ", ")))
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// tagArgument refuses x, a type argument (or an index), when it is a
// struct type with a field tag.
func tagArgument(x ast.Expr, refuse func(token.Pos, string)) {
	st, ok := x.(*ast.StructType)
	if !ok {
		return
	}
	for _, field := range st.Fields.List {
		if field.Tag != nil {
			refuse(field.Tag.Pos(), "a struct type with field tags as a type argument: the interpreter takes the instantiation "+
				"with the same struct type without tags for it; declare the struct type (type S struct{ … }) and use S")
			return
		}
	}
}

// instance records in instances the type arguments of x[args] when x
// names one of the phantom types, as printed source.
func instance(fset *token.FileSet, instances map[string]map[string]bool, phantom map[string]*ast.TypeSpec, x ast.Expr, args []ast.Expr) {
	id, ok := x.(*ast.Ident)
	if !ok || phantom[id.Name] == nil {
		return
	}
	var texts []string
	for _, a := range args {
		var b strings.Builder
		if err := printer.Fprint(&b, fset, a); err != nil {
			return
		}
		texts = append(texts, b.String())
	}
	if instances[id.Name] == nil {
		instances[id.Name] = map[string]bool{}
	}
	instances[id.Name][strings.Join(texts, ", ")] = true
}

// usesName reports whether the definition of the generic type ts, or a
// constraint of one of its type parameters other than name, mentions
// name.
func usesName(ts *ast.TypeSpec, name string) bool {
	used := false
	find := func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			used = true
		}
		return !used
	}
	ast.Inspect(ts.Type, find)
	for _, field := range ts.TypeParams.List {
		if len(field.Names) == 1 && field.Names[0].Name == name {
			continue
		}
		ast.Inspect(field.Type, find)
	}
	return used
}
