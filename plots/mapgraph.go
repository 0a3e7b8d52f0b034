package plots

import (
	"fmt"
	"image/color"
	"sort"
	"strconv"

	"github.com/portlab/portlab/lib/portmap"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MappingGraph draws a port mapping as a layered (tripartite) graph, as
// thesis Fig. 1.1 and Figs. 3.1, 3.3 and 4.7 do: instructions on the left,
// µops in the middle, ports on the right. A µop is identified by its port
// set (thesis Remark 3.13), so instructions that decompose into a µop of
// the same ports share its node. An edge from an instruction to a µop is
// labelled n× when the instruction has n > 1 such µops; edges from a µop
// fan out to the ports that can execute it, and all edges of a µop share
// its colour. Nodes are ordered to reduce crossings (ports in the order of
// the architecture, µops and instructions by the mean position of their
// neighbours). It reads well up to about 30 instructions; use
// MappingMatrix for larger mappings.
type MappingGraph struct {
	// Title is printed above the graph; empty for none.
	Title string
	// KeepOrder keeps the instructions in the order given instead of
	// sorting them to reduce crossings.
	KeepOrder bool
	// MaxLabel shortens instruction names longer than this many
	// characters with "…"; 0 means 48.
	MaxLabel int
	// DPI is the PNG resolution (default DefaultDPI). The size follows from
	// the content.
	DPI float64

	m     *portmap.Mapping
	insns []string
	err   error
}

// NewMappingGraph returns the graph of the instructions insns of m, or of
// all mapped instructions of m if insns is empty. An instruction m does
// not map is an error, kept and reported by Err.
func NewMappingGraph(m *portmap.Mapping, insns ...string) *MappingGraph {
	g := &MappingGraph{m: m, insns: insns}
	if len(insns) == 0 {
		g.insns = m.Instructions()
	}
	if len(g.insns) == 0 {
		g.err = fmt.Errorf("plots: mapping graph: %s maps no instructions", m.Name())
	}
	for _, in := range g.insns {
		if !m.Has(in) {
			g.err = fmt.Errorf("plots: mapping graph: %s does not map %q", m.Name(), in)
			break
		}
	}
	return g
}

// Titled sets the title and returns g.
func (g *MappingGraph) Titled(title string) *MappingGraph { g.Title = title; return g }

// Err returns the error that makes g impossible to draw, if any.
func (g *MappingGraph) Err() error { return g.err }

// graphLayout is the node order of a mapping graph.
type graphLayout struct {
	insns []string
	uses  [][]portmap.Uop // per instruction
	uops  []portmap.PortSet
	ports []string
}

// layout orders the nodes: ports as in the architecture, µops by the mean
// index of their ports, instructions by the mean position of their µops,
// then µops once more by the mean of their instructions and ports.
func (g *MappingGraph) layout() graphLayout {
	l := graphLayout{ports: g.m.Ports(), insns: append([]string(nil), g.insns...)}
	seen := map[portmap.PortSet]bool{}
	for _, in := range l.insns {
		u, _ := g.m.Uops(in)
		for _, x := range u {
			if !seen[x.Ports] {
				seen[x.Ports] = true
				l.uops = append(l.uops, x.Ports)
			}
		}
	}
	np := float64(max(len(l.ports)-1, 1))
	portPos := func(s portmap.PortSet) float64 {
		idx := s.Indices()
		sum := 0.0
		for _, k := range idx {
			sum += float64(k) / np
		}
		return sum / float64(len(idx))
	}
	uopPos := map[portmap.PortSet]float64{}
	sortUops := func(key func(portmap.PortSet) float64) {
		sort.SliceStable(l.uops, func(i, j int) bool {
			a, b := key(l.uops[i]), key(l.uops[j])
			if a != b {
				return a < b
			}
			if l.uops[i].Len() != l.uops[j].Len() {
				return l.uops[i].Len() < l.uops[j].Len()
			}
			return l.uops[i] < l.uops[j]
		})
		for i, u := range l.uops {
			uopPos[u] = float64(i) / float64(max(len(l.uops)-1, 1))
		}
	}
	sortUops(portPos)
	insnPos := func(in string) float64 {
		u, _ := g.m.Uops(in)
		sum, n := 0.0, 0
		for _, x := range u {
			sum += uopPos[x.Ports] * float64(x.Count)
			n += x.Count
		}
		if n == 0 {
			return 2 // instructions without µops go last
		}
		return sum / float64(n)
	}
	if !g.KeepOrder {
		sort.SliceStable(l.insns, func(i, j int) bool { return insnPos(l.insns[i]) < insnPos(l.insns[j]) })
		pos := map[portmap.PortSet][]float64{}
		for i, in := range l.insns {
			u, _ := g.m.Uops(in)
			for _, x := range u {
				pos[x.Ports] = append(pos[x.Ports], float64(i)/float64(max(len(l.insns)-1, 1)))
			}
		}
		sortUops(func(s portmap.PortSet) float64 {
			sum := 0.0
			for _, p := range pos[s] {
				sum += p
			}
			return (sum/float64(len(pos[s])) + portPos(s)) / 2
		})
	}
	for _, in := range l.insns {
		u, _ := g.m.Uops(in)
		l.uses = append(l.uses, u)
	}
	return l
}

// Sizes of the mapping graph, in points.
const (
	graphPitch  = vg.Length(17) // vertical distance of nodes in the fullest column
	graphGap    = vg.Length(110)
	graphMargin = vg.Length(14)
	graphHeader = vg.Length(34)
	graphFont   = vg.Length(9)
)

func (g *MappingGraph) maxLabel() int {
	if g.MaxLabel > 0 {
		return g.MaxLabel
	}
	return 48
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// columns returns the widths of the three columns of l.
func (g *MappingGraph) columns(l graphLayout) (wi, wu, wp vg.Length) {
	sty := textStyle(graphFont, black)
	wi = textStyle(9, black).Width("instructions") - vg.Points(6)
	for _, in := range l.insns {
		wi = max(wi, sty.Width(shorten(in, g.maxLabel())))
	}
	a := g.m.Arch()
	for _, u := range l.uops {
		wu = max(wu, sty.Width(uopLabel(a, u))+vg.Points(10))
	}
	for _, p := range l.ports {
		wp = max(wp, sty.Width(p)+vg.Points(10))
	}
	return wi, max(wu, vg.Points(28)), max(wp, vg.Points(24))
}

func (g *MappingGraph) size() (w, h vg.Length) {
	if g.err != nil {
		return vg.Inch, vg.Inch
	}
	l := g.layout()
	wi, wu, wp := g.columns(l)
	rows := max(len(l.insns), len(l.uops), len(l.ports))
	w = 2*graphMargin + wi + vg.Points(6) + 2*graphGap + wu + wp
	h = graphHeader + vg.Length(rows)*graphPitch + graphMargin
	if g.Title != "" {
		h += vg.Points(20)
	}
	return max(w, vg.Points(300)), h
}

func (g *MappingGraph) drawTo(c draw.Canvas) error {
	if g.err != nil {
		return g.err
	}
	l := g.layout()
	a := g.m.Arch()
	wi, wu, wp := g.columns(l)
	w, _ := g.size()
	extra := (c.Max.X - c.Min.X - w) / 2 // centre if the canvas is wider
	top := c.Max.Y - graphMargin
	if g.Title != "" {
		sty := textStyle(12, black)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: top}, g.Title)
		top -= vg.Points(20)
	}
	xi := c.Min.X + extra + graphMargin + wi  // right end of instruction labels
	xu := xi + vg.Points(6) + graphGap + wu/2 // centre of µop nodes
	xp := xu + wu/2 + graphGap + wp/2         // centre of port nodes
	rows := max(len(l.insns), len(l.uops), len(l.ports))
	height := vg.Length(rows) * graphPitch
	body := top - graphHeader + vg.Points(12)
	// A column of n nodes is spread over the height of the fullest one,
	// at most twice as far apart, centred; index 0 at the top.
	ys := func(n int) []vg.Length {
		pitch := min(height/vg.Length(max(n, 1)), 2*graphPitch)
		start := body - (height-vg.Length(n)*pitch)/2
		out := make([]vg.Length, n)
		for i := range out {
			out[i] = start - (vg.Length(i)+0.5)*pitch
		}
		return out
	}
	// Headers.
	hs := textStyle(9, darkGrey)
	hs.XAlign, hs.YAlign = draw.XCenter, draw.YBottom
	hy := body + vg.Points(6)
	hs.XAlign = draw.XRight
	c.FillText(hs, vg.Point{X: xi, Y: hy}, "instructions")
	hs.XAlign = draw.XCenter
	c.FillText(hs, vg.Point{X: xu, Y: hy}, "µops")
	c.FillText(hs, vg.Point{X: xp, Y: hy}, "ports")

	yi, yu, yp := ys(len(l.insns)), ys(len(l.uops)), ys(len(l.ports))
	uopIdx := map[portmap.PortSet]int{}
	for j, u := range l.uops {
		uopIdx[u] = j
	}
	uopColor := func(j int) color.NRGBA {
		c := seriesColor(j)
		return color.NRGBA{R: c.R, G: c.G, B: c.B, A: 0xd0}
	}
	curve := func(x0, y0, x1, y1 vg.Length) vg.Path {
		var p vg.Path
		mid := (x0 + x1) / 2
		p.Move(vg.Point{X: x0, Y: y0})
		p.CubeTo(vg.Point{X: mid, Y: y0}, vg.Point{X: mid, Y: y1}, vg.Point{X: x1, Y: y1})
		return p
	}
	// µop → port edges.
	for j, u := range l.uops {
		c.SetLineStyle(draw.LineStyle{Color: uopColor(j), Width: vg.Points(1)})
		for _, k := range u.Indices() {
			c.Stroke(curve(xu+wu/2, yu[j], xp-wp/2, yp[k]))
		}
	}
	// Instruction → µop edges, with counts.
	type label struct {
		pt vg.Point
		s  string
	}
	var counts []label
	for i, uses := range l.uses {
		for _, x := range uses {
			j := uopIdx[x.Ports]
			x0, x1 := xi+vg.Points(6), xu-wu/2
			c.SetLineStyle(draw.LineStyle{Color: uopColor(j), Width: vg.Points(1 + 0.5*float64(min(x.Count, 4)-1))})
			c.Stroke(curve(x0, yi[i], x1, yu[j]))
			if x.Count > 1 {
				// On the curve a quarter of the way: B(1/4) of the cubic.
				y := yi[i] + (yu[j]-yi[i])*vg.Length(10.0/64)
				counts = append(counts, label{vg.Point{X: x0 + (x1-x0)*vg.Length(0.25), Y: y}, strconv.Itoa(x.Count) + "×"})
			}
		}
	}
	ls := textStyle(8, black)
	ls.XAlign, ls.YAlign = draw.XCenter, draw.YCenter
	for _, lb := range counts {
		wl := ls.Width(lb.s) + vg.Points(3)
		c.SetColor(color.White)
		c.Fill(rectPath(vg.Rectangle{Min: vg.Point{X: lb.pt.X - wl/2, Y: lb.pt.Y - vg.Points(5)}, Max: vg.Point{X: lb.pt.X + wl/2, Y: lb.pt.Y + vg.Points(5)}}))
		c.FillText(ls, lb.pt, lb.s)
	}
	// Nodes.
	ns := textStyle(graphFont, black)
	ns.YAlign = draw.YCenter
	for i, in := range l.insns {
		ns.XAlign = draw.XRight
		c.FillText(ns, vg.Point{X: xi, Y: yi[i]}, shorten(in, g.maxLabel()))
		dot(c, vg.Point{X: xi + vg.Points(6), Y: yi[i]}, vg.Points(2), darkGrey)
	}
	ns.XAlign = draw.XCenter
	for j, u := range l.uops {
		col := seriesColor(j)
		box(c, xu, yu[j], wu, vg.Points(13), color.NRGBA{R: col.R, G: col.G, B: col.B, A: 0x38}, col)
		c.FillText(ns, vg.Point{X: xu, Y: yu[j]}, uopLabel(a, u))
	}
	for k, p := range l.ports {
		box(c, xp, yp[k], wp, vg.Points(13), color.Gray{Y: 0xf0}, darkGrey)
		c.FillText(ns, vg.Point{X: xp, Y: yp[k]}, p)
	}
	return nil
}

// box draws a w × h box centred at (x, y).
func box(c draw.Canvas, x, y, w, h vg.Length, fill, stroke color.Color) {
	r := vg.Rectangle{Min: vg.Point{X: x - w/2, Y: y - h/2}, Max: vg.Point{X: x + w/2, Y: y + h/2}}
	c.SetColor(color.White)
	c.Fill(rectPath(r))
	c.SetColor(fill)
	c.Fill(rectPath(r))
	c.SetLineStyle(draw.LineStyle{Color: stroke, Width: vg.Points(0.8)})
	c.Stroke(rectPath(r))
}

// dot draws a filled circle.
func dot(c draw.Canvas, pt vg.Point, r vg.Length, col color.Color) {
	var p vg.Path
	p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Arc(pt, r, 0, 6.283185307179586)
	p.Close()
	c.SetColor(col)
	c.Fill(p)
}

// PNG renders g as a PNG image.
func (g *MappingGraph) PNG() ([]byte, error) {
	if g.err != nil {
		return nil, g.err
	}
	return renderPNG(g, g.DPI)
}

// SVG renders g as an SVG document.
func (g *MappingGraph) SVG() ([]byte, error) {
	if g.err != nil {
		return nil, g.err
	}
	return renderSVG(g)
}

// Save writes g to path; see SaveFigure.
func (g *MappingGraph) Save(path string) error { return SaveFigure(g, path) }
