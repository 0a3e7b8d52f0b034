// Package plots draws the figures of port-mapping research, static with
// gonum/plot (PNG, SVG, PDF) and interactive with go-echarts (an HTML
// fragment for a notebook): the prediction heat map of measured against
// predicted inverse throughput with its metrics (Heatmap, PMEvo Fig. 7,
// thesis Figs. 3.6, 3.7, 5.2 and 5.3), a grid of heat maps with one colour
// scale (HeatmapGrid), the same data point by point (Scatter), the port
// pressure of an LP schedule with the bottleneck ports highlighted
// (PortPressure), a mapping as a layered graph of instructions, µops and
// ports (MappingGraph) or as an instruction × port matrix (MappingMatrix),
// and line charts with logarithmic axes and error bars (Curves), such as
// the LP-versus-bottleneck timing written by bench/cmd/lpvsbottleneck,
// and the live view of a PMEvo run's generations (EvolutionProgress).
// Every figure is one call away from its data (NewHeatmap of a
// metrics.Evaluation, PortPressureOf, …), implements Figure — PNG, SVG and
// Save(path) choosing the format by the extension — and the interactive
// ones implement Interactive with HTML. Constructors never fail: a problem
// with the data is kept, reported by Err and by every rendering method, so
// that a notebook cell can end in the call itself; AsPNG, AsSVG and AsHTML
// wrap a figure into a value that a notebook kernel displays in that
// format, and View gives library values their pictures in a notebook (a
// Mapping its graph, a Schedule its port pressure, an Evaluation its heat
// map), so that the kernel needs no knowledge of the library.
//
// The interactive charts need no network: the Apache ECharts library
// (version EChartsVersion, Apache-2.0, fetched from the npm registry; see
// internal/echarts) is embedded in the Go build, and every fragment carries
// it compressed (about 450 kB), unpacks it at most once per page and draws
// into a div with a fresh random id, so that any number of charts, and
// re-runs of a cell, coexist in one notebook and in its nbconvert export.
// Figures are computed afresh at each rendering from the data they hold
// (binning and metrics of 40,000 points take milliseconds), so their
// exported fields — title, bins, range, size, DPI — can be changed between
// renderings. The look is fixed and documented: Liberation Sans, heat maps
// in ColorBrewer blues on a logarithmic scale with white empty bins and an
// orange diagonal (DiagonalColor), bottleneck bars in HighlightColor.
// Tests decode the PNGs and check colours against the histograms, parse the
// SVGs, and draw the HTML in headless Chromium with the network disabled.
package plots
