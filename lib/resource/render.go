package resource

import (
	"fmt"
	"html"
	"strings"
)

// MaxTableRows is the number of instructions String and HTML show before
// saying how many more there are.
const MaxTableRows = 60

// String returns m as a text table: one row per instruction, one column
// per resource, loads as fractions.
func (m *Mapping) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource mapping %s: %d instructions, %d resources\n", m.name, len(m.insns), len(m.resources))
	w := 0
	for i, insn := range m.insns {
		if i < MaxTableRows {
			w = max(w, len([]rune(insn)))
		}
	}
	cells := make([][]string, 0, len(m.insns)+1)
	head := append([]string{""}, m.resources...)
	cells = append(cells, head)
	for i, insn := range m.insns {
		if i == MaxTableRows {
			break
		}
		row := []string{insn}
		for r := range m.resources {
			if v := m.exact[i][r]; v != nil {
				row = append(row, v.RatString())
			} else {
				row = append(row, "·")
			}
		}
		cells = append(cells, row)
	}
	widths := make([]int, len(head))
	for _, row := range cells {
		for c, s := range row {
			widths[c] = max(widths[c], len([]rune(s)))
		}
	}
	for _, row := range cells {
		for c, s := range row {
			if c == 0 {
				fmt.Fprintf(&b, "%-*s", widths[c], s)
			} else {
				fmt.Fprintf(&b, "  %*s", widths[c], s)
			}
		}
		b.WriteString("\n")
	}
	if len(m.insns) > MaxTableRows {
		fmt.Fprintf(&b, "… %d more\n", len(m.insns)-MaxTableRows)
	}
	return b.String()
}

// HTML returns m as an HTML table for a notebook.
func (m *Mapping) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<table><caption>resource mapping %s: %d instructions, %d resources</caption><thead><tr><th>instruction</th>",
		html.EscapeString(m.name), len(m.insns), len(m.resources))
	for _, r := range m.resources {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(r))
	}
	b.WriteString("</tr></thead><tbody>")
	for i, insn := range m.insns {
		if i == MaxTableRows {
			fmt.Fprintf(&b, `<tr><td colspan="%d">… %d more</td></tr>`, len(m.resources)+1, len(m.insns)-i)
			break
		}
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td>", html.EscapeString(insn))
		for r := range m.resources {
			if v := m.exact[i][r]; v != nil {
				fmt.Fprintf(&b, "<td>%s</td>", v.RatString())
			} else {
				b.WriteString(`<td style="color:#bbb">·</td>`)
			}
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}
