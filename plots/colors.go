package plots

import (
	"fmt"
	"image/color"
	"math"
)

// Colours used by the figures. Their values are part of the documented
// look (and checked by the tests): heat maps run from a light blue for one
// point to a dark navy for the fullest bin (ColorBrewer "Blues"), the
// diagonal y = x is orange, bottleneck ports are vermilion.
var (
	// DiagonalColor is the colour of the y = x line of heat maps.
	DiagonalColor color.Color = color.RGBA{R: 0xe6, G: 0x61, B: 0x01, A: 0xff}
	// HighlightColor marks bottleneck ports in port pressure charts.
	HighlightColor color.Color = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	// BarColor is the colour of the other bars of port pressure charts.
	BarColor color.Color = color.RGBA{R: 0x7f, G: 0x9c, B: 0xbf, A: 0xff}
)

// countStops is the colour ramp of bin counts, from 1 point to the
// largest count (ColorBrewer Blues, classes 3 to 9).
var countStops = []color.RGBA{
	{0xc6, 0xdb, 0xef, 0xff},
	{0x9e, 0xca, 0xe1, 0xff},
	{0x6b, 0xae, 0xd6, 0xff},
	{0x42, 0x92, 0xc6, 0xff},
	{0x21, 0x71, 0xb5, 0xff},
	{0x08, 0x51, 0x9c, 0xff},
	{0x08, 0x30, 0x6b, 0xff},
}

// ramp returns the colour at t ∈ [0, 1] of stops, interpolating linearly
// in sRGB.
func ramp(stops []color.RGBA, t float64) color.RGBA {
	if !(t > 0) {
		return stops[0]
	}
	if t >= 1 {
		return stops[len(stops)-1]
	}
	f := t * float64(len(stops)-1)
	i := int(f)
	f -= float64(i)
	a, b := stops[i], stops[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + f*(float64(y)-float64(x)))) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// logScale maps counts 1..top to [0, 1] logarithmically: the colour scale
// of heat maps.
type logScale struct{ top float64 }

func (s logScale) t(count float64) float64 {
	if s.top <= 1 {
		return 0
	}
	return math.Log(count) / math.Log(s.top)
}

func (s logScale) color(count float64) color.RGBA { return ramp(countStops, s.t(count)) }

// hex returns c as #rrggbb.
func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// categorical is the Tableau 10 palette, for series and µops.
var categorical = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xe1, 0x57, 0x59, 0xff}, {0x76, 0xb7, 0xb2, 0xff},
	{0x59, 0xa1, 0x4f, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

func seriesColor(i int) color.RGBA { return categorical[i%len(categorical)] }
