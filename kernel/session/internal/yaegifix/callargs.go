package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// resultCounts records the number of results of the functions and
// methods f declares: functions by name, methods by "." and name, -1
// where methods of that name differ.
func resultCounts(f *ast.File, into map[string]int) {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		n := fieldCount(fd.Type.Results)
		key := fd.Name.Name
		if fd.Recv != nil {
			key = "." + key
			if old, ok := into[key]; ok && old != n {
				n = -1
			}
		}
		into[key] = n
	}
}

func fieldCount(fl *ast.FieldList) int {
	if fl == nil {
		return 0
	}
	n := 0
	for _, f := range fl.List {
		if len(f.Names) == 0 {
			n++
		}
		n += len(f.Names)
	}
	return n
}

// callArgEdits puts parentheses around the arguments of a call of a
// compiled package's function (pkg.F(…), isPkg(pkg)) that are calls of
// the cell's own functions, methods or function values: yaegi v0.16.1
// hands such a call's result to the compiled function as the bare value,
// without the wrapper that carries its String and Error methods, so that
// fmt.Println(p.Celsius()) printed the number where Go calls String (a
// variable, fmt.Println(c), kept them). A parenthesized argument takes the
// path of other expressions. A sole argument is put in parentheses only
// when the cell declares the function or method it calls with one result
// (results lists the counts, see resultCounts) and, for a method, the
// receiver is not a variable of a compiled type (made in the chunk from
// a package's function or type, or one isCompiledVar reports), whose
// method of the same name may have several: f(g()) passes all of g's
// results, the interpreter would pass the first of (g()).
func callArgEdits(isPkg func(string) bool, results map[string]int, isCompiledVar func(string) bool) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		compiled := func(fun ast.Expr) bool {
			sel, ok := fun.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			id, ok := sel.X.(*ast.Ident)
			return ok && id.Name != "_portlab" && isPkg(id.Name)
		}
		// Names the chunk binds other than by a function declaration
		// (variables, parameters) may hide a function results counts.
		local := boundNames(f)
		// Variables the chunk makes from a package's function or type:
		// their methods are compiled, and may have several results.
		compiledVars := map[string]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && len(n.Rhs) == len(n.Lhs) && fromPackage(n.Rhs[i], compiled) {
						compiledVars[id.Name] = true
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if len(n.Values) == len(n.Names) && fromPackage(n.Values[i], compiled) || n.Type != nil && fromPackage(n.Type, compiled) {
						compiledVars[id.Name] = true
					}
				}
			}
			return true
		})
		var edits []edit
		// A statement that hands all the results of a cell's function or
		// method to a compiled function, fmt.Println(f()), takes them into
		// variables first, which the interpreter wraps: the results were
		// handed over bare. So does fmt.Sprint(f()) or fmt.Sprintln(f())
		// anywhere, in a function literal that returns the string.
		spread := map[*ast.CallExpr]bool{}
		// multi returns the number of results of the cell's function or
		// method that call calls, 0 if not known to be several.
		multi := func(call *ast.CallExpr) int {
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				if !local[fun.Name] {
					return results[fun.Name]
				}
			case *ast.SelectorExpr:
				id, ok := fun.X.(*ast.Ident)
				if ok && !compiled(fun) && !compiledVars[id.Name] && (local[id.Name] || isCompiledVar != nil && !isCompiledVar(id.Name)) {
					return results["."+fun.Sel.Name]
				}
			}
			return 0
		}
		spreadEdits := func(outer, call *ast.CallExpr, statement bool) {
			if spread[call] || !compiled(call.Fun) || call.Ellipsis.IsValid() || len(call.Args) != 1 {
				return
			}
			inner, ok := call.Args[0].(*ast.CallExpr)
			if !ok || compiled(inner.Fun) {
				return
			}
			count := multi(inner)
			if count < 2 {
				return
			}
			names := make([]string, count)
			for i := range names {
				names[i] = fmt.Sprintf("%sR%d", tempPrefix, i)
			}
			list := strings.Join(names, ", ")
			spread[call] = true
			head, tail := ";func() { "+list+" := ", "; "+src[pos(call.Pos()):pos(inner.Pos())]+list+") }()"
			if !statement {
				head, tail = "func() string { "+list+" := ", "; return "+src[pos(call.Pos()):pos(inner.Pos())]+list+") }()"
			}
			edits = append(edits, edit{pos(outer.Pos()), pos(inner.Pos()), head}, edit{pos(inner.End()), pos(outer.End()), tail})
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if st, ok := n.(*ast.ExprStmt); ok {
				if call, ok := st.X.(*ast.CallExpr); ok {
					spreadEdits(call, call, true)
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Sprint" || sel.Sel.Name == "Sprintln") {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "fmt" {
						spreadEdits(call, call, false)
					}
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !compiled(call.Fun) || call.Ellipsis.IsValid() || spread[call] {
				return true
			}
			for _, a := range call.Args {
				inner, ok := a.(*ast.CallExpr)
				if !ok || compiled(inner.Fun) {
					continue
				}
				if id, ok := inner.Fun.(*ast.Ident); ok && len(call.Args) == 1 && local[id.Name] {
					continue
				}
				if sel, ok := inner.Fun.(*ast.SelectorExpr); ok && len(call.Args) == 1 && fromPackage(sel.X, compiled) {
					continue
				}
				if sel, ok := inner.Fun.(*ast.SelectorExpr); ok && len(call.Args) == 1 {
					if id, ok := sel.X.(*ast.Ident); ok && (compiledVars[id.Name] || !local[id.Name] && (isCompiledVar == nil || isCompiledVar(id.Name))) {
						continue
					}
				}
				if len(call.Args) == 1 && !singleResult(inner, results) {
					continue
				}
				edits = append(edits, edit{pos(a.Pos()), pos(a.Pos()), "("}, edit{pos(a.End()), pos(a.End()), ")"})
			}
			return true
		})
		return edits
	}
}

// singleResult reports whether call is a call of a function literal, or
// of a function or method results counts, with one result.
func singleResult(call *ast.CallExpr, results map[string]int) bool {
	switch fun := call.Fun.(type) {
	case *ast.FuncLit:
		return fieldCount(fun.Type.Results) == 1
	case *ast.Ident:
		n, ok := results[fun.Name]
		return ok && n == 1
	case *ast.SelectorExpr:
		n, ok := results["."+fun.Sel.Name]
		return ok && n == 1
	}
	return false
}

// fromPackage reports whether e is a call, composite literal, conversion
// or type of a package's (compiled reports pkg.Name), or an address,
// dereference, selector or method call on one.
func fromPackage(e ast.Expr, compiled func(ast.Expr) bool) bool {
	switch x := e.(type) {
	case *ast.CallExpr:
		return compiled(x.Fun) || fromPackage(x.Fun, compiled)
	case *ast.CompositeLit:
		return x.Type != nil && fromPackage(x.Type, compiled)
	case *ast.UnaryExpr:
		return fromPackage(x.X, compiled)
	case *ast.StarExpr:
		return fromPackage(x.X, compiled)
	case *ast.ParenExpr:
		return fromPackage(x.X, compiled)
	case *ast.SelectorExpr:
		return compiled(x) || fromPackage(x.X, compiled)
	}
	return false
}
