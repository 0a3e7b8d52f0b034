package display

import (
	"fmt"
	"math"
	"strings"

	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// MaxTableRows is the number of instructions a mapping's table shows before
// it says how many more there are; MaxGraphInstructions is the largest
// mapping drawn as a graph.
const (
	MaxTableRows         = 60
	MaxGraphInstructions = 24
)

// Mapping returns the bundle of m: as HTML, its port table (MappingTable)
// beside its graph (MappingGraph) when m has at most MaxGraphInstructions
// instructions; as text, m.String().
func Mapping(m *portmap.Mapping) Bundle {
	html := `<div style="display:flex;gap:2em;align-items:flex-start;flex-wrap:wrap">` + mappingTable(m)
	if m.Len() <= MaxGraphInstructions && m.Len() > 0 {
		html += "<div>" + mappingGraph(m) + "</div>"
	}
	html += "</div>"
	return MIME(MIMEHTML, html, m.String())
}

// MappingTable returns m as an HTML table: one row per instruction with its
// µop decomposition in uops.info notation and, per port, how many of its
// µops may run there.
func MappingTable(m *portmap.Mapping) Bundle {
	return MIME(MIMEHTML, mappingTable(m), m.String())
}

func mappingTable(m *portmap.Mapping) string {
	var b strings.Builder
	ports := m.Ports()
	fmt.Fprintf(&b, "<table><caption>mapping %s: %d instructions, %d ports</caption><thead><tr><th>instruction</th><th>µops</th>",
		escape(m.Name()), m.Len(), len(ports))
	for _, p := range ports {
		fmt.Fprintf(&b, "<th>%s</th>", escape(p))
	}
	b.WriteString("</tr></thead><tbody>")
	insns := m.Instructions()
	for i, insn := range insns {
		if i == MaxTableRows {
			fmt.Fprintf(&b, `<tr><td colspan="%d">… %d more</td></tr>`, len(ports)+2, len(insns)-i)
			break
		}
		uops, _ := m.Uops(insn)
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td><code>%s</code></td>", escape(insn), escape(m.Usage(insn)))
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

// MappingGraph returns m drawn as an SVG graph in three columns —
// instructions, µops (named by their port sets) and ports — with an edge
// from each instruction to its µops, labelled with their number when it is
// more than one, and from each µop to the ports that can execute it.
func MappingGraph(m *portmap.Mapping) Bundle {
	b := SVG(mappingGraph(m))
	b.Data[MIMEText] = m.String()
	return b
}

func mappingGraph(m *portmap.Mapping) string {
	insns := m.Instructions()
	ports := m.Ports()
	arch := m.Arch()
	var kinds []portmap.PortSet
	kindIndex := map[portmap.PortSet]int{}
	for _, insn := range insns {
		uops, _ := m.Uops(insn)
		for _, u := range uops {
			if _, ok := kindIndex[u.Ports]; !ok {
				kindIndex[u.Ports] = len(kinds)
				kinds = append(kinds, u.Ports)
			}
		}
	}
	const rowH, top, colW = 26.0, 30.0, 190.0
	rows := max(len(insns), len(kinds), len(ports))
	height := top + rowH*float64(rows) + 10
	width := 3*colW + 40
	y := func(i, n int) float64 { // centre the shorter columns
		return top + rowH*(float64(i)+0.5) + rowH*float64(rows-n)/2
	}
	xI, xU, xP := 20+colW*0.55, 20+colW*1.5, 20+colW*2.45
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`, width, height)
	fmt.Fprintf(&b, `<text x="%.0f" y="16" text-anchor="end" font-weight="bold">instructions</text>`, xI)
	fmt.Fprintf(&b, `<text x="%.0f" y="16" text-anchor="middle" font-weight="bold">µops</text>`, xU)
	fmt.Fprintf(&b, `<text x="%.0f" y="16" font-weight="bold">ports</text>`, xP)
	for i, insn := range insns {
		uops, _ := m.Uops(insn)
		for _, u := range uops {
			j := kindIndex[u.Ports]
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#8aa" stroke-width="%.1f"/>`,
				xI+6, y(i, len(insns)), xU-45, y(j, len(kinds)), 1+math.Min(float64(u.Count-1), 3))
			if u.Count > 1 {
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#066">%d×</text>`,
					(xI+xU-39)/2, (y(i, len(insns))+y(j, len(kinds)))/2-3, u.Count)
			}
		}
	}
	for j, k := range kinds {
		for _, p := range k.Indices() {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#c96" stroke-width="1"/>`,
				xU+45, y(j, len(kinds)), xP-6, y(p, len(ports)))
		}
	}
	for i, insn := range insns {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text><circle cx="%.1f" cy="%.1f" r="3" fill="#066"/>`,
			xI, y(i, len(insns))+4, escape(insn), xI+6, y(i, len(insns)))
	}
	for j, k := range kinds {
		label := "[" + strings.Join(arch.PortNames(k), ",") + "]"
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="90" height="18" rx="4" fill="#eef" stroke="#557"/><text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`,
			xU-45, y(j, len(kinds))-9, xU, y(j, len(kinds))+4, escape(label))
	}
	for p, name := range ports {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#963"/><text x="%.1f" y="%.1f">%s</text>`,
			xP-6, y(p, len(ports)), xP, y(p, len(ports))+4, escape(name))
	}
	b.WriteString("</svg>")
	return b.String()
}

// Experiment returns the bundle of e: a one-row HTML table of its
// instructions and counts, and e.String() as text.
func Experiment(e portmap.Experiment) Bundle {
	var b strings.Builder
	b.WriteString("<table><tr><th>instruction</th>")
	for _, it := range e.Items() {
		fmt.Fprintf(&b, "<td><code>%s</code></td>", escape(it.Insn))
	}
	b.WriteString("</tr><tr><th>count</th>")
	for _, it := range e.Items() {
		fmt.Fprintf(&b, "<td>%d</td>", it.Count)
	}
	b.WriteString("</tr></table>")
	return MIME(MIMEHTML, b.String(), e.String())
}

// Result returns the bundle of a throughput result: cycles per execution,
// the exact port bound, the bottleneck ports (by index, as a Result does not
// know the port names), what bounds it and the IPC.
func Result(r throughput.Result) Bundle {
	text := fmt.Sprintf("%.4g cycles (%d µops on the %d bottleneck ports %s; bound: %s), IPC %.3g",
		r.Cycles, r.Num, r.Den, r.Bottleneck, r.Bound, r.IPC())
	html := fmt.Sprintf("<table><tr><th>cycles</th><th>port bound</th><th>bottleneck ports</th><th>bound</th><th>instructions</th><th>µops</th><th>IPC</th></tr>"+
		"<tr><td>%.4g</td><td>%d/%d</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%.3g</td></tr></table>",
		r.Cycles, r.Num, r.Den, r.Bottleneck, r.Bound, r.Instructions, r.Uops, r.IPC())
	return MIME(MIMEHTML, html, text)
}

// Summary returns the bundle of a metrics summary: its HTML and Markdown
// tables and its one-line String.
func Summary(s metrics.Summary) Bundle {
	b := MIME(MIMEHTML, s.HTML(), s.String())
	b.Data[MIMEMarkdown] = s.Markdown()
	return b
}

// PortPressure returns the bundle of an optimal schedule: an SVG bar chart of
// the load on each port, with the bottleneck level (s.Cycles) drawn as a
// line and the fully loaded ports highlighted, and a text table of the loads.
func PortPressure(s *throughput.Schedule) Bundle {
	const barW, gap, plotH, left, top, bottom = 34.0, 12.0, 160.0, 46.0, 24.0, 30.0
	n := len(s.Ports)
	width := math.Max(left+float64(n)*(barW+gap)+20, 290)
	height := top + plotH + bottom
	maxV := s.Cycles
	for _, p := range s.Pressure {
		maxV = math.Max(maxV, p)
	}
	if maxV <= 0 {
		maxV = 1
	}
	yOf := func(v float64) float64 { return top + plotH*(1-v/maxV) }
	tight := s.Tight()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`, width, height)
	fmt.Fprintf(&b, `<text x="%.0f" y="14" font-size="12" font-weight="bold">port pressure, cycles per execution</text>`, left-40)
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#333"/>`, left-4, top+plotH, width-10, top+plotH)
	for _, v := range []float64{0, maxV / 2, maxV} {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%.3g</text>`, left-8, yOf(v)+4, v)
	}
	var text strings.Builder
	fmt.Fprintf(&text, "cycles %.4g; port pressure:", s.Cycles)
	for k, name := range s.Ports {
		x := left + gap/2 + float64(k)*(barW+gap)
		fill := "#7a9cc6"
		if tight.Has(k) {
			fill = "#d9534f"
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.0f" height="%.1f" fill="%s"><title>%s: %.4g</title></rect>`,
			x, yOf(s.Pressure[k]), barW, top+plotH-yOf(s.Pressure[k]), fill, escape(name), s.Pressure[k])
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`, x+barW/2, top+plotH+14, escape(name))
		fmt.Fprintf(&text, " %s=%.3g", name, s.Pressure[k])
	}
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#d9534f" stroke-dasharray="4 3"/>`, left-4, yOf(s.Cycles), width-10, yOf(s.Cycles))
	b.WriteString("</svg>")
	bundle := SVG(b.String())
	bundle.Data[MIMEText] = text.String()
	return bundle
}
