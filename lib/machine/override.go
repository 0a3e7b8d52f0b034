package machine

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/portlab/portlab/lib/portmap"
)

// OverrideFormat is the format name of a machine override document.
const OverrideFormat = "portlab.machine-override/v1"

// overrideFields are the fields an override document may hold: the
// machine fields it replaces, "uops" and "description".
var overrideFields = []string{"format", "description", "uops", "latencies", "frontEnd", "counters", "reorderBuffer", "issueWidth", "retireWidth", "loadPorts", "storePorts", "memory", "mergeLatency", "mergeWhen", "addressIncrementLatency", "complexLEALatency", "complexLEAFrom", "chains", "fusions", "wakeup"}

// ReadOverride reads an override document from path and applies it to m
// (Override).
func ReadOverride(m *Machine, path string) (*Machine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	return Override(m, data, path)
}

// Override returns a copy of m with the values of an override document
// (JSON, format OverrideFormat) in place of its own: values set by hand
// on a description that a pipeline writes (a latency read from blocks
// rather than measured by the latency design, a form's µops corrected),
// kept in a file of their own so that the description can be written
// again from new measurements with the same corrections. Its fields:
//
//	format       required: "portlab.machine-override/v1"
//	description  text appended to the machine's description
//	uops         {form: [{"count": n ≥ 1, "ports": [port, …]}, …]}: the
//	             form's µops in place of the mapping's, over the
//	             mapping's ports; a form the mapping lacks is added, an
//	             empty list gives a form no µops (the front end bounds it)
//	latencies    {form: latency} as in a machine description: the form's
//	             latency in place of the measured one (others are kept)
//
// and any of the machine fields frontEnd, counters, reorderBuffer,
// issueWidth, retireWidth, loadPorts, storePorts, memory, mergeLatency,
// mergeWhen, addressIncrementLatency, complexLEALatency, complexLEAFrom, chains, fusions
// and wakeup, which replace the machine's field whole. The result is checked as a
// description read from a file is; errors name name (the override file)
// and the field.
// m is not modified.
func Override(m *Machine, data []byte, name string) (*Machine, error) {
	d := &decoder{file: name}
	f := d.object("", data, overrideFields...)
	if d.err != nil {
		return nil, d.err
	}
	var format string
	if raw, ok := f["format"]; !ok {
		return nil, &portmap.FormatError{File: name, Path: "format", Err: fmt.Errorf("missing (want %q)", OverrideFormat)}
	} else if d.value("format", raw, &format) && format != OverrideFormat {
		d.fail("format", "%q, want %q", format, OverrideFormat)
	}
	if d.err != nil {
		return nil, d.err
	}
	c := *m
	c.Mapping = m.Mapping.Clone()
	if raw, ok := f["uops"]; ok {
		var forms map[string][]struct {
			Count int      `json:"count"`
			Ports []string `json:"ports"`
		}
		if !d.value("uops", raw, &forms) {
			return nil, d.err
		}
		for _, form := range sortedKeys(forms) {
			path := "uops[" + strconv.Quote(form) + "]"
			var uops []portmap.Uop
			for i, u := range forms[form] {
				s, err := c.Mapping.Arch().PortSet(u.Ports...)
				if err != nil {
					d.fail(path+"["+strconv.Itoa(i)+"].ports", "%v", err)
					return nil, d.err
				}
				uops = append(uops, portmap.Uop{Ports: s, Count: u.Count})
			}
			if err := c.Mapping.Set(form, uops...); err != nil {
				d.fail(path, "%v", err)
				return nil, d.err
			}
		}
		c.MappingSource = "" // the mapping changed: written inline
	}
	if raw, ok := f["description"]; ok {
		var text string
		if !d.value("description", raw, &text) {
			return nil, d.err
		}
		if c.Description != "" && text != "" {
			c.Description += " "
		}
		c.Description += text
	}
	// The other fields are decoded as in a description: the machine is
	// encoded, the fields replaced (latencies form by form) and the
	// result decoded and checked.
	src := c.MappingSource
	c.MappingSource = "" // encoded inline, so that no file is resolved
	enc, err := Encode(&c)
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(enc, &doc); err != nil {
		return nil, fmt.Errorf("machine: override %s: %w", name, err)
	}
	for k, raw := range f {
		switch k {
		case "format", "description", "uops":
		case "latencies":
			var over, lat map[string]json.RawMessage
			if !d.value("latencies", raw, &over) {
				return nil, d.err
			}
			if old, ok := doc["latencies"]; ok {
				if err := json.Unmarshal(old, &lat); err != nil {
					return nil, fmt.Errorf("machine: override %s: %w", name, err)
				}
			}
			if lat == nil {
				lat = map[string]json.RawMessage{}
			}
			for form, l := range over {
				lat[form] = l
			}
			doc["latencies"], _ = json.Marshal(lat)
		default:
			doc[k] = raw
		}
	}
	merged, _ := json.Marshal(doc)
	out, err := Parse(merged, name)
	if err != nil {
		return nil, err
	}
	out.MappingSource = src
	return out, nil
}
