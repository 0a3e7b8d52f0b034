package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/stdlib"
)

// spreadBuiltins are the builtins whose call f(g()) passes all the results
// of g, and which yaegi v0.16.1 gets wrong so: append(g()) appended the
// first of the values only (append(f()) with f returning []string{"foo"},
// "bar" gave a slice of length 1), and complex(g()) and copy(g()) panic
// ("index out of range").
var spreadBuiltins = map[string]bool{"append": true, "complex": true, "copy": true}

// spreadCallEdits takes the results of g into variables first where a
// statement of a function calls F(g()) with g of several results and F
// one of spreadBuiltins or a generic function of the cell called without
// type arguments (the interpreter's inference panics: "index out of
// range", Go's typeparam/issue45722.go, try(fmt.Print(""))): the
// statement
//
//	if c := complex(parts()); c != 5+7i { … }
//
// becomes, with fresh names,
//
//	_r0, _r1 := parts(); if c := complex(_r0, _r1); c != 5+7i { … }
//
// which calls g where Go does: the call F(g()) is the whole value of the
// statement (an expression statement, the one value of a return, of a
// definition or assignment to names, of a var declaration, or of such an
// init statement of an if or switch), which runs nothing before g. The
// number of results is known for the cell's functions (results) and the
// standard library's (a package isPkg reports). Statements that are not
// directly in a block or case of a function, labeled statements, and
// functions with a goto (the variables would come into scope at a label)
// are left alone; at the cell's top level (a chunk of statements, !decl),
// only definitions, assignments and vars are rewritten (an expression
// statement may be the cell's value). Elsewhere, a call of a builtin of
// spreadBuiltins whose g the chunk declares becomes a function literal
// returning its value (of g's first result type for append), called in
// place. generic names the generic functions of the cell.
func spreadCallEdits(decl bool, isPkg func(string) bool, results map[string]int, generic map[string]bool) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		// count returns the number of results of call, 0 if not known.
		count := func(call *ast.CallExpr) int {
			if call.Ellipsis.IsValid() {
				return 0
			}
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				if fun.Obj == nil || fun.Obj.Kind == ast.Fun {
					return results[fun.Name]
				}
			case *ast.SelectorExpr:
				if pkg, ok := fun.X.(*ast.Ident); ok && pkg.Obj == nil && isPkg(pkg.Name) {
					return stdlibResults(pkg.Name, fun.Sel.Name)
				}
			}
			return 0
		}
		// spread returns the call g() of F(g()) that call is, or nil.
		spread := func(x ast.Expr) *ast.CallExpr {
			call, ok := x.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
				return nil
			}
			id, ok := call.Fun.(*ast.Ident)
			if !ok || !(spreadBuiltins[id.Name] && id.Obj == nil || generic[id.Name] && (id.Obj == nil || id.Obj.Kind == ast.Fun)) {
				return nil
			}
			inner, ok := call.Args[0].(*ast.CallExpr)
			if !ok || count(inner) < 2 {
				return nil
			}
			return inner
		}
		names := func(xs []ast.Expr) bool {
			for _, x := range xs {
				if _, ok := x.(*ast.Ident); !ok {
					return false
				}
			}
			return true
		}
		// value returns the call g() of the statement's F(g()), or nil.
		var value func(st ast.Stmt) *ast.CallExpr
		value = func(st ast.Stmt) *ast.CallExpr {
			switch st := st.(type) {
			case *ast.ExprStmt:
				return spread(st.X)
			case *ast.ReturnStmt:
				if len(st.Results) == 1 {
					return spread(st.Results[0])
				}
			case *ast.AssignStmt:
				if len(st.Rhs) == 1 && len(st.Lhs) == 1 && names(st.Lhs) && (st.Tok == token.DEFINE || st.Tok == token.ASSIGN) {
					return spread(st.Rhs[0])
				}
			case *ast.DeclStmt:
				if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR && len(g.Specs) == 1 {
					if vs := g.Specs[0].(*ast.ValueSpec); len(vs.Names) == 1 && len(vs.Values) == 1 {
						return spread(vs.Values[0])
					}
				}
			case *ast.IfStmt:
				if st.Init != nil {
					return value(st.Init)
				}
			case *ast.SwitchStmt:
				if st.Init != nil {
					return value(st.Init)
				}
			}
			return nil
		}
		var edits []edit
		done := map[*ast.CallExpr]bool{}
		spreadStmt := func(st ast.Stmt, inner *ast.CallExpr) {
			done[inner] = true
			seq := blockSeq.Add(1)
			vars := make([]string, count(inner))
			for i := range vars {
				vars[i] = fmt.Sprintf("%sM%d_%d", tempPrefix, seq, i)
			}
			list := strings.Join(vars, ", ")
			edits = append(edits,
				edit{pos(st.Pos()), pos(st.Pos()), list + " := " + src[pos(inner.Pos()):pos(inner.End())] + "; "},
				edit{pos(inner.Pos()), pos(inner.End()), list})
		}
		body := func(b *ast.BlockStmt) {
			hasGoto := false
			ast.Inspect(b, func(n ast.Node) bool {
				if br, ok := n.(*ast.BranchStmt); ok && br.Tok == token.GOTO {
					hasGoto = true
				}
				return !hasGoto
			})
			if hasGoto {
				return
			}
			ast.Inspect(b, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false // its own body, below
				}
				for _, st := range stmtList(n) {
					if inner := value(st); inner != nil {
						spreadStmt(st, inner)
					}
				}
				return true
			})
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body != nil && decl {
					body(n.Body)
				} else if n.Body != nil {
					// In a chunk of statements, the one function holds
					// the cell's top level: its definitions, assignments
					// and vars (the temporaries are the session's, which
					// it clears after the cell; an expression statement
					// may be the cell's value).
					for _, st := range n.Body.List {
						switch st.(type) {
						case *ast.AssignStmt, *ast.DeclStmt:
							if inner := value(st); inner != nil {
								spreadStmt(st, inner)
							}
						}
					}
				}
			case *ast.FuncLit:
				body(n.Body)
			}
			return true
		})
		// Elsewhere, a builtin's call of a function the chunk declares
		// becomes a function literal that returns its value, whose type
		// the declaration shows: func() []string { r0, r1 := g(); return
		// append(r0, r1) }(), evaluated where the call is.
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			inner := spread(call)
			if inner == nil || done[inner] {
				return true
			}
			builtin := call.Fun.(*ast.Ident).Name
			g, ok := inner.Fun.(*ast.Ident)
			if !ok || g.Obj == nil || g.Obj.Kind != ast.Fun {
				return true
			}
			fd, ok := g.Obj.Decl.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Type.TypeParams != nil || fd.Type.Results == nil || len(fd.Type.Results.List) == 0 {
				return true
			}
			first := fd.Type.Results.List[0].Type
			var typ string
			switch builtin {
			case "append":
				typ = src[pos(first.Pos()):pos(first.End())]
			case "copy":
				typ = "int"
			case "complex":
				switch id, _ := first.(*ast.Ident); {
				case id != nil && id.Obj == nil && id.Name == "float64":
					typ = "complex128"
				case id != nil && id.Obj == nil && id.Name == "float32":
					typ = "complex64"
				}
			}
			if typ == "" || strings.Contains(typ, "\n") {
				return true
			}
			seq := blockSeq.Add(1)
			vars := make([]string, count(inner))
			for i := range vars {
				vars[i] = fmt.Sprintf("%sM%d_%d", tempPrefix, seq, i)
			}
			list := strings.Join(vars, ", ")
			done[inner] = true
			edits = append(edits,
				edit{pos(call.Pos()), pos(inner.Pos()), "func() " + typ + " { " + list + " := "},
				edit{pos(inner.End()), pos(call.End()), "; return " + builtin + "(" + list + ") }()"})
			return true
		})
		return edits
	}
}

// stdlibResults returns the number of results of the function pkg.name of
// yaegi's standard library, 0 when there is none or several of that name.
func stdlibResults(pkg, name string) int {
	n := 0
	for path, syms := range stdlib.Symbols {
		if path[strings.LastIndex(path, "/")+1:] != pkg {
			continue
		}
		if v, ok := syms[name]; ok && v.Kind() == reflect.Func {
			if n != 0 {
				return 0
			}
			n = v.Type().NumOut()
		}
	}
	return n
}

// genericFuncNames records the generic functions f declares.
func genericFuncNames(f *ast.File, into map[string]bool) {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0 {
			into[fd.Name.Name] = true
		}
	}
}
