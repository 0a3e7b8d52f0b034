package isa

import (
	"sort"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/dataset/datasettest"
)

// iwhoKeys returns the scheme names of the uops.info extract.
func iwhoKeys(t *testing.T) []string {
	t.Helper()
	datasettest.Need(t)
	schemes, err := dataset.UopsInfoSchemes()
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, len(schemes))
	for i, s := range schemes {
		keys[i] = s.Name
	}
	return keys
}

// pmevoNames returns the instruction names of the PMEvo singletons of arch.
func pmevoNames(t *testing.T, arch string) []string {
	t.Helper()
	datasettest.Need(t)
	es, err := dataset.PMEvoExperiments(arch, "singletons")
	if err != nil {
		t.Fatal(err)
	}
	return es.Arch.Instructions()
}

// Every key of the uops.info extract parses and prints back identically.
func TestSchemeRoundTripIwho(t *testing.T) {
	keys := iwhoKeys(t)
	if len(keys) != 3501 {
		t.Errorf("%d iwho schemes, want 3501", len(keys))
	}
	var failed []string
	for _, k := range keys {
		f, err := ParseScheme(k)
		if err != nil {
			failed = append(failed, err.Error())
			continue
		}
		if got := f.Scheme(); got != k {
			failed = append(failed, "round trip: "+k+" -> "+got)
		}
		if g, err := ParseScheme(f.Scheme()); err != nil || !g.Equal(f) {
			failed = append(failed, "reparse differs: "+k)
		}
	}
	for _, s := range failed {
		t.Error(s)
	}
	t.Logf("iwho: %d schemes, %d failures", len(keys), len(failed))
}

// Every PMEvo instruction name parses and prints back identically.
func TestPMEvoRoundTrip(t *testing.T) {
	for _, arch := range []string{"SKL", "ZEN", "A72"} {
		names := pmevoNames(t, arch)
		want := map[string]int{"SKL": 310, "ZEN": 310, "A72": 390}[arch]
		if len(names) != want {
			t.Errorf("%s: %d names, want %d", arch, len(names), want)
		}
		bad := 0
		keys := map[string]string{}
		for _, n := range names {
			f, err := ParsePMEvo(n)
			if err != nil {
				t.Errorf("%s: %v", arch, err)
				bad++
				continue
			}
			wantISA := X86
			if arch == "A72" {
				wantISA = AArch64
			}
			if f.ISA != wantISA {
				t.Errorf("%s: %s: ISA %s", arch, n, f.ISA)
			}
			if prev, dup := keys[f.Key()]; dup {
				t.Errorf("%s: %s and %s have the same key %s", arch, prev, n, f.Key())
			}
			keys[f.Key()] = n
			if got := f.PMEvoName(); got != n {
				t.Errorf("%s: round trip %s -> %s", arch, n, got)
				bad++
			}
			// The scheme of a PMEvo form parses back to the same form,
			// up to what the scheme cannot say (the PMEvo address and
			// the reserved DIV registers).
			g, err := ParseSchemeISA(f.ISA, f.Scheme())
			if err != nil {
				t.Errorf("%s: %s: scheme %q does not parse: %v", arch, n, f.Scheme(), err)
				continue
			}
			h := f.Clone()
			for i := range h.Operands {
				h.Operands[i].Addr, h.Operands[i].Reserved = "", false
			}
			if !g.Equal(h) {
				t.Errorf("%s: %s: scheme %q parses to a different form", arch, n, f.Scheme())
			}
		}
		t.Logf("%s: %d names, %d failures", arch, len(names), bad)
	}
}

// How many PMEvo SKL/ZEN names map to a uops.info scheme.
func TestSchemeOfPMEvoCoverage(t *testing.T) {
	keys := map[string]bool{}
	for _, k := range iwhoKeys(t) {
		keys[k] = true
	}
	names := pmevoNames(t, "SKL")
	var missing []string
	mapped := 0
	for _, n := range names {
		s, ok := SchemeOfPMEvo(n)
		if !ok {
			missing = append(missing, n+" (not an x86 PMEvo name)")
			continue
		}
		if !keys[s] {
			missing = append(missing, n+" -> "+s)
			continue
		}
		mapped++
	}
	sort.Strings(missing)
	t.Logf("PMEvo SKL: %d of %d names map to a uops.info scheme; unmapped:\n%s", mapped, len(names), strings.Join(missing, "\n"))
	if len(missing) != len(knownUnmapped) {
		t.Errorf("%d unmapped names, want %d", len(missing), len(knownUnmapped))
	}
	for _, m := range missing {
		if !knownUnmapped[m] {
			t.Errorf("unexpectedly unmapped: %s", m)
		}
	}
	// ZEN names are the same forms.
	for _, n := range pmevoNames(t, "ZEN") {
		if _, ok := SchemeOfPMEvo(n); !ok {
			t.Errorf("ZEN: %s has no scheme", n)
		}
	}
	if _, ok := SchemeOfPMEvo("_add_((REG:W:G:64)),_((REG:R:G:64)),_((REG:R:G:64))"); ok {
		t.Error("SchemeOfPMEvo accepted an AArch64 name")
	}
}

// knownUnmapped lists the PMEvo SKL names without a uops.info scheme, with
// the scheme SchemeOfPMEvo gives.
var knownUnmapped = map[string]bool{}
