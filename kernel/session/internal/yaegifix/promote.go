package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/traefik/yaegi/stdlib"
)

// promotionRefusals refuses the struct types of a cell through whose
// embedded fields a field or method name is promoted from two depths, the
// deeper one reached first in the order of the fields. Go selects the
// shallowest (the spec's rule for selectors); yaegi v0.16.1 searches the
// embedded fields depth first, in order, and takes the first it finds:
// with type B struct { A; E }, where A embeds E too, b.val() called A.E's
// val, silently (Go's fixedbugs/bug485.go, issue24547.go). The struct
// types are the cell's type declarations and struct literals (a clash of
// fields only where the cell selects a field of that name); an embedded
// type is looked up among the cell's types (with the methods the cell
// declares on them), those of earlier cells (sessionTypes holds their
// sources, "A struct { E }", sessionMethods their methods by receiver
// type) and the standard library's. files are the cell's chunks parsed,
// with the line delta that makes their positions the cell's. A type is
// let be where the cell is exact (resolved says PromotedPathEdits wrote
// every selector of the name that needed it as the explicit path, and
// the name is a field or an unexported method no interface type has);
// twoDepths, the session's, keeps the names let be with their types, and
// the cell is refused where it selects one of them otherwise or declares
// an interface type with it.
func promotionRefusals(files []parsedChunk, sessionTypes []string, sessionMethods map[string][]string, resolved func(string) bool, twoDepths map[string]string) error {
	types := map[string]ast.Expr{}
	dup := map[string]bool{}
	methods := map[string][]string{}
	for _, src := range sessionTypes {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype "+src, 0)
		if err != nil || len(f.Decls) != 1 {
			continue
		}
		if ts, ok := f.Decls[0].(*ast.GenDecl).Specs[0].(*ast.TypeSpec); ok && ts.TypeParams == nil && !ts.Assign.IsValid() {
			types[ts.Name.Name] = ts.Type
		}
	}
	for recv, ms := range sessionMethods {
		methods[recv] = append(methods[recv], ms...)
	}
	// The cell's own declarations replace those of earlier cells.
	cellTypes := map[string]bool{}
	for _, p := range files {
		ast.Inspect(p.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSpec:
				if n.TypeParams != nil || n.Assign.IsValid() {
					return true
				}
				if cellTypes[n.Name.Name] {
					dup[n.Name.Name] = true
				}
				cellTypes[n.Name.Name] = true
				types[n.Name.Name] = n.Type
			case *ast.FuncDecl:
				if r := receiverName(n); r != "" {
					methods[r] = append(methods[r], n.Name.Name)
				}
			}
			return true
		})
	}
	// walk visits the members of the type expression x in yaegi's order
	// (own fields, own methods, then each embedded field, depth first),
	// each type once when seen is not nil.
	var walk func(x ast.Expr, depth int, path string, seen map[string]bool, visit func(name string, m member))
	walk = func(x ast.Expr, depth int, path string, seen map[string]bool, visit func(name string, m member)) {
		if depth > 8 {
			return
		}
		x = ast.Unparen(x)
		if s, ok := x.(*ast.StarExpr); ok {
			x = ast.Unparen(s.X)
		}
		switch t := x.(type) {
		case *ast.Ident:
			if seen[t.Name] || dup[t.Name] {
				return
			}
			def, ok := types[t.Name]
			if !ok {
				return
			}
			if seen != nil {
				seen[t.Name] = true
			}
			st, _ := ast.Unparen(def).(*ast.StructType)
			if st != nil {
				walkFields(st, depth, path, visit)
			}
			for _, m := range methods[t.Name] {
				visit(m, member{depth, path, true})
			}
			if st != nil {
				for _, f := range st.Fields.List {
					if len(f.Names) == 0 {
						walk(f.Type, depth+1, path+"."+embeddedName(f.Type), seen, visit)
					}
				}
			}
		case *ast.StructType:
			walkFields(t, depth, path, visit)
			for _, f := range t.Fields.List {
				if len(f.Names) == 0 {
					walk(f.Type, depth+1, path+"."+embeddedName(f.Type), seen, visit)
				}
			}
		case *ast.SelectorExpr:
			pkg, ok := t.X.(*ast.Ident)
			if !ok {
				return
			}
			rt := stdlibType(pkg.Name, t.Sel.Name)
			if rt == nil {
				return
			}
			if rt.Kind() == reflect.Struct {
				for i := range rt.NumField() {
					if f := rt.Field(i); f.IsExported() {
						visit(f.Name, member{depth, path, false})
					}
				}
			}
			pt := reflect.PointerTo(rt)
			for i := range pt.NumMethod() {
				visit(pt.Method(i).Name, member{depth, path, true})
			}
		}
	}
	// The names selected in the cell (x.name, not of a package), where
	// first, and the methods of interface types, of the cell's and the
	// session's.
	selected := map[string]token.Position{}
	ifaceMethods := map[string]token.Position{}
	inspectIfaces := func(f ast.Node, pos func(token.Pos) token.Position) {
		ast.Inspect(f, func(n ast.Node) bool {
			if it, ok := n.(*ast.InterfaceType); ok {
				for _, m := range it.Methods.List {
					for _, id := range m.Names {
						if _, ok := ifaceMethods[id.Name]; !ok {
							ifaceMethods[id.Name] = pos(id.Pos())
						}
					}
				}
			}
			return true
		})
	}
	for _, p := range files {
		cellPos := func(x token.Pos) token.Position {
			pos := p.fset.Position(x)
			pos.Line += p.delta
			return pos
		}
		ast.Inspect(p.f, func(n ast.Node) bool {
			if se, ok := n.(*ast.SelectorExpr); ok {
				if _, ok := selected[se.Sel.Name]; !ok {
					selected[se.Sel.Name] = cellPos(se.Sel.Pos())
				}
			}
			return true
		})
		inspectIfaces(p.f, cellPos)
	}
	for _, x := range types {
		inspectIfaces(x, func(token.Pos) token.Position { return token.Position{} })
	}
	// The sources of earlier cells are tokens on one line, "V interface {
	// a ( ) b ( ) }", which need not parse: a name before "(" in one that
	// has an interface type may be a method.
	for _, src := range sessionTypes {
		if !strings.Contains(src, "interface {") {
			continue
		}
		toks := strings.Fields(src)
		for i := 0; i+1 < len(toks); i++ {
			if toks[i+1] == "(" && token.IsIdentifier(toks[i]) {
				if _, ok := ifaceMethods[toks[i]]; !ok {
					ifaceMethods[toks[i]] = token.Position{}
				}
			}
		}
	}
	var errs scanner.ErrorList
	// exact says whether the cell selects n as Go does although n is
	// promoted from two depths: PromotedPathEdits wrote every selector of
	// n that needed it as the explicit path, and n is a field or an
	// unexported method no interface type has (an exported one is in the
	// method sets that fmt, reflect and interface types see).
	exact := func(n string, f, s member) bool {
		if _, sel := selected[n]; sel && !resolved(n) {
			return false
		}
		if !f.method && !s.method {
			return true
		}
		_, inIface := ifaceMethods[n]
		return !ast.IsExported(n) && !inIface
	}
	check := func(p parsedChunk, st *ast.StructType, name string) {
		embeds := false
		for _, f := range st.Fields.List {
			if len(f.Names) == 0 {
				embeds = true
			}
		}
		if !embeds {
			return
		}
		first := map[string]member{}   // the first found, as yaegi does
		shallow := map[string]member{} // the shallowest, as Go does
		var order []string
		root := ast.Expr(st)
		if name != "" {
			root = &ast.Ident{Name: name}
		}
		walk(root, 0, "", map[string]bool{}, func(n string, m member) {
			if _, ok := first[n]; !ok {
				first[n] = m
				order = append(order, n)
			}
		})
		// Go's view: every path, not only the first to reach a type.
		walk(root, 0, "", nil, func(n string, m member) {
			if s, ok := shallow[n]; !ok || m.depth < s.depth {
				shallow[n] = m
			}
		})
		sort.Strings(order)
		for _, n := range order {
			f, s := first[n], shallow[n]
			_, sel := selected[n]
			if f.depth <= s.depth || !f.method && !s.method && !sel {
				// A field is reached only by a selector naming it.
				continue
			}
			if exact(n, f, s) {
				tn := name
				if tn == "" {
					tn = "struct"
				}
				twoDepths[n] = tn
				continue
			}
			var pos token.Position
			if p.fset != nil {
				pos = p.fset.Position(st.Pos())
				pos.Line += p.delta
			} else if pos, sel = selected[n]; !sel {
				pos = ifaceMethods[n]
			}
			what := "the struct type"
			if name != "" {
				what = "type " + name
			}
			errs.Add(pos, fmt.Sprintf(Refused+"%s has %s through its embedded fields at two depths, %s and %s: Go selects the shallower, %s, "+
				"and the interpreter the one it finds first, %s; list the embedded field %s before the others, or give the struct its own %s "+
				"(a method or field that names the one meant)", what, n, strings.TrimPrefix(s.path, "."), strings.TrimPrefix(f.path, "."),
				strings.TrimPrefix(s.path, ".")+"."+n, strings.TrimPrefix(f.path, ".")+"."+n, firstStep(s.path), n))
			return
		}
	}
	for _, p := range files {
		named := map[*ast.StructType]bool{}
		ast.Inspect(p.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSpec:
				if st, ok := ast.Unparen(n.Type).(*ast.StructType); ok && n.TypeParams == nil && !dup[n.Name.Name] {
					named[st] = true
					check(p, st, n.Name.Name)
				}
			case *ast.StructType:
				if !named[n] {
					check(p, n, "")
				}
			}
			return len(errs) == 0
		})
		if len(errs) > 0 {
			return errs
		}
	}
	// The names promoted from two depths in the types of earlier cells,
	// which the cell may select where go/types could not type it, or
	// convert to an interface type it declares.
	for _, n := range slices.Sorted(maps.Keys(twoDepths)) {
		pos, sel := selected[n]
		if sel && resolved(n) {
			sel = false
		}
		ipos, iface := ifaceMethods[n]
		iface = iface && ipos.Line > 0 // the cell's own
		if !sel && !iface {
			continue
		}
		if !sel {
			pos = ipos
		}
		errs.Add(pos, fmt.Sprintf(Refused+"type %s of an earlier cell has %s through its embedded fields at two depths: Go selects the shallower, "+
			"the interpreter the one it finds first, in selectors it could not rewrite and in the method sets of interface types; "+
			"give the struct its own %s (a method or field that names the one meant)", twoDepths[n], n, n))
		return errs
	}
	return nil
}

// SelectorRefusals refuses the struct types of the cell src that select
// a promoted name otherwise than Go (promotionRefusals) and the method
// values it would evaluate otherwise (methodValueRefusals), and the uses
// of reflect's method sets that miss the methods of the cells' types
// (reflectMethodRefusals); sessionTypes and sessionMethods are the types
// and methods of earlier cells, reflectImported says that an earlier cell
// imported reflect.
func SelectorRefusals(src string, sessionTypes []string, sessionMethods []CellMethod, reflectImported bool, isVar func(string) bool, resolved func(string) bool, twoDepths map[string]string) error {
	chunks, err := split(src)
	if err != nil {
		return nil // PrepareCell reports it
	}
	files := parseChunks(chunks)
	names := map[string][]string{}
	for _, m := range sessionMethods {
		names[m.Recv] = append(names[m.Recv], m.Name)
	}
	if err := promotionRefusals(files, sessionTypes, names, resolved, twoDepths); err != nil {
		return err
	}
	if err := methodValueRefusals(files, sessionTypes, sessionMethods, isVar); err != nil {
		return err
	}
	return reflectMethodRefusals(files, reflectImported, len(sessionMethods) > 0)
}

// A parsedChunk is a chunk of a cell parsed, with the line delta that
// makes its positions the cell's.
type parsedChunk struct {
	fset  *token.FileSet
	f     *ast.File
	delta int
}

// A member is a field or method name reached through embedded fields,
// at a depth and by a path of embedded fields (".A.E").
type member struct {
	depth  int
	path   string
	method bool
}

// walkFields visits the fields of st, embedded ones by their names.
func walkFields(st *ast.StructType, depth int, path string, visit func(string, member)) {
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			visit(embeddedName(f.Type), member{depth, path, false})
		}
		for _, n := range f.Names {
			visit(n.Name, member{depth, path, false})
		}
	}
}

// embeddedName returns the field name of an embedded field of type x.
func embeddedName(x ast.Expr) string {
	x = ast.Unparen(x)
	if s, ok := x.(*ast.StarExpr); ok {
		x = ast.Unparen(s.X)
	}
	switch t := x.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.IndexExpr:
		return embeddedName(t.X)
	case *ast.IndexListExpr:
		return embeddedName(t.X)
	}
	return "?"
}

// firstStep returns the first field of a path ".A.E".
func firstStep(path string) string {
	path = strings.TrimPrefix(path, ".")
	if i := strings.Index(path, "."); i >= 0 {
		return path[:i]
	}
	return path
}

// stdlibType returns the type pkg.name of yaegi's standard library, nil if
// there is none or two packages of that name have it.
func stdlibType(pkg, name string) reflect.Type {
	var found reflect.Type
	for path, syms := range stdlib.Symbols {
		if path[strings.LastIndex(path, "/")+1:] != pkg {
			continue
		}
		v, ok := syms[name]
		if !ok || v.Kind() != reflect.Pointer || !v.IsNil() {
			continue
		}
		if found != nil {
			return nil
		}
		found = v.Type().Elem()
	}
	return found
}

// parseChunks parses the chunks of a cell; a chunk that does not parse is
// left out (PrepareCell reports it).
func parseChunks(chunks []Chunk) []parsedChunk {
	var files []parsedChunk
	for _, c := range chunks {
		fset := token.NewFileSet()
		text := stmtPrefix + c.Src + "\n}"
		if c.Decl {
			text = "package p\n" + c.Src
		}
		if f, err := parser.ParseFile(fset, "", text, 0); err == nil {
			files = append(files, parsedChunk{fset, f, c.Line - 2})
		}
	}
	return files
}
