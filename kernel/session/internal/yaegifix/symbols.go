package yaegifix

import (
	"reflect"

	"github.com/traefik/yaegi/interp"
)

// A Symbols is a copy of entries of the interpreter's table of the main
// package's declarations (symbols, and the methods of their types), taken
// before a cell is compiled, to undo what a failed compilation declared.
//
// yaegi v0.16.1 declares a chunk's functions, variables and methods
// before it compiles their bodies, and keeps them when the compilation
// fails: a function declared again by a cell that failed to compile ran
// as a function without code (returning zero values), a variable declared
// again read zero, a method declared again was kept behind the earlier
// one, and a new type's method ran without code once the cell was fixed
// and run again. A cell that fails to compile has no effect in Go.
type Symbols struct {
	table reflect.Value // map[string]*symbol, writable
	saved map[string]savedSymbol
}

type savedSymbol struct {
	ptr     reflect.Value   // *symbol; invalid if the name was not declared
	copy    reflect.Value   // symbol, a copy
	methods []reflect.Value // the method slices of its types, copies
}

// mainSymbols returns the main package's symbol table, writable, or an
// invalid value where the interpreter is not laid out as expected.
func mainSymbols(it *interp.Interpreter) reflect.Value {
	scopes := reflect.ValueOf(it).Elem().FieldByName("scopes")
	if !scopes.IsValid() || scopes.Kind() != reflect.Map {
		return reflect.Value{}
	}
	sc := writable(scopes).MapIndex(reflect.ValueOf("main"))
	if !sc.IsValid() || sc.Kind() != reflect.Pointer || sc.IsNil() {
		return reflect.Value{}
	}
	sym := sc.Elem().FieldByName("sym")
	if !sym.IsValid() || sym.Kind() != reflect.Map || sym.Type().Elem().Kind() != reflect.Pointer {
		return reflect.Value{}
	}
	return writable(sym)
}

// typeMethods returns the method slices, writable, of the type of the
// symbol s (a *symbol) and of the pointer type the interpreter keeps for
// it (methods with pointer receivers are added to both).
func typeMethods(s reflect.Value) []reflect.Value {
	typ := s.Elem().FieldByName("typ")
	var out []reflect.Value
	for range 2 {
		if !typ.IsValid() || typ.Kind() != reflect.Pointer || typ.IsNil() {
			break
		}
		m := typ.Elem().FieldByName("method")
		if !m.IsValid() || m.Kind() != reflect.Slice {
			break
		}
		out = append(out, writable(m))
		typ = typ.Elem().FieldByName("ptr")
	}
	return out
}

// SnapshotSymbols copies the entries of the main package's symbol table
// of it for names (those a cell declares, and the receivers of its
// methods): what a failed compilation of the cell can change. It returns
// nil when the interpreter is not laid out as expected.
func SnapshotSymbols(it *interp.Interpreter, names []string) *Symbols {
	table := mainSymbols(it)
	if !table.IsValid() {
		return nil
	}
	s := &Symbols{table: table, saved: make(map[string]savedSymbol, len(names))}
	symT := table.Type().Elem().Elem()
	for _, name := range names {
		if _, done := s.saved[name]; done {
			continue
		}
		p := table.MapIndex(reflect.ValueOf(name))
		if !p.IsValid() || p.IsNil() {
			s.saved[name] = savedSymbol{} // absent
			continue
		}
		c := reflect.New(symT).Elem()
		c.Set(reflect.NewAt(symT, p.UnsafePointer()).Elem())
		saved := savedSymbol{ptr: p, copy: c}
		for _, m := range typeMethods(p) {
			mc := reflect.New(m.Type()).Elem()
			mc.Set(m)
			saved.methods = append(saved.methods, mc)
		}
		s.saved[name] = saved
	}
	return s
}

// isPackage reports whether the symbol s (a *symbol) is an imported
// package's: imports are chunks of their own, which the session records
// when they compile, whatever the rest of the cell does.
func isPackage(s reflect.Value) bool {
	if !s.IsValid() || s.IsNil() {
		return false
	}
	k := s.Elem().FieldByName("kind")
	if !k.IsValid() {
		return false
	}
	str := writable(k).MethodByName("String")
	if !str.IsValid() || str.Type().NumIn() != 0 || str.Type().NumOut() != 1 {
		return false
	}
	return str.Call(nil)[0].String() == "pkgSym"
}

// Restore puts the entries of s back as they were when s was taken:
// names declared since are removed (but imported packages), those
// declared again are the earlier ones, and the types' methods are those
// they had.
func (s *Symbols) Restore() {
	if s == nil {
		return
	}
	symT := s.table.Type().Elem().Elem()
	for name, saved := range s.saved {
		key := reflect.ValueOf(name)
		if !saved.ptr.IsValid() {
			if !isPackage(s.table.MapIndex(key)) {
				s.table.SetMapIndex(key, reflect.Value{})
			}
			continue
		}
		s.table.SetMapIndex(key, saved.ptr)
		reflect.NewAt(symT, saved.ptr.UnsafePointer()).Elem().Set(saved.copy)
		for i, m := range typeMethods(saved.ptr) {
			if i < len(saved.methods) {
				m.Set(saved.methods[i])
			} else {
				m.SetZero() // a pointer type made since: its methods are new
			}
		}
	}
}

// DropMethods removes from the types of the main package the methods
// that methods names (a receiver's base type and a method name), so that
// a cell that declares such a method again declares the one that counts:
// yaegi v0.16.1 adds a method declared again after the first and finds
// the first, so that the method a later cell declared again was ignored.
// Functions compiled before keep calling the method they were compiled
// with, as they keep calling a function declared again.
func DropMethods(it *interp.Interpreter, methods []CellMethod) {
	if len(methods) == 0 {
		return
	}
	table := mainSymbols(it)
	if !table.IsValid() {
		return
	}
	byType := map[string]map[string]bool{}
	for _, m := range methods {
		if byType[m.Recv] == nil {
			byType[m.Recv] = map[string]bool{}
		}
		byType[m.Recv][m.Name] = true
	}
	for recv, names := range byType {
		p := table.MapIndex(reflect.ValueOf(recv))
		if !p.IsValid() || p.IsNil() {
			continue
		}
		for _, m := range typeMethods(p) {
			kept := reflect.MakeSlice(m.Type(), 0, m.Len())
			for i := range m.Len() {
				n := m.Index(i)
				if !n.IsNil() {
					if id := n.Elem().FieldByName("ident"); id.IsValid() && id.Kind() == reflect.String && names[id.String()] {
						continue
					}
				}
				kept = reflect.Append(kept, n)
			}
			if kept.Len() != m.Len() {
				m.Set(kept)
			}
		}
	}
}
