package yaegifix

import (
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
)

// Functions of the session that check an index or slice expression as
// Go's runtime does (boundsEdits).
const (
	indexFunc  = "_portlab.Index"
	sliceFunc  = "_portlab.SliceIndex"
	slice3Func = "_portlab.Slice3Index"
	arrayLen   = "_portlab.ArrayLen"
)

// boundsEdits makes the index and slice expressions of a cell that reads
// a recovered value (readRecover) panic with Go's text for an index out
// of range: yaegi v0.16.1 indexes by reflect, whose panic holds neither
// the index nor the length ("reflect: slice index out of range"), so that
// RecoverRead stops the cell when it reads the text of such a panic. The
// index goes through Index, which checks it against the length and panics
// as Go's runtime does ("runtime error: index out of range [3] with length
// 3"): a[i] becomes a[_portlab.Index(i, len(a))]; a[i:j] becomes
// a[_portlab.SliceIndex(i, j, cap(a), true):j] (SliceIndex checks both
// bounds in Go's order and returns the low one), a[i:j:k] likewise with
// Slice3Index.
//
// Only an operand a that is a variable the chunk declares with a slice,
// array, pointer to array or string type (written or read from its
// initial value: knownIndexable) is rewritten, with indices that read no
// more than variables, constants and fields (pure; the high bound is read
// twice), never where Go may check an index when it compiles (a
// constant index or bound of an array, constant indices of a string, two
// constant bounds of a three-index slice, a negative constant). What is left panics
// as before, and RecoverRead stops the cell when it reads the text.
func boundsEdits(readRecover bool) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		if !readRecover {
			return nil
		}
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		text := func(x ast.Expr) string { return src[pos(x.Pos()):pos(x.End())] }
		var edits []edit
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IndexExpr:
				id, ok := n.X.(*ast.Ident)
				if !ok || !pure(n.Index) || isNegativeConstant(n.Index) || isFloatConstant(n.Index) {
					return true
				}
				kind := knownIndexable(id)
				if kind == "" || kind != "slice" && maybeConstant(n.Index) {
					return true
				}
				edits = append(edits,
					edit{pos(n.Index.Pos()), pos(n.Index.Pos()), indexFunc + "("},
					edit{pos(n.Index.End()), pos(n.Index.End()), ", " + length(id, kind) + ")"})
			case *ast.SliceExpr:
				id, ok := n.X.(*ast.Ident)
				if !ok {
					return true
				}
				kind := knownIndexable(id)
				if kind == "" || kind == "string" && n.Slice3 {
					return true
				}
				allConstant, constants := true, 0
				for _, x := range []ast.Expr{n.Low, n.High, n.Max} {
					if x == nil {
						continue
					}
					if !pure(x) || isNegativeConstant(x) || isFloatConstant(x) {
						return true
					}
					if maybeConstant(x) {
						constants++
					} else {
						allConstant = false
					}
				}
				if constants > 0 && (kind == "array" || kind == "ptrarray") || allConstant && kind == "string" || n.Slice3 && constants > 1 {
					// Go checks a constant bound of an array, the
					// constant bounds of a string and the order of
					// constant bounds when it compiles.
					return true
				}
				if allConstant && n.Low != nil && n.High != nil {
					// Constant indices out of order fail to compile.
					if lo, ok := n.Low.(*ast.BasicLit); !ok || lo.Kind != token.INT {
						return true
					} else if hi, ok := n.High.(*ast.BasicLit); !ok || hi.Kind != token.INT {
						return true
					} else if a, b := parseInt(lo.Value), parseInt(hi.Value); a < 0 || b < 0 || a > b {
						return true
					}
				}
				capacity := "cap(" + id.Name + ")"
				isCap := "true"
				if kind != "slice" {
					capacity, isCap = length(id, kind), "false"
				}
				low := "0"
				if n.Low != nil {
					low = text(n.Low)
				}
				high := length(id, kind)
				if n.High != nil {
					high = text(n.High)
				}
				var call string
				if n.Slice3 {
					call = slice3Func + "(" + low + ", " + high + ", " + text(n.Max) + ", " + capacity + ", " + isCap + ")"
				} else {
					call = sliceFunc + "(" + low + ", " + high + ", " + capacity + ", " + isCap + ", " + strconv.FormatBool(n.High != nil) + ")"
				}
				if n.Low != nil {
					edits = append(edits, edit{pos(n.Low.Pos()), pos(n.Low.End()), call})
				} else {
					edits = append(edits, edit{pos(n.Lbrack) + 1, pos(n.Lbrack) + 1, call})
				}
			}
			return true
		})
		return edits
	}
}

// length returns the expression of the length of the variable id of
// kind (as knownIndexable) for the checks: for a pointer to an array,
// ArrayLen, which says that it is nil (Go's runtime panics for the nil
// pointer before it checks the index).
func length(id *ast.Ident, kind string) string {
	if kind == "ptrarray" {
		return arrayLen + "(" + id.Name + ")"
	}
	return "len(" + id.Name + ")"
}

// nilArrayMsg is Go's runtime error for an element or a slice of a nil
// pointer to an array, with the kernel's explanation (RecoverIn drops it).
const nilArrayMsg = "runtime error: invalid memory address or nil pointer dereference (an element of a nil pointer to an array)"

// ArrayLen returns the length of the array p points to, -1 if p is nil:
// Index, SliceIndex and Slice3Index then panic as Go's runtime does for
// the nil pointer, before any check of the index.
func ArrayLen(p any) int {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Array {
		return -1
	}
	return v.Len()
}

// parseInt returns the value of an integer literal, -1 if it has none.
func parseInt(lit string) int64 {
	v, err := strconv.ParseInt(lit, 0, 64)
	if err != nil {
		return -1
	}
	return v
}

// pure reports whether x reads no more than variables, constants, fields
// and lengths, so that reading it twice, or before the indexed operand,
// gives the same value and the same panic: no call but len, cap and
// conversions to integer types, no receive.
func pure(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return true
	case *ast.BasicLit:
		return x.Kind == token.INT || x.Kind == token.CHAR
	case *ast.ParenExpr:
		return pure(x.X)
	case *ast.SelectorExpr:
		return pure(x.X)
	case *ast.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD || x.Op == token.XOR) && pure(x.X)
	case *ast.BinaryExpr:
		return pure(x.X) && pure(x.Y)
	case *ast.CallExpr:
		id, ok := x.Fun.(*ast.Ident)
		if !ok || id.Obj != nil || len(x.Args) != 1 || x.Ellipsis.IsValid() {
			return false
		}
		switch id.Name {
		case "len", "cap", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte", "rune":
			return pure(x.Args[0])
		}
	}
	return false
}

// maybeConstant reports whether x may be a constant expression: no
// variable the chunk declares in it (a name declared elsewhere may be a
// constant).
func maybeConstant(x ast.Expr) bool {
	constant := true
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Obj != nil && id.Obj.Kind == ast.Var {
			constant = false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") {
				// len of a variable slice or string is not constant.
				if a, ok := call.Args[0].(*ast.Ident); ok && a.Obj != nil && a.Obj.Kind == ast.Var && knownIndexable(a) != "array" && knownIndexable(a) != "ptrarray" {
					constant = false
				}
				return false
			}
		}
		return true
	})
	return constant
}

// isNegativeConstant reports whether x is -literal (an index Go refuses
// when it compiles).
func isNegativeConstant(x ast.Expr) bool {
	for {
		p, ok := x.(*ast.ParenExpr)
		if !ok {
			break
		}
		x = p.X
	}
	u, ok := x.(*ast.UnaryExpr)
	return ok && u.Op == token.SUB && maybeConstant(u.X)
}

// isFloatConstant reports whether x holds a floating-point literal (an
// untyped constant index such as 2.0, which an argument of type any would
// turn into a float64).
func isFloatConstant(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && (lit.Kind == token.FLOAT || lit.Kind == token.IMAG) {
			found = true
		}
		return !found
	})
	return found
}

// knownIndexable returns "slice", "array", "ptrarray" or "string" for a
// variable id the chunk declares with such a type (written, or read from
// its initial value: a composite literal, a string literal, make, new or
// a conversion), else "".
func knownIndexable(id *ast.Ident) string {
	if id.Obj == nil || id.Obj.Kind != ast.Var {
		return ""
	}
	switch d := id.Obj.Decl.(type) {
	case *ast.Field:
		if _, ok := d.Type.(*ast.Ellipsis); ok {
			return "slice"
		}
		return indexableType(d.Type, 0)
	case *ast.ValueSpec:
		if d.Type != nil {
			return indexableType(d.Type, 0)
		}
		if len(d.Values) != len(d.Names) {
			return ""
		}
		for i, name := range d.Names {
			if name.Obj == id.Obj {
				return indexableValue(d.Values[i])
			}
		}
	case *ast.AssignStmt:
		if d.Tok != token.DEFINE || len(d.Lhs) != len(d.Rhs) {
			return ""
		}
		for i, lhs := range d.Lhs {
			if name, ok := lhs.(*ast.Ident); ok && name.Obj == id.Obj {
				return indexableValue(d.Rhs[i])
			}
		}
	}
	return ""
}

// indexableType returns the kind (as knownIndexable) of the type t.
func indexableType(t ast.Expr, depth int) string {
	switch t := t.(type) {
	case *ast.ParenExpr:
		return indexableType(t.X, depth)
	case *ast.ArrayType:
		if t.Len == nil {
			return "slice"
		}
		return "array"
	case *ast.StarExpr:
		if a, ok := t.X.(*ast.ArrayType); ok && a.Len != nil {
			return "ptrarray"
		}
	case *ast.Ident:
		if t.Obj == nil {
			if t.Name == "string" {
				return "string"
			}
			return ""
		}
		if spec, ok := t.Obj.Decl.(*ast.TypeSpec); ok && t.Obj.Kind == ast.Typ && spec.TypeParams == nil && depth < 4 {
			return indexableType(spec.Type, depth+1)
		}
	}
	return ""
}

// indexableValue returns the kind (as knownIndexable) of the value x
// initialises a variable with.
func indexableValue(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return indexableValue(x.X)
	case *ast.CompositeLit:
		if x.Type != nil {
			return indexableType(x.Type, 0)
		}
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			return "string"
		}
	case *ast.CallExpr:
		if len(x.Args) == 0 {
			return ""
		}
		if id, ok := x.Fun.(*ast.Ident); ok && id.Obj == nil {
			switch id.Name {
			case "make":
				if k := indexableType(x.Args[0], 0); k == "slice" {
					return k
				}
			case "new":
				if k := indexableType(x.Args[0], 0); k == "array" {
					return "ptrarray"
				}
			}
			return ""
		}
		if len(x.Args) == 1 {
			// A conversion to a slice or string type.
			switch f := x.Fun.(type) {
			case *ast.ArrayType:
				return indexableType(f, 0)
			case *ast.ParenExpr:
				return indexableType(f.X, 0)
			}
		}
	}
	return ""
}

// boundsValue returns the value of an index as an int64 and whether it is
// of a signed integer type (an unsigned one is stored in the bits of the
// int64), as Go's runtime keeps it for its message; ok is false for a
// value that is not an integer.
func boundsValue(i any) (x int64, signed, ok bool) {
	switch i := i.(type) {
	case int:
		return int64(i), true, true
	case int64:
		return i, true, true
	case uint64:
		return int64(i), false, true
	case uint:
		return int64(i), false, true
	}
	v := reflect.ValueOf(i)
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), true, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return int64(v.Uint()), false, true
	}
	return 0, false, false
}

// boundsPanic panics with Go's runtime error for a failed check: format
// holds %x for the index and %y for the length or the other bound, neg
// the format for a negative signed index.
func boundsPanic(format, neg string, x int64, signed bool, y int64) {
	if signed && x < 0 {
		format = neg
	}
	b := []byte("runtime error: ")
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b = append(b, format[i])
			continue
		}
		i++
		switch format[i] {
		case 'x':
			if signed {
				b = strconv.AppendInt(b, x, 10)
			} else {
				b = strconv.AppendUint(b, uint64(x), 10)
			}
		case 'y':
			b = strconv.AppendInt(b, y, 10)
		}
	}
	panic(RuntimeError{string(b)})
}

// below reports whether the index x (signed or not) is less than n (<=
// when orEqual), as Go's runtime compares them (unsigned: a negative
// index is never below).
func below(x int64, n int, orEqual bool) bool {
	if orEqual {
		return uint64(x) <= uint64(n)
	}
	return uint64(x) < uint64(n)
}

// toInt returns a value that is not an integer, which the checks leave
// alone (an index of a type they do not know), as an int.
func toInt(v any) int {
	return int(reflect.ValueOf(v).Convert(reflect.TypeOf(0)).Int())
}

// Index returns the index i (an integer of any type) as an int after
// checking it against the length n as Go's runtime does, panicking with
// its runtime error ("index out of range [5] with length 3") where it
// fails (boundsEdits).
func Index(i any, n int) int {
	if n < 0 {
		panic(RuntimeError{nilArrayMsg})
	}
	x, signed, ok := boundsValue(i)
	if !ok {
		return toInt(i)
	}
	if !below(x, n, false) {
		boundsPanic("index out of range [%x] with length %y", "index out of range [%x]", x, signed, int64(n))
	}
	return int(x)
}

// SliceIndex returns the low bound lo of a slice expression s[lo:hi] as
// an int after checking both bounds as Go's runtime does, in its order:
// hi against the capacity c of a slice (isCap) or the length of an
// array or string, then lo against hi (high false: hi was omitted, it is
// the length).
func SliceIndex(lo, hi any, c int, isCap, high bool) int {
	x, xs, ok1 := boundsValue(lo)
	y, ys, ok2 := boundsValue(hi)
	if c < 0 {
		panic(RuntimeError{nilArrayMsg})
	}
	if !ok1 || !ok2 {
		return toInt(lo)
	}
	if high && !below(y, c, true) {
		if isCap {
			boundsPanic("slice bounds out of range [:%x] with capacity %y", "slice bounds out of range [:%x]", y, ys, int64(c))
		}
		boundsPanic("slice bounds out of range [:%x] with length %y", "slice bounds out of range [:%x]", y, ys, int64(c))
	}
	if !below(x, int(y), true) {
		boundsPanic("slice bounds out of range [%x:%y]", "slice bounds out of range [%x:]", x, xs, y)
	}
	return int(x)
}

// Slice3Index is SliceIndex for s[lo:hi:max]: max against the capacity
// (or the length of an array), then hi against max, then lo against hi.
func Slice3Index(lo, hi, maxIndex any, c int, isCap bool) int {
	x, xs, ok1 := boundsValue(lo)
	y, ys, ok2 := boundsValue(hi)
	z, zs, ok3 := boundsValue(maxIndex)
	if c < 0 {
		panic(RuntimeError{nilArrayMsg})
	}
	if !ok1 || !ok2 || !ok3 {
		return toInt(lo)
	}
	if !below(z, c, true) {
		if isCap {
			boundsPanic("slice bounds out of range [::%x] with capacity %y", "slice bounds out of range [::%x]", z, zs, int64(c))
		}
		boundsPanic("slice bounds out of range [::%x] with length %y", "slice bounds out of range [::%x]", z, zs, int64(c))
	}
	if !below(y, int(z), true) {
		boundsPanic("slice bounds out of range [:%x:%y]", "slice bounds out of range [:%x:]", y, ys, z)
	}
	if !below(x, int(y), true) {
		boundsPanic("slice bounds out of range [%x:%y:]", "slice bounds out of range [%x::]", x, xs, y)
	}
	return int(x)
}
