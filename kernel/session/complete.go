package session

import (
	"fmt"
	"go/scanner"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/kernel/internal/displaysym"
	"github.com/portlab/portlab/kernel/session/internal/yaegifix"
	"github.com/traefik/yaegi/stdlib"
)

// keywords and builtins offered by completion.
var keywords = strings.Fields(`break case chan const continue default defer else fallthrough for func go goto if
import interface map package range return select struct switch type var
append cap clear close complex copy delete imag len make max min new panic print println real recover
bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16
uint32 uint64 uintptr any true false nil iota`)

// RuneOffset converts a cursor position in Unicode code points, as Jupyter
// sends it, to a byte offset in code.
func RuneOffset(code string, cursor int) int {
	if cursor < 0 {
		return len(code)
	}
	i := 0
	for n := 0; n < cursor && i < len(code); n++ {
		_, size := utf8.DecodeRuneInString(code[i:])
		i += size
	}
	return i
}

// Runes returns the number of code points in code[:offset].
func Runes(code string, offset int) int { return utf8.RuneCountInString(code[:offset]) }

func isIdent(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// Complete returns the completions of the identifier before byte offset
// cursor in code, and the byte range [start, cursor) they replace: members
// of a package or of a global value after a dot, otherwise the names of
// the session, the imported packages, keywords and builtins.
func (s *Session) Complete(code string, cursor int) (matches []string, start int) {
	s.mu.Lock() // not while a cell runs: the interpreter's tables change
	defer s.mu.Unlock()
	start = cursor
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:start])
		if !isIdent(r) {
			break
		}
		start -= size
	}
	prefix := code[start:cursor]
	var cands []string
	if start > 0 && code[start-1] == '.' {
		cands = s.members(selectorBefore(code, start-1))
	} else {
		cands = append(cands, keywords...)
		for spec := range s.imports {
			name := spec.Name
			if name == "" {
				name = yaegifix.DefaultName(spec.Path)
			}
			if name != "_" && name != "." && !strings.HasPrefix(name, "_") {
				cands = append(cands, name)
			}
		}
		for _, g := range s.Globals() {
			cands = append(cands, g[0])
		}
		cands = append(cands, "ctx")
	}
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) && !seen[c] && !strings.HasPrefix(c, "_") {
			seen[c] = true
			matches = append(matches, c)
		}
	}
	sort.Strings(matches)
	return matches, start
}

// selectorBefore returns the dotted identifier chain that ends at byte
// offset end, such as "m" or "fmt".
func selectorBefore(code string, end int) string {
	i := end
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:i])
		if !isIdent(r) && r != '.' {
			break
		}
		i -= size
	}
	return code[i:end]
}

// packagePath returns the import path of an imported package name.
func (s *Session) packagePath(name string) (string, bool) {
	for spec := range s.imports {
		n := spec.Name
		if n == "" {
			n = yaegifix.DefaultName(spec.Path)
		}
		if n == name {
			return spec.Path, true
		}
	}
	return "", false
}

// displayDoc is the documentation of the display package.
var displayDoc = displaysym.Doc

// exported returns the symbols of a compiled package cells can import.
func (s *Session) exported(path string) map[string]reflect.Value {
	key := path + "/" + yaegifix.DefaultName(path)
	if m, ok := s.opts.Host.Symbols[key]; ok {
		return m
	}
	if m, ok := displaysym.Symbols[key]; ok {
		return m
	}
	if m, ok := stdlib.Symbols[key]; ok {
		return m
	}
	return nil
}

// members returns the names after "expr.": the exported symbols of a
// package, or the fields and methods of a global value.
func (s *Session) members(expr string) []string {
	if path, ok := s.packagePath(expr); ok {
		var out []string
		for name := range s.exported(path) {
			out = append(out, name)
		}
		return out
	}
	v, ok := s.globalValue(expr)
	if !ok {
		return nil
	}
	out := fieldsAndMethods(v.Type())
	for _, m := range s.cellMethodsOf(expr, v.Type()) {
		out = append(out, m.Name)
	}
	return out
}

// learnTypes records the methods and variable types a cell declared.
func (s *Session) learnTypes(p *yaegifix.Plan) {
	for _, name := range p.Defined { // redeclared: forget what was known
		delete(s.embeds, name)
		delete(s.varTypes, name)
	}
	for _, m := range p.Methods {
		if s.methods[m.Recv] == nil {
			s.methods[m.Recv] = map[string]yaegifix.CellMethod{}
		}
		s.methods[m.Recv][m.Name] = m
	}
	for _, t := range p.Types {
		s.varTypes[t[0]] = t[1]
	}
	for _, e := range p.Embeds {
		s.embeds[e[0]] = append(s.embeds[e[0]], e[1])
	}
}

// cellTypesOf returns the names of the cell-declared types that t, the
// type of the value of expr, is, and those it embeds.
func (s *Session) cellTypesOf(expr string, t reflect.Type) []string {
	var names []string
	if name, ok := s.varTypes[expr]; ok {
		names = append(names, name)
	}
	byType := map[reflect.Type]string{}
	for _, syms := range s.interp.Symbols("main") {
		for name, v := range syms {
			if v.IsValid() && v.Kind() == reflect.Pointer {
				byType[v.Type().Elem()] = name
			}
		}
	}
	var visit func(t reflect.Type, depth int)
	visit = func(t reflect.Type, depth int) {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if name, ok := byType[t]; ok {
			names = append(names, name)
		}
		if t.Kind() != reflect.Struct || depth > 3 {
			return
		}
		for i := range t.NumField() {
			if f := t.Field(i); f.Anonymous {
				visit(f.Type, depth+1)
			}
		}
	}
	visit(t, 0)
	// Embedded cell types, as the cells wrote them.
	for i := 0; i < len(names) && i < 64; i++ {
		names = append(names, s.embeds[names[i]]...)
	}
	return names
}

// cellMethodsOf returns the cell-declared methods of the value of expr,
// whose type is t (its embedded types' included).
func (s *Session) cellMethodsOf(expr string, t reflect.Type) []yaegifix.CellMethod {
	var out []yaegifix.CellMethod
	seen := map[string]bool{}
	for _, name := range s.cellTypesOf(expr, t) {
		for _, m := range s.methods[name] {
			if !seen[m.Name] {
				seen[m.Name] = true
				out = append(out, m)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// globalValue evaluates a dotted chain of a global and its fields without
// running any code.
func (s *Session) globalValue(expr string) (reflect.Value, bool) {
	parts := strings.Split(expr, ".")
	v, ok := s.interp.Globals()[parts[0]]
	if !ok || !v.IsValid() {
		return reflect.Value{}, false
	}
	for _, p := range parts[1:] {
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, false
		}
		v = v.FieldByName(p)
		if !v.IsValid() {
			return reflect.Value{}, false
		}
	}
	if v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	return v, true
}

func fieldsAndMethods(t reflect.Type) []string {
	var out []string
	for i := range t.NumMethod() {
		out = append(out, t.Method(i).Name)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				out = append(out, f.Name)
			}
		}
	} else if pt := reflect.PointerTo(t); pt.NumMethod() > t.NumMethod() {
		for i := range pt.NumMethod() {
			out = append(out, pt.Method(i).Name)
		}
	}
	return out
}

// Inspect returns help on the name at byte offset cursor in code: the
// declaration and doc comment of a library symbol, or the type and value of
// a session variable. It reports false when nothing is known about it.
func (s *Session) Inspect(code string, cursor int) (display.Bundle, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	begin, end := cursor, cursor
	for begin > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:begin])
		if !isIdent(r) && r != '.' {
			break
		}
		begin -= size
	}
	for end < len(code) {
		r, size := utf8.DecodeRuneInString(code[end:])
		if !isIdent(r) {
			break
		}
		end += size
	}
	expr := strings.Trim(code[begin:end], ".")
	if expr == "" {
		return display.Bundle{}, false
	}
	if text, ok := s.describe(expr); ok {
		return display.Text(text), true
	}
	return display.Bundle{}, false
}

func (s *Session) describe(expr string) (string, bool) {
	parts := strings.Split(expr, ".")
	if path, ok := s.packagePath(parts[0]); ok {
		if len(parts) == 1 {
			if d, ok := s.doc(path); ok {
				return d, true
			}
			return "package " + parts[0] + " // import \"" + path + "\"", true
		}
		if len(parts) >= 3 {
			if d, ok := s.doc(path + "." + parts[1] + "." + parts[2]); ok {
				return d, true
			}
		}
		if d, ok := s.doc(path + "." + parts[1]); ok {
			return d, true
		}
		if v, ok := s.exported(path)[parts[1]]; ok {
			return fmt.Sprintf("%s.%s %s", parts[0], parts[1], v.Type()), true
		}
		return "", false
	}
	// A method or field of a global: the doc of the method of its type.
	if len(parts) >= 2 {
		if v, ok := s.globalValue(strings.Join(parts[:len(parts)-1], ".")); ok {
			t := v.Type()
			name := parts[len(parts)-1]
			base := t
			if base.Kind() == reflect.Pointer {
				base = base.Elem()
			}
			if d, ok := s.doc(base.PkgPath() + "." + base.Name() + "." + name); ok {
				return d, true
			}
			if m, ok := reflect.PointerTo(base).MethodByName(name); ok {
				return fmt.Sprintf("method %s.%s %s", t, name, m.Type), true
			}
			for _, m := range s.cellMethodsOf(strings.Join(parts[:len(parts)-1], "."), t) {
				if m.Name == name {
					text := m.Decl
					if m.Doc != "" {
						text += "\n\n" + m.Doc
					}
					return text, true
				}
			}
		}
	}
	if v, ok := s.globalValue(expr); ok {
		text := fmt.Sprintf("%s %s = %s", expr, v.Type(), display.Format(valueOf(v)))
		base := v.Type()
		if base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		if d, ok := s.doc(base.PkgPath() + "." + base.Name()); ok {
			text += "\n\n" + d
		}
		return text, true
	}
	for _, k := range keywords {
		if k == expr {
			return expr + " is a Go keyword, predeclared identifier or builtin", true
		}
	}
	if kind, ok := s.funcs[expr]; ok {
		return expr + " (" + kind + " in an earlier cell)", true
	}
	return "", false
}

func valueOf(v reflect.Value) any {
	if v.CanInterface() {
		return v.Interface()
	}
	return v.String()
}

// IsComplete reports whether code is a complete cell ("complete"), needs
// more lines ("incomplete", with the indent for the next line) or cannot
// become valid ("invalid"), as the console asks before executing.
func IsComplete(code string) (status, indent string) {
	if strings.TrimSpace(code) == "" || strings.HasPrefix(strings.TrimSpace(code), "%") {
		return "complete", ""
	}
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(code))
	var s scanner.Scanner
	var errMsg string
	s.Init(file, []byte(code), func(_ token.Position, msg string) {
		if errMsg == "" {
			errMsg = msg
		}
	}, 0)
	depth := 0
	last := token.ILLEGAL
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
			if depth < 0 {
				return "invalid", ""
			}
		}
		last = tok
	}
	if errMsg != "" {
		if strings.Contains(errMsg, "raw string literal not terminated") || strings.Contains(errMsg, "comment not terminated") {
			return "incomplete", ""
		}
		return "invalid", ""
	}
	if depth > 0 {
		return "incomplete", strings.Repeat("\t", depth)
	}
	switch {
	case last.IsOperator() && last != token.RPAREN && last != token.RBRACK && last != token.RBRACE &&
		last != token.INC && last != token.DEC && last != token.SEMICOLON:
		return "incomplete", ""
	}
	// Balanced and not ending in an operator: more lines cannot mend a
	// syntax error before the end (x := := 3).
	if _, err := yaegifix.Prepare(code, map[yaegifix.ImportSpec]bool{}, nil); err != nil {
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 && strings.Contains(list[0].Msg, "EOF") {
			return "incomplete", ""
		}
		return "invalid", ""
	}
	return "complete", ""
}
