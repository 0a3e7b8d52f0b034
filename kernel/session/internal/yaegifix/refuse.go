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

// recursiveTypes collects the type declarations of a cell's declaration
// chunks, for its check.
type recursiveTypes struct {
	specs map[string]*ast.TypeSpec // top level
	local []*ast.TypeSpec          // in function bodies
	pos   map[*ast.TypeSpec]token.Position
	// All type names declared at top level, and the type declarations in
	// function bodies, for shadowing.
	top      map[string]string // name: typeKind
	shadowed []*ast.TypeSpec
}

// add records the type declarations of f, whose lines are shifted by
// delta to be the cell's: the names and kinds of the top-level ones, the
// ones in function bodies, and the definitions (not aliases) of both for
// the cycles.
func (r *recursiveTypes) add(fset *token.FileSet, f *ast.File, delta int) {
	if r.specs == nil {
		r.specs = map[string]*ast.TypeSpec{}
		r.pos = map[*ast.TypeSpec]token.Position{}
	}
	if r.top == nil {
		r.top = map[string]string{}
	}
	record := func(ts *ast.TypeSpec, top bool) {
		p := fset.Position(ts.Pos())
		p.Line += delta
		if top {
			r.top[ts.Name.Name] = typeKind(ts.Type)
		} else {
			r.shadowed = append(r.shadowed, ts)
			r.pos[ts] = p
		}
		if ts.Assign.IsValid() || ts.Name.Name == "_" {
			return
		}
		r.pos[ts] = p
		if top {
			r.specs[ts.Name.Name] = ts
		} else {
			r.local = append(r.local, ts)
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.TYPE {
				for _, s := range d.Specs {
					record(s.(*ast.TypeSpec), true)
				}
			}
		case *ast.FuncDecl:
			if d.Body == nil {
				continue
			}
			ast.Inspect(d.Body, func(n ast.Node) bool {
				if ts, ok := n.(*ast.TypeSpec); ok {
					record(ts, false)
				}
				return true
			})
		}
	}
}

// specRefs returns the names the definition ts refers to (see typeRefs),
// but its type parameters.
func specRefs(ts *ast.TypeSpec) []string {
	params := map[string]bool{}
	if ts.TypeParams != nil {
		for _, f := range ts.TypeParams.List {
			for _, id := range f.Names {
				params[id.Name] = true
			}
		}
	}
	var names []string
	for _, m := range typeRefs(ts.Type) {
		if !params[m] {
			names = append(names, m)
		}
	}
	return names
}

// typeRefs returns the names x refers to, as the type of a definition,
// where a definition of a struct or interface type refers to none: the
// interpreter builds types that refer to themselves only through those.
func typeRefs(x ast.Expr) []string {
	switch ast.Unparen(x).(type) {
	case *ast.StructType, *ast.InterfaceType:
		return nil
	}
	var names []string
	var walk func(ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			names = append(names, n.Name)
		case *ast.SelectorExpr:
			return false // a package's type
		case *ast.ArrayType:
			ast.Inspect(n.Elt, walk) // the length is no type
			return false
		case *ast.Field:
			ast.Inspect(n.Type, walk) // the names are no types
			return false
		}
		return true
	}
	ast.Inspect(x, walk)
	return names
}

// typeKind names the kind of type x is: "struct", "array", a name...
func typeKind(x ast.Expr) string {
	switch x := ast.Unparen(x).(type) {
	case *ast.StructType:
		return "struct"
	case *ast.InterfaceType:
		return "interface"
	case *ast.ArrayType:
		if x.Len == nil {
			return "slice"
		}
		return "array"
	case *ast.MapType:
		return "map"
	case *ast.ChanType:
		return "chan"
	case *ast.FuncType:
		return "func"
	case *ast.StarExpr:
		return "pointer"
	}
	return "name"
}

// check refuses a type that refers to itself other than through a named
// struct or interface type: type Peano *Peano, type F func(string) F,
// type T []T, type M map[string]M, type C chan C, type L []struct{ next
// L }, when the cell src uses it (or a type of its cycle) outside their
// definitions. yaegi v0.16.1 cannot represent them: it declares them
// alone, but a use makes it panic ("interface conversion: reflect.Type is
// nil", a nil dereference) or, for some, the process dies of a stack
// overflow while the cell compiles.
//
// It refuses as well, first, the type declarations in functions that
// yaegi gets wrong: a type alias (reported undefined), and a type with
// the name of a package-level type of the cell of another kind (taken
// for the package-level type).
func (r *recursiveTypes) check(src string) error {
	// The names of the cell, as they occur outside comments and strings.
	count := map[string]int{}
	var sc scanner.Scanner
	file := token.NewFileSet().AddFile("", -1, len(src))
	sc.Init(file, []byte(src), nil, 0)
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT {
			count[lit]++
		}
	}
	// used reports whether a name of the cycle specs occurs outside them.
	used := func(specs ...*ast.TypeSpec) bool {
		inside := map[string]int{}
		for _, ts := range specs {
			ast.Inspect(ts, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					inside[id.Name]++
				}
				return true
			})
		}
		for _, ts := range specs {
			if count[ts.Name.Name] > inside[ts.Name.Name] {
				return true
			}
		}
		return false
	}
	refuse := func(ts *ast.TypeSpec, through []string) error {
		name := ts.Name.Name
		desc := "refers to itself"
		if len(through) > 0 {
			desc += " through"
			for _, m := range through {
				desc += " " + m
			}
		}
		var errs scanner.ErrorList
		errs.Add(r.pos[ts], fmt.Sprintf(Refused+"the type %s %s other than through a struct or interface type: the interpreter cannot represent "+
			"a pointer, function, slice, array, map or channel type that contains itself; make the recursion go through a named struct, "+
			"as in type %s struct{ next *%s }", name, desc, name, name))
		return errs
	}
	for _, ts := range r.shadowed {
		if ts.Assign.IsValid() {
			// The interpreter reports it undefined where it is declared
			// (Go's fixedbugs/issue50190.go).
			var errs scanner.ErrorList
			errs.Add(r.pos[ts], fmt.Sprintf(Refused+"the type alias %s declared in a function: the interpreter does not declare it "+
				"(it reports it undefined); declare the alias outside functions, or write the type it stands for", ts.Name.Name))
			return errs
		}
		if k, ok := r.top[ts.Name.Name]; ok && k != typeKind(ts.Type) && ts.Name.Name != "_" {
			// The interpreter resolves the name to the package-level
			// type in the function (Go's fixedbugs/issue8947.go) and
			// fails on it there, as the two differ (where they do not, it
			// may run as Go does: fixedbugs/bug286.go).
			name := ts.Name.Name
			var errs scanner.ErrorList
			errs.Add(r.pos[ts], fmt.Sprintf(Refused+"the type %s declared in a function where the cell declares a package-level type %s: "+
				"the interpreter takes %s in the function for the package-level type; give one of them another name", name, name, name))
			return errs
		}
	}
	for _, ts := range r.local {
		for _, m := range specRefs(ts) {
			if m == ts.Name.Name && used(ts) {
				return refuse(ts, nil)
			}
		}
	}
	names := make([]string, 0, len(r.specs))
	for name := range r.specs {
		names = append(names, name)
	}
	sort.Strings(names)
	edges := map[string][]string{}
	for _, name := range names {
		for _, m := range specRefs(r.specs[name]) {
			if r.specs[m] != nil {
				edges[name] = append(edges[name], m)
			}
		}
	}
	for _, start := range names {
		// A path from start back to it, breadth first.
		from := map[string]string{}
		queue := []string{start}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			for _, m := range edges[n] {
				if m == start {
					var through []string
					for k := n; k != start; k = from[k] {
						through = append([]string{k}, through...)
					}
					specs := []*ast.TypeSpec{r.specs[start]}
					for _, k := range through {
						specs = append(specs, r.specs[k])
					}
					if used(specs...) {
						return refuse(r.specs[start], through)
					}
					queue = nil
					break
				}
				if _, seen := from[m]; !seen {
					from[m] = n
					queue = append(queue, m)
				}
			}
		}
	}
	return nil
}
