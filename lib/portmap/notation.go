package portmap

import (
	"fmt"
	"strconv"
	"strings"
)

// NamedUop is a µop whose ports are given by name, as read from uops.info
// notation before the names are resolved against an architecture.
type NamedUop struct {
	Count int
	Ports []string
}

// ParseUsageNames parses uops.info port-usage notation into µops with port
// names, without a port table. The notation is a '+'-separated list of terms
// "N*GROUP", where the count "N*" may be omitted (meaning 1) and GROUP is
//
//   - "p" followed by digits, one port per digit, named by the digit
//     (Intel: "p0156" is ports 0, 1, 5 and 6);
//   - a letter prefix followed by digits, one port per digit named prefix+digit
//     (AMD: "FP23" is ports FP2 and FP3);
//   - a bracketed comma-separated list of arbitrary names, "[ALU0,ALU1]".
//
// An empty string (or "0") means no µops. Spaces are ignored around terms.
func ParseUsageNames(s string) ([]NamedUop, error) {
	t := strings.TrimSpace(s)
	if t == "" || t == "0" {
		return []NamedUop{}, nil
	}
	var out []NamedUop
	for j, term := range splitTerms(t) {
		term = strings.TrimSpace(term)
		if term == "" {
			return nil, fmt.Errorf("port usage %q: term %d is empty", s, j+1)
		}
		count := 1
		group := term
		if star := strings.IndexByte(term, '*'); star >= 0 {
			n, err := strconv.Atoi(strings.TrimSpace(term[:star]))
			if err != nil {
				return nil, fmt.Errorf("port usage %q: term %q: count %q is not a whole number", s, term, term[:star])
			}
			if n < 1 {
				return nil, fmt.Errorf("port usage %q: term %q: count %d, want at least 1", s, term, n)
			}
			count = n
			group = strings.TrimSpace(term[star+1:])
		}
		ports, err := parseGroup(group)
		if err != nil {
			return nil, fmt.Errorf("port usage %q: term %q: %v", s, term, err)
		}
		out = append(out, NamedUop{Count: count, Ports: ports})
	}
	return out, nil
}

// splitTerms splits at '+' outside brackets.
func splitTerms(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '+':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func parseGroup(g string) ([]string, error) {
	if g == "" {
		return nil, fmt.Errorf("no ports")
	}
	if g[0] == '[' {
		if g[len(g)-1] != ']' {
			return nil, fmt.Errorf("unclosed '[' in %q", g)
		}
		var names []string
		for _, n := range strings.Split(g[1:len(g)-1], ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				return nil, fmt.Errorf("empty port name in %q", g)
			}
			names = append(names, n)
		}
		return names, nil
	}
	i := 0
	for i < len(g) && isLetter(g[i]) {
		i++
	}
	prefix, digits := g[:i], g[i:]
	if prefix == "" || digits == "" {
		return nil, fmt.Errorf("port group %q is not letters followed by port digits (use [a,b] for other names)", g)
	}
	names := make([]string, 0, len(digits))
	for j := 0; j < len(digits); j++ {
		if digits[j] < '0' || digits[j] > '9' {
			return nil, fmt.Errorf("port group %q: %q is not a port digit", g, digits[j])
		}
		d := digits[j : j+1]
		if prefix == "p" {
			names = append(names, d)
		} else {
			names = append(names, prefix+d)
		}
	}
	return names, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// ParseUsage parses uops.info port-usage notation (see ParseUsageNames) and
// resolves the port names against a. A digit port d that a does not have is
// also looked up as "pd", so "1*p12" works for ports named "p1", "p2".
func ParseUsage(s string, a *Architecture) ([]Uop, error) {
	named, err := ParseUsageNames(s)
	if err != nil {
		return nil, err
	}
	out := make([]Uop, len(named))
	for j, nu := range named {
		var set PortSet
		for _, n := range nu.Ports {
			k, ok := a.portIdx[n]
			if !ok {
				k, ok = a.portIdx["p"+n]
			}
			if !ok {
				return nil, fmt.Errorf("port usage %q: unknown port %q (ports are %s)", s, n, strings.Join(a.ports, ", "))
			}
			set |= 1 << uint(k)
		}
		out[j] = Uop{Ports: set, Count: nu.Count}
	}
	return out, nil
}

// FormatUsage formats uops in uops.info notation with a's port names, e.g.
// "1*p0156+2*p23". Ports named by single digits are written "p" + digits;
// ports sharing a letter prefix and differing in one final digit are written
// prefix + digits ("FP23"); anything else in brackets ("[ALU0,LD]").
// No µops formats as "0".
func FormatUsage(uops []Uop, a *Architecture) string {
	if len(uops) == 0 {
		return "0"
	}
	var b strings.Builder
	for j, u := range uops {
		if j > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(u.Count))
		b.WriteByte('*')
		g := formatGroup(a.PortNames(u.Ports))
		if g[0] != '[' {
			// A compact group must read back as the same ports (ports
			// named "1" and "p1" would make "p1" ambiguous).
			if back, err := ParseUsage(g, a); err != nil || len(back) != 1 || back[0].Ports != u.Ports {
				g = "[" + strings.Join(a.PortNames(u.Ports), ",") + "]"
			}
		}
		b.WriteString(g)
	}
	return b.String()
}

func formatGroup(names []string) string {
	digitsOnly, prefix, samePrefix := true, "", true
	for j, n := range names {
		if len(n) != 1 || n[0] < '0' || n[0] > '9' {
			digitsOnly = false
		}
		last := len(n) - 1
		if last < 1 || n[last] < '0' || n[last] > '9' || !allLetters(n[:last]) {
			samePrefix = false
			continue
		}
		if j == 0 {
			prefix = n[:last]
		} else if n[:last] != prefix {
			samePrefix = false
		}
	}
	switch {
	case digitsOnly:
		return "p" + strings.Join(names, "")
	case samePrefix:
		var b strings.Builder
		b.WriteString(prefix)
		for _, n := range names {
			b.WriteByte(n[len(n)-1])
		}
		return b.String()
	}
	return "[" + strings.Join(names, ",") + "]"
}

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return s != ""
}
