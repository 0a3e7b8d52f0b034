package portmap

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// UopsInfoScheme is one instruction scheme of the uops.info port-usage
// extract shipped with iwho (x86_uops_info_features.json): the scheme name in
// iwho syntax, e.g. "add RW:GPR:64, R:GPR:64", and for each variant the
// port usage per microarchitecture in uops.info notation.
type UopsInfoScheme struct {
	Name     string
	Variants []UopsInfoVariant
}

// UopsInfoVariant is one encoding variant of a scheme.
type UopsInfoVariant struct {
	URL          string            `json:"uops_info_url"`
	Extension    string            `json:"extension"`
	ISASet       string            `json:"isa-set"`
	Category     string            `json:"category"`
	Measurements map[string]string `json:"measurements"`
}

// DecodeUopsInfoSchemes decodes the iwho features file. Schemes are returned
// sorted by name.
func DecodeUopsInfoSchemes(file string, data []byte) ([]UopsInfoScheme, error) {
	var raw map[string][]UopsInfoVariant
	if err := decodeJSON(file, data, &raw, false); err != nil {
		return nil, err
	}
	out := make([]UopsInfoScheme, 0, len(raw))
	for name, vs := range raw {
		out = append(out, UopsInfoScheme{Name: name, Variants: vs})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out, nil
}

// UopsInfoMapping builds the three-level mapping of microarchitecture uarch
// (e.g. "ICL", "SKL", "ZEN+") from uops.info schemes. For a scheme with
// several variants the first variant that has a measurement for uarch is
// used. The ports are every port named by any scheme of uarch, in natural
// order ("0".."9" on Intel, "FP0".."FP5" on AMD, where uops.info resolves only
// the floating-point pipes). Schemes without a measurement for uarch are
// left out. A usage string that does not parse is an error naming the scheme.
func UopsInfoMapping(schemes []UopsInfoScheme, uarch string) (*Mapping, error) {
	type entry struct {
		name  string
		usage []NamedUop
	}
	var entries []entry
	portSet := map[string]bool{}
	for _, s := range schemes {
		for _, v := range s.Variants {
			u, ok := v.Measurements[uarch]
			if !ok {
				continue
			}
			named, err := ParseUsageNames(u)
			if err != nil {
				return nil, fmt.Errorf("portmap: uops.info scheme %q, %s: %w", s.Name, uarch, err)
			}
			for _, nu := range named {
				for _, p := range nu.Ports {
					portSet[p] = true
				}
			}
			entries = append(entries, entry{s.Name, named})
			break
		}
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("portmap: no uops.info measurements for microarchitecture %q", uarch)
	}
	ports := make([]string, 0, len(portSet))
	for p := range portSet {
		ports = append(ports, p)
	}
	sort.Slice(ports, func(a, b int) bool { return naturalLess(ports[a], ports[b]) })
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.name
	}
	// All instructions at once: adding them one by one copies the
	// architecture each time.
	a, err := NewArchitecture(uarch, ports, names)
	if err != nil {
		return nil, err
	}
	m := NewMappingFor(a)
	for _, e := range entries {
		uops := make([]Uop, len(e.usage))
		for j, nu := range e.usage {
			s, _ := m.arch.PortSet(nu.Ports...)
			uops[j] = Uop{Ports: s, Count: nu.Count}
		}
		if err := m.Set(e.name, uops...); err != nil {
			return nil, fmt.Errorf("portmap: uops.info scheme %q, %s: %w", e.name, uarch, err)
		}
	}
	return m, nil
}

// UopsInfoArchitectures returns the microarchitecture names that occur in the
// schemes, sorted.
func UopsInfoArchitectures(schemes []UopsInfoScheme) []string {
	seen := map[string]bool{}
	for _, s := range schemes {
		for _, v := range s.Variants {
			for ua := range v.Measurements {
				seen[ua] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for ua := range seen {
		out = append(out, ua)
	}
	sort.Strings(out)
	return out
}

// naturalLess orders "FP2" before "FP10" and "2" before "10".
func naturalLess(a, b string) bool {
	pa, na := splitNum(a)
	pb, nb := splitNum(b)
	if pa != pb {
		return pa < pb
	}
	if na != nb {
		return na < nb
	}
	return a < b
}

func splitNum(s string) (string, int) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(s[i:])
	if err != nil {
		return s, -1
	}
	return strings.ToLower(s[:i]), n
}
