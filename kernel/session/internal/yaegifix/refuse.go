package yaegifix

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"sort"
)

// genericTypes collects the generic type declarations of a cell's
// declaration chunks, for recursiveGenerics.
type genericTypes struct {
	specs map[string]*ast.TypeSpec
	pos   map[string]token.Position // in the cell
}

// add records the generic types declared in f, whose lines are shifted by
// delta to be the cell's.
func (g *genericTypes) add(fset *token.FileSet, f *ast.File, delta int) {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts, ok := s.(*ast.TypeSpec)
			if !ok || ts.TypeParams == nil || len(ts.TypeParams.List) == 0 {
				continue
			}
			if g.specs == nil {
				g.specs = map[string]*ast.TypeSpec{}
				g.pos = map[string]token.Position{}
			}
			p := fset.Position(ts.Pos())
			p.Line += delta
			g.specs[ts.Name.Name] = ts
			g.pos[ts.Name.Name] = p
		}
	}
}

// typeParams counts the type parameters of a generic type declaration.
func typeParams(ts *ast.TypeSpec) int {
	n := 0
	for _, f := range ts.TypeParams.List {
		n += max(len(f.Names), 1)
	}
	return n
}

// check refuses generic types that yaegi v0.16.1 cannot instantiate: a
// generic type whose definition refers to itself through another generic
// type (type E[T any] struct{ l *L[T] }; type L[T any] struct{ e *E[T] })
// or that refers to itself and has more than one type parameter (type
// node[K, V any] struct{ left *node[K, V] }). Its type checker recurses
// without end on them and the process dies of a stack overflow while the
// cell compiles, out of reach of the recursion guard. A generic type with
// one parameter that refers only to itself (type list[T any] struct{ next
// *list[T] }) works and is left alone.
func (g *genericTypes) check() error {
	if len(g.specs) == 0 {
		return nil
	}
	edges := map[string][]string{}
	for name, ts := range g.specs {
		ast.Inspect(ts.Type, func(n ast.Node) bool {
			var x ast.Expr
			switch n := n.(type) {
			case *ast.IndexExpr:
				x = n.X
			case *ast.IndexListExpr:
				x = n.X
			}
			if id, ok := x.(*ast.Ident); ok && g.specs[id.Name] != nil {
				edges[name] = append(edges[name], id.Name)
			}
			return true
		})
	}
	names := make([]string, 0, len(g.specs))
	for name := range g.specs {
		names = append(names, name)
	}
	sort.Strings(names)
	// A cycle through name: a path from name back to it.
	cycle := func(start string) []string {
		seen := map[string]bool{}
		var path []string
		var walk func(string) bool
		walk = func(n string) bool {
			for _, m := range edges[n] {
				if m == start {
					path = append(path, n)
					return true
				}
				if seen[m] {
					continue
				}
				seen[m] = true
				if walk(m) {
					path = append(path, n)
					return true
				}
			}
			return false
		}
		if !walk(start) {
			return nil
		}
		// path holds the cycle backwards, ending with start.
		for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
			path[i], path[j] = path[j], path[i]
		}
		return path
	}
	for _, name := range names {
		c := cycle(name)
		if c == nil || len(c) == 1 && typeParams(g.specs[name]) == 1 {
			continue
		}
		var errs scanner.ErrorList
		desc := "refers to itself"
		if len(c) > 1 {
			desc = "refers to itself through"
			for _, m := range c[1:] {
				desc += " " + m
			}
		} else {
			desc += fmt.Sprintf(" and has %d type parameters", typeParams(g.specs[name]))
		}
		errs.Add(g.pos[name], fmt.Sprintf(Refused+"the generic type %s %s: the interpreter's type checker recurses without end on such a type "+
			"(a generic type may refer only to itself, with one type parameter); write it for the element types you need, without type parameters", name, desc))
		return errs
	}
	return nil
}
