package isa

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func countBy(forms []Form, key func(Form) string) map[string]int {
	m := map[string]int{}
	for _, f := range forms {
		m[key(f)]++
	}
	return m
}

func formatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-20s %4d\n", k, m[k])
	}
	return b.String()
}

func TestCuratedCounts(t *testing.T) {
	x, a := X86Forms(), AArch64Forms()
	if len(x) < 300 {
		t.Errorf("%d x86 forms, want at least 300", len(x))
	}
	if len(a) < 150 {
		t.Errorf("%d AArch64 forms, want at least 150", len(a))
	}
	xc, ac := countBy(x, func(f Form) string { return f.Category }), countBy(a, func(f Form) string { return f.Category })
	t.Logf("x86-64: %d forms by category:\n%s", len(x), formatCounts(xc))
	t.Logf("x86-64 by extension:\n%s", formatCounts(countBy(x, func(f Form) string { return f.Extension })))
	t.Logf("AArch64: %d forms by category:\n%s", len(a), formatCounts(ac))
	for _, c := range []string{"gpr-alu", "shift", "lea", "multiply", "gpr-div", "bit-manipulation", "cmov-setcc",
		"move", "load", "store", "load-op", "sse-fp", "sse-int", "avx-fp", "fma", "avx2-int", "avx-shuffle",
		"conversion", "div-sqrt", "avx512-fp", "avx512-int", "avx512-shuffle", "avx512-conversion",
		"avx512-div-sqrt", "avx512-load-store", "avx512-mask"} {
		if xc[c] == 0 {
			t.Errorf("x86: no forms in category %s", c)
		}
	}
	for _, c := range []string{"int-alu", "shift-bitfield", "move", "multiply-divide", "load", "store",
		"fp-scalar", "neon-fp", "neon-int", "neon-permute"} {
		if ac[c] == 0 {
			t.Errorf("AArch64: no forms in category %s", c)
		}
	}
	var zmm, masked, kregs, bcast int
	for _, f := range x {
		for _, o := range f.Operands {
			switch {
			case o.Class == ZMM:
				zmm++
			case o.Mask:
				masked++
			case o.Class == K:
				kregs++
			case o.Broadcast != 0:
				bcast++
			}
		}
	}
	if zmm == 0 || masked == 0 || kregs == 0 || bcast == 0 {
		t.Errorf("AVX-512 coverage: %d ZMM operands, %d write masks, %d mask-register operands, %d broadcasts", zmm, masked, kregs, bcast)
	}
	for _, f := range append(x, a...) {
		if f.Extension == "" || f.Category == "" {
			t.Errorf("%s: extension %q, category %q", f.Scheme(), f.Extension, f.Category)
		}
		if _, ok := RequiredFlags(f.ISA, f.Extension); !ok {
			t.Errorf("%s: unknown extension %q", f.Scheme(), f.Extension)
		}
	}
}

// The curated forms print and parse back identically, in both syntaxes.
func TestCuratedRoundTrip(t *testing.T) {
	for _, f := range append(X86Forms(), AArch64Forms()...) {
		g, err := ParseSchemeISA(f.ISA, f.Scheme())
		if err != nil {
			t.Errorf("%s: %v", f.Scheme(), err)
			continue
		}
		if !g.Equal(f) {
			t.Errorf("%s: reparsed form differs", f.Scheme())
		}
		name := f.PMEvoName()
		h, err := ParsePMEvo(name)
		if err != nil {
			t.Errorf("%s: PMEvo name %s: %v", f.Scheme(), name, err)
			continue
		}
		if h.PMEvoName() != name {
			t.Errorf("%s: PMEvo name %s prints back as %s", f.Scheme(), name, h.PMEvoName())
		}
		if h.ISA != f.ISA || h.Mnemonic != f.Mnemonic || len(h.Explicit()) != len(f.Explicit()) {
			t.Errorf("%s: PMEvo name %s parses to %s", f.Scheme(), name, h.Scheme())
		}
	}
}

// Every curated x86 form without AVX-512 is a uops.info scheme, so that
// its measured port usage can be attached.
func TestCuratedX86InUopsInfo(t *testing.T) {
	keys := map[string]bool{}
	for _, k := range iwhoKeys(t) {
		keys[k] = true
	}
	n, in := 0, 0
	for _, f := range X86Forms() {
		if strings.HasPrefix(f.Category, "avx512") || strings.Contains(f.Extension, "AVX512") {
			if keys[f.Key()] {
				t.Errorf("%s: AVX-512 form found in uops.info extract, which has none", f.Key())
			}
			continue
		}
		n++
		if keys[f.Key()] {
			in++
		} else {
			t.Errorf("%s (%s): not a uops.info scheme", f.Key(), f.Category)
		}
	}
	t.Logf("%d of %d non-AVX-512 curated x86 forms are uops.info schemes", in, n)
}

// assemble runs the assembler on the lines, one instruction each, and
// returns the messages per line (1-based within lines).
func assemble(t *testing.T, tool string, args []string, header string, lines []string) map[int][]string {
	msgs, _ := assembleListing(t, tool, args, header, lines)
	return msgs
}

// assembleListing is assemble that also returns the encoding of each line
// in hex, from the assembler's listing.
func assembleListing(t *testing.T, tool string, args []string, header string, lines []string) (map[int][]string, map[int]string) {
	t.Helper()
	dir := t.TempDir()
	args = append([]string{"-aln=" + filepath.Join(dir, "forms.lst")}, args...)
	src := filepath.Join(dir, "forms.s")
	var b strings.Builder
	b.WriteString(header)
	hdr := strings.Count(header, "\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, append(args, "-o", filepath.Join(dir, "forms.o"), src)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	msgs := map[int][]string{}
	lineRE := regexp.MustCompile(`forms\.s:(\d+): (.*)`)
	for _, l := range strings.Split(stderr.String(), "\n") {
		if m := lineRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			msgs[n-hdr] = append(msgs[n-hdr], m[2])
		}
	}
	if err != nil && len(msgs) == 0 {
		t.Fatalf("%s: %v\n%s", tool, err, stderr.String())
	}
	enc := map[int]string{}
	lst, err := os.ReadFile(filepath.Join(dir, "forms.lst"))
	if err != nil {
		t.Fatal(err)
	}
	encRE := regexp.MustCompile(`^\s*(\d+) [0-9a-f]{4} ([0-9A-F]+)`)
	for _, l := range strings.Split(string(lst), "\n") {
		if m := encRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			if _, ok := enc[n-hdr]; !ok {
				enc[n-hdr] = m[2]
			}
		}
	}
	return msgs, enc
}

// wantEVEX reports whether form f must be EVEX-encoded (true), must not be
// (false), or may be either (ok false): AVX-512 registers, ranges reaching
// beyond 15, write masks and broadcasts need EVEX; VEX-range XMM/YMM
// operands without those must not get it (the assembler silently picks
// EVEX for an AVX-512-only mnemonic such as vpminuq ymm).
func wantEVEX(f Form) (evex, ok bool) {
	vec := false
	for _, o := range f.Explicit() {
		switch {
		case o.Class == ZMM, o.Mask, o.Broadcast != 0, (o.Class == XMM || o.Class == YMM) && o.effRange().Hi >= 16:
			return true, true
		case o.Class == XMM || o.Class == YMM:
			vec = true
		}
	}
	return false, vec && strings.HasPrefix(f.Mnemonic, "v")
}

const x86Header = ".intel_syntax noprefix\n.text\n"

// Every curated x86 form's Example assembles with GNU as, in one run,
// without errors or warnings.
func TestX86FormsAssemble(t *testing.T) {
	as, err := exec.LookPath("as")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("GNU as is missing")
		}
		t.Skip("GNU as not found")
	}
	forms := X86Forms()
	lines := make([]string, len(forms))
	for i, f := range forms {
		lines[i] = f.Example()
	}
	msgs, enc := assembleListing(t, as, []string{"--64", "-msyntax=intel", "-mnaked-reg"}, x86Header, lines)
	for n, m := range msgs {
		if n < 1 || n > len(forms) {
			t.Errorf("assembler: %v", m)
			continue
		}
		t.Errorf("%s: %q: %s", forms[n-1].Scheme(), lines[n-1], strings.Join(m, "; "))
	}
	evex := 0
	for i, f := range forms {
		want, ok := wantEVEX(f)
		if !ok {
			continue
		}
		code := enc[i+1]
		if code == "" {
			t.Errorf("%s: no encoding in the listing", f.Scheme())
			continue
		}
		if got := strings.HasPrefix(code, "62"); got != want {
			t.Errorf("%s: %q encodes as %s: EVEX %v, want %v", f.Scheme(), lines[i], code, got, want)
		}
		if want {
			evex++
		}
	}
	t.Logf("assembled %d x86 forms with %s (%d EVEX-encoded, checked)", len(forms), as, evex)
}

// The Examples of the PMEvo x86 names and of the uops.info schemes
// assemble too (uops.info: those GNU as knows; the list of the others is
// logged).
func TestDataExamplesAssemble(t *testing.T) {
	as, err := exec.LookPath("as")
	if err != nil {
		t.Skip("GNU as not found")
	}
	var forms []Form
	for _, n := range pmevoNames(t, "SKL") {
		forms = append(forms, MustParsePMEvo(n))
	}
	lines := make([]string, len(forms))
	for i, f := range forms {
		lines[i] = f.Example()
	}
	for n, m := range assemble(t, as, []string{"--64", "-msyntax=intel", "-mnaked-reg"}, x86Header, lines) {
		t.Errorf("%s: %q: %s", forms[n-1].PMEvoName(), lines[n-1], strings.Join(m, "; "))
	}

	forms = forms[:0]
	for _, k := range iwhoKeys(t) {
		forms = append(forms, MustParseSchemeISA(X86, k))
	}
	lines = make([]string, len(forms))
	for i, f := range forms {
		lines[i] = f.Example()
	}
	msgs := assemble(t, as, []string{"--64", "-msyntax=intel", "-mnaked-reg"}, x86Header, lines)
	var bad []string
	for n, m := range msgs {
		bad = append(bad, fmt.Sprintf("%s: %q: %s", forms[n-1].Scheme(), lines[n-1], strings.Join(m, "; ")))
	}
	sort.Strings(bad)
	t.Logf("uops.info: %d of %d scheme examples assemble cleanly; the others:\n%s", len(forms)-len(bad), len(forms), strings.Join(bad, "\n"))
	for _, b := range bad {
		// GNU as warns that retf's operand size is ambiguous.
		if !strings.HasPrefix(b, "retf") || !strings.Contains(b, "Warning: ambiguous operand size") {
			t.Errorf("uops.info scheme example fails: %s", b)
		}
	}
}

const a64Header = ".text\n"

var a64Args = []string{"-march=armv8.4-a+crypto+crc"}

// Every curated AArch64 form's Example assembles with the cross assembler
// aarch64-linux-gnu-as (Debian package binutils-aarch64-linux-gnu). The
// test is skipped when the assembler is missing, in CI too.
func TestAArch64FormsAssemble(t *testing.T) {
	as, err := exec.LookPath("aarch64-linux-gnu-as")
	if err != nil {
		t.Skip("aarch64-linux-gnu-as not found (apt-get install binutils-aarch64-linux-gnu)")
	}
	forms := AArch64Forms()
	lines := make([]string, len(forms))
	for i, f := range forms {
		lines[i] = f.Example()
	}
	for n, m := range assemble(t, as, a64Args, a64Header, lines) {
		t.Errorf("%s: %q: %s", forms[n-1].Scheme(), lines[n-1], strings.Join(m, "; "))
	}
	t.Logf("assembled %d AArch64 forms with %s", len(forms), as)

	// The PMEvo A72 names too.
	names := pmevoNames(t, "A72")
	forms = forms[:0]
	for _, n := range names {
		forms = append(forms, MustParsePMEvo(n))
	}
	lines = make([]string, len(forms))
	for i, f := range forms {
		lines[i] = f.Example()
	}
	msgs := assemble(t, as, a64Args, a64Header, lines)
	var bad []string
	for n, m := range msgs {
		bad = append(bad, fmt.Sprintf("%s: %q: %s", forms[n-1].PMEvoName(), lines[n-1], strings.Join(m, "; ")))
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("PMEvo A72 example fails: %s", b)
	}
	t.Logf("PMEvo A72: %d of %d examples assemble", len(forms)-len(bad), len(forms))
}

// Golden test of the AArch64 Example text.
func TestAArch64ExampleGolden(t *testing.T) {
	var b strings.Builder
	for _, f := range AArch64Forms() {
		fmt.Fprintf(&b, "%s\t%s\n", f.Scheme(), f.Example())
	}
	golden := filepath.Join("testdata", "aarch64_examples.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(b.String(), "\n")
	wl := strings.Split(string(want), "\n")
	for i := 0; i < len(got) || i < len(wl); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, g, w)
		}
	}
}
