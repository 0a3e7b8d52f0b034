package yaegifix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
)

// A Chunk is a run of a cell's top-level declarations (Decl) or of its
// statements, evaluated by one interpreter call.
type Chunk struct {
	Decl    bool
	Src     string
	Line    int          // cell line on which Src starts, from 1
	Imports []ImportSpec // the imports the chunk adds
	// ints, when set, replaces prepare's isInt (a piece of a statement
	// chunk split by splitBlocks sees the whole chunk's local integers);
	// call marks the call of such a piece, which has no value to show.
	ints func(string) bool
	call bool
	// block marks the function declaration splitBlocks made of a
	// top-level statement: its defer statements are the cell's.
	block bool
	// varInit marks the assignment splitVarInits made of a var
	// declaration's initial value: the names it assigns are defined by it.
	varInit bool
	// LastStep is the number of the chunk's last top-level statement in
	// the cell, from 1 (statement chunks only).
	LastStep int
}

// Call reports whether the chunk is the call of a top-level statement that
// splitBlocks made a function of.
func (c Chunk) Call() bool { return c.call }

// A Plan is a cell prepared for the interpreter.
type Plan struct {
	Chunks []Chunk
	// Wrapped says that the last statement of the last chunk is an
	// expression now wrapped in the value-capturing call; Unwrapped is that
	// chunk as written, for expressions without a value.
	Wrapped   bool
	Unwrapped string
	Defined   []string // names the cell declares at top level
	// Assigned lists the names the cell's statements define with :=, with
	// the number of the top-level statement (from 1) that defines them.
	Assigned []Assignment
	// Methods are the methods the cell declares; Types pairs a variable the
	// cell defines with the name of its type, when written (x := T{…}).
	Methods []CellMethod
	Types   [][2]string
	Embeds  [][2]string // a struct type and a type it embeds
	// StepLines holds the cell line of each top-level statement, by its
	// number from 1 at index number-1: where a panic of the cell is.
	StepLines []int
	// FuncLines holds the cell line of each function the cell declares.
	FuncLines map[string]int
	// Lines is the number of lines of the cell.
	Lines int
	// TypeSrcs holds the source of each top-level type the cell declares
	// (its spaces collapsed), TypeLines its cell line.
	TypeSrcs  map[string]string
	TypeLines map[string]int
	// Results holds the result counts of the functions and methods of
	// the cell and the earlier ones PrepareCell was given (resultCounts).
	Results map[string]int
}

// A CellMethod is a method declared in a cell, for completion and
// inspection: the interpreter's types have no methods reflect can see.
type CellMethod struct {
	Recv, Name string // receiver base type and method name
	Decl, Doc  string // declaration up to the body, doc comment
}

// receiverName returns the base type name of a method's receiver, "" for
// a function.
func receiverName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	t := d.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// definedType returns the variable a statement defines and its type's
// name when the statement writes it: x := T{…}, x := &T{…}, var x T.
func definedType(st ast.Stmt) (name, typ string) {
	typeName := func(x ast.Expr) string {
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
			x = u.X
		}
		if cl, ok := x.(*ast.CompositeLit); ok {
			x = cl.Type
		} else {
			return ""
		}
		if id, ok := x.(*ast.Ident); ok {
			return id.Name
		}
		return ""
	}
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE && len(st.Lhs) == 1 && len(st.Rhs) == 1 {
			if id, ok := st.Lhs[0].(*ast.Ident); ok {
				if t := typeName(st.Rhs[0]); t != "" {
					return id.Name, t
				}
			}
		}
	case *ast.DeclStmt:
		if g, ok := st.Decl.(*ast.GenDecl); ok && len(g.Specs) == 1 {
			if vs, ok := g.Specs[0].(*ast.ValueSpec); ok && len(vs.Names) == 1 {
				t := vs.Type
				if star, ok := t.(*ast.StarExpr); ok {
					t = star.X
				}
				if id, ok := t.(*ast.Ident); ok {
					return vs.Names[0].Name, id.Name
				}
				if len(vs.Values) == 1 {
					if tn := typeName(vs.Values[0]); tn != "" {
						return vs.Names[0].Name, tn
					}
				}
			}
		}
	}
	return "", ""
}

// An Assignment is a name a cell defines by its top-level statement Step.
type Assignment struct {
	Name string
	Step int
}

// An ImportSpec is an import of a cell: the package's path and the name it
// is imported as ("" for its own name).
type ImportSpec struct{ Name, Path string }

// valueFunc is the interpreted name of the function that receives the
// values of a cell's last expression.
const valueFunc = "_portlab.Value"

// split divides a cell into chunks of top-level declarations and of
// statements, in order.
func split(src string) ([]Chunk, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(file, []byte(src), func(pos token.Position, msg string) { errs.Add(pos, msg) }, scanner.ScanComments)
	type tok struct {
		pos token.Pos
		tok token.Token
	}
	var toks []tok
	for {
		pos, t, _ := s.Scan()
		if t == token.EOF {
			break
		}
		if t == token.COMMENT {
			continue
		}
		toks = append(toks, tok{pos, t})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	var starts []int // token indexes of top-level declarations and of statement runs
	var kinds []bool
	depth := 0
	atStart := true
	for i, t := range toks {
		if depth == 0 && atStart {
			isDecl := false
			switch t.tok {
			case token.IMPORT, token.TYPE, token.VAR, token.CONST:
				isDecl = true
			case token.FUNC:
				rest := make([]token.Token, 0, 16)
				for _, r := range toks[i+1:] {
					rest = append(rest, r.tok)
				}
				isDecl = isFuncDecl(rest)
			}
			if isDecl || len(kinds) == 0 || kinds[len(kinds)-1] {
				starts = append(starts, i)
				kinds = append(kinds, isDecl)
			}
		}
		switch t.tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
		atStart = depth == 0 && t.tok == token.SEMICOLON
	}
	var chunks []Chunk
	for k, i := range starts {
		begin := file.Offset(toks[i].pos)
		end := len(src)
		if k+1 < len(starts) {
			end = file.Offset(toks[starts[k+1]].pos)
		}
		chunks = append(chunks, Chunk{Decl: kinds[k], Src: src[begin:end], Line: file.Line(toks[i].pos)})
	}
	// Merge consecutive declarations: one Eval for all of them.
	var merged []Chunk
	for _, c := range chunks {
		if n := len(merged); n > 0 && merged[n-1].Decl && c.Decl {
			merged[n-1].Src += c.Src
			continue
		}
		merged = append(merged, c)
	}
	return merged, nil
}

// isFuncDecl reports whether the tokens after a statement-initial func
// start a declaration (func Name… or a method func (r T) Name(…) rather
// than a function literal.
func isFuncDecl(rest []token.Token) bool {
	if len(rest) == 0 {
		return false
	}
	tok := func(j int) token.Token { return rest[j] }
	switch tok(0) {
	case token.IDENT:
		return true
	case token.LPAREN:
		depth := 0
		for j := range len(rest) {
			switch tok(j) {
			case token.LPAREN:
				depth++
			case token.RPAREN:
				depth--
				if depth == 0 {
					return j+2 < len(rest) && tok(j+1) == token.IDENT && (tok(j+2) == token.LPAREN || tok(j+2) == token.LBRACK)
				}
			}
		}
	}
	return false
}

// stmtPrefix wraps a statement chunk for parsing.
const stmtPrefix = "package p; func _() {\n"

// Prepare turns a cell into a plan: it splits it, drops imports the
// session already has, rewrites range-over-int loops the interpreter
// cannot run, and wraps the last expression statement so that its values
// are captured. imported holds the session's packages by import spec (it
// is not changed: the caller records a chunk's imports once the chunk has
// been evaluated) and isInt reports whether a global is an integer.
func Prepare(src string, imported map[ImportSpec]bool, isInt func(string) bool) (*Plan, error) {
	return PrepareCell(src, imported, isInt, nil, nil, nil, nil, 0)
}

// PrepareCell is Prepare for the cell numbered cell (from 1; 0 for none):
// it also rewrites go, defer and make (cellEdits) and, for a numbered cell,
// inserts the checkpoints that stop it after an interrupt. isIface reports
// whether a type of the session is an interface with methods; earlier
// holds the result counts of the session's functions and methods (the
// Results of the plans before), isCompiledVar whether a variable of the
// session is of a compiled package's type (callArgEdits).
func PrepareCell(src string, imported map[ImportSpec]bool, isInt, isVar, isIface func(string) bool, earlier map[string]int, isCompiledVar func(string) bool, cell int) (*Plan, error) {
	chunks, err := split(src)
	if err != nil {
		return nil, err
	}
	// The integers and iterator functions the cell declares at top
	// level, for the range loops of all its chunks.
	isInt, seqs := cellDecls(chunks, isInt)
	chunks = splitBlocks(chunks, isInt)
	if cell > 0 {
		chunks = splitVarInits(chunks, isVar)
	}
	known := make(map[ImportSpec]bool, len(imported))
	for k, v := range imported {
		known[k] = v
	}
	p := &Plan{FuncLines: map[string]int{}, Lines: strings.Count(src, "\n") + 1, TypeSrcs: map[string]string{}, TypeLines: map[string]int{}}
	step := 0 // top-level statements so far
	importChunks := map[int]Chunk{}
	var generics genericTypes
	var recursive recursiveTypes
	// The interface types the cell declares, for assertEdits.
	ifaces := map[string]bool{}
	ifaceTypes := map[string]*ast.InterfaceType{} // for methodSetEdits
	for _, c := range chunks {
		if c.Decl {
			if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+c.Src, 0); err == nil {
				interfaceNames(f, ifaces)
				interfaceTypes(f, ifaceTypes)
			}
		} else if f, err := parser.ParseFile(token.NewFileSet(), "", stmtPrefix+c.Src+"\n}", 0); err == nil {
			interfaceNames(f, ifaces)
			interfaceTypes(f, ifaceTypes)
		}
	}
	// The functions of the cell with float parameters, for negZeroEdits.
	floatFuncs := map[string][]bool{}
	for _, c := range chunks {
		if c.Decl {
			if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+c.Src, 0); err == nil {
				floatParams(f, floatFuncs)
			}
		}
	}
	// The result counts of the cell's functions and methods, for
	// callArgEdits.
	results := map[string]int{}
	for k, n := range earlier {
		results[k] = n
	}
	for _, c := range chunks {
		if c.Decl {
			if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+c.Src, 0); err == nil {
				resultCounts(f, results)
			}
		}
	}
	p.Results = results
	// The generic functions of the cell, for spreadCallEdits.
	genericFuncs := map[string]bool{}
	for _, c := range chunks {
		if c.Decl {
			if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+c.Src, 0); err == nil {
				genericFuncNames(f, genericFuncs)
			}
		}
	}
	cellIface := func(name string) bool {
		if is, ok := ifaces[name]; ok {
			return is
		}
		return isIface != nil && isIface(name)
	}
	// A cell that may read a recovered value checks its indices itself
	// (boundsEdits).
	readRecover := !declaresPrint(src) && (isVar == nil || !isVar("recover")) && strings.Contains(src, "recover()")
	// The variables of the cell's top level and of the session, for
	// freshTempEdits.
	cellVars := map[string]bool{}
	for _, c := range chunks {
		fset := token.NewFileSet()
		if c.Decl {
			if f, err := parser.ParseFile(fset, "", "package p\n"+c.Src, 0); err == nil {
				for _, d := range f.Decls {
					if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
						for _, sp := range g.Specs {
							for _, n := range sp.(*ast.ValueSpec).Names {
								cellVars[n.Name] = true
							}
						}
					}
				}
			}
		} else if body, err := parseStatements(fset, c.Src); err == nil {
			for _, st := range body.List {
				if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
					for _, l := range as.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							cellVars[id.Name] = true
						}
					}
				}
			}
		}
	}
	isCellVar := func(name string) bool { return cellVars[name] || isVar != nil && isVar(name) }
	// The later passes over a chunk after its edits, in order.
	later := func(src string, decl bool) string {
		for _, pass := range []func(*token.FileSet, *ast.File, int, string) []edit{
			builtinSpreadEdits(isVar), spreadCallEdits(decl, importedName(known), results, genericFuncs), methodExprEdits(cellIface, ifaceTypes), freshTempEdits(results, isCellVar), selectEdits(decl), untypedShiftEdits, storedOpEdits, ifaceSwitchEdits(cellIface), arrayPtrEdits, arrayPtrAddrEdits, opAssignEdits, deferPanicEdits, shiftEdits(isVar), negZeroEdits(floatFuncs), floatCaseEdits, ifaceCaseEdits,
			typeSwitchEdits(cellIface), methodSetEdits(cellIface, ifaceTypes),
			namedResultEdits, compositeEdits, nilCaseEdits, callArgEdits(importedName(known), results, isCompiledVar), fmtArgEdits(fmtName(known), results), nilAssertEdits,
			rangeChanEdits, boundsEdits(readRecover), unnamedParamEdits, anyReturnEdits, returnRecvEdits, funcReturnEdits, promotedExprEdits,
		} {
			src = laterPass(src, decl, pass)
		}
		return src
	}
	builtinPrint := !declaresPrint(src) && (isVar == nil || !isVar("print") && !isVar("println") && !isVar("recover"))
	generic := map[string]bool{}
	for ci := range chunks {
		c := &chunks[ci]
		c.Src = blankTypes(c.Src, c.Decl)
		if c.Decl {
			c.Src = multiValueOrder(c.Src)
		}
		c.Src = foldConstants(c.Src, c.Decl, isVar)
		c.Src = instanceFixes(c.Src, c.Decl, generic)
		fset := token.NewFileSet()
		if c.Decl {
			f, err := parser.ParseFile(fset, "", "package p\n"+c.Src, parser.ParseComments)
			if err != nil {
				return nil, ShiftError(err, c.Line-2)
			}
			generics.add(fset, f, c.Line-2)
			recursive.add(fset, f, c.Line-2)
			if err := instanceRefusals(fset, f, c.Line-2); err != nil {
				return nil, err
			}
			// Imports are evaluated on their own, first: the interpreter
			// keeps the imports of a chunk that fails, and would reject
			// them as redeclared when the corrected cell is run again.
			var importEdits []edit
			ints := isInt
			if c.ints != nil {
				ints = c.ints
			}
			ints = withLocalInts(f, ints)
			otherEdits := rangeEdits(fset, f, 10, c.Src, ints, seqs)
			funcLoops, err := funcRangeLoops(fset, f, 10, c.Src, seqs)
			if err != nil {
				return nil, ShiftError(err, c.Line-2)
			}
			otherEdits = append(otherEdits, funcLoops...)
			otherEdits = append(otherEdits, commaOkVarEdits(fset, f, 10, c.Src)...)
			if cell > 0 {
				otherEdits = append(otherEdits, cellEdits(fset, f, 10, c.Src, c.block, builtinPrint)...)
				otherEdits = append(otherEdits, rangeStringEdits(fset, f, 10, c.Src, ints)...)
				otherEdits = append(otherEdits, assertEdits(fset, f, 10, c.Src, cellIface)...)
				otherEdits = append(otherEdits, funcSwitchEdits(fset, f, 10, c.Src)...)
			}
			loops, err := loopEdits(fset, f, 10, c.Src)
			if err != nil {
				return nil, ShiftError(err, c.Line-2)
			}
			otherEdits = append(otherEdits, loops...)
			closures, err := closureEdits(fset, f, 10, c.Src)
			if err != nil {
				return nil, ShiftError(err, c.Line-2)
			}
			otherEdits = append(otherEdits, closures...)
			gen, err := genericEdits(fset, f, 10, withFileImports(f, importedName(known)))
			if err != nil {
				return nil, ShiftError(err, c.Line-2)
			}
			otherEdits = append(otherEdits, gen...)
			otherEdits = append(otherEdits, untypedArgEdits(fset, f, 10)...)
			sem, err := semanticEdits(fset, f, 10, c.Src)
			if err != nil {
				return nil, ShiftError(err, c.Line-2)
			}
			otherEdits = append(otherEdits, sem...)
			blank := func(n ast.Node) edit {
				begin := fset.Position(n.Pos()).Offset - 10
				end := fset.Position(n.End()).Offset - 10
				return edit{begin, end, strings.Repeat("\n", strings.Count(c.Src[begin:end], "\n"))}
			}
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
					e, added := importEdit(fset, g, known, 10)
					importEdits = append(importEdits, e)
					// With the semicolon that may end it (import "go/ast";),
					// which would be left alone at the top of the chunk.
					b := blank(g)
					if rest := strings.TrimLeft(c.Src[b.end:], " \t"); strings.HasPrefix(rest, ";") {
						b.end = len(c.Src) - len(rest) + 1
					}
					otherEdits = append(otherEdits, b)
					c.Imports = append(c.Imports, added...)
					continue
				}
				importEdits = append(importEdits, blank(d))
				switch d := d.(type) {
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.ValueSpec:
							for _, n := range s.Names {
								p.Defined = append(p.Defined, n.Name)
							}
						case *ast.TypeSpec:
							p.Defined = append(p.Defined, s.Name.Name)
							b, e := fset.Position(s.Pos()).Offset-10, fset.Position(s.End()).Offset-10
							p.TypeSrcs[s.Name.Name] = tokenText(c.Src[b:e])
							p.TypeLines[s.Name.Name] = c.Line + fset.Position(s.Pos()).Line - 2
							if st, ok := s.Type.(*ast.StructType); ok {
								for _, f := range st.Fields.List {
									x := f.Type
									if star, ok := x.(*ast.StarExpr); ok {
										x = star.X
									}
									if id, ok := x.(*ast.Ident); ok && len(f.Names) == 0 {
										p.Embeds = append(p.Embeds, [2]string{s.Name.Name, id.Name})
									}
								}
							}
						}
					}
				case *ast.FuncDecl:
					if d.Recv == nil && d.Name.Name == "main" && cell > 0 {
						var errs scanner.ErrorList
						pos := fset.Position(d.Name.Pos())
						pos.Line += c.Line - 2
						errs.Add(pos, Refused+"func main would run again after every later cell (the interpreter runs a package's main after each evaluation): "+
							"give it another name, such as run, and call run()")
						return nil, errs
					}
					if d.Recv == nil && !strings.HasPrefix(d.Name.Name, blockPrefix) {
						p.Defined = append(p.Defined, d.Name.Name)
						p.FuncLines[d.Name.Name] = c.Line + fset.Position(d.Pos()).Line - 2
					}
					if recv := receiverName(d); recv != "" && d.Body != nil {
						begin := fset.Position(d.Pos()).Offset - 10
						end := fset.Position(d.Body.Lbrace).Offset - 10
						p.Methods = append(p.Methods, CellMethod{Recv: recv, Name: d.Name.Name,
							Decl: strings.TrimSpace(c.Src[begin:end]), Doc: strings.TrimSpace(d.Doc.Text())})
					}
				}
			}
			if imports := applyEdits(c.Src, importEdits); strings.TrimSpace(imports) != "" {
				importChunks[ci] = Chunk{Decl: true, Src: imports, Line: c.Line, Imports: c.Imports}
			}
			c.Imports = nil
			c.Src = applyEdits(c.Src, otherEdits)
			if cell > 0 {
				c.Src = later(c.Src, true)
			}
			if strings.TrimSpace(c.Src) == "" {
				c.Src = ""
			}
			continue
		}
		f, err := parser.ParseFile(fset, "", stmtPrefix+c.Src+"\n}", parser.ParseComments)
		if err != nil {
			return nil, ShiftError(err, c.Line-2)
		}
		body := f.Decls[0].(*ast.FuncDecl).Body
		off := len(stmtPrefix)
		if err := instanceRefusals(fset, f, c.Line-2); err != nil {
			return nil, err
		}
		ints := withLocalInts(f, isInt)
		if c.ints != nil {
			ints = withLocalInts(f, c.ints)
		}
		edits := rangeEdits(fset, f, off, c.Src, ints, seqs)
		funcLoops, err := funcRangeLoops(fset, f, off, c.Src, seqs)
		if err != nil {
			return nil, ShiftError(err, c.Line-2)
		}
		edits = append(edits, funcLoops...)
		loops, err := loopEdits(fset, f, off, c.Src)
		if err != nil {
			return nil, ShiftError(err, c.Line-2)
		}
		edits = append(edits, loops...)
		closures, err := closureEdits(fset, f, off, c.Src)
		if err != nil {
			return nil, ShiftError(err, c.Line-2)
		}
		edits = append(edits, closures...)
		gen, err := genericEdits(fset, f, off, importedName(known))
		if err != nil {
			return nil, ShiftError(err, c.Line-2)
		}
		edits = append(edits, gen...)
		edits = append(edits, untypedArgEdits(fset, f, off)...)
		sem, err := semanticEdits(fset, body, off, c.Src)
		if err != nil {
			return nil, ShiftError(err, c.Line-2)
		}
		edits = append(edits, sem...)
		edits = append(edits, blankEdits(fset, body, off, c.Src)...)
		if cell > 0 {
			edits = append(edits, cellEdits(fset, body, off, c.Src, true, builtinPrint)...)
			edits = append(edits, rangeStringEdits(fset, body, off, c.Src, ints)...)
			edits = append(edits, assertEdits(fset, body, off, c.Src, cellIface)...)
			edits = append(edits, funcSwitchEdits(fset, body, off, c.Src)...)
			edits = append(edits, checkpointEdits(fset, body, off, cell, step+1)...)
		}
		for _, st := range body.List {
			step++
			p.StepLines = append(p.StepLines, c.Line+fset.Position(st.Pos()).Line-2)
			if name, typ := definedType(st); name != "" {
				p.Types = append(p.Types, [2]string{name, typ})
			}
			if as, ok := st.(*ast.AssignStmt); ok && (as.Tok == token.DEFINE || c.varInit && as.Tok == token.ASSIGN) {
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" && !strings.HasPrefix(id.Name, tempPrefix) {
						if as.Tok == token.DEFINE {
							p.Defined = append(p.Defined, id.Name)
						}
						p.Assigned = append(p.Assigned, Assignment{id.Name, step})
					}
				}
			}
		}
		if ci == len(chunks)-1 && len(body.List) > 0 && !c.call {
			if es, ok := body.List[len(body.List)-1].(*ast.ExprStmt); ok && showsValue(es.X) {
				p.Unwrapped = applyEdits(c.Src, edits)
				if cell > 0 {
					p.Unwrapped = later(p.Unwrapped, false)
				}
				begin := fset.Position(es.X.Pos()).Offset - off
				end := fset.Position(es.X.End()).Offset - off
				edits = append(edits, edit{begin, begin, valueFunc + "("}, edit{end, end, ")"})
				p.Wrapped = true
			}
		}
		c.Src = applyEdits(c.Src, edits)
		if cell > 0 {
			c.Src = later(c.Src, false)
		}
		c.LastStep = step
	}
	if err := generics.check(); err != nil {
		return nil, err
	}
	if err := recursive.check(src); err != nil {
		return nil, err
	}
	for ci, c := range chunks {
		if ic, ok := importChunks[ci]; ok {
			p.Chunks = append(p.Chunks, ic)
		}
		if c.Src != "" {
			if !c.Decl {
				c.Src = asStatements(c.Src)
			}
			p.Chunks = append(p.Chunks, c)
		}
	}
	if p.Wrapped && (len(p.Chunks) == 0 || p.Chunks[len(p.Chunks)-1].Decl) {
		p.Wrapped = false
	}
	p.Unwrapped = asStatements(p.Unwrapped)
	return p, nil
}

// asStatements makes sure that the interpreter takes statements as such:
// yaegi v0.16.1 takes source that starts with the keyword func for
// declarations, and when it does not parse as such (func() { … }() as a
// statement), wraps it in a func main that runs again after every later
// evaluation, with its variables local to it. A semicolon before it makes
// the interpreter run it as statements (one column more on the first line).
func asStatements(src string) string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	if _, tok, _ := s.Scan(); tok == token.FUNC {
		return ";" + src
	}
	return src
}

// showsValue reports whether the value of an expression statement should be
// shown: not for calls of the print functions, whose results are byte
// counts, nor of panic.
func showsValue(x ast.Expr) bool {
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return true
	}
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		switch fn.Name {
		case "print", "println", "panic", "close", "delete", "clear":
			return false
		}
	case *ast.SelectorExpr:
		if pkg, ok := fn.X.(*ast.Ident); ok {
			name := fn.Sel.Name
			switch pkg.Name {
			case "fmt":
				return !strings.HasPrefix(name, "Print") && !strings.HasPrefix(name, "Fprint") && !strings.HasPrefix(name, "Scan")
			case "display":
				return name != "Show" && name != "ShowAs" && name != "Update"
			case "log":
				return false
			}
		}
	}
	return true
}

// importEdit removes from an import declaration the specs in known (the
// session's and the cell's earlier ones), keeping the declaration's number
// of lines, and returns the specs it keeps.
func importEdit(fset *token.FileSet, d *ast.GenDecl, known map[ImportSpec]bool, off int) (edit, []ImportSpec) {
	var added []ImportSpec
	var keep []string
	for _, spec := range d.Specs {
		s := spec.(*ast.ImportSpec)
		path, _ := strconv.Unquote(s.Path.Value)
		is := ImportSpec{Path: path}
		if s.Name != nil {
			is.Name = s.Name.Name
		}
		if known[is] || known[ImportSpec{Path: path, Name: DefaultName(path)}] && is.Name == DefaultName(path) {
			continue
		}
		known[is] = true
		added = append(added, is)
		keep = append(keep, strings.TrimSpace(is.Name+" "+s.Path.Value))
	}
	begin := fset.Position(d.Pos()).Offset - off
	end := fset.Position(d.End()).Offset - off
	lines := fset.Position(d.End()).Line - fset.Position(d.Pos()).Line
	text := ""
	if len(keep) > 0 {
		text = "import (" + strings.Join(keep, "; ") + ")"
	}
	return edit{begin, end, text + strings.Repeat("\n", lines)}, added
}

// DefaultName is the package name an import path gets without an alias.
func DefaultName(path string) string {
	name := path[strings.LastIndex(path, "/")+1:]
	if len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		rest := path[:strings.LastIndex(path, "/")]
		name = rest[strings.LastIndex(rest, "/")+1:]
	}
	return name
}

// rangeEdits rewrites the loops `for i := range n` over an integer that the
// interpreter would crash on (Go 1.22 range-over-int) into three-clause
// loops, when n is recognisably an integer: a constant, a len or cap call,
// arithmetic on them, or a global integer.
//
// It also rewrites range loops that assign to existing variables, `for i =
// range x` and `for k, v = range x`: the interpreter leaves the variables
// as they were before the loop (each iteration's body sees the right
// values). The loop ranges into fresh variables and assigns them at the
// start of each iteration, `for _portlab_k1 := range x { i = _portlab_k1;
// …`, so that after the loop they hold the last iteration's values as in
// Go. A range over an integer assigning to i counts with a fresh variable
// and the bound evaluated once likewise.
func rangeEdits(fset *token.FileSet, f *ast.File, off int, src string, isInt func(string) bool, seqs map[string]string) []edit {
	var edits []edit
	n := 0
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	funcs := yieldTypes(fset, f, off, src, seqs)
	ast.Inspect(f, func(node ast.Node) bool {
		rs, ok := node.(*ast.RangeStmt)
		if !ok {
			return true
		}
		if _, ok := rangeFuncType(rs.X, funcs); ok {
			return true // funcRangeLoops
		}
		intRange := rs.Value == nil && isIntExpr(rs.X, isInt)
		if !intRange && (rs.Tok != token.ASSIGN || rs.Key == nil) {
			return true
		}
		n++
		body := pos(rs.Body.Lbrace) + 1
		if !intRange {
			// for k, v = range x { → for _k, _v := range x { k, v = _k, _v;
			lhs := []ast.Expr{rs.Key}
			if rs.Value != nil {
				lhs = append(lhs, rs.Value)
			}
			var fresh, targets, values []string
			for i, x := range lhs {
				if id, ok := x.(*ast.Ident); ok && id.Name == "_" {
					fresh = append(fresh, "_")
					continue
				}
				v := fmt.Sprintf("_portlab_r%d_%d", n, i)
				fresh = append(fresh, v)
				targets = append(targets, src[pos(x.Pos()):pos(x.End())])
				values = append(values, v)
			}
			if len(targets) == 0 {
				return true
			}
			edits = append(edits,
				edit{pos(rs.Key.Pos()), pos(rs.TokPos) + len(rs.Tok.String()), strings.Join(fresh, ", ") + " :="},
				edit{body, body, " " + strings.Join(targets, ", ") + " = " + strings.Join(values, ", ") + ";"})
			return true
		}
		edits = append(edits, intRangeEdits(pos, rs, n, src, isInt)...)
		return true
	})
	return edits
}

// blockSeq numbers the functions splitBlocks creates, session-wide.
var blockSeq atomic.Int64

// blockPrefix starts the names of the functions splitBlocks creates.
const blockPrefix = "_portlabBlock"

// splitBlocks works around interpreter bugs (see also redefinition): at a
// cell's top level, a type switch that binds a name fails, and a
// multi-value definition inside a block (for, if, switch, {…}), such as
// `m, err := hw.Measure(ctx, e)` in a loop body, leaves its names undefined
// (yaegi v0.16.1: "undefined: m"), while inside a function it works; and a
// function literal called at top level is run again by every later
// evaluation when it holds an anonymous struct type. So each such top-level
// statement becomes a function declaration of its own, declared after the
// statements before it have run (it may use their variables) and called
// at once; its lines stay where they are in the cell.
func splitBlocks(chunks []Chunk, isInt func(string) bool) []Chunk {
	var out []Chunk
	for _, c := range chunks {
		if c.Decl {
			out = append(out, c)
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", stmtPrefix+c.Src+"\n}", parser.ParseComments)
		if err != nil {
			out = append(out, c) // prepare reports it
			continue
		}
		body := f.Decls[0].(*ast.FuncDecl).Body
		off := len(stmtPrefix)
		ints := withLocalInts(f, isInt)
		lineAt := func(o int) int { return c.Line + strings.Count(c.Src[:o], "\n") }
		start := 0
		for _, st := range body.List {
			first, second, redefines := redefinition(fset, st, off, c.Src)
			if !redefines && !needsFunction(st) {
				continue
			}
			b := fset.Position(st.Pos()).Offset - off
			e := fset.Position(st.End()).Offset - off
			if strings.TrimSpace(c.Src[start:b]) != "" {
				out = append(out, Chunk{Src: c.Src[start:b], Line: lineAt(start), ints: ints})
			}
			if redefines {
				out = append(out, Chunk{Src: first, Line: lineAt(b), ints: ints}, Chunk{Src: second, Line: lineAt(b), ints: ints})
			} else {
				name := fmt.Sprintf("%s%d", blockPrefix, blockSeq.Add(1))
				out = append(out,
					// The function's header takes the line above, and
					// spaces keep the statement's columns.
					Chunk{Decl: true, Src: "func " + name + "() {\n" + strings.Repeat(" ", b-strings.LastIndex(c.Src[:b], "\n")-1) + c.Src[b:e] + "\n}",
						Line: lineAt(b) - 1, ints: ints, block: true},
					Chunk{Src: name + "()", Line: lineAt(b), call: true})
			}
			start = e
		}
		switch {
		case start == 0:
			out = append(out, c)
		case strings.TrimSpace(c.Src[start:]) != "":
			out = append(out, Chunk{Src: c.Src[start:], Line: lineAt(start), ints: ints})
		}
	}
	return out
}

// redefinition works around another interpreter bug: at top level,
// `x := x + 1` or `a, b := f(a)` with an x or a that already exists
// re-creates the variable as zero before the right-hand side is evaluated
// (yaegi v0.16.1 gives 1, not 2, after x := 1), silently — also when the
// right-hand side is evaluated earlier in the same interpreter call. Such a
// statement is split into two chunks, `T1, T2 := <right-hand side>` and
// `a, b := T1, T2`, with fresh names. It returns their sources, or ok false
// when st is not such a statement.
func redefinition(fset *token.FileSet, st ast.Stmt, off int, src string) (first, second string, ok bool) {
	as, isAssign := st.(*ast.AssignStmt)
	if !isAssign || as.Tok != token.DEFINE || !rhsMentions(as) {
		return "", "", false
	}
	temps := make([]string, len(as.Lhs))
	for k := range temps {
		temps[k] = fmt.Sprintf("%s%d", tempPrefix, blockSeq.Add(1))
	}
	lhs := src[fset.Position(as.Lhs[0].Pos()).Offset-off : fset.Position(as.Lhs[len(as.Lhs)-1].End()).Offset-off]
	rhs := src[fset.Position(as.Rhs[0].Pos()).Offset-off : fset.Position(as.Rhs[len(as.Rhs)-1].End()).Offset-off]
	list := strings.Join(temps, ", ")
	return list + " := " + rhs, lhs + " := " + list, true
}

// tempPrefix starts the names of redefineEdits' temporaries.
const tempPrefix = "_portlabTmp"

// TempPrefix starts the names of the temporaries of the rewriting, which
// the session clears after each cell.
const TempPrefix = tempPrefix

// rhsMentions reports whether the right-hand side of a definition uses a
// name it defines.
func rhsMentions(as *ast.AssignStmt) bool {
	names := map[string]bool{}
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
			names[id.Name] = true
		}
	}
	found := false
	for _, r := range as.Rhs {
		ast.Inspect(r, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(n.X, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && names[id.Name] {
						found = true
					}
					return !found
				})
				return false // n.Sel is a field or method name
			case *ast.Ident:
				if names[n.Name] {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// needsFunction reports whether a top-level statement must run inside a
// function (see splitBlocks).
func needsFunction(st ast.Stmt) bool {
	// yaegi v0.16.1 fails with "index out of range" on a type switch that
	// binds a name (switch t := v.(type)) outside a function.
	if ts, ok := st.(*ast.TypeSwitchStmt); ok {
		if as, ok := ts.Assign.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			return true
		}
	}
	// A comma-ok result assigned to an indexed element (m[k], ok = x.(T))
	// leaves a map unchanged; the rewrite of semanticEdits needs a
	// function, as a multi-value definition at top level fails.
	if as, ok := st.(*ast.AssignStmt); ok && (commaOkIntoIndex(as) || commaOkIntoVars(as) || derefIntoElement(as) || blankOfSeveral(as)) {
		return true
	}
	// Every compound statement runs inside a function: at top level, yaegi
	// v0.16.1 gives a block no scope of its own (x := 2 in an if body
	// overwrites the global x; i := i in a loop body re-creates the loop
	// variable as zero, so the loop never ends), leaves the names of a
	// multi-value definition in a block undefined, and keeps the block's
	// variables alive for the rest of the session.
	switch st.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
		*ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
		return !hasGoto(st)
	}
	return false
}

// hasGoto reports whether st holds a goto statement, which may leave the
// statement for a label elsewhere at top level: such a statement stays at
// top level.
func hasGoto(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				found = true
			}
		}
		return !found
	})
	return found
}

// isIntExpr reports whether x is recognisably an integer expression.
func isIntExpr(x ast.Expr, isInt func(string) bool) bool {
	switch x := x.(type) {
	case *ast.BasicLit:
		return x.Kind == token.INT || x.Kind == token.CHAR
	case *ast.ParenExpr:
		return isIntExpr(x.X, isInt)
	case *ast.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD || x.Op == token.XOR) && isIntExpr(x.X, isInt)
	case *ast.CallExpr:
		id, ok := x.Fun.(*ast.Ident)
		return ok && (id.Name == "len" || id.Name == "cap" || intTypes[id.Name] ||
			isInt != nil && (isInt(intTypeKey+id.Name) || isInt(intFuncKey+id.Name)))
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.SHL, token.SHR:
			return isIntExpr(x.X, isInt) || isIntExpr(x.Y, isInt)
		}
	case *ast.Ident:
		return isInt != nil && isInt(x.Name)
	}
	return false
}

// An edit replaces src[begin:end] by text.
type edit struct {
	begin, end int
	text       string
}

func applyEdits(src string, edits []edit) string {
	// Later edits first; of two at the same place, the replacement first, so
	// that an insertion there lands before its text.
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].begin != edits[j].begin {
			return edits[i].begin > edits[j].begin
		}
		return edits[i].end > edits[j].end
	})
	for _, e := range edits {
		src = src[:e.begin] + e.text + src[e.end:]
	}
	return src
}

// ShiftError moves the line numbers of a parse error by delta so that they
// are the cell's.
func ShiftError(err error, delta int) error {
	if list, ok := err.(scanner.ErrorList); ok {
		var out scanner.ErrorList
		for _, e := range list {
			pos := e.Pos
			pos.Filename = ""
			pos.Line += delta
			out.Add(pos, e.Msg)
		}
		return out
	}
	return err
}

// tokenText returns the tokens of src separated by single spaces, without
// comments and line ends: two texts of the same declaration compare equal.
func tokenText(src string) string {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	var toks []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		if lit == "" {
			lit = tok.String()
		}
		toks = append(toks, lit)
	}
	return strings.Join(toks, " ")
}

// importedName returns whether a package is imported under name.
// withFileImports extends imported by the packages f imports itself.
func withFileImports(f *ast.File, imported func(string) bool) func(string) bool {
	own := map[string]bool{}
	for _, is := range f.Imports {
		path, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			continue
		}
		if is.Name != nil {
			own[is.Name.Name] = true
		} else {
			own[DefaultName(path)] = true
		}
	}
	return func(name string) bool { return own[name] || imported(name) }
}

// fmtName returns a function that reports whether a name is package fmt
// as known imports it.
func fmtName(known map[ImportSpec]bool) func(string) bool {
	return func(name string) bool {
		for is := range known {
			if is.Path == "fmt" && (is.Name == name || is.Name == "" && name == "fmt") {
				return true
			}
		}
		return false
	}
}

func importedName(known map[ImportSpec]bool) func(string) bool {
	return func(name string) bool {
		for is := range known {
			if is.Name == name || is.Name == "" && DefaultName(is.Path) == name {
				return true
			}
		}
		return false
	}
}

// blankEdits works around another interpreter bug: at top level, the
// assignments to the blank identifier share one variable, typed by the
// last of them it compiled, so that _ = bytes.NewBuffer(nil) and then
// _ = io.EOF in one cell panic ("reflect.Set: value of type *bytes.Buffer
// is not assignable to type error"). A top-level `_ = x` becomes a
// definition of a fresh temporary, `_portlabTmpN := x`, which the session
// clears after the cell. (A function literal called there would be run
// again by later evaluations when it panics.)
func blankEdits(fset *token.FileSet, body *ast.BlockStmt, off int, src string) []edit {
	var edits []edit
	for _, st := range body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name != "_" {
			continue
		}
		b, e := fset.Position(as.Pos()).Offset-off, fset.Position(as.TokPos).Offset-off+1
		edits = append(edits, edit{b, e, fmt.Sprintf("%s%d :=", tempPrefix, blockSeq.Add(1))})
	}
	return edits
}
