package portmap

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// PMEvo's JSON (github.com/cdl-saarland/pmevo-artifact): an "Architecture"
// with instruction and port names, a "Mapping3" assigning each instruction a
// list of µops (each a list of port names; a repeated list is a repeated
// µop), a "Mapping2" assigning each instruction a list of ports, and an
// "ExperimentList" of experiments ("iseq": instruction list) with a measured
// "result" {"cycles": …} and optional "other_results" [{"id", "cycles"}].

type pmevoArch struct {
	Kind  string   `json:"kind"`
	Insns []string `json:"insns"`
	Ports []string `json:"ports"`
	Name  string   `json:"name"`
}

type pmevoMapping struct {
	Kind       string                     `json:"kind"`
	Arch       pmevoArch                  `json:"arch"`
	Assignment map[string]json.RawMessage `json:"assignment"`
}

type pmevoResult struct {
	ID     string   `json:"id,omitempty"`
	Cycles *float64 `json:"cycles"`
}

type pmevoExperiment struct {
	Kind         string        `json:"kind"`
	Iseq         []string      `json:"iseq"`
	Result       *pmevoResult  `json:"result,omitempty"`
	OtherResults []pmevoResult `json:"other_results,omitempty"`
}

type pmevoExperimentList struct {
	Kind string            `json:"kind"`
	Arch pmevoArch         `json:"arch"`
	Exps []pmevoExperiment `json:"exps"`
}

func decodePMEvoMapping(file string, data []byte) (*Mapping, error) {
	var j pmevoMapping
	if err := decodeJSON(file, data, &j, false); err != nil {
		return nil, err
	}
	arch, err := NewArchitecture(j.Arch.Name, j.Arch.Ports, j.Arch.Insns)
	if err != nil {
		return nil, &FormatError{File: file, Path: "arch", Err: err}
	}
	if j.Assignment == nil {
		return nil, ferr(file, "assignment", "missing assignment")
	}
	m := NewMappingFor(arch)
	names := make([]string, 0, len(j.Assignment))
	for name := range j.Assignment {
		names = append(names, name)
	}
	sort.Strings(names) // deterministic error reports
	for _, name := range names {
		path := fmt.Sprintf("assignment[%q]", name)
		if _, ok := arch.insnIdx[name]; !ok {
			return nil, ferr(file, path, "instruction %q is not in arch.insns", name)
		}
		var uops []Uop
		if j.Kind == "Mapping2" {
			var ports []string
			if err := json.Unmarshal(j.Assignment[name], &ports); err != nil {
				return nil, ferr(file, path, "want a list of port names such as [\"0\", \"1\"], got %s", shortJSON(j.Assignment[name]))
			}
			if len(ports) == 0 {
				return nil, ferr(file, path, "instruction %q has no ports", name)
			}
			s, err := arch.PortSet(ports...)
			if err != nil {
				return nil, &FormatError{File: file, Path: path, Err: err}
			}
			uops = []Uop{{Ports: s, Count: 1}}
		} else {
			var lists [][]string
			if err := json.Unmarshal(j.Assignment[name], &lists); err != nil {
				return nil, ferr(file, path, "want a list of µops, each a list of port names such as [[\"0\", \"1\"], [\"2\"]], got %s", shortJSON(j.Assignment[name]))
			}
			for k, ports := range lists {
				if len(ports) == 0 {
					return nil, ferr(file, fmt.Sprintf("%s[%d]", path, k), "empty µop (no ports) for %q", name)
				}
				s, err := arch.PortSet(ports...)
				if err != nil {
					return nil, &FormatError{File: file, Path: fmt.Sprintf("%s[%d]", path, k), Err: err}
				}
				uops = append(uops, Uop{Ports: s, Count: 1})
			}
		}
		if err := m.Set(name, uops...); err != nil {
			return nil, &FormatError{File: file, Path: path, Err: err}
		}
	}
	return m, nil
}

// MaxPMEvoList bounds the lists PMEvo's format spells out element by
// element (µops of an instruction, instructions of an experiment), so that a
// huge count is an error instead of an attempt to allocate it.
const MaxPMEvoList = 1 << 20

// MarshalPMEvo encodes m as PMEvo Mapping3 JSON. Only mapped instructions are
// listed in the architecture.
func (m *Mapping) MarshalPMEvo() ([]byte, error) {
	j, err := m.toPMEvo()
	if err != nil {
		return nil, err
	}
	return jsonMarshal(j)
}

func (m *Mapping) toPMEvo() (pmevoMapping, error) {
	j := pmevoMapping{
		Kind:       "Mapping3",
		Arch:       pmevoArch{Kind: "Architecture", Ports: m.arch.ports, Name: m.arch.name, Insns: []string{}},
		Assignment: map[string]json.RawMessage{},
	}
	for i, ok := range m.set {
		if !ok {
			continue
		}
		name := m.arch.insns[i]
		if n := m.NumUops(name); n > MaxPMEvoList {
			return j, fmt.Errorf("portmap: instruction %q has %d µops, too many to list in PMEvo's format (max %d)", name, n, MaxPMEvoList)
		}
		j.Arch.Insns = append(j.Arch.Insns, name)
		lists := [][]string{}
		for _, u := range m.uops[i] {
			for c := 0; c < u.Count; c++ {
				lists = append(lists, m.arch.PortNames(u.Ports))
			}
		}
		raw, _ := json.Marshal(lists)
		j.Assignment[name] = raw
	}
	return j, nil
}

// WritePMEvoMapping writes m to path as PMEvo Mapping3 JSON.
func WritePMEvoMapping(path string, m *Mapping) error {
	j, err := m.toPMEvo()
	if err != nil {
		return err
	}
	return writeJSON(path, j)
}

func decodePMEvoExperiments(file string, data []byte) (*ExperimentSet, error) {
	var j pmevoExperimentList
	if err := decodeJSON(file, data, &j, false); err != nil {
		return nil, err
	}
	s := &ExperimentSet{}
	if len(j.Arch.Ports) > 0 || len(j.Arch.Insns) > 0 {
		ports := j.Arch.Ports
		if len(ports) == 0 {
			ports = []string{"?"}
		}
		a, err := NewArchitecture(j.Arch.Name, ports, j.Arch.Insns)
		if err != nil {
			return nil, &FormatError{File: file, Path: "arch", Err: err}
		}
		s.Arch = a
	}
	s.Measurements = make([]Measurement, 0, len(j.Exps))
	for i, je := range j.Exps {
		path := fmt.Sprintf("exps[%d]", i)
		if len(je.Iseq) == 0 {
			return nil, ferr(file, path+".iseq", "empty experiment")
		}
		for k, name := range je.Iseq {
			if name == "" {
				return nil, ferr(file, fmt.Sprintf("%s.iseq[%d]", path, k), "empty instruction name")
			}
			if s.Arch != nil && s.Arch.NumInstructions() > 0 {
				if _, ok := s.Arch.insnIdx[name]; !ok {
					return nil, ferr(file, fmt.Sprintf("%s.iseq[%d]", path, k), "unknown instruction %q (not in arch.insns)", name)
				}
			}
		}
		m := Measurement{Experiment: NewExperiment(je.Iseq...)}
		if je.Result != nil && je.Result.Cycles != nil {
			c := *je.Result.Cycles
			if !(c > 0) || math.IsInf(c, 0) {
				return nil, ferr(file, path+".result.cycles", "cycles %v, want a finite positive number", c)
			}
			m.Cycles = c
		}
		for k, o := range je.OtherResults {
			if o.ID == "" || o.Cycles == nil {
				return nil, ferr(file, fmt.Sprintf("%s.other_results[%d]", path, k), "want {\"id\": …, \"cycles\": …}")
			}
			if m.Others == nil {
				m.Others = map[string]float64{}
			}
			if _, dup := m.Others[o.ID]; dup {
				return nil, ferr(file, fmt.Sprintf("%s.other_results[%d]", path, k), "duplicate id %q", o.ID)
			}
			m.Others[o.ID] = *o.Cycles
		}
		s.Measurements = append(s.Measurements, m)
	}
	return s, nil
}

func (s *ExperimentSet) toPMEvo() (pmevoExperimentList, error) {
	j := pmevoExperimentList{Kind: "ExperimentList", Exps: make([]pmevoExperiment, len(s.Measurements))}
	j.Arch.Kind = "Architecture"
	if s.Arch != nil {
		j.Arch.Name, j.Arch.Ports, j.Arch.Insns = s.Arch.name, s.Arch.ports, s.Arch.insns
	}
	for i, m := range s.Measurements {
		if n := m.Experiment.Len(); n > MaxPMEvoList {
			return j, fmt.Errorf("portmap: experiment %d has %d instructions, too many to list in PMEvo's format (max %d)", i, n, MaxPMEvoList)
		}
		je := pmevoExperiment{Kind: "Experiment", Iseq: m.Experiment.List()}
		if m.Cycles != 0 {
			c := m.Cycles
			je.Result = &pmevoResult{Cycles: &c}
		}
		ids := make([]string, 0, len(m.Others))
		for id := range m.Others {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			c := m.Others[id]
			je.OtherResults = append(je.OtherResults, pmevoResult{ID: id, Cycles: &c})
		}
		j.Exps[i] = je
	}
	return j, nil
}

// MarshalPMEvo encodes s as a PMEvo ExperimentList.
func (s *ExperimentSet) MarshalPMEvo() ([]byte, error) {
	j, err := s.toPMEvo()
	if err != nil {
		return nil, err
	}
	return jsonMarshal(j)
}

// WritePMEvoExperiments writes s to path as a PMEvo ExperimentList.
func WritePMEvoExperiments(path string, s *ExperimentSet) error {
	j, err := s.toPMEvo()
	if err != nil {
		return err
	}
	return writeJSON(path, j)
}

func jsonMarshal(v any) ([]byte, error) { return json.MarshalIndent(v, "", " ") }

// shortJSON returns raw JSON for an error message, cut to 40 bytes.
func shortJSON(raw []byte) string {
	s := strings.TrimSpace(string(raw))
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
