package session

import (
	"strings"
	"testing"
)

// TestNonStringVerbsOfCellStringers: fmt calls String and Error only for
// %v, %s, %x, %X and %q (and Format for every verb); for the other verbs
// the interpreter's stand-in for a cell value printed its own fields
// ({3 5461824} for %d), so such a verb stops the cell, and the verbs fmt
// calls String for print what Go prints.
func TestNonStringVerbsOfCellStringers(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"os\"\ntype W int\nfunc (w W) String() string { return \"w\" }\ntype E struct{ A int; B string }\nfunc (e E) Error() string { return \"e\" + e.B }\n"+
		"type F float64\nfunc (f F) Format(st fmt.State, verb rune) { fmt.Fprintf(st, \"F%c\", verb) }")
	if got, want := out(t, s, `fmt.Printf("%v %s %x %q %+v %d|", W(3), W(3), W(3), W(3), E{1, "x"}, int(W(7)))
fmt.Print(fmt.Sprintf("%d %v", F(1), F(2)), fmt.Errorf("%[2]s %[1]v", W(1), E{2, "y"}))`), `w w 77 "w" ex 7|Fd Fvey w`; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	for code, verb := range map[string]string{
		`fmt.Printf("%d", W(3))`:                      "%d of a value of a type declared in a cell with a String or Error method",
		`fmt.Sprintf("%v %#v", W(3), W(3))`:           "%#v of a value",
		`fmt.Sprintf("%5.1f", E{1, "x"})`:             "%f of a value",
		`fmt.Errorf("%[2]*[1]d", W(2), 3)`:            "%d of a value",
		`fmt.Fprintf(os.Stdout, "%s %c", W(1), W(2))`: "%c of a value",
	} {
		e := fails(t, s, code)
		if !strings.Contains(e.Value, verb) {
			t.Errorf("cell %q: %s: %s; want a message with %q", code, e.Name, e.Value, verb)
		}
	}
}

// TestJSONOfCellStructsWithUnexportedFields: the interpreter exports a cell
// struct's unexported fields as X…, which json.Marshal wrote out; Marshal
// and MarshalIndent stop the cell for such a value and marshal the others
// as Go does.
func TestJSONOfCellStructsWithUnexportedFields(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"encoding/json\"\ntype T struct {\n\tA int `json:\"a\"`\n\tb int\n}\ntype U struct {\n\tA int\n\tB []string `json:\",omitempty\"`\n}")
	if got, want := out(t, s, "b, err := json.Marshal(map[string]U{\"k\": {A: 1}})\nfmt.Print(string(b), err)"), `{"k":{"A":1}}<nil>`; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	for _, code := range []string{"json.Marshal(T{1, 2})", "json.MarshalIndent([]*T{{A: 1}}, \"\", \" \")"} {
		e := fails(t, s, code)
		if !strings.Contains(e.Value, "of a value of a struct type of the cell with unexported fields (struct { A int \"json:\\\"a\\\"\"; Xb int })") {
			t.Errorf("cell %q: %s: %s; want the json refusal", code, e.Name, e.Value)
		}
	}
}

// TestCallResultsOfCellTypesKeepTheirMethods: the result of a call of a
// cell's function or method, handed straight to a compiled function, lost
// the String and Error methods of its cell type (fmt.Println(t.F())
// printed 212, Go prints 212.0°); a function or method of several
// results, or of a compiled variable's type, still passes all of them.
func TestCallResultsOfCellTypesKeepTheirMethods(t *testing.T) {
	s := newSession(t)
	run(t, s, "type Temp float64\nfunc (t Temp) F() Temp { return t*9/5 + 32 }\nfunc (t Temp) String() string { return fmt.Sprintf(\"%.1f°\", float64(t)) }\n"+
		"type P struct{ A int }\nfunc (p P) String() string { return \"P!\" }\nfunc (P) ReadByte() int { return 1 }\nfunc mp() P { return P{1} }\nfunc two() (int, error) { return 2, nil }")
	run(t, s, "var t Temp = 100\nr := strings.NewReader(\"abc\")")
	for code, want := range map[string]string{
		"fmt.Println(t.F())": "212.0°\n",
		"fmt.Print(fmt.Sprint(mp()), strings.ToUpper(fmt.Sprintf(\"%v\", mp())))": "P!P!",
		"fmt.Println(mp(), t.F())":                                    "P! 212.0°\n",
		"func f() string { return fmt.Sprint(mp()) }\nfmt.Print(f())": "P!",
		"fmt.Println(two())":                                          "2 <nil>\n",
		"fmt.Println(r.ReadByte())":                                   "97 <nil>\n",
		"func g() { mp := func() (int, int) { return 3, 4 }; fmt.Println(mp()) }\ng()": "3 4\n",
	} {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: output %q, want %q", code, got, want)
		}
	}
}

// TestErrorsAsIntoCellStructs: the interpreter's stand-in for an error
// value of a cell's struct type holds the struct's last field, so that
// errors.As into a variable of that type reported false where Go finds
// the value; it stops the cell when such a stand-in is in the chain, and
// answers as Go does otherwise.
func TestErrorsAsIntoCellStructs(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"errors\"\ntype HTTPErr struct{ Status int; Msg string }\nfunc (e HTTPErr) Error() string { return e.Msg }\n"+
		"type P struct{ A int }\nfunc (p *P) Error() string { return \"p\" }\nfunc get() error { return HTTPErr{404, \"not found\"} }")
	e := fails(t, s, "var he HTTPErr\nerrors.As(fmt.Errorf(\"get: %w\", get()), &he)")
	if !strings.Contains(e.Value, "errors.As into a variable of a struct type of the cell") {
		t.Errorf("%s: %s; want the errors.As refusal", e.Name, e.Value)
	}
	if got, want := out(t, s, "var h2 HTTPErr\nvar pp *P\nfmt.Print(errors.As(&P{1}, &h2), errors.As(errors.New(\"x\"), &h2), errors.As(fmt.Errorf(\"w: %w\", &P{3}), &pp), pp.A)"),
		"false false true 3"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
