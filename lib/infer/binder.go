package infer

import (
	"encoding"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Preset is a named configuration of a method (e.g. "paper", "thesis"):
// BindFlags defines a boolean flag -NAME that calls Set, which overwrites
// the bound configuration with the preset, and keeps the settings given by
// other flags, before or after it.
type Preset struct {
	Name, Help string
	Set        func()
}

// BindFlags defines on fs one flag per tagged field of the struct cfg
// points to, and one per preset. The tags of a field are
//
//	flag:"NAME"   the flag's name (a field without it is no setting)
//	help:"TEXT"   its usage line
//	min:"V" max:"V"  the valid range, inclusive, for numbers and
//	              durations (for lists: the number of entries)
//	sep:"S"       for []string and map[string]int fields: the separator
//	              of entries (default ","; for maps entries are NAME=COUNT,
//	              and a newline separates them as well)
//	none:"WORD"   for []string fields: the value that means no entries
//
// A struct field tagged flag:"PREFIX*" binds the fields of that struct
// named in its only:"NAME,…" tag as PREFIX followed by their flag name.
// Fields may be bool, int, uint64, float64, string, time.Duration,
// []string, map[string]int or implement encoding.TextUnmarshaler. A list
// or map value "@FILE" is read from FILE. A value out of range is
// refused when the flag is parsed, with the flag's name and the range
// (e.g. "-population 0: want ≥ 2"), before any oracle is asked. BindFlags
// panics when cfg is not a pointer to a struct or a tag is malformed (a
// programming error).
func BindFlags(fs *flag.FlagSet, cfg any, presets ...Preset) {
	b := &binder{}
	bs := bindings(cfg)
	for i := range bs {
		fs.Var(&value{s: &bs[i], b: b}, bs[i].name, bs[i].help)
	}
	for _, p := range presets {
		p := p
		fs.BoolFunc(p.Name, p.Help, func(v string) error {
			on, err := strconv.ParseBool(v)
			if err != nil {
				return errors.New("want true or false")
			}
			if on {
				p.Set()
				for _, again := range b.given {
					again()
				}
			}
			return nil
		})
	}
}

// Validate checks the tagged fields of the struct cfg points to against
// their ranges (see BindFlags); Infer calls it for methods that are
// Configured, so that a configuration set in code is refused, like a flag,
// before any oracle is asked.
func Validate(cfg any) error {
	for _, s := range bindings(cfg) {
		if err := s.check(s.field); err != nil {
			return fmt.Errorf("%s = %v: %w", s.path, s.field.Interface(), err)
		}
	}
	return nil
}

// binder remembers the settings given, to apply them again after a preset.
type binder struct{ given []func() }

// binding is one tagged field.
type binding struct {
	name, help, path string
	min, max         string
	sep, none        string
	field            reflect.Value
}

// bindings returns the tagged fields of the struct cfg points to.
func bindings(cfg any) []binding {
	v := reflect.ValueOf(cfg)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("infer: want a pointer to a configuration struct, not %T", cfg))
	}
	return structBindings(v.Elem(), "", v.Elem().Type().Name(), nil)
}

func structBindings(v reflect.Value, prefix, path string, only map[string]bool) []binding {
	var out []binding
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, ok := f.Tag.Lookup("flag")
		if !ok || !f.IsExported() {
			continue
		}
		if inner, ok := strings.CutSuffix(name, "*"); ok {
			names := map[string]bool{}
			for _, n := range strings.Split(f.Tag.Get("only"), ",") {
				names[n] = true
			}
			if f.Type.Kind() != reflect.Struct {
				panic("infer: flag:\"" + name + "\" on a field that is no struct")
			}
			out = append(out, structBindings(v.Field(i), prefix+inner, path+"."+f.Name, names)...)
			continue
		}
		if only != nil && !only[name] {
			continue
		}
		sep := f.Tag.Get("sep")
		if sep == "" {
			sep = ","
		}
		out = append(out, binding{name: prefix + name, help: f.Tag.Get("help"), path: path + "." + f.Name,
			min: f.Tag.Get("min"), max: f.Tag.Get("max"), sep: sep, none: f.Tag.Get("none"), field: v.Field(i)})
	}
	return out
}

var durationType = reflect.TypeOf(time.Duration(0))

// parse converts s to a value of the field's type.
func (s *binding) parse(text string) (reflect.Value, error) {
	t := s.field.Type()
	x := reflect.New(t).Elem()
	if u, ok := x.Addr().Interface().(encoding.TextUnmarshaler); ok {
		return x, u.UnmarshalText([]byte(text))
	}
	switch {
	case t == durationType:
		d, err := time.ParseDuration(text)
		if err != nil {
			return x, errors.New("want a duration such as 10m")
		}
		x.SetInt(int64(d))
	case t.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return x, errors.New("want true or false")
		}
		x.SetBool(b)
	case t.Kind() == reflect.Int:
		n, err := strconv.Atoi(text)
		if err != nil {
			return x, errors.New("want a whole number")
		}
		x.SetInt(int64(n))
	case t.Kind() == reflect.Uint64:
		n, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			return x, errors.New("want a whole number ≥ 0")
		}
		x.SetUint(n)
	case t.Kind() == reflect.Float64:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return x, errors.New("want a finite number")
		}
		x.SetFloat(f)
	case t.Kind() == reflect.String:
		x.SetString(text)
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		text, err := s.contents(text)
		if err != nil || s.none != "" && text == s.none {
			return x, err
		}
		x = reflect.MakeSlice(t, 0, 0)
		for _, e := range s.entries(text) {
			x = reflect.Append(x, reflect.ValueOf(e))
		}
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && t.Elem().Kind() == reflect.Int:
		text, err := s.contents(text)
		if err != nil {
			return x, err
		}
		x = reflect.MakeMap(t)
		for _, e := range s.entries(text) {
			i := strings.LastIndex(e, "=")
			n, err := strconv.Atoi(strings.TrimSpace(e[i+1:]))
			if i < 0 || err != nil {
				return x, fmt.Errorf("entry %q: want NAME=COUNT, entries separated by %q or newlines", e, s.sep)
			}
			x.SetMapIndex(reflect.ValueOf(strings.TrimSpace(e[:i])), reflect.ValueOf(n))
		}
	default:
		panic(fmt.Sprintf("infer: flag -%s: unsupported type %v", s.name, t))
	}
	return x, nil
}

// contents returns text, or the contents of the file text names as @FILE.
func (s *binding) contents(text string) (string, error) {
	if name, ok := strings.CutPrefix(text, "@"); ok {
		b, err := os.ReadFile(name)
		return string(b), err
	}
	return text, nil
}

// entries splits a list into its entries (by the separator and, for maps,
// newlines), trimmed, empty ones left out.
func (s *binding) entries(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for _, e := range strings.Split(line, s.sep) {
			if e = strings.TrimSpace(e); e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}

// check returns an error when x is out of the binding's range.
func (s *binding) check(x reflect.Value) error {
	if s.min == "" && s.max == "" {
		return nil
	}
	var v float64
	var show func(string) string
	switch {
	case x.Type() == durationType:
		v = float64(x.Int())
		show = func(b string) string { return b }
		conv := func(b string) string {
			d, err := time.ParseDuration(b)
			if err != nil {
				panic("infer: flag -" + s.name + ": bad bound " + b)
			}
			return strconv.FormatInt(int64(d), 10)
		}
		return s.inRange(v, conv, show)
	case x.Kind() == reflect.Int:
		v = float64(x.Int())
	case x.Kind() == reflect.Uint64:
		v = float64(x.Uint())
	case x.Kind() == reflect.Float64:
		v = x.Float()
	case x.Kind() == reflect.Slice, x.Kind() == reflect.Map:
		v = float64(x.Len())
		if x.Len() == 0 && x.IsNil() {
			return nil // not set: the method's default
		}
		return s.inRange(v, func(b string) string { return b }, func(b string) string { return b + " entries" })
	default:
		panic(fmt.Sprintf("infer: flag -%s: a range on %v", s.name, x.Type()))
	}
	return s.inRange(v, func(b string) string { return b }, func(b string) string { return b })
}

// inRange checks min ≤ v ≤ max, with conv turning a bound into a number
// and show a bound into words.
func (s *binding) inRange(v float64, conv, show func(string) string) error {
	bound := func(b string) float64 {
		f, err := strconv.ParseFloat(conv(b), 64)
		if err != nil {
			panic("infer: flag -" + s.name + ": bad bound " + b)
		}
		return f
	}
	low, high := s.min != "" && v < bound(s.min), s.max != "" && v > bound(s.max)
	if math.IsNaN(v) && (s.min != "" || s.max != "") {
		low = true // NaN is in no range
	}
	if !low && !high {
		return nil
	}
	switch {
	case s.min != "" && s.max != "":
		return fmt.Errorf("want %s to %s", show(s.min), show(s.max))
	case s.min != "":
		return fmt.Errorf("want ≥ %s", show(s.min))
	}
	return fmt.Errorf("want ≤ %s", show(s.max))
}

// value is the flag.Value of a binding.
type value struct {
	s *binding
	b *binder
}

// String returns the field's value ("" when zero, so that the flag
// package shows no default).
func (v *value) String() string {
	if v == nil || v.s == nil {
		return ""
	}
	x := v.s.field
	if x.IsZero() {
		return "" // the flag package shows no default for a zero value
	}
	switch {
	case x.Kind() == reflect.Slice:
		var parts []string
		for i := 0; i < x.Len(); i++ {
			parts = append(parts, x.Index(i).String())
		}
		return strings.Join(parts, v.s.sep)
	case x.Kind() == reflect.Map:
		if x.Len() == 0 {
			return ""
		}
	}
	return fmt.Sprint(x.Interface())
}

// Set parses text, checks its range and sets the field; the flag package
// reports an error as "invalid value … for flag -NAME: ERROR".
func (v *value) Set(text string) error {
	x, err := v.s.parse(text)
	if err == nil {
		err = v.s.check(x)
	}
	if err != nil {
		return fmt.Errorf("-%s %s: %w", v.s.name, text, err)
	}
	set := func() { v.s.field.Set(x) }
	set()
	v.b.given = append(v.b.given, set)
	return nil
}

// IsBoolFlag lets boolean settings be given as -NAME.
func (v *value) IsBoolFlag() bool { return v.s != nil && v.s.field.Kind() == reflect.Bool }
