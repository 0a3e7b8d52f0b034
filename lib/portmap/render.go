package portmap

import (
	"fmt"
	"html"
	"strings"
)

// MaxTableRows is the number of rows the HTML forms of a Mapping and an
// ExperimentSet show before they say how many more there are.
const MaxTableRows = 60

// HTML returns m as an HTML table for a notebook: one row per instruction
// with its µop decomposition in uops.info notation and, per port, how many
// of its µops may run there.
func (m *Mapping) HTML() string {
	var b strings.Builder
	ports := m.Ports()
	fmt.Fprintf(&b, "<table><caption>mapping %s: %s, %s</caption><thead><tr><th>instruction</th><th>µops</th>",
		html.EscapeString(m.Name()), Count(m.Len(), "instruction"), Count(len(ports), "port"))
	for _, p := range ports {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(p))
	}
	b.WriteString("</tr></thead><tbody>")
	insns := m.Instructions()
	for i, insn := range insns {
		if i == MaxTableRows {
			fmt.Fprintf(&b, `<tr><td colspan="%d">… %d more</td></tr>`, len(ports)+2, len(insns)-i)
			break
		}
		uops, _ := m.Uops(insn)
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td><code>%s</code></td>", html.EscapeString(insn), html.EscapeString(m.Usage(insn)))
		for k := range ports {
			n := 0
			for _, u := range uops {
				if u.Ports.Has(k) {
					n += u.Count
				}
			}
			if n == 0 {
				b.WriteString(`<td style="color:#bbb">·</td>`)
			} else {
				fmt.Fprintf(&b, "<td>%d</td>", n)
			}
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// HTML returns e as a one-row HTML table of its instructions and counts.
func (e Experiment) HTML() string {
	var b strings.Builder
	b.WriteString("<table><tr><th>instruction</th>")
	for _, it := range e.items {
		fmt.Fprintf(&b, "<td><code>%s</code></td>", html.EscapeString(it.Insn))
	}
	b.WriteString("</tr><tr><th>count</th>")
	for _, it := range e.items {
		fmt.Fprintf(&b, "<td>%d</td>", it.Count)
	}
	b.WriteString("</tr></table>")
	return b.String()
}

// String summarises s in a line: its size, architecture and the stored
// predictions it carries.
func (s *ExperimentSet) String() string {
	if s == nil {
		return "<nil experiment set>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d measured experiment%s", len(s.Measurements), plural(len(s.Measurements)))
	if s.Arch != nil && s.Arch.Name() != "" {
		fmt.Fprintf(&b, " on %s", s.Arch.Name())
	}
	if ids := s.OtherIDs(); len(ids) > 0 {
		fmt.Fprintf(&b, ", with stored predictions of %s", strings.Join(ids, ", "))
	}
	return b.String()
}

// HTML returns s as an HTML table: one row per experiment with its cycles,
// the spread of its timings and its passes when known and the stored predictions, the
// first MaxTableRows rows.
func (s *ExperimentSet) HTML() string {
	var b strings.Builder
	ids := s.OtherIDs()
	detail, passes := false, false
	for _, m := range s.Measurements {
		detail = detail || m.Max > 0
		passes = passes || m.Passes > 1
	}
	fmt.Fprintf(&b, "<table><caption>%s</caption><thead><tr><th>experiment</th><th>cycles</th>", html.EscapeString(s.String()))
	if detail {
		b.WriteString("<th>min</th><th>max</th><th>dispersion</th>")
	}
	if passes {
		b.WriteString("<th>passes</th><th>spread</th>")
	}
	for _, id := range ids {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(id))
	}
	b.WriteString("</tr></thead><tbody>")
	for i, m := range s.Measurements {
		if i == MaxTableRows {
			fmt.Fprintf(&b, `<tr><td colspan="%d">… %d more</td></tr>`, len(ids)+5, len(s.Measurements)-i)
			break
		}
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td>%.4g</td>", html.EscapeString(m.Experiment.String()), m.Cycles)
		if detail {
			fmt.Fprintf(&b, "<td>%.4g</td><td>%.4g</td><td>%.2f %%</td>", m.Min, m.Max, 100*m.Dispersion)
		}
		if passes {
			fmt.Fprintf(&b, "<td>%d</td><td>%.2f %%</td>", m.Passes, 100*m.Spread)
		}
		for _, id := range ids {
			if v, ok := m.Others[id]; ok {
				fmt.Fprintf(&b, "<td>%.4g</td>", v)
			} else {
				b.WriteString("<td></td>")
			}
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Count returns n and noun, in the plural unless n is 1: "1 instruction",
// "3 instructions" (nouns that take an s).
func Count(n int, noun string) string { return fmt.Sprintf("%d %s%s", n, noun, plural(n)) }
