package resource

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
)

// File is the JSON form of a Mapping. In normalised form (Normalized
// true) every resource has throughput 1 and Instructions hold the loads ρ;
// in non-normalised form (PALMED Fig. 1b) each resource has a throughput
// and Instructions hold uses, the load being use/throughput (VCVTT uses
// r01 twice, r01 has throughput 2: ρ = 1). Numbers are fractions written
// as strings ("1/3", "2") so that they stay exact.
type File struct {
	Kind         string            `json:"kind"` // "ResourceMapping"
	Name         string            `json:"name"`
	Normalized   bool              `json:"normalized"`
	Resources    []FileResource    `json:"resources"`
	Instructions []FileInstruction `json:"instructions"`
}

// FileResource is a resource of a File.
type FileResource struct {
	Name       string `json:"name"`
	Throughput string `json:"throughput,omitempty"` // non-normalised form only; default 1
}

// FileInstruction is an instruction of a File with its loads (normalised)
// or uses (non-normalised) by resource name.
type FileInstruction struct {
	Name  string            `json:"name"`
	Loads map[string]string `json:"loads"`
}

// File returns m in normalised form when normalized is set; otherwise in
// non-normalised form, each resource's throughput being the least common
// multiple of the denominators of its loads (so that uses are whole
// numbers: r016 of throughput 3 used once by ADDSS).
func (m *Mapping) File(normalized bool) *File {
	f := &File{Kind: "ResourceMapping", Name: m.name, Normalized: normalized}
	thr := make([]*big.Rat, len(m.resources))
	for r, name := range m.resources {
		thr[r] = big.NewRat(1, 1)
		if !normalized {
			l := big.NewInt(1)
			for i := range m.insns {
				if v := m.exact[i][r]; v != nil {
					lcmWith(l, v.Denom())
				}
			}
			thr[r].SetInt(l)
		}
		fr := FileResource{Name: name}
		if !normalized {
			fr.Throughput = thr[r].RatString()
		}
		f.Resources = append(f.Resources, fr)
	}
	for i, insn := range m.insns {
		fi := FileInstruction{Name: insn, Loads: map[string]string{}}
		for r, v := range m.exact[i] {
			if v != nil {
				fi.Loads[m.resources[r]] = new(big.Rat).Mul(v, thr[r]).RatString()
			}
		}
		f.Instructions = append(f.Instructions, fi)
	}
	return f
}

// FromFile returns the mapping f describes, normalising it if needed. It
// returns an error naming the offending resource or instruction for a
// malformed fraction, a throughput ≤ 0, a negative use or an unknown
// resource.
func FromFile(f *File) (*Mapping, error) {
	if f.Kind != "" && f.Kind != "ResourceMapping" {
		return nil, fmt.Errorf("resource: kind %q, want ResourceMapping", f.Kind)
	}
	names := make([]string, len(f.Resources))
	thr := make(map[string]*big.Rat, len(f.Resources))
	for r, fr := range f.Resources {
		names[r] = fr.Name
		t := big.NewRat(1, 1)
		if fr.Throughput != "" {
			if f.Normalized {
				return nil, fmt.Errorf("resource: resource %d (%q) has throughput %q in a normalised mapping", r, fr.Name, fr.Throughput)
			}
			var ok bool
			if t, ok = new(big.Rat).SetString(fr.Throughput); !ok || t.Sign() <= 0 {
				return nil, fmt.Errorf("resource: resource %d (%q): throughput %q is not a positive fraction", r, fr.Name, fr.Throughput)
			}
		}
		thr[fr.Name] = t
	}
	m, err := New(f.Name, names...)
	if err != nil {
		return nil, err
	}
	for j, fi := range f.Instructions {
		if _, err := m.AddInstruction(fi.Name); err != nil {
			return nil, fmt.Errorf("resource: instruction %d: %w", j, err)
		}
		for rn, s := range fi.Loads {
			v, ok := new(big.Rat).SetString(s)
			if !ok {
				return nil, fmt.Errorf("resource: instruction %d (%q): load %q on %q is not a fraction", j, fi.Name, s, rn)
			}
			t, ok := thr[rn]
			if !ok {
				return nil, fmt.Errorf("resource: instruction %d (%q): unknown resource %q", j, fi.Name, rn)
			}
			if err := m.SetLoad(fi.Name, rn, v.Quo(v, t)); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// MarshalJSON writes m in normalised form.
func (m *Mapping) MarshalJSON() ([]byte, error) { return json.Marshal(m.File(true)) }

// UnmarshalJSON reads m in either form.
func (m *Mapping) UnmarshalJSON(data []byte) error {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("resource: %w", err)
	}
	mm, err := FromFile(&f)
	if err != nil {
		return err
	}
	*m = *mm
	return nil
}

// WriteFile writes m as JSON to path, normalised or not.
func (m *Mapping) WriteFile(path string, normalized bool) error {
	data, err := json.MarshalIndent(m.File(normalized), "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ReadFile reads a mapping written by WriteFile (either form).
func ReadFile(path string) (*Mapping, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := &Mapping{}
	if err := m.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// lcmWith sets l to the least common multiple of l and d.
func lcmWith(l, d *big.Int) {
	g := new(big.Int).GCD(nil, nil, l, d)
	l.Mul(l, new(big.Int).Quo(d, g))
}
