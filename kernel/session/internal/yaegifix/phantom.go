package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// instanceRefusals refuses, in a chunk of declarations whose lines are
// shifted by delta to be the cell's, a type argument that is a struct
// type with field tags (T[struct{ int "x" }]): the interpreter takes the
// instantiation of the same struct without tags, T[struct{ int }], for
// it. The generic types whose instantiations the interpreter makes one
// type are refused where they are instantiated twice (PhantomTypes,
// PhantomInstances).
func instanceRefusals(fset *token.FileSet, f *ast.File, delta int) error {
	var errs scanner.ErrorList
	refuse := func(p token.Pos, msg string) {
		pos := fset.Position(p)
		pos.Line += delta
		errs.Add(pos, Refused+msg)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			tagArgument(n.Index, refuse)
		case *ast.IndexListExpr:
			for _, x := range n.Indices {
				tagArgument(x, refuse)
			}
		}
		return true
	})
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// PhantomTypes returns the generic types, other than interfaces, of the
// cell src and of the session (sessionTypes: the sources of earlier
// cells' types, "Foo[T any] struct{}"), whose instantiations yaegi v0.16.1
// represents by one type, with the type parameter that does not tell
// them apart: a blank one (type T[_ any] struct{}), one the definition
// does not mention (type V[P any] []int, or struct{ P int }, a field's
// name), or one it mentions only inside interface types or as a type
// argument of such a parameter of another type or of a generic interface
// (type W[P any] struct{ v V[P] }): conservatively, as the interpreter
// represents interface types by the same type whatever their methods. A
// parameter that the constraint of another, telling, parameter mentions
// outside interfaces and without a union (S ~[]P, not S ~[]P | ~int)
// tells them apart.
// The interpreter makes Foo[int] and Foo[string] one type: their values
// compare equal as interface values and map keys, and an assertion to one
// accepts the others.
func PhantomTypes(src string, sessionTypes []string) map[string]string {
	specs := genericSpecs(src, sessionTypes)
	if len(specs) == 0 {
		return nil
	}
	params := func(ts *ast.TypeSpec) []*ast.Ident {
		var out []*ast.Ident
		for _, field := range ts.TypeParams.List {
			out = append(out, field.Names...)
		}
		return out
	}
	// phantom[name][i]: the i-th type parameter of name does not tell the
	// instantiations apart. It only grows, to a fixed point.
	phantom := map[string]map[int]bool{}
	for name, ts := range specs {
		phantom[name] = map[int]bool{}
		_, iface := ast.Unparen(ts.Type).(*ast.InterfaceType)
		for i, p := range params(ts) {
			if iface || p.Name == "_" {
				phantom[name][i] = true
			}
		}
	}
	// mentions reports whether x mentions name other than as a type
	// argument of a phantom parameter.
	var mentions func(x ast.Node, name string) bool
	mentions = func(x ast.Node, name string) bool {
		found := false
		ast.Inspect(x, func(n ast.Node) bool {
			if found {
				return false
			}
			var g ast.Expr
			var args []ast.Expr
			switch n := n.(type) {
			case *ast.Ident:
				found = n.Name == name
				return false
			case *ast.Field:
				// Not its names: type S[T any] struct{ T int } does not
				// use T.
				found = mentions(n.Type, name)
				return false
			case *ast.SelectorExpr:
				found = mentions(n.X, name)
				return false
			case *ast.InterfaceType:
				// The interpreter represents the interface types of
				// fields alike, whatever their methods.
				return false
			case *ast.IndexExpr:
				g, args = n.X, []ast.Expr{n.Index}
			case *ast.IndexListExpr:
				g, args = n.X, n.Indices
			default:
				return true
			}
			id, ok := ast.Unparen(g).(*ast.Ident)
			if !ok || phantom[id.Name] == nil {
				return true
			}
			found = mentions(g, name)
			for i, a := range args {
				if !phantom[id.Name][i] && mentions(a, name) {
					found = true
				}
			}
			return false
		})
		return found
	}
	for changed := true; changed; {
		changed = false
		for name, ts := range specs {
			ps := params(ts)
			tells := map[int]bool{}
			for i, p := range ps {
				tells[i] = !phantom[name][i] && mentions(ts.Type, p.Name)
			}
			// A parameter a telling parameter's constraint mentions.
			for again := true; again; {
				again = false
				for i, p := range ps {
					if tells[i] || phantom[name][i] {
						continue
					}
					j := 0
					for _, field := range ts.TypeParams.List {
						for range field.Names {
							if tells[j] && !hasUnion(field.Type) && mentions(field.Type, p.Name) {
								tells[i], again = true, true
							}
							j++
						}
					}
				}
			}
			for i := range ps {
				if !tells[i] && !phantom[name][i] {
					phantom[name][i], changed = true, true
				}
			}
		}
	}
	out := map[string]string{}
	for name, ts := range specs {
		if _, iface := ast.Unparen(ts.Type).(*ast.InterfaceType); iface {
			continue
		}
		for i, p := range params(ts) {
			if phantom[name][i] {
				out[name] = p.Name
				break
			}
		}
	}
	return out
}

// genericSpecs returns the generic types of the cell src and of the
// session (sessionTypes), by name.
func genericSpecs(src string, sessionTypes []string) map[string]*ast.TypeSpec {
	specs := map[string]*ast.TypeSpec{}
	add := func(f *ast.File) {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				if ts.Name.Name == "_" {
					continue
				}
				if ts.TypeParams == nil || len(ts.TypeParams.List) == 0 || ts.Assign.IsValid() {
					delete(specs, ts.Name.Name)
					continue
				}
				specs[ts.Name.Name] = ts
			}
		}
	}
	for _, s := range sessionTypes {
		if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype "+s, 0); err == nil {
			add(f)
		}
	}
	if chunks, err := split(src); err == nil {
		for _, c := range chunks {
			if !c.Decl {
				continue
			}
			if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+c.Src, 0); err == nil {
				add(f)
			}
		}
	}
	return specs
}

// LocalTypeRefusals refuses, in a session or cell with the generic types
// phantom (PhantomTypes), a type declared inside a function of the cell
// src, or an unnamed struct type with field tags, when the cell names a
// generic type or function (of the cell or the session: sessionTypes,
// genericFunc). The interpreter names an instantiation by the text of its
// type arguments, main.L for a local type L whichever function declares
// it, a local struct type at times by its fields, and a struct type
// without its tags: Foo[L] of two functions, or of a local and a
// package-level L, and Foo[*struct{ x int "t" }] and Foo[*struct{ x int
// }], were one instantiation, which PhantomInstances cannot count as two.
func LocalTypeRefusals(src string, sessionTypes []string, phantom map[string]string, genericFunc func(string) bool) error {
	if len(phantom) == 0 {
		return nil
	}
	chunks, err := split(src)
	if err != nil {
		return nil
	}
	specs := genericSpecs(src, sessionTypes)
	// The cell's first use of a generic type or function, and its first
	// local or tagged type.
	var generic, what string
	var where token.Position
	for _, c := range chunks {
		fset := token.NewFileSet()
		text := stmtPrefix + c.Src + "\n}"
		if c.Decl {
			text = "package p\n" + c.Src
		}
		f, err := parser.ParseFile(fset, "", text, 0)
		if err != nil {
			return nil
		}
		found := func(p token.Pos, w string) {
			if what == "" {
				what, where = w, fset.Position(p)
				where.Line += c.Line - 2
			}
		}
		named := map[*ast.StructType]bool{}
		var visit func(n ast.Node, inFunc bool)
		visit = func(n ast.Node, inFunc bool) {
			ast.Inspect(n, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if generic == "" && (specs[n.Name] != nil || genericFunc(n.Name)) {
						generic = n.Name
					}
				case *ast.FuncDecl:
					if n.Recv != nil {
						visit(n.Recv, inFunc)
					}
					visit(n.Name, inFunc)
					visit(n.Type, inFunc)
					if n.Body != nil {
						visit(n.Body, true)
					}
					return false
				case *ast.FuncLit:
					visit(n.Type, inFunc)
					visit(n.Body, true)
					return false
				case *ast.TypeSpec:
					if inFunc {
						found(n.Pos(), "the type "+n.Name.Name+" declared inside a function")
					} else if st, ok := ast.Unparen(n.Type).(*ast.StructType); ok {
						named[st] = true
					}
				case *ast.StructType:
					if named[n] {
						break
					}
					for _, field := range n.Fields.List {
						if field.Tag != nil {
							found(n.Pos(), "a struct type with field tags that is not the definition of a type")
							break
						}
					}
				}
				return true
			})
		}
		visit(f, !c.Decl)
	}
	if generic == "" || what == "" {
		return nil
	}
	var names []string
	for n := range phantom {
		names = append(names, n)
	}
	sort.Strings(names)
	var errs scanner.ErrorList
	errs.Add(where, fmt.Sprintf(Refused+"%s, in a cell that uses the generic type or function %s, where the session has "+
		"the generic type %s, whose instantiations the interpreter tells apart only by the names of their type arguments: it names a type declared "+
		"in a function by its name alone (or, for a struct, by its fields) and a struct type without its tags, so that two such types could make "+
		"one instantiation; declare the type at the top level of the cell, with a name of its own", what, generic, names[0]))
	return errs
}

// PhantomInstances returns, for each of the types of phantom
// (PhantomTypes) that the interpreter it has instantiated with more than
// one list of type arguments, the instantiations, sorted ("Foo[int]"),
// read from its symbol table: it instantiates a generic type where it
// compiles a use of it, in generic functions for each of their
// instantiations, and keeps each instantiation in the package's scope
// under its name. Instantiations whose arguments are written differently
// for one type (any and interface{}) count as two. The interpreter names
// a type of another package by the package's name, alike for two
// packages of one name (text/template and html/template): an
// instantiation whose arguments name a package of ambiguous (the names
// the imports share) is returned alone too.
func PhantomInstances(it *interp.Interpreter, phantom map[string]string, ambiguous map[string]bool) map[string][]string {
	if len(phantom) == 0 {
		return nil
	}
	out := map[string][]string{}
	seen := map[string]bool{}
	shared := map[string]bool{}
	for _, key := range instanceNames(it) {
		// The interpreter keeps some under the package's name too
		// (main.Foo[int]).
		i := strings.IndexByte(key, '[')
		base := strings.TrimPrefix(key[:i], "main.")
		if _, ok := phantom[base]; ok && !seen[base+key[i:]] {
			seen[base+key[i:]] = true
			out[base] = append(out[base], base+key[i:])
			for _, id := range qualifier.FindAllStringSubmatch(key[i:], -1) {
				if ambiguous[id[1]] {
					shared[base] = true
				}
			}
		}
	}
	for name, ks := range out {
		if len(ks) < 2 && !shared[name] {
			delete(out, name)
			continue
		}
		sort.Strings(ks)
	}
	return out
}

// qualifier matches the package names that qualify type names.
var qualifier = regexp.MustCompile(`(?:^|[^\w.])(\w+)\.\w`)

// instanceNames returns the names of the instantiations of generic types
// in the symbol table of the interpreter it's main package.
func instanceNames(it *interp.Interpreter) []string {
	table := mainSymbols(it)
	if !table.IsValid() {
		return nil
	}
	var out []string
	for _, k := range table.MapKeys() {
		name := k.String()
		if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
			out = append(out, name)
		}
	}
	return out
}

// genericCache returns the interpreter it's cache of instantiated
// generic types and functions (its generic map, by name: "Foo[int]",
// "mk[string]"), writable, or an invalid value.
func genericCache(it *interp.Interpreter) reflect.Value {
	g := reflect.ValueOf(it).Elem().FieldByName("generic")
	if !g.IsValid() || g.Kind() != reflect.Map || g.Type().Key().Kind() != reflect.String {
		return reflect.Value{}
	}
	return writable(g)
}

// DropInstances removes from the interpreter it's symbol table and from
// its cache of instantiations those not in before (InstanceSet, taken
// before a cell was compiled), made by a cell that is refused: a
// generic function's instantiation kept in the cache would give a later
// cell the refused instantiation of a type without instantiating it
// again, where PhantomInstances sees it.
func DropInstances(it *interp.Interpreter, before map[string]bool) {
	if table := mainSymbols(it); table.IsValid() {
		for _, name := range instanceNames(it) {
			if !before[name] {
				table.SetMapIndex(reflect.ValueOf(name), reflect.Value{})
			}
		}
	}
	if cache := genericCache(it); cache.IsValid() {
		for _, k := range cache.MapKeys() {
			if !before["generic "+k.String()] {
				cache.SetMapIndex(k, reflect.Value{})
			}
		}
	}
}

// InstanceSet returns the names instanceNames returns, and those of the
// interpreter's cache of instantiations (prefixed with "generic "), as
// a set.
func InstanceSet(it *interp.Interpreter) map[string]bool {
	set := map[string]bool{}
	for _, n := range instanceNames(it) {
		set[n] = true
	}
	if cache := genericCache(it); cache.IsValid() {
		for _, k := range cache.MapKeys() {
			set["generic "+k.String()] = true
		}
	}
	return set
}

// PhantomRefusal returns the message that refuses the instantiations
// instances (PhantomInstances) of the types of phantom.
func PhantomRefusal(phantom map[string]string, instances map[string][]string) string {
	var names []string
	for n := range instances {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		p := "blank type parameter"
		if phantom[n] != "_" {
			p = "type parameter " + phantom[n]
		}
		if len(instances[n]) == 1 {
			parts = append(parts, fmt.Sprintf("%s, instantiated as %s, by its %s, with a type of a package whose name another imported package has, "+
				"which the interpreter names alike", n, instances[n][0], p))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s, instantiated as %s, by its %s", n, strings.Join(instances[n], " and "), p))
	}
	p := phantom[names[0]]
	if p == "_" {
		p = "P"
	}
	return Refused + "instantiations of a generic type that differ only in a type parameter its definition does not use (" +
		strings.Join(parts, "; ") + "): the interpreter makes them one type, so that their values would compare equal as interface values " +
		"and map keys, and an assertion to one would accept the others; use one instantiation only, or use the parameter in the definition " +
		"(name it and, in a struct, add a field such as _ [0]" + p + ")"
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

// hasUnion reports whether the constraint x has a union (A | B).
func hasUnion(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && b.Op == token.OR {
			found = true
		}
		return !found
	})
	return found
}
