package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// ConcreteAssertions refuses the type assertions and type switch cases of
// a cell whose type is a named non-interface type, or mentions one, that
// the interpreter cannot tell from another type of the session: yaegi
// v0.16.1 represents a declared type by the type it is declared from, so
// that type MyInt int is int, type MyDur time.Duration is time.Duration
// and two struct types with the same fields are one type. An assertion
// compares those, so x.(int) succeeds for a MyInt, x.(B) for an A with the
// fields of B, and case int: matches a MyInt, silently (Go's
// fixedbugs/bug148.go, bug201.go). Such a type clashes when another type
// declared in the session or the cell, or the type a declared type is
// declared from, has the same representation. sessionTypes holds the
// sources of the top-level types of earlier cells ("MyInt int"); types
// declared in the cell, also inside functions, are read from src. The
// error names the construct, the types and what to write instead.
func ConcreteAssertions(src string, sessionTypes []string) error {
	chunks, err := split(src)
	if err != nil {
		return nil // PrepareCell reports it
	}
	type parsed struct {
		fset  *token.FileSet
		f     *ast.File
		delta int
	}
	var files []parsed
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
		files = append(files, parsed{fset, f, c.Line - 2})
	}
	decls := map[string][]ast.Expr{} // the definitions of a type name
	aliases := map[string]ast.Expr{}
	ifaces := map[string]bool{}
	addSpec := func(ts *ast.TypeSpec) {
		switch {
		case ts.Name.Name == "_":
			// No value can have it.
		case ts.TypeParams != nil && len(ts.TypeParams.List) > 0:
			ifaces[ts.Name.Name] = true // generic: left alone
		case ts.Assign.IsValid():
			aliases[ts.Name.Name] = ts.Type
		default:
			if _, ok := ast.Unparen(ts.Type).(*ast.InterfaceType); ok {
				ifaces[ts.Name.Name] = true
				return
			}
			decls[ts.Name.Name] = append(decls[ts.Name.Name], ts.Type)
		}
	}
	for _, s := range sessionTypes {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype "+s, 0)
		if err != nil {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				addSpec(ts)
			}
			return true
		})
	}
	for _, p := range files {
		ast.Inspect(p.f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				addSpec(ts)
			}
			return true
		})
	}
	if len(decls) == 0 {
		return nil
	}
	// key is the interpreter's representation of a type expression.
	var key func(x ast.Expr, visiting map[string]bool) string
	key = func(x ast.Expr, visiting map[string]bool) string {
		switch x := ast.Unparen(x).(type) {
		case *ast.Ident:
			if a, ok := aliases[x.Name]; ok && !visiting[x.Name] {
				visiting[x.Name] = true
				defer delete(visiting, x.Name)
				return key(a, visiting)
			}
			if ds := decls[x.Name]; len(ds) == 1 && !visiting[x.Name] {
				visiting[x.Name] = true
				defer delete(visiting, x.Name)
				return key(ds[0], visiting)
			}
			return x.Name
		case *ast.StarExpr:
			return "*" + key(x.X, visiting)
		case *ast.ArrayType:
			n := ""
			if x.Len != nil {
				n = types.ExprString(x.Len)
			}
			return "[" + n + "]" + key(x.Elt, visiting)
		case *ast.MapType:
			return "map[" + key(x.Key, visiting) + "]" + key(x.Value, visiting)
		case *ast.ChanType:
			return fmt.Sprintf("chan%d ", x.Dir) + key(x.Value, visiting)
		case *ast.StructType:
			var b strings.Builder
			b.WriteString("struct{")
			for _, f := range x.Fields.List {
				names := "embedded"
				if len(f.Names) > 0 {
					var ns []string
					for _, n := range f.Names {
						ns = append(ns, n.Name)
					}
					names = strings.Join(ns, ",")
				}
				tag := ""
				if f.Tag != nil {
					tag = f.Tag.Value
				}
				fmt.Fprintf(&b, "%s %s %s;", names, key(f.Type, visiting), tag)
			}
			b.WriteString("}")
			return b.String()
		}
		return types.ExprString(x)
	}
	// The names in play by their representation: the declared types, and
	// the named types they are declared from.
	byKey := map[string]map[string]int{} // the times a name is declared so
	add := func(k, name string) {
		if byKey[k] == nil {
			byKey[k] = map[string]int{}
		}
		byKey[k][name]++
	}
	for name, ds := range decls {
		for _, d := range ds {
			k := key(d, map[string]bool{name: true})
			add(k, name)
			switch d := ast.Unparen(d).(type) {
			case *ast.Ident:
				if decls[d.Name] == nil && aliases[d.Name] == nil && !ifaces[d.Name] && d.Name != name {
					add(k, d.Name)
				}
			case *ast.SelectorExpr:
				add(k, types.ExprString(d))
			}
		}
	}
	// clash returns the names another type shares a representation with.
	clash := func(name string) []string {
		if ifaces[name] {
			return nil
		}
		var ks []string
		if ds := decls[name]; len(ds) > 0 {
			for _, d := range ds {
				ks = append(ks, key(d, map[string]bool{name: true}))
			}
		} else if _, ok := aliases[name]; ok {
			return nil // the aliased type's own names are checked
		} else {
			ks = []string{name}
		}
		seen := map[string]bool{}
		for _, k := range ks {
			for other, n := range byKey[k] {
				if other != name {
					seen[other] = true
				} else if n > 1 {
					// Declared again alike, in a function.
					seen["another "+name] = true
				}
			}
		}
		var out []string
		for o := range seen {
			out = append(out, o)
		}
		sort.Strings(out)
		return out
	}
	var errs scanner.ErrorList
	check := func(p parsed, typ ast.Expr, construct, what string) {
		ast.Inspect(typ, func(n ast.Node) bool {
			var name string
			switch n := n.(type) {
			case *ast.InterfaceType, *ast.FuncType:
				return false
			case *ast.SelectorExpr:
				name = types.ExprString(n)
			case *ast.Ident:
				name = n.Name
			default:
				return true
			}
			if others := clash(name); len(others) > 0 && len(errs) == 0 {
				pos := p.fset.Position(typ.Pos())
				pos.Line += p.delta
				errs.Add(pos, fmt.Sprintf(Refused+"%s: the interpreter cannot tell %s from %s (it represents a declared type by the type it is declared from, "+
					"and struct types with the same fields as one type), so %s would match a value of the other type: "+
					"give the types different representations (such as a struct with a field of its own name for one of them), "+
					"or keep the kind of value in a field or behind a method of an interface and test that",
					construct, name, strings.Join(others, " or "), what))
			}
			return false
		})
	}
	// The declared types a type parameter can be confused with: those
	// declared from a type other than a struct type, whose representation
	// an instantiation can name, and those that clash with another type.
	var confusable []string
	for name, ds := range decls {
		if len(ds) != 1 {
			continue
		}
		if _, ok := ast.Unparen(ds[0]).(*ast.StructType); !ok || len(clash(name)) > 0 {
			confusable = append(confusable, name+" from "+types.ExprString(ds[0]))
		}
	}
	sort.Strings(confusable)
	if len(confusable) > 3 {
		confusable = append(confusable[:3], "others")
	}
	// checkParam refuses typ when it mentions a type parameter of params.
	checkParam := func(p parsed, params map[string]bool, typ ast.Expr, construct, what string) {
		if len(confusable) == 0 || len(errs) > 0 {
			return
		}
		ast.Inspect(typ, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || !params[id.Name] || len(errs) > 0 {
				return true
			}
			pos := p.fset.Position(typ.Pos())
			pos.Line += p.delta
			errs.Add(pos, fmt.Sprintf(Refused+"%s, of the type parameter %s: the interpreter cannot tell a declared type from the type it is declared from "+
				"(%s in the session), so with %s instantiated as one of them %s would match a value of the other type: "+
				"give the types different representations (such as a struct with a field of its own name), or compare reflect.TypeOf of the value outside the generic function",
				construct, id.Name, strings.Join(confusable, ", "), id.Name, what))
			return false
		})
	}
	// typeParams returns the names of the type parameters of a function
	// declaration (of its receiver's type for a method).
	typeParams := func(fd *ast.FuncDecl) map[string]bool {
		ps := map[string]bool{}
		if fd.Type.TypeParams != nil {
			for _, f := range fd.Type.TypeParams.List {
				for _, n := range f.Names {
					ps[n.Name] = true
				}
			}
		}
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			t := ast.Unparen(fd.Recv.List[0].Type)
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			var idx []ast.Expr
			switch t := t.(type) {
			case *ast.IndexExpr:
				idx = []ast.Expr{t.Index}
			case *ast.IndexListExpr:
				idx = t.Indices
			}
			for _, x := range idx {
				if id, ok := x.(*ast.Ident); ok && id.Name != "_" {
					ps[id.Name] = true
				}
			}
		}
		return ps
	}
	for _, p := range files {
		for _, d := range p.f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			params := typeParams(fd)
			if len(params) == 0 {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.TypeAssertExpr:
					if n.Type != nil {
						checkParam(p, params, n.Type, "the type assertion "+types.ExprString(n), "the assertion")
					}
				case *ast.TypeSwitchStmt:
					for _, cl := range n.Body.List {
						for _, t := range cl.(*ast.CaseClause).List {
							checkParam(p, params, t, "case "+types.ExprString(t)+": of a type switch", "the case")
						}
					}
				}
				return true
			})
		}
	}
	for _, p := range files {
		ast.Inspect(p.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeAssertExpr:
				if n.Type != nil {
					check(p, n.Type, "the type assertion "+types.ExprString(n), "the assertion")
				}
			case *ast.TypeSwitchStmt:
				for _, cl := range n.Body.List {
					for _, t := range cl.(*ast.CaseClause).List {
						check(p, t, "case "+types.ExprString(t)+": of a type switch", "the case")
					}
				}
			}
			return true
		})
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
