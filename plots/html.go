package plots

import (
	"encoding/json"
	"fmt"

	"github.com/portlab/portlab/plots/internal/echarts"
	"gonum.org/v1/plot/vg"
)

// EChartsVersion is the version of Apache ECharts embedded in this package
// and used by every HTML fragment.
const EChartsVersion = echarts.Version

// chartJSON is what go-echarts charts provide: their option as a map after
// validation.
type chartJSON interface {
	Validate()
	JSON() map[string]any
}

// option returns the ECharts option of a go-echarts chart with the entries
// of patch set over it (nil values delete an entry): go-echarts writes the
// series, title and tooltip; the patch adds what its option types cannot
// express (several axes, graphic elements, functions with quotes); series[i]
// adds entries to the i-th series.
func option(c chartJSON, patch map[string]any, series ...map[string]any) map[string]any {
	c.Validate()
	// A JSON round trip turns go-echarts' option types into plain maps
	// that can be patched at any depth (function markers survive as
	// strings; see echarts.Marshal).
	var o map[string]any
	b, err := json.Marshal(c.JSON())
	if err == nil {
		err = json.Unmarshal(b, &o)
	}
	if err != nil {
		panic(fmt.Sprintf("plots: go-echarts option does not round-trip: %v", err)) // a bug
	}
	if list, ok := o["series"].([]any); ok {
		for i, extra := range series {
			if i < len(list) {
				if s, ok := list[i].(map[string]any); ok {
					for k, v := range extra {
						s[k] = v
					}
				}
			}
		}
	}
	for k, v := range patch {
		if v == nil {
			delete(o, k)
			continue
		}
		o[k] = v
	}
	return o
}

// fragment renders option as a self-contained HTML fragment of the given
// size in pixels, or an error fragment.
func fragment(o map[string]any, width, height int, title string) string {
	js, err := echarts.Marshal(o)
	if err != nil {
		return errorHTML(err)
	}
	return echarts.Fragment(js, width, height, title)
}

// htmlPixels converts a figure size to the pixel size of its interactive
// version: 112 pixels per inch, a little larger than the static figure on
// screen, since the chart's own text is smaller.
func htmlPixels(l vg.Length) int { return int(float64(l/vg.Inch)*112 + 0.5) }

// Styles shared by the interactive charts.
var (
	jsFont      = "Liberation Sans, Arial, Helvetica, sans-serif"
	jsTextStyle = map[string]any{"fontFamily": jsFont, "color": "#222"}
	// jsTooltipCSS lets long experiment names wrap.
	jsTooltipCSS = "max-width:440px;white-space:normal;overflow-wrap:anywhere;"
	jsToolbox    = map[string]any{
		"right": 8, "top": 4,
		"feature": map[string]any{"saveAsImage": map[string]any{"title": "save as PNG", "pixelRatio": 2}},
	}
)

func jsTitle(title string) map[string]any {
	return map[string]any{"text": title, "left": "center", "top": 6,
		"textStyle": map[string]any{"fontSize": 15, "fontWeight": "normal", "fontFamily": jsFont}}
}

// jsValueAxis is a numeric axis at position ("bottom", "left") with a
// centred name.
func jsValueAxis(position, name string, lo, hi float64, gap int) map[string]any {
	a := map[string]any{
		"type": "value", "position": position, "offset": 0, "name": name, "nameLocation": "middle", "nameGap": gap,
		"nameTextStyle": map[string]any{"fontSize": 13},
		"axisLine":      map[string]any{"show": true, "lineStyle": map[string]any{"color": "#444"}},
		"axisTick":      map[string]any{"show": true},
		"splitLine":     map[string]any{"show": false},
	}
	if hi > lo {
		a["min"], a["max"] = lo, hi
	}
	return a
}
