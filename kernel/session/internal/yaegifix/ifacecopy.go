package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Decls holds what later cells need to know of the declarations of
// earlier ones to be typed by go/types: each top-level declaration as
// source (functions and methods without their bodies), and each variable a
// top-level statement defined (x := e) as var x = e. Learn adds a cell's;
// a later declaration of a name replaces an earlier one.
type Decls struct {
	snippets []snippet
	latest   map[string]int // the snippet that last declared a name
	// assertsParam holds the generic functions whose bodies assert to,
	// or switch on, one of their type parameters.
	assertsParam map[string]bool
}

type snippet struct {
	names []string // what it declares; "T.M" for a method
	src   string
	group bool     // a var or const declaration, whose names can be blanked one by one
	uses  []string // the identifiers it mentions
}

// identifiers returns the identifiers of src, once each.
func identifiers(src string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	seen := map[string]bool{}
	var ids []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return ids
		}
		if tok == token.IDENT && !seen[lit] {
			seen[lit] = true
			ids = append(ids, lit)
		}
	}
}

// assertsTypeParam reports whether fd is a generic function whose body
// asserts to, or has a type switch case of, one of its type parameters.
func assertsTypeParam(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams == nil || fd.Body == nil {
		return false
	}
	params := map[string]bool{}
	for _, f := range fd.Type.TypeParams.List {
		for _, n := range f.Names {
			params[n.Name] = true
		}
	}
	found := false
	isParam := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && params[id.Name]
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil && isParam(n.Type) {
				found = true
			}
		case *ast.CaseClause:
			for _, x := range n.List {
				if isParam(x) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// Reset forgets all declarations.
func (d *Decls) Reset() { *d = Decls{} }

// Learn adds the top-level declarations of cell, a cell that compiled.
func (d *Decls) Learn(cell string) {
	chunks, err := split(cell)
	if err != nil {
		return
	}
	add := func(s snippet) {
		if d.latest == nil {
			d.latest = map[string]int{}
		}
		s.uses = identifiers(s.src)
		d.snippets = append(d.snippets, s)
		for _, n := range s.names {
			d.latest[n] = len(d.snippets) - 1
		}
	}
	defer d.compact()
	for _, c := range chunks {
		if c.Decl {
			const prefix = "package p\n"
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "", prefix+c.Src, 0)
			if err != nil {
				continue
			}
			text := func(from, to token.Pos) string {
				return c.Src[fset.Position(from).Offset-len(prefix) : fset.Position(to).Offset-len(prefix)]
			}
			for _, decl := range f.Decls {
				switch decl := decl.(type) {
				case *ast.FuncDecl:
					name := decl.Name.Name
					if decl.Recv != nil && len(decl.Recv.List) == 1 {
						name = recvBase(decl.Recv.List[0].Type) + "." + name
					}
					if d.assertsParam == nil {
						d.assertsParam = map[string]bool{}
					}
					d.assertsParam[name] = assertsTypeParam(decl)
					end := decl.End()
					if decl.Body != nil {
						end = decl.Body.Pos()
					}
					add(snippet{names: []string{name}, src: strings.TrimSpace(text(decl.Pos(), end)) + " { panic(0) }"})
				case *ast.GenDecl:
					switch decl.Tok {
					case token.TYPE:
						for _, sp := range decl.Specs {
							ts := sp.(*ast.TypeSpec)
							add(snippet{names: []string{ts.Name.Name}, src: "type " + text(ts.Pos(), ts.End())})
						}
					case token.VAR, token.CONST:
						var names []string
						for _, sp := range decl.Specs {
							for _, n := range sp.(*ast.ValueSpec).Names {
								names = append(names, n.Name)
							}
						}
						add(snippet{names: names, src: text(decl.Pos(), decl.End()), group: true})
					}
				}
			}
			continue
		}
		const prefix = "package p\nfunc _() {\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", prefix+c.Src+"\n}", 0)
		if err != nil {
			continue
		}
		text := func(n ast.Node) string {
			return c.Src[fset.Position(n.Pos()).Offset-len(prefix) : fset.Position(n.End()).Offset-len(prefix)]
		}
		for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE {
				continue
			}
			var names, values []string
			for _, l := range as.Lhs {
				names = append(names, text(l))
			}
			for _, r := range as.Rhs {
				values = append(values, text(r))
			}
			add(snippet{names: names, src: "var " + strings.Join(names, ", ") + " = " + strings.Join(values, ", "), group: true})
		}
	}
}

// compact drops the declarations all of whose names were declared again,
// once they are half of all.
func (d *Decls) compact() {
	live := func(i int) bool {
		for _, n := range d.snippets[i].names {
			if n == "_" || d.latest[n] == i {
				return true
			}
		}
		return false
	}
	dead := 0
	for i := range d.snippets {
		if !live(i) {
			dead++
		}
	}
	if dead < 32 || 2*dead < len(d.snippets) {
		return
	}
	var kept []snippet
	for i, s := range d.snippets {
		if live(i) {
			kept = append(kept, s)
		}
	}
	d.snippets = kept
	d.latest = map[string]int{}
	for i, s := range kept {
		for _, n := range s.names {
			d.latest[n] = i
		}
	}
}

// recvBase returns the name of the type of a method receiver.
func recvBase(x ast.Expr) string {
	for {
		switch t := x.(type) {
		case *ast.StarExpr:
			x = t.X
		case *ast.ParenExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// render returns the declarations as the source of a file's top level,
// without the names of declared (the cell's own).
func (d *Decls) render(declared map[string]bool, uses []string) string {
	// The declarations the cell needs: those of the names it mentions,
	// of the names those mention, and the methods of the types among
	// them.
	methods := map[string][]int{}
	for i, s := range d.snippets {
		if len(s.names) == 1 {
			if recv, _, ok := strings.Cut(s.names[0], "."); ok {
				methods[recv] = append(methods[recv], i)
			}
		}
	}
	need := map[int]bool{}
	var queue []int
	seen := map[string]bool{}
	mention := func(names []string) {
		for _, n := range names {
			if seen[n] {
				continue
			}
			seen[n] = true
			if i, ok := d.latest[n]; ok && !need[i] {
				need[i] = true
				queue = append(queue, i)
			}
			for _, i := range methods[n] {
				if !need[i] {
					need[i] = true
					queue = append(queue, i)
				}
			}
		}
	}
	mention(uses)
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		mention(d.snippets[i].uses)
	}
	var b strings.Builder
	for i, s := range d.snippets {
		if !need[i] {
			continue
		}
		var gone []string
		for _, n := range s.names {
			if n != "_" && (d.latest[n] != i || declared[n]) {
				gone = append(gone, n)
			}
		}
		switch {
		case len(gone) == 0:
			b.WriteString(s.src)
		case len(gone) == len(s.names) || !s.group:
			continue
		default:
			b.WriteString(blankNames(s.src, gone))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// blankNames returns the var or const declaration src with the names of
// gone replaced by _.
func blankNames(src string, gone []string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package p\n"+src, 0)
	if err != nil || len(f.Decls) != 1 {
		return ""
	}
	drop := map[string]bool{}
	for _, g := range gone {
		drop[g] = true
	}
	ast.Inspect(f.Decls[0], func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			for _, id := range vs.Names {
				if drop[id.Name] {
					id.Name = "_"
				}
			}
			return false
		}
		return true
	})
	var b strings.Builder
	if printer.Fprint(&b, fset, f.Decls[0]) != nil {
		return ""
	}
	return b.String()
}

// cellFile is a cell laid out as a Go file for go/types: the session's
// imports and declarations, the cell's declarations, and its statements
// in the body of a function.
type cellFile struct {
	src    string
	pieces []piece // where the cell's chunks are in src
}

type piece struct{ file, cell, n int }

// cellOffset returns the offset in the cell of the offset off of the
// file, and whether it is inside one of the cell's chunks.
func (cf *cellFile) cellOffset(off int) (int, bool) {
	for _, p := range cf.pieces {
		if off >= p.file && off <= p.file+p.n {
			return p.cell + off - p.file, true
		}
	}
	return 0, false
}

// cellDecls returns the declarations of f, cf typed, that come from the
// cell: its own and the function holding its statements.
func (cf *cellFile) cellDecls(f *ast.File, fset *token.FileSet) []ast.Decl {
	var decls []ast.Decl
	for _, decl := range f.Decls {
		if _, in := cf.cellOffset(fset.Position(decl.Pos()).Offset); !in {
			if fd, ok := decl.(*ast.FuncDecl); !ok || fd.Name.Name != "_portlabCell" {
				continue
			}
		}
		decls = append(decls, decl)
	}
	return decls
}

// layout returns code as a cellFile, or false when it cannot be laid out.
func layout(code string, d *Decls, imports []ImportSpec) (*cellFile, bool) {
	chunks, err := split(code)
	if err != nil || len(chunks) == 0 {
		return nil, false
	}
	total := 0
	for _, c := range chunks {
		total += len(c.Src)
	}
	off := len(code) - total
	// The cell's imports and declared names; its import declarations are
	// blanked where they stand and listed with the session's.
	declared := map[string]bool{}
	cellImports := map[string]bool{}
	var importLines []string
	type chunkAt struct {
		c   Chunk
		off int
		src string
	}
	var decls, stmts []chunkAt
	for _, c := range chunks {
		at := chunkAt{c, off, c.Src}
		off += len(c.Src)
		if !c.Decl {
			stmts = append(stmts, at)
			continue
		}
		const prefix = "package p\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", prefix+c.Src, 0)
		if err != nil {
			return nil, false
		}
		src := []byte(c.Src)
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				name := decl.Name.Name
				if decl.Recv != nil && len(decl.Recv.List) == 1 {
					name = recvBase(decl.Recv.List[0].Type) + "." + name
				}
				declared[name] = true
			case *ast.GenDecl:
				if decl.Tok == token.IMPORT {
					b, e := fset.Position(decl.Pos()).Offset-len(prefix), fset.Position(decl.End()).Offset-len(prefix)
					for i := b; i < e; i++ {
						if src[i] != '\n' {
							src[i] = ' '
						}
					}
					for _, sp := range decl.Specs {
						is := sp.(*ast.ImportSpec)
						line := is.Path.Value
						if is.Name != nil {
							line = is.Name.Name + " " + line
						}
						importLines = append(importLines, line)
						cellImports[strings.Trim(is.Path.Value, "\"`")] = true
					}
					continue
				}
				for _, sp := range decl.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						declared[sp.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							declared[n.Name] = true
						}
					}
				}
			}
		}
		at.src = string(src)
		decls = append(decls, at)
	}
	var b strings.Builder
	b.WriteString("package main\n")
	for _, is := range imports {
		if cellImports[is.Path] {
			continue
		}
		b.WriteString("import ")
		if is.Name != "" {
			b.WriteString(is.Name + " ")
		}
		b.WriteString(`"` + is.Path + "\"\n")
	}
	for _, l := range importLines {
		b.WriteString("import " + l + "\n")
	}
	uses := identifiers(code)
	if strings.Contains(code, "error") {
		// The types, of which errorAssertions needs those that
		// implement error (also by an embedded field).
		for n, i := range d.latest {
			if strings.HasPrefix(d.snippets[i].src, "type ") {
				uses = append(uses, n)
			}
		}
	}
	b.WriteString(d.render(declared, uses))
	cf := &cellFile{}
	for _, c := range decls {
		b.WriteString("\n")
		cf.pieces = append(cf.pieces, piece{b.Len(), c.off, len(c.src)})
		b.WriteString(c.src)
	}
	b.WriteString("\nfunc _portlabCell() {\n")
	for _, c := range stmts {
		cf.pieces = append(cf.pieces, piece{b.Len(), c.off, len(c.src)})
		b.WriteString(c.src)
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	cf.src = b.String()
	return cf, true
}

// typeCell type-checks a laid-out cell; errors are counted, not fatal.
func typeCell(cf *cellFile, im types.Importer) (*token.FileSet, *ast.File, *types.Package, *types.Info, int, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell", cf.src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, nil, nil, 0, false
	}
	nerr := 0
	conf := types.Config{Importer: im, Error: func(error) { nerr++ }}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Instances: map[*ast.Ident]types.Instance{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, _ := conf.Check("main", fset, []*ast.File{f}, info)
	return fset, f, pkg, info, nerr, true
}

// IfaceCopyEdits rewrites code, a cell, so that a value of a concrete type
// that becomes an interface value with methods is converted in a function
// literal of its own: func(v C) I { return v }(x) for x. yaegi v0.16.1
// makes such an interface value (its valueInterface) hold the slot the
// value was read from — the variable, or the frame slot of a call's
// result — not a copy, so that the interface changed with the variable
// afterwards: y := T{1}; s := show(y); y.v = 2 gave s.M() = 2, an error
// value kept by a function showed the text of the variable's next value,
// a Stringer passed to a function the next String. The literal's
// parameter is a slot of a frame of its own, which nothing writes again.
// The sites are found by go/types, which types the cell with the
// session's declarations (d) and imports, its compiled packages through
// im: assignments (to variables, elements, fields, map entries),
// variable declarations, arguments, results, composite literal elements
// and keys, sends and map keys, where the target's type is an interface
// with methods and the value's a concrete type that can be written in the
// cell. Bodies of generic functions and methods are left alone. With the
// same types, it writes out the type arguments the interpreter does not
// infer (inferredEdits), gives constants in shift counts their types
// (shiftCountEdits) and writes out maps.Clone (mapsCloneEdits). When the rewritten cell types with more errors than
// the cell, the cell is returned unchanged.
func IfaceCopyEdits(code string, d *Decls, imports []ImportSpec, im types.Importer, sessionTypes []string) (string, error) {
	if !strings.ContainsAny(code, "(={") {
		return code, nil
	}
	cf, ok := layout(code, d, imports)
	if !ok {
		return code, nil
	}
	fset, f, pkg, info, nerr, ok := typeCell(cf, im)
	if !ok || pkg == nil {
		return code, nil
	}
	errAsserts, err := errorAssertions(code, cf, fset, f, pkg, info, sessionTypes)
	if err != nil {
		return code, err
	}
	// The local names of the imported packages.
	names := map[string]string{}
	for _, spec := range f.Imports {
		path := strings.Trim(spec.Path.Value, "\"`")
		name := DefaultName(path)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name != "_" && name != "." {
			names[path] = name
		}
	}
	spell := func(t types.Type) (string, bool) {
		ok := true
		s := types.TypeString(t, func(p *types.Package) string {
			if p == pkg {
				return ""
			}
			n, found := names[p.Path()]
			if !found {
				ok = false
			}
			return n
		})
		return s, ok && spellable(t, pkg)
	}
	prefixes := map[int][]string{}
	suffixes := map[int]int{}
	var spreads []edit
	var refusal error
	// The generic functions of the cell that assert to a type parameter.
	asserts := map[string]bool{}
	for n, v := range d.assertsParam {
		asserts[n] = v
	}
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil {
			if _, in := cf.cellOffset(fset.Position(fd.Pos()).Offset); in {
				asserts[fd.Name.Name] = assertsTypeParam(fd)
			}
		}
	}
	cellPos := func(p token.Pos) token.Position {
		off, _ := cf.cellOffset(fset.Position(p).Offset)
		return token.Position{Line: 1 + strings.Count(code[:off], "\n"), Column: off - strings.LastIndex(code[:off], "\n")}
	}
	// site rewrites x, converted to target; arg tells an argument of a
	// call.
	site := func(x ast.Expr, target types.Type, arg bool) {
		if x == nil || target == nil {
			return
		}
		if _, isLit := ast.Unparen(x).(*ast.FuncLit); isLit {
			return
		}
		tv, ok := info.Types[x]
		if !ok || tv.Type == nil || tv.Value != nil || tv.IsType() || tv.IsNil() || !tv.IsValue() {
			return
		}
		src := tv.Type
		if b, ok := src.(*types.Basic); ok && (b.Info()&types.IsUntyped != 0 || b.Kind() == types.Invalid) {
			return
		}
		if isTypeParam(src) || isTypeParam(target) {
			return
		}
		it, ok := target.Underlying().(*types.Interface)
		if !ok || it.NumMethods() == 0 {
			return
		}
		ts, ok := spell(target)
		if !ok {
			return
		}
		b, okb := cf.cellOffset(fset.Position(x.Pos()).Offset)
		e, oke := cf.cellOffset(fset.Position(x.End()).Offset)
		if !okb || !oke || e < b {
			return
		}
		if types.IsInterface(src) {
			// The result of a call, an interface with methods, as an
			// argument of another: converted explicitly.
			call, ok := ast.Unparen(x).(*ast.CallExpr)
			if !arg || !ok {
				return
			}
			if si, ok := src.Underlying().(*types.Interface); !ok || si.NumMethods() == 0 {
				return
			}
			if ftv, ok := info.Types[call.Fun]; !ok || ftv.IsType() {
				return
			}
			prefixes[b] = append(prefixes[b], ts+"(")
			suffixes[e]++
			return
		}
		if !mentionsPkg(src, pkg) && !mentionsPkg(target, pkg) {
			// A compiled value to a compiled interface: the interpreter
			// converts it with reflect, a copy.
			return
		}
		cs, ok := spell(src)
		if !ok {
			return
		}
		p := "func(_pv " + cs + ") " + ts + " { return _pv }("
		if arg {
			p = ts + "(" + p
			suffixes[e]++
		}
		prefixes[b] = append(prefixes[b], p)
		suffixes[e]++
	}
	var results []*types.Tuple
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Type.TypeParams != nil || n.Recv != nil && len(n.Recv.List) == 1 && isGenericRecv(n.Recv.List[0].Type) || n.Body == nil {
				return false
			}
			var res *types.Tuple
			if obj, ok := info.Defs[n.Name]; ok && obj != nil {
				if sig, ok := obj.Type().(*types.Signature); ok {
					res = sig.Results()
				}
			}
			results = append(results, res)
			ast.Inspect(n.Body, walk)
			results = results[:len(results)-1]
			return false
		case *ast.FuncLit:
			var res *types.Tuple
			if sig, ok := info.TypeOf(n).(*types.Signature); ok {
				res = sig.Results()
			}
			results = append(results, res)
			ast.Inspect(n.Body, walk)
			results = results[:len(results)-1]
			return false
		case *ast.AssignStmt:
			if n.Tok == token.ASSIGN && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					site(n.Rhs[i], info.TypeOf(l), false)
				}
			}
		case *ast.ValueSpec:
			if n.Type != nil && len(n.Values) == len(n.Names) {
				t := info.TypeOf(n.Type)
				for _, v := range n.Values {
					site(v, t, false)
				}
			}
		case *ast.ReturnStmt:
			if len(results) > 0 && results[len(results)-1] != nil {
				res := results[len(results)-1]
				if res.Len() == len(n.Results) {
					for i, r := range n.Results {
						site(r, res.At(i).Type(), false)
					}
				}
			}
		case *ast.CallExpr:
			tv, ok := info.Types[n.Fun]
			if !ok {
				break
			}
			if tv.IsType() {
				if len(n.Args) == 1 {
					site(n.Args[0], tv.Type, false)
				}
				break
			}
			if id := calleeIdent(n.Fun); id != nil && asserts[id.Name] && refusal == nil {
				if inst, ok := info.Instances[id]; ok && inst.TypeArgs != nil {
					for i := range inst.TypeArgs.Len() {
						if ta := inst.TypeArgs.At(i); types.IsInterface(ta) && !isTypeParam(ta) {
							var errs scanner.ErrorList
							errs.Add(cellPos(n.Pos()), Refused+id.Name+" instantiated with the interface type "+types.TypeString(ta, nil)+
								": it asserts to its type parameter, and the interpreter's x.(T) with T an interface type is false for a value of "+
								"another type that implements it (Go's is true); instantiate it with a concrete type, or make the assertion outside the generic function")
							refusal = errs
							break
						}
					}
				}
			}
			if e, ok := spreadCall(code, n, info, spell, cf, fset); ok {
				spreads = append(spreads, e...)
			}
			if e, ok := newValue(n, info, spell, cf, fset); ok {
				spreads = append(spreads, e)
			}
			sig, ok := tv.Type.(*types.Signature)
			if !ok || n.Ellipsis.IsValid() || isGenericCall(n.Fun, info) {
				// The interpreter's instantiations are left alone.
				break
			}
			params := sig.Params()
			for i, a := range n.Args {
				var t types.Type
				switch {
				case sig.Variadic() && i >= params.Len()-1:
					if s, ok := params.At(params.Len() - 1).Type().(*types.Slice); ok {
						t = s.Elem()
					}
				case i < params.Len():
					t = params.At(i).Type()
				}
				site(a, t, true)
			}
		case *ast.CompositeLit:
			t := info.TypeOf(n)
			if t == nil {
				break
			}
			switch u := t.Underlying().(type) {
			case *types.Struct:
				for i, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							for j := range u.NumFields() {
								if u.Field(j).Name() == id.Name {
									site(kv.Value, u.Field(j).Type(), false)
								}
							}
						}
					} else if i < u.NumFields() {
						site(el, u.Field(i).Type(), false)
					}
				}
			case *types.Slice, *types.Array:
				var elem types.Type
				if s, ok := u.(*types.Slice); ok {
					elem = s.Elem()
				} else {
					elem = u.(*types.Array).Elem()
				}
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						el = kv.Value
					}
					site(el, elem, false)
				}
			case *types.Map:
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						site(kv.Key, u.Key(), false)
						site(kv.Value, u.Elem(), false)
					}
				}
			}
		case *ast.SendStmt:
			if c, ok := info.TypeOf(n.Chan).Underlying().(*types.Chan); ok {
				site(n.Value, c.Elem(), false)
			}
		case *ast.IndexExpr:
			if t := info.TypeOf(n.X); t != nil {
				if m, ok := t.Underlying().(*types.Map); ok {
					site(n.Index, m.Key(), false)
				}
			}
		}
		return true
	}
	for _, decl := range cf.cellDecls(f, fset) {
		ast.Inspect(decl, walk)
	}
	if refusal != nil {
		return code, refusal
	}
	spreads = append(spreads, stringRangeLoops(f, info, cf, fset)...)
	comparisons := append(typedComparisons(f, info, pkg, cf, fset, spell), typedSwitches(f, info, pkg, cf, fset)...)
	spreads = append(spreads, comparisons...)
	spreads = append(spreads, inferredEdits(f, info, pkg, names, cf, fset)...)
	spreads = append(spreads, shiftCountEdits(f, info, pkg, cf, fset)...)
	spreads = append(spreads, mapsCloneEdits(f, info, pkg, names, cf, fset)...)
	anys := anyEdits(f, info, cf, fset)
	if len(prefixes) == 0 && len(errAsserts) == 0 && len(spreads) == 0 && len(anys) == 0 {
		return code, nil
	}
	edits := append(errAsserts, spreads...)
	for at, ps := range prefixes {
		edits = append(edits, edit{at, at, strings.Join(ps, "")})
	}
	for at, n := range suffixes {
		edits = append(edits, edit{at, at, strings.Repeat(")", n)})
	}
	// Replacements of any last: an insertion at the same place goes
	// before it.
	edits = append(edits, anys...)
	// A suffix and a prefix at one place: the suffix closes an earlier
	// value, so it goes first.
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].begin < edits[j].begin })
	out := applyInsertions(code, edits)
	// Check the result types as well as the cell did (EqualAs as a
	// function of the cell).
	check := out
	if len(comparisons) > 0 {
		check = strings.ReplaceAll(out, equalAsFunc+"(", "_portlabEqualAs(") + "\n\nfunc _portlabEqualAs(a, b any, da, db string, hint any) bool { return false }\n"
	}
	if cf2, ok := layout(check, d, imports); ok {
		if _, _, _, _, n2, ok := typeCell(cf2, im); !ok || n2 > nerr {
			return code, nil
		}
	} else {
		return code, nil
	}
	return out, nil
}

// applyInsertions applies edits, insertions (begin == end) and
// replacements that do not overlap, in order; of two at one place,
// closing parentheses before an opening literal.
func applyInsertions(src string, edits []edit) string {
	var b strings.Builder
	last := 0
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].begin != edits[j].begin {
			return edits[i].begin < edits[j].begin
		}
		return strings.HasPrefix(edits[i].text, ")") && !strings.HasPrefix(edits[j].text, ")")
	})
	for _, e := range edits {
		if e.begin < last {
			continue
		}
		b.WriteString(src[last:e.begin])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(src[last:])
	return b.String()
}

// isGenericRecv reports whether a receiver type names type parameters.
func isGenericRecv(x ast.Expr) bool {
	if s, ok := x.(*ast.StarExpr); ok {
		x = s.X
	}
	switch x.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// isTypeParam reports whether t is a type parameter.
func isTypeParam(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.TypeParam)
	return ok
}

// spellable reports whether t can be written at the top level of the
// cell: it mentions no type declared inside a function and no type
// parameter.
func spellable(t types.Type, pkg *types.Package) bool {
	return !anyType(t, func(t types.Type) bool {
		switch t := t.(type) {
		case *types.Named:
			o := t.Obj()
			return o.Pkg() != nil && o.Parent() != o.Pkg().Scope()
		case *types.TypeParam:
			return true
		}
		return false
	})
}

// anyType reports whether f holds for t (an alias and the type it
// stands for) or a type t is made of: type arguments, elements, keys,
// parameters, results, fields and methods.
func anyType(t types.Type, f func(types.Type) bool) bool {
	var visit func(t types.Type, depth int) bool
	visit = func(t types.Type, depth int) bool {
		if depth > 20 {
			return false
		}
		if _, ok := t.(*types.Alias); ok && f(t) {
			return true
		}
		t = types.Unalias(t)
		if f(t) {
			return true
		}
		var parts []types.Type
		switch t := t.(type) {
		case *types.Named:
			if args := t.TypeArgs(); args != nil {
				for i := range args.Len() {
					parts = append(parts, args.At(i))
				}
			}
		case *types.Pointer:
			parts = append(parts, t.Elem())
		case *types.Slice:
			parts = append(parts, t.Elem())
		case *types.Array:
			parts = append(parts, t.Elem())
		case *types.Map:
			parts = append(parts, t.Key(), t.Elem())
		case *types.Chan:
			parts = append(parts, t.Elem())
		case *types.Signature:
			for i := range t.Params().Len() {
				parts = append(parts, t.Params().At(i).Type())
			}
			for i := range t.Results().Len() {
				parts = append(parts, t.Results().At(i).Type())
			}
		case *types.Struct:
			for i := range t.NumFields() {
				parts = append(parts, t.Field(i).Type())
			}
		case *types.Interface:
			for i := range t.NumMethods() {
				parts = append(parts, t.Method(i).Type())
			}
		}
		for _, p := range parts {
			if visit(p, depth+1) {
				return true
			}
		}
		return false
	}
	return visit(t, 0)
}

// isGenericCall reports whether fun, the function of a call, is a generic
// function or method instantiated (explicitly or by inference).
func isGenericCall(fun ast.Expr, info *types.Info) bool {
	id := calleeIdent(fun)
	if id == nil {
		return false
	}
	if _, ok := info.Instances[id]; ok {
		return true
	}
	if fn, ok := info.Uses[id].(*types.Func); ok {
		if sig, ok := fn.Origin().Type().(*types.Signature); ok && (sig.TypeParams() != nil || sig.RecvTypeParams() != nil) {
			return true
		}
	}
	return false
}

// mentionsPkg reports whether t mentions a named type of pkg (a type the
// cells declared).
func mentionsPkg(t types.Type, pkg *types.Package) bool {
	return anyType(t, func(t types.Type) bool {
		n, ok := t.(*types.Named)
		return ok && n.Obj().Pkg() == pkg
	})
}

// errorAssertions rewrites the assertions x.(error) of the cell, in a
// session whose types (the cells') implement error: yaegi v0.16.1 gave
// ok with a nil error for a value of such a type in an interface variable
// (err, ok := v.(error): true, err == nil), and false for a recovered
// panic value (r.(error)), while a comma-ok assertion to the type itself
// works. Each becomes a function literal that asserts x to each of those
// types first, and to error last. A type switch with case error is
// refused, and so is any of it when one of the types cannot be told from
// another type of the session (ConcreteAssertions), with the rewrite to
// make.
func errorAssertions(code string, cf *cellFile, fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, sessionTypes []string) ([]edit, error) {
	if !strings.Contains(code, "error") {
		return nil, nil
	}
	errType := types.Universe.Lookup("error").Type()
	isError := func(x ast.Expr) bool {
		t := info.TypeOf(x)
		return t != nil && types.Identical(t, errType)
	}
	var asserts []*ast.TypeAssertExpr
	var switches []ast.Expr
	commaOk := map[*ast.TypeAssertExpr]bool{}
	inCell := func(n ast.Node) bool {
		_, ok := cf.cellOffset(fset.Position(n.Pos()).Offset)
		return ok
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
				if ta, ok := ast.Unparen(n.Rhs[0]).(*ast.TypeAssertExpr); ok {
					commaOk[ta] = true
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == 2 && len(n.Values) == 1 {
				if ta, ok := ast.Unparen(n.Values[0]).(*ast.TypeAssertExpr); ok {
					commaOk[ta] = true
				}
			}
		case *ast.TypeAssertExpr:
			if n.Type != nil && isError(n.Type) && inCell(n) {
				asserts = append(asserts, n)
			}
		case *ast.TypeSwitchStmt:
			for _, cl := range n.Body.List {
				for _, t := range cl.(*ast.CaseClause).List {
					if isError(t) && inCell(t) {
						switches = append(switches, t)
					}
				}
			}
		}
		return true
	})
	if len(asserts) == 0 && len(switches) == 0 {
		return nil, nil
	}
	// The types of the cells that implement error, as written.
	errIface := errType.Underlying().(*types.Interface)
	var impl []string
	var valueImpl = map[string]bool{}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || n.TypeParams() != nil || types.IsInterface(n) {
			continue
		}
		if types.Implements(n, errIface) {
			impl = append(impl, name, "*"+name)
			valueImpl[name] = true
		} else if types.Implements(types.NewPointer(n), errIface) {
			impl = append(impl, "*"+name)
		}
	}
	if len(impl) == 0 {
		return nil, nil
	}
	refuse := func(n ast.Node, msg string) error {
		off, _ := cf.cellOffset(fset.Position(n.Pos()).Offset)
		pos := token.Position{Line: 1 + strings.Count(code[:off], "\n"), Column: off - strings.LastIndex(code[:off], "\n")}
		var errs scanner.ErrorList
		errs.Add(pos, Refused+msg)
		return errs
	}
	if len(switches) > 0 {
		return nil, refuse(switches[0], "case error: in a type switch, in a session whose types implement error ("+strings.Join(impl, ", ")+
			"): the interpreter matches a value of such a type held in an interface without its Error method, or as a nil error; "+
			"test it before the switch: if e, ok := x.(error); ok { … } else { switch … }")
	}
	// The types must be ones an assertion can tell from the others.
	var probe strings.Builder
	for _, t := range impl {
		probe.WriteString("_ = _x.(" + t + ")\n")
	}
	if err := ConcreteAssertions(probe.String(), sessionTypes); err != nil {
		msg := err.Error()
		if i := strings.Index(msg, "the interpreter cannot tell"); i >= 0 {
			msg = msg[i:]
		}
		return nil, refuse(asserts[0], "the assertion to error, in a session whose types implement error ("+strings.Join(impl, ", ")+
			"), is made through assertions to those types, and "+msg)
	}
	var edits []edit
	for _, ta := range asserts {
		b, ok1 := cf.cellOffset(fset.Position(ta.X.Pos()).Offset)
		xe, ok2 := cf.cellOffset(fset.Position(ta.X.End()).Offset)
		e, ok3 := cf.cellOffset(fset.Position(ta.End()).Offset)
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		var lit strings.Builder
		if commaOk[ta] {
			lit.WriteString("func(_x any) (error, bool) { ")
		} else {
			lit.WriteString("func(_x any) error { ")
		}
		for _, t := range impl {
			ret := "_v"
			if commaOk[ta] {
				ret = "_v, true"
			}
			fmt.Fprintf(&lit, "if _v, _ok := _x.(%s); _ok { ", t)
			if strings.HasPrefix(t, "*") {
				fmt.Fprintf(&lit, "if _v == nil { panic(%q) }; ", Refused+"a nil "+t+" asserted to error: the interpreter gives a nil error for it, where Go's error holds the nil pointer; test the pointer for nil first")
			}
			fmt.Fprintf(&lit, "return %s }; ", ret)
		}
		if commaOk[ta] {
			lit.WriteString("_e, _ok := _x.(error); return _e, _ok }(")
		} else {
			lit.WriteString("return _x.(error) }(")
		}
		edits = append(edits, edit{b, b, lit.String()}, edit{xe, e, ")"})
	}
	return edits, nil
}

// callee returns the function of a call without its parentheses and
// type arguments (F of F[int]).
func callee(fun ast.Expr) ast.Expr {
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	return ast.Unparen(fun)
}

// calleeIdent returns the identifier that names the function of a call
// (F in F(…), F[int](…), p.F(…)), or nil.
func calleeIdent(fun ast.Expr) *ast.Ident {
	switch f := callee(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// spreadCall returns the edits that write F(g()), where g has several
// results and F is append, copy, complex or a generic function, as
// func() R { _ps0, _ps1 := g(); return F(_ps0, _ps1) }(): yaegi v0.16.1
// kept only g's first result for append (append(g()) gave g's slice
// alone) where g was declared in another cell, and failed on the others.
func spreadCall(code string, n *ast.CallExpr, info *types.Info, spell func(types.Type) (string, bool), cf *cellFile, fset *token.FileSet) ([]edit, bool) {
	if len(n.Args) != 1 || n.Ellipsis.IsValid() {
		return nil, false
	}
	arg, ok := ast.Unparen(n.Args[0]).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	if tv, ok := info.Types[arg.Fun]; !ok || tv.IsType() {
		return nil, false
	}
	tuple, ok := info.TypeOf(arg).(*types.Tuple)
	if !ok || tuple.Len() < 2 {
		return nil, false
	}
	id := calleeIdent(n.Fun)
	if id == nil {
		return nil, false
	}
	if b, ok := info.Uses[id].(*types.Builtin); ok {
		switch b.Name() {
		case "append", "copy", "complex":
		default:
			return nil, false
		}
	} else if !isGenericCall(n.Fun, info) || !plainFunc(n.Fun, info) {
		// A method's receiver (f().m(g())) is evaluated before g in Go:
		// left alone.
		return nil, false
	}
	var results []string
	switch t := info.TypeOf(n).(type) {
	case *types.Tuple:
		for i := range t.Len() {
			r, ok := spell(t.At(i).Type())
			if !ok {
				return nil, false
			}
			results = append(results, r)
		}
	case nil:
		return nil, false
	default:
		r, ok := spell(t)
		if !ok {
			return nil, false
		}
		results = []string{r}
	}
	var vars []string
	for i := range tuple.Len() {
		vars = append(vars, fmt.Sprintf("_ps%d", i))
	}
	at := func(p token.Pos) (int, bool) { return cf.cellOffset(fset.Position(p).Offset) }
	b, ok1 := at(n.Pos())
	funEnd, ok2 := at(n.Fun.End())
	lp, ok3 := at(n.Lparen)
	ab, ok4 := at(n.Args[0].Pos())
	ae, ok5 := at(n.Args[0].End())
	e, ok6 := at(n.End())
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || lp+1 > ab {
		return nil, false
	}
	sig := "func() "
	switch len(results) {
	case 0:
	case 1:
		sig += results[0] + " "
	default:
		sig += "(" + strings.Join(results, ", ") + ") "
	}
	ret := "return "
	if len(results) == 0 {
		ret = ""
	}
	// F(g(…)) → func() R { _ps0, _ps1 := g(…); return F(_ps0, _ps1) }().
	return []edit{
		{b, ab, sig + "{ " + strings.Join(vars, ", ") + " := "},
		{ae, e, "; " + ret + code[b:funEnd] + "(" + strings.Join(vars, ", ") + ") }()"},
	}, true
}

// plainFunc reports whether fun, the function of a call, is a name with
// type arguments at most (F, F[int], pkg.F): nothing in it runs.
func plainFunc(fun ast.Expr, info *types.Info) bool {
	switch f := callee(fun).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		id, ok := f.X.(*ast.Ident)
		if !ok {
			return false
		}
		_, pkg := info.Uses[id].(*types.PkgName)
		return pkg
	}
	return false
}

// newValue returns the edit that writes new(expr) of Go 1.26, a pointer
// to a variable holding expr, as func(_nv T) *T { return &_nv }(expr), T
// the type go/types gives the variable: the interpreter (Go 1.22's
// language) gave a pointer to a zero value.
func newValue(n *ast.CallExpr, info *types.Info, spell func(types.Type) (string, bool), cf *cellFile, fset *token.FileSet) (edit, bool) {
	id, ok := ast.Unparen(n.Fun).(*ast.Ident)
	if !ok || len(n.Args) != 1 {
		return edit{}, false
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "new" {
		return edit{}, false
	}
	if tv, ok := info.Types[n.Args[0]]; !ok || tv.IsType() {
		return edit{}, false
	}
	p, ok := info.TypeOf(n).(*types.Pointer)
	if !ok {
		return edit{}, false
	}
	t, ok := spell(p.Elem())
	if !ok {
		return edit{}, false
	}
	b, ok1 := cf.cellOffset(fset.Position(n.Pos()).Offset)
	a, ok2 := cf.cellOffset(fset.Position(n.Args[0].Pos()).Offset)
	if !ok1 || !ok2 || a < b {
		return edit{}, false
	}
	return edit{b, a, "func(_nv " + t + ") *" + t + " { return &_nv }("}, true
}
