package yaegifix

import (
	"errors"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"strings"
)

// SymbolImporter is a types.Importer of the compiled packages a session
// offers: it builds each package's go/types view from the symbols the
// interpreter holds for it (functions, variables, constants and types, as
// reflect values), so that go/types can type a cell the way the
// interpreter will run it, with the packages it really has. Methods and
// fields are those reflect shows (exported methods; all fields).
type SymbolImporter struct {
	// Symbols returns the symbols of the package path, nil when the
	// session has none.
	Symbols func(path string) map[string]reflect.Value
	pkgs    map[string]*types.Package
	named   map[reflect.Type]*types.Named
}

// Import implements types.Importer.
func (im *SymbolImporter) Import(path string) (*types.Package, error) {
	if p, ok := im.pkgs[path]; ok && p.Complete() {
		return p, nil
	}
	syms := im.Symbols(path)
	if syms == nil {
		return nil, errors.New("no package " + path)
	}
	p := im.pkg(path)
	scope := p.Scope()
	for name, v := range syms {
		if strings.HasPrefix(name, "_") || !v.IsValid() || scope.Lookup(name) != nil {
			continue
		}
		var obj types.Object
		switch {
		case v.CanAddr():
			// A variable: the interpreter's symbol is the variable itself.
			obj = types.NewVar(token.NoPos, p, name, im.typ(v.Type()))
		case v.Kind() == reflect.Pointer && v.IsNil():
			t := v.Type().Elem()
			typ := im.typ(t)
			if n, ok := typ.(*types.Named); ok && n.Obj().Name() == name && n.Obj().Pkg() == p {
				obj = n.Obj()
			} else {
				obj = types.NewTypeName(token.NoPos, p, name, typ) // an alias
			}
		case v.Kind() == reflect.Func:
			sig, ok := im.typ(v.Type()).(*types.Signature)
			if !ok {
				continue
			}
			obj = types.NewFunc(token.NoPos, p, name, sig)
		case v.Kind() == reflect.Pointer:
			obj = types.NewVar(token.NoPos, p, name, im.typ(v.Type().Elem()))
		default:
			if c, ok := v.Interface().(constant.Value); ok {
				obj = types.NewConst(token.NoPos, p, name, untypedOf(c), c)
				break
			}
			t := im.typ(v.Type())
			if c := constantOf(v); c != nil {
				obj = types.NewConst(token.NoPos, p, name, t, c)
			} else {
				obj = types.NewVar(token.NoPos, p, name, t)
			}
		}
		scope.Insert(obj)
	}
	p.MarkComplete()
	return p, nil
}

// pkg returns the package path, made on first use.
func (im *SymbolImporter) pkg(path string) *types.Package {
	if im.pkgs == nil {
		im.pkgs = map[string]*types.Package{}
		im.named = map[reflect.Type]*types.Named{}
	}
	if p, ok := im.pkgs[path]; ok {
		return p
	}
	p := types.NewPackage(path, DefaultName(path))
	im.pkgs[path] = p
	return p
}

// untypedOf returns the untyped type of a constant value.
func untypedOf(c constant.Value) types.Type {
	switch c.Kind() {
	case constant.Bool:
		return types.Typ[types.UntypedBool]
	case constant.String:
		return types.Typ[types.UntypedString]
	case constant.Int:
		return types.Typ[types.UntypedInt]
	case constant.Float:
		return types.Typ[types.UntypedFloat]
	case constant.Complex:
		return types.Typ[types.UntypedComplex]
	}
	return types.Typ[types.Invalid]
}

// constantOf returns the value of a typed constant held in v, or nil.
func constantOf(v reflect.Value) constant.Value {
	switch v.Kind() {
	case reflect.Bool:
		return constant.MakeBool(v.Bool())
	case reflect.String:
		return constant.MakeString(v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float())
	}
	return nil
}

// typ returns the go/types view of a reflect type.
func (im *SymbolImporter) typ(t reflect.Type) types.Type {
	if t.Name() != "" {
		if t.PkgPath() == "" {
			if o := types.Universe.Lookup(t.Name()); o != nil {
				if tn, ok := o.(*types.TypeName); ok {
					return tn.Type()
				}
			}
			return types.Typ[types.Invalid]
		}
		if n, ok := im.named[t]; ok {
			return n
		}
		if strings.ContainsAny(t.Name(), "[") {
			return types.Typ[types.Invalid] // an instantiation: not named so in Go source
		}
		p := im.pkg(t.PkgPath())
		n := types.NewNamed(types.NewTypeName(token.NoPos, p, t.Name(), nil), nil, nil)
		im.named[t] = n
		n.SetUnderlying(im.structure(t))
		if t.Kind() != reflect.Interface {
			for i := range t.NumMethod() {
				m := t.Method(i)
				n.AddMethod(im.method(p, m, n, false))
			}
			pt := reflect.PointerTo(t)
			for i := range pt.NumMethod() {
				m := pt.Method(i)
				if _, ok := t.MethodByName(m.Name); !ok {
					n.AddMethod(im.method(p, m, n, true))
				}
			}
		}
		return n
	}
	return im.structure(t)
}

// method returns the method m of the named type recv (of *recv when ptr).
func (im *SymbolImporter) method(p *types.Package, m reflect.Method, recv *types.Named, ptr bool) *types.Func {
	var rt types.Type = recv
	if ptr {
		rt = types.NewPointer(recv)
	}
	ft := m.Type // with the receiver first
	var params []*types.Var
	for i := 1; i < ft.NumIn(); i++ {
		params = append(params, types.NewParam(token.NoPos, p, "", im.typ(ft.In(i))))
	}
	var results []*types.Var
	for i := range ft.NumOut() {
		results = append(results, types.NewParam(token.NoPos, p, "", im.typ(ft.Out(i))))
	}
	sig := types.NewSignatureType(types.NewVar(token.NoPos, p, "", rt), nil, nil,
		types.NewTuple(params...), types.NewTuple(results...), ft.IsVariadic())
	return types.NewFunc(token.NoPos, p, m.Name, sig)
}

// structure returns the go/types view of the structure of t, ignoring
// its name.
func (im *SymbolImporter) structure(t reflect.Type) types.Type {
	switch t.Kind() {
	case reflect.Bool:
		return types.Typ[types.Bool]
	case reflect.Int:
		return types.Typ[types.Int]
	case reflect.Int8:
		return types.Typ[types.Int8]
	case reflect.Int16:
		return types.Typ[types.Int16]
	case reflect.Int32:
		return types.Typ[types.Int32]
	case reflect.Int64:
		return types.Typ[types.Int64]
	case reflect.Uint:
		return types.Typ[types.Uint]
	case reflect.Uint8:
		return types.Typ[types.Uint8]
	case reflect.Uint16:
		return types.Typ[types.Uint16]
	case reflect.Uint32:
		return types.Typ[types.Uint32]
	case reflect.Uint64:
		return types.Typ[types.Uint64]
	case reflect.Uintptr:
		return types.Typ[types.Uintptr]
	case reflect.Float32:
		return types.Typ[types.Float32]
	case reflect.Float64:
		return types.Typ[types.Float64]
	case reflect.Complex64:
		return types.Typ[types.Complex64]
	case reflect.Complex128:
		return types.Typ[types.Complex128]
	case reflect.String:
		return types.Typ[types.String]
	case reflect.UnsafePointer:
		return types.Typ[types.UnsafePointer]
	case reflect.Pointer:
		return types.NewPointer(im.typ(t.Elem()))
	case reflect.Slice:
		return types.NewSlice(im.typ(t.Elem()))
	case reflect.Array:
		return types.NewArray(im.typ(t.Elem()), int64(t.Len()))
	case reflect.Map:
		return types.NewMap(im.typ(t.Key()), im.typ(t.Elem()))
	case reflect.Chan:
		dir := types.SendRecv
		switch t.ChanDir() {
		case reflect.SendDir:
			dir = types.SendOnly
		case reflect.RecvDir:
			dir = types.RecvOnly
		}
		return types.NewChan(dir, im.typ(t.Elem()))
	case reflect.Func:
		var params, results []*types.Var
		for i := range t.NumIn() {
			params = append(params, types.NewParam(token.NoPos, nil, "", im.typ(t.In(i))))
		}
		for i := range t.NumOut() {
			results = append(results, types.NewParam(token.NoPos, nil, "", im.typ(t.Out(i))))
		}
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), types.NewTuple(results...), t.IsVariadic())
	case reflect.Struct:
		var fields []*types.Var
		var tags []string
		for i := range t.NumField() {
			f := t.Field(i)
			var p *types.Package
			if f.PkgPath != "" {
				p = im.pkg(f.PkgPath)
			}
			fields = append(fields, types.NewField(token.NoPos, p, f.Name, im.typ(f.Type), f.Anonymous))
			tags = append(tags, string(f.Tag))
		}
		return types.NewStruct(fields, tags)
	case reflect.Interface:
		var methods []*types.Func
		for i := range t.NumMethod() {
			m := t.Method(i)
			var p *types.Package
			if m.PkgPath != "" {
				p = im.pkg(m.PkgPath)
			}
			sig, _ := im.structure(m.Type).(*types.Signature)
			if sig == nil {
				continue
			}
			sig = types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic())
			methods = append(methods, types.NewFunc(token.NoPos, p, m.Name, sig))
		}
		it := types.NewInterfaceType(methods, nil)
		it.Complete()
		return it
	}
	return types.Typ[types.Invalid]
}
