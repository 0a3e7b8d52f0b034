package z3

import (
	"fmt"
	"math/big"
	"strings"
)

// ParseRat reads a numeral value of a model as Values returns it: an
// integer "3", a decimal "0.5", a negation "(- 2)" or a quotient
// "(/ 1.0 3.0)", possibly nested.
func ParseRat(v string) (*big.Rat, error) {
	e, rest, err := readSexp(v)
	if err != nil || strings.TrimSpace(rest) != "" {
		return nil, fmt.Errorf("z3: %q is not a number", v)
	}
	r, ok := ratOf(e)
	if !ok {
		return nil, fmt.Errorf("z3: %q is not a number", v)
	}
	return r, nil
}

func ratOf(e sexp) (*big.Rat, bool) {
	if !e.isList {
		r, ok := new(big.Rat).SetString(e.atom)
		return r, ok
	}
	if len(e.list) == 0 || e.list[0].isList {
		return nil, false
	}
	args := make([]*big.Rat, len(e.list)-1)
	for i, x := range e.list[1:] {
		r, ok := ratOf(x)
		if !ok {
			return nil, false
		}
		args[i] = r
	}
	switch op := e.list[0].atom; {
	case op == "-" && len(args) == 1:
		return args[0].Neg(args[0]), true
	case op == "-" && len(args) == 2:
		return args[0].Sub(args[0], args[1]), true
	case op == "/" && len(args) == 2 && args[1].Sign() != 0:
		return args[0].Quo(args[0], args[1]), true
	}
	return nil, false
}

// ParseBool reads a boolean value of a model: "true" or "false".
func ParseBool(v string) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("z3: %q is not a boolean", v)
}
