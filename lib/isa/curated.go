package isa

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"sync"
)

//go:embed x86_forms.txt
var x86FormsText string

//go:embed aarch64_forms.txt
var aarch64FormsText string

var (
	curatedOnce            sync.Once
	curatedX86, curatedA64 []Form
	curatedExt             map[string]string // by ISA and key
)

func loadCurated() {
	curatedOnce.Do(func() {
		var err error
		if curatedX86, err = ReadForms(strings.NewReader(x86FormsText), X86); err != nil {
			panic("isa: x86_forms.txt: " + err.Error())
		}
		if curatedA64, err = ReadForms(strings.NewReader(aarch64FormsText), AArch64); err != nil {
			panic("isa: aarch64_forms.txt: " + err.Error())
		}
		curatedExt = map[string]string{}
		for _, f := range append(curatedX86[:len(curatedX86):len(curatedX86)], curatedA64...) {
			curatedExt[f.ISA+"\x00"+f.Key()] = f.Extension
		}
	})
}

// curatedExtension returns the extension of the curated form with f's key,
// or "".
func curatedExtension(f Form) string {
	loadCurated()
	return curatedExt[f.ISA+"\x00"+f.Key()]
}

// X86Forms returns the curated x86-64 forms for benchmarking, in the order
// of the embedded list x86_forms.txt: GPR arithmetic and logic, shifts,
// lea, multiplies and divisions, bit manipulation, cmov/setcc, moves,
// loads, stores, load-op and read-modify-write forms, SSE, AVX, FMA and
// AVX2 floating-point and integer operations, shuffles, conversions,
// divisions and square roots, a few crypto forms, and AVX-512 (ZMM
// registers, write masks, broadcasts, mask-register instructions). Each has
// its Extension and Category set. Forms without AVX-512 are named exactly
// as in the uops.info extract. The slice and its forms are fresh copies.
func X86Forms() []Form {
	loadCurated()
	return cloneForms(curatedX86)
}

// AArch64Forms returns the curated AArch64 forms for benchmarking, in the
// order of the embedded list aarch64_forms.txt: integer arithmetic and
// logic (shifted and extended register operands, conditional select),
// shifts and bitfield operations, moves, multiplies and divisions, loads
// and stores (base plus offset, pairs), scalar floating point, and Advanced
// SIMD floating-point, integer and permute operations with arrangement
// specifiers. The slice and its forms are fresh copies.
func AArch64Forms() []Form {
	loadCurated()
	return cloneForms(curatedA64)
}

func cloneForms(fs []Form) []Form {
	out := make([]Form, len(fs))
	for i, f := range fs {
		out[i] = f.Clone()
	}
	return out
}

// ReadForms reads a list of forms of the ISA in the format of the curated
// lists: one scheme per line (ParseSchemeISA syntax); blank lines and lines
// starting with "# " are ignored; "@category NAME" and "@ext EXTENSION" set
// Category and Extension of the forms that follow. A form listed twice is
// an error. Errors name the line.
func ReadForms(r io.Reader, isa string) ([]Form, error) {
	var (
		forms     []Form
		category  string
		extension string
		seen      = map[string]int{}
	)
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line == "#" || strings.HasPrefix(line, "# "):
			continue
		case strings.HasPrefix(line, "@"):
			key, val, _ := strings.Cut(line, " ")
			val = strings.TrimSpace(val)
			if val == "" || strings.ContainsAny(val, " \t") {
				return nil, fmt.Errorf("line %d: %s needs one value", n, key)
			}
			switch key {
			case "@category":
				category = val
			case "@ext":
				extension = val
			default:
				return nil, fmt.Errorf("line %d: unknown directive %s", n, key)
			}
			continue
		}
		f, err := ParseSchemeISA(isa, line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		f.Category, f.Extension = category, extension
		if prev, dup := seen[f.Key()]; dup {
			return nil, fmt.Errorf("line %d: %s repeats line %d", n, f.Key(), prev)
		}
		seen[f.Key()] = n
		forms = append(forms, f)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return forms, nil
}
