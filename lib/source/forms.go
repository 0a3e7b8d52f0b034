package source

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/operands"
)

// formsForms are the valid forms of a form list, for error messages.
const formsForms = "want curated, curated:N with N ≥ 1, or a file of instruction forms, one a line"

// Forms is a checked name of a list of instruction forms: "curated" (the
// benchmarkable forms of portlab's x86-64 list that uops.info names,
// without AVX-512), "curated:N" (the first N of them) or a file of forms,
// one a line (iwho schemes such as "add RW:GPR:64, R:GPR:64", or PMEvo
// names), with # comments.
type Forms struct {
	spec    string
	curated bool
	limit   int // of curated: -1 for all
}

// ParseForms checks the name of a form list without reading the file:
// curated:N needs N ≥ 1, a file must exist.
func ParseForms(spec string) (*Forms, error) {
	if spec == "curated" {
		return &Forms{spec: spec, curated: true, limit: -1}, nil
	}
	if n, ok := strings.CutPrefix(spec, "curated:"); ok {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("forms %q: %s", spec, formsForms)
		}
		return &Forms{spec: spec, curated: true, limit: v}, nil
	}
	if spec == "" {
		return nil, fmt.Errorf("forms: no name given (%s)", formsForms)
	}
	if err := checkFile("forms", spec, formsForms); err != nil {
		return nil, err
	}
	return &Forms{spec: spec}, nil
}

// String returns the name as given.
func (f *Forms) String() string { return f.spec }

// Load returns the forms: the curated list, or the file's lines, each
// checked to be an instruction name (the error names the file and line).
// A file without a form is an error.
func (f *Forms) Load() ([]string, error) {
	if f.curated {
		var out []string
		for _, form := range isa.X86Forms() {
			if ok, _ := operands.Benchmarkable(form); ok && !strings.HasPrefix(form.Extension, "AVX512") {
				out = append(out, form.Scheme())
				if len(out) == f.limit {
					break
				}
			}
		}
		return out, nil
	}
	fh, err := os.Open(f.spec)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var out []string
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		form, err := isa.ParseName(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", f.spec, n, err)
		}
		if !knownMnemonic(form.Mnemonic) {
			return nil, fmt.Errorf("%s:%d: unknown mnemonic %q: no x86-64 or AArch64 instruction portlab knows", f.spec, n, form.Mnemonic)
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", f.spec, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no instruction forms (want one a line; blank lines and # comments are skipped)", f.spec)
	}
	return out, nil
}

var (
	mnemonicsOnce sync.Once
	mnemonics     map[string]bool
)

// knownMnemonic reports whether m is the mnemonic of a form of portlab's
// x86-64 or AArch64 lists or of uops.info's x86-64 forms
// (block.DefaultForms; case-insensitive). Without the uops.info forms
// (their data cannot be loaded) a mnemonic outside portlab's lists is
// let through: the assembler then names it when it rejects it.
func knownMnemonic(m string) bool {
	mnemonicsOnce.Do(func() {
		mnemonics = map[string]bool{}
		for _, fs := range [][]isa.Form{isa.X86Forms(), isa.AArch64Forms()} {
			for _, f := range fs {
				mnemonics[strings.ToLower(f.Mnemonic)] = true
			}
		}
	})
	if mnemonics[strings.ToLower(m)] {
		return true
	}
	t, err := block.DefaultForms()
	return err != nil || t.HasMnemonic(m)
}

// LoadForms parses and loads a form list: ParseForms, then Load.
func LoadForms(spec string) ([]string, error) {
	f, err := ParseForms(spec)
	if err != nil {
		return nil, err
	}
	return f.Load()
}
