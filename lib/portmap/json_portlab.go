package portmap

import (
	"fmt"
	"math"
)

// Format tags of portlab's own JSON files.
const (
	MappingFormat     = "portlab.mapping/v1"
	ExperimentsFormat = "portlab.experiments/v1"
)

type jsonUop struct {
	Count int      `json:"count"`
	Ports []string `json:"ports"`
}

type jsonInsn struct {
	Name string    `json:"name"`
	Uops []jsonUop `json:"uops"`
}

type jsonMapping struct {
	Format       string     `json:"format"`
	Name         string     `json:"name"`
	Ports        []string   `json:"ports"`
	Instructions []jsonInsn `json:"instructions"`
}

// MarshalJSON encodes m in portlab's mapping format.
func (m *Mapping) MarshalJSON() ([]byte, error) {
	return jsonMarshal(m.toJSON())
}

func (m *Mapping) toJSON() jsonMapping {
	j := jsonMapping{Format: MappingFormat, Name: m.arch.name, Ports: m.arch.ports, Instructions: []jsonInsn{}}
	for i, ok := range m.set {
		if !ok {
			continue
		}
		ji := jsonInsn{Name: m.arch.insns[i], Uops: []jsonUop{}}
		for _, u := range m.uops[i] {
			ji.Uops = append(ji.Uops, jsonUop{Count: u.Count, Ports: m.arch.PortNames(u.Ports)})
		}
		j.Instructions = append(j.Instructions, ji)
	}
	return j
}

// WriteMapping writes m to path in portlab's mapping format.
func WriteMapping(path string, m *Mapping) error { return writeJSON(path, m.toJSON()) }

func decodeOwnMapping(file string, data []byte) (*Mapping, error) {
	var j jsonMapping
	if err := decodeJSON(file, data, &j, true); err != nil {
		return nil, err
	}
	arch, err := NewArchitecture(j.Name, j.Ports, nil)
	if err != nil {
		return nil, &FormatError{File: file, Path: "ports", Err: err}
	}
	m := &Mapping{arch: arch}
	for i, ji := range j.Instructions {
		path := fmt.Sprintf("instructions[%d]", i)
		if ji.Name == "" {
			return nil, ferr(file, path+".name", "missing or empty instruction name")
		}
		if m.Has(ji.Name) {
			return nil, ferr(file, path+".name", "duplicate instruction %q", ji.Name)
		}
		if ji.Uops == nil {
			return nil, ferr(file, path+".uops", "missing µop list for %q (use [] for an instruction with no µops)", ji.Name)
		}
		uops := make([]Uop, len(ji.Uops))
		for k, ju := range ji.Uops {
			upath := fmt.Sprintf("%s.uops[%d]", path, k)
			if ju.Count < 1 || ju.Count > MaxCount {
				return nil, ferr(file, upath+".count", "count %d for %q, want 1..%d", ju.Count, ji.Name, MaxCount)
			}
			if len(ju.Ports) == 0 {
				return nil, ferr(file, upath+".ports", "empty µop (no ports) for %q", ji.Name)
			}
			s, err := arch.PortSet(ju.Ports...)
			if err != nil {
				return nil, &FormatError{File: file, Path: upath + ".ports", Err: err}
			}
			uops[k] = Uop{Ports: s, Count: ju.Count}
		}
		if err := m.Set(ji.Name, uops...); err != nil {
			return nil, &FormatError{File: file, Path: path, Err: err}
		}
	}
	return m, nil
}

type jsonArch struct {
	Name         string   `json:"name,omitempty"`
	Ports        []string `json:"ports,omitempty"`
	Instructions []string `json:"instructions,omitempty"`
}

type jsonMeasurement struct {
	Insns  map[string]int     `json:"insns"`
	Cycles *float64           `json:"cycles,omitempty"`
	Others map[string]float64 `json:"others,omitempty"`
}

type jsonExperiments struct {
	Format      string            `json:"format"`
	Arch        *jsonArch         `json:"arch,omitempty"`
	Experiments []jsonMeasurement `json:"experiments"`
}

func (s *ExperimentSet) toJSON() jsonExperiments {
	j := jsonExperiments{Format: ExperimentsFormat, Experiments: make([]jsonMeasurement, len(s.Measurements))}
	if s.Arch != nil {
		j.Arch = &jsonArch{Name: s.Arch.name, Ports: s.Arch.ports, Instructions: s.Arch.insns}
	}
	for i, m := range s.Measurements {
		jm := jsonMeasurement{Insns: map[string]int{}, Others: m.Others}
		for _, it := range m.Experiment.items {
			jm.Insns[it.Insn] = it.Count
		}
		if m.Cycles != 0 {
			c := m.Cycles
			jm.Cycles = &c
		}
		j.Experiments[i] = jm
	}
	return j
}

// MarshalJSON encodes s in portlab's experiment format.
func (s *ExperimentSet) MarshalJSON() ([]byte, error) { return jsonMarshal(s.toJSON()) }

// WriteExperiments writes s to path in portlab's experiment format.
func WriteExperiments(path string, s *ExperimentSet) error { return writeJSON(path, s.toJSON()) }

func decodeOwnExperiments(file string, data []byte) (*ExperimentSet, error) {
	var j jsonExperiments
	if err := decodeJSON(file, data, &j, true); err != nil {
		return nil, err
	}
	s := &ExperimentSet{}
	if j.Arch != nil {
		if len(j.Arch.Ports) == 0 {
			return nil, ferr(file, "arch.ports", "missing: an architecture needs its ports (leave out \"arch\" if unknown)")
		}
		a, err := NewArchitecture(j.Arch.Name, j.Arch.Ports, j.Arch.Instructions)
		if err != nil {
			return nil, &FormatError{File: file, Path: "arch", Err: err}
		}
		s.Arch = a
	}
	for i, jm := range j.Experiments {
		path := fmt.Sprintf("experiments[%d]", i)
		if len(jm.Insns) == 0 {
			return nil, ferr(file, path+".insns", "empty experiment")
		}
		for name, n := range jm.Insns {
			switch {
			case n < 0:
				return nil, ferr(file, fmt.Sprintf("%s.insns[%q]", path, name), "negative count %d", n)
			case n == 0:
				return nil, ferr(file, fmt.Sprintf("%s.insns[%q]", path, name), "count 0, want at least 1 (leave the instruction out)")
			case n > MaxCount:
				return nil, ferr(file, fmt.Sprintf("%s.insns[%q]", path, name), "count %d, more than %d", n, MaxCount)
			}
			if s.Arch != nil && s.Arch.NumInstructions() > 0 {
				if _, ok := s.Arch.insnIdx[name]; !ok {
					return nil, ferr(file, fmt.Sprintf("%s.insns[%q]", path, name), "unknown instruction %q (not in arch.instructions)", name)
				}
			}
		}
		e, err := ExperimentOf(jm.Insns)
		if err != nil {
			return nil, &FormatError{File: file, Path: path + ".insns", Err: err}
		}
		for id := range jm.Others {
			if id == "" {
				return nil, ferr(file, path+".others", "empty tool id")
			}
		}
		m := Measurement{Experiment: e, Others: jm.Others}
		if jm.Cycles != nil {
			if c := *jm.Cycles; !(c > 0) || math.IsInf(c, 0) {
				return nil, ferr(file, path+".cycles", "cycles %v, want a finite positive number", c)
			}
			m.Cycles = *jm.Cycles
		}
		s.Measurements = append(s.Measurements, m)
	}
	return s, nil
}
