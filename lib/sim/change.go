package sim

import (
	"fmt"
	"math"
	"strings"
)

// Change scales the capacity of the simulated machine, as the sensitivity
// analysis of Gus (Dutilleul, Pompougnac et al., "Performance debugging through
// microarchitectural sensitivity and causality analysis", 2024, §3.2) does: a
// resource's throughput, or the latencies of a form or of all forms.
type Change struct {
	// Resources names the resources whose throughput changes: ports of
	// the mapping (or resources of Options.Resources), "load" and "store"
	// for the machine's LoadPorts and StorePorts, "frontend" for the
	// front end's instructions and µops per cycle.
	Resources []string
	// Throughput multiplies their throughput: 2 makes them twice as fast,
	// 0.5 half as fast (0: unchanged).
	Throughput float64
	// Form is the form key (isa.Form.Key) whose latencies change, "*" for
	// every form.
	Form string
	// Latency multiplies the form's latencies (0: unchanged); LatencyAdd
	// is then added, in cycles. A latency below 0 becomes 0.
	Latency, LatencyAdd float64
}

// String describes the change: "throughput ×2 of 2, 3", "latency ×0.5
// of vfmadd231ps …", "latency +1 of *".
func (c Change) String() string {
	var parts []string
	if c.Throughput != 0 && len(c.Resources) > 0 {
		parts = append(parts, fmt.Sprintf("throughput ×%g of %s", c.Throughput, strings.Join(c.Resources, ", ")))
	}
	if c.Form != "" && (c.Latency != 0 || c.LatencyAdd != 0) {
		s := "latency"
		if c.Latency != 0 {
			s += fmt.Sprintf(" ×%g", c.Latency)
		}
		if c.LatencyAdd != 0 {
			s += fmt.Sprintf(" %+g", c.LatencyAdd)
		}
		parts = append(parts, s+" of "+c.Form)
	}
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts, "; ")
}

// applyThroughput applies c's throughput factor to the simulator's
// resources.
func (s *Simulator) applyThroughput(c Change) error {
	if c.Throughput == 0 && c.Latency == 0 && c.LatencyAdd == 0 {
		return fmt.Errorf("sim: change %q changes nothing (set Throughput, Latency or LatencyAdd)", c.String())
	}
	if c.Throughput < 0 || math.IsInf(c.Throughput, 0) || math.IsNaN(c.Throughput) {
		return fmt.Errorf("sim: change of %s: throughput factor %v must be > 0", strings.Join(c.Resources, ", "), c.Throughput)
	}
	if c.Latency < 0 || math.IsNaN(c.Latency) || math.IsNaN(c.LatencyAdd) {
		return fmt.Errorf("sim: change of %s: latency factor %v must be > 0", c.Form, c.Latency)
	}
	if (c.Latency != 0 || c.LatencyAdd != 0) && c.Form == "" {
		return fmt.Errorf("sim: a latency change needs Form (a form key, or \"*\")")
	}
	if c.Form != "" && c.Form != "*" {
		if s.opt.Resources != nil && !s.opt.Resources.Has(c.Form) || s.opt.Resources == nil && !s.m.Mapping.Has(c.Form) {
			return fmt.Errorf("sim: latency change of %q: no such form in the machine %s", c.Form, s.m.Name)
		}
	}
	if c.Throughput == 0 {
		if len(c.Resources) > 0 {
			return fmt.Errorf("sim: change of %s: no Throughput factor", strings.Join(c.Resources, ", "))
		}
		return nil
	}
	if len(c.Resources) == 0 {
		return fmt.Errorf("sim: a throughput change needs Resources")
	}
	f := 1 / c.Throughput
	for _, name := range c.Resources {
		switch name {
		case "frontend":
			s.feScale *= f
			continue
		case "load", "store":
			ports := s.m.LoadPorts
			if name == "store" {
				ports = s.m.StorePorts
			}
			if len(ports) == 0 {
				return fmt.Errorf("sim: the machine %s does not say which are its %s ports (%sPorts)", s.m.Name, name, name)
			}
			if s.opt.Resources != nil {
				return fmt.Errorf("sim: %q names ports, but the simulator uses the resources of %s", name, s.opt.Resources.Name())
			}
			for _, p := range ports {
				s.resScale[s.resIndex[p]] *= f
			}
			continue
		}
		i, ok := s.resIndex[name]
		if !ok {
			return fmt.Errorf("sim: no resource %q (have %s, load, store, frontend)", name, strings.Join(s.resNames, ", "))
		}
		s.resScale[i] *= f
	}
	return nil
}

// scaleLatency applies the latency changes to a latency of form key.
func (s *Simulator) scaleLatency(key string, c float64) float64 {
	for _, ch := range s.opt.Changes {
		if ch.Form != "*" && ch.Form != key {
			continue
		}
		if ch.Latency != 0 {
			c *= ch.Latency
		}
		c += ch.LatencyAdd
		if c < 0 {
			c = 0
		}
	}
	return c
}
