package yaegifix

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"reflect"
	"slices"
	"sort"
)

// Generic functions of the standard library that yaegi v0.16.1 cannot run
// ("undefined selector Sort", or "undefined type for K" in its source of
// maps.Clone): genericEdits rewrites the in-place ones to compiled
// functions of the session (SlicesSort, SlicesReverse, which work on any
// slice of an ordered element type by reflection) and refuses the ones
// whose result type the rewrite cannot know, with the loop to write
// (maps.Clone only where mapsCloneEdits, which knows the type, could not
// write it out).
var genericRefused = map[string]string{
	"slices.Max":        "m := s[0]; for _, v := range s[1:] { m = max(m, v) }",
	"slices.Min":        "m := s[0]; for _, v := range s[1:] { m = min(m, v) }",
	"slices.Clone":      "c := append(s[:0:0], s...)",
	"maps.Clone":        "c := make(map[K]V, len(m)); for k, v := range m { c[k] = v }",
	"maps.Copy":         "for k, v := range src { dst[k] = v }",
	"slices.SortFunc":   "sort.Slice(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })",
	"slices.SortStable": "sort.SliceStable(s, func(i, j int) bool { return s[i] < s[j] })",
}

// introspection are the functions that report on the running program's
// own code, where an interpreted cell has the interpreter's frames
// (runtime.Caller names yaegi's source files and lines, runtime.Stack
// shows reflect.Value.Call) and allocates otherwise than compiled Go:
// their results would differ from Go's without a word, so genericEdits
// refuses them.
var introspection = func() map[string]string {
	const frames = "reports the interpreter's own Go frames (its source files, lines and functions), not the cell's: the kernel cannot give Go's answer"
	return map[string]string{
		"runtime.Caller":        frames,
		"runtime.Callers":       frames,
		"runtime.CallersFrames": frames,
		"runtime.FuncForPC":     frames,
		"runtime.Stack":         frames,
		"debug.Stack":           frames,
		"debug.PrintStack":      frames,
		"testing.AllocsPerRun":  "counts the allocations of the interpreter, which allocates otherwise than compiled Go: measure in a compiled program",
		"runtime.ReadMemStats":  "reports the interpreter's memory, which allocates and keeps values otherwise than compiled Go: measure in a compiled program",
		"runtime.SetFinalizer":  "cannot be kept to Go's rules for interpreted values (the interpreter holds them longer, and finalizers run late or never): close resources explicitly",
		"runtime.AddCleanup":    "cannot be kept to Go's rules for interpreted values (the interpreter holds them longer, and cleanups run late or never): close resources explicitly",
	}
}()

var genericRewritten = map[string]string{
	"slices.Sort":    "_portlab.SlicesSort",
	"slices.Reverse": "_portlab.SlicesReverse",
}

// genericEdits rewrites or refuses the calls above; imported reports
// whether the cell sees a package by that name.
func genericEdits(fset *token.FileSet, root ast.Node, off int, imported func(string) bool) ([]edit, error) {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	var errs scanner.ErrorList
	ast.Inspect(root, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || !imported(pkg.Name) {
			return true
		}
		name := pkg.Name + "." + sel.Sel.Name
		if to, ok := genericRewritten[name]; ok {
			edits = append(edits, edit{pos(sel.Pos()), pos(sel.End()), to})
		} else if loop, ok := genericRefused[name]; ok {
			errs.Add(fset.Position(sel.Pos()), fmt.Sprintf(Refused+"%s is generic, and the interpreter cannot run it: write it out, as in %s", name, loop))
		} else if why, ok := introspection[name]; ok {
			errs.Add(fset.Position(sel.Pos()), fmt.Sprintf(Refused+"%s %s", name, why))
		}
		return true
	})
	if len(errs) > 0 {
		return nil, errs
	}
	return edits, nil
}

// SlicesSort is slices.Sort for cells, for slices of integers, floats and
// strings (NaNs first, as slices.Sort puts them).
func SlicesSort(s any) {
	switch x := s.(type) {
	case []int:
		slices.Sort(x)
	case []float64:
		slices.Sort(x)
	case []string:
		slices.Sort(x)
	default:
		v := reflect.ValueOf(s)
		if v.Kind() != reflect.Slice {
			panic(fmt.Sprintf("slices.Sort of %T: not a slice", s))
		}
		var less func(i, j int) bool
		switch v.Type().Elem().Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			less = func(i, j int) bool { return v.Index(i).Int() < v.Index(j).Int() }
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			less = func(i, j int) bool { return v.Index(i).Uint() < v.Index(j).Uint() }
		case reflect.Float32, reflect.Float64:
			less = func(i, j int) bool {
				a, b := v.Index(i).Float(), v.Index(j).Float()
				return a < b || a != a && b == b
			}
		case reflect.String:
			less = func(i, j int) bool { return v.Index(i).String() < v.Index(j).String() }
		default:
			panic(fmt.Sprintf("slices.Sort of %T: the elements are not ordered", s))
		}
		sort.SliceStable(s, less)
	}
}

// SlicesReverse is slices.Reverse for cells.
func SlicesReverse(s any) {
	v := reflect.ValueOf(s)
	if v.Kind() != reflect.Slice {
		panic(fmt.Sprintf("slices.Reverse of %T: not a slice", s))
	}
	swap := reflect.Swapper(s)
	for i, j := 0, v.Len()-1; i < j; i, j = i+1, j-1 {
		swap(i, j)
	}
}
