package yaegifix

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// formatterType is fmt.Formatter, whose Format fmt calls for every verb.
var formatterType = reflect.TypeOf((*fmt.Formatter)(nil)).Elem()

// checkPlainVerbs stops the cell with a message when format prints an
// argument that is the interpreter's wrapper of a cell value (see
// unwrapInterp) with a verb for which fmt calls neither Error nor String:
// %d, %f, %c, %b, %o, %e, %g, %t, %p, %U or %#v. The interpreter hands a
// cell value with a String or Error method to fmt as a struct {IValue;
// WString} of its own, which those verbs print as its fields: %d of a
// type W int with a String method gave {3 5461824} where Go prints 3.
// The value inside cannot stand in for it: for a value of a struct type,
// IValue holds its last field. Wrappers of a Formatter pass: fmt calls
// Format for every verb.
func checkPlainVerbs(format string, args []any) {
	forVerbs(format, func(arg int, verb rune, sharp bool) {
		if arg >= len(args) || args[arg] == nil || (verb != 'v' || !sharp) && strings.ContainsRune("vsxXqw", verb) {
			return
		}
		v := reflect.ValueOf(args[arg])
		if v.Type().Implements(formatterType) || !unwrapInterp(v).IsValid() {
			return
		}
		flag := ""
		if sharp {
			flag = "#"
		}
		panic(fmt.Sprintf("%s%%%s%c of a value of a type declared in a cell with a String or Error method: the interpreter hands fmt a stand-in "+
			"for it that prints its own fields with %%%s%c; convert the value to the type it is declared from first (as in int(w) for type W int), "+
			"or print it with %%v", Refused, flag, verb, flag, verb))
	})
}

// forVerbs calls f for each verb of format that prints an argument, with
// the argument's index as fmt's Printf counts it (explicit indexes [n]
// and * widths and precisions included) and whether the verb has the #
// flag.
func forVerbs(format string, f func(arg int, verb rune, sharp bool)) {
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		sharp := false
	verb:
		for i < len(format) {
			c := format[i]
			switch {
			case c == '*':
				arg++
				i++
			case c == '[':
				j := strings.IndexByte(format[i:], ']')
				if j < 0 {
					return
				}
				if n, err := strconv.Atoi(format[i+1 : i+j]); err == nil {
					arg = n - 1
				}
				i += j + 1
			case strings.IndexByte("+- 0.123456789", c) >= 0:
				i++
			case c == '#':
				sharp = true
				i++
			default:
				r, size := utf8.DecodeRuneInString(format[i:])
				if r != '%' {
					f(arg, r, sharp)
					arg++
				}
				i += size - 1
				break verb
			}
		}
	}
}
