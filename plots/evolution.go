package plots

import (
	"encoding/base64"
	"fmt"
	"html"
	"strings"

	"github.com/portlab/portlab/lib/infer/pmevo"
)

// EvolutionProgress is the view of a PMEvo run's history (thesis
// Algorithm 5.1, one entry per generation): the training error D_avg of the
// fittest, the smallest and the median individual, and the µop volume of
// the fittest, as two static charts side by side with a line on the last
// generation. With no history yet it says that the population is being
// initialised. A notebook redraws it from pmevo.Config.Progress (see
// pmevo.Throttle) to follow a run live.
func EvolutionProgress(title string, history []pmevo.Generation) HTMLFragment {
	if len(history) == 0 {
		return HTMLFragment("<p><em>" + html.EscapeString(title) + ": initialising the population…</em></p>")
	}
	n := len(history)
	x, best, least, median, volume := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i, g := range history {
		x[i] = float64(g.Index)
		best[i], least[i], median[i] = 100*g.BestError, 100*g.MinError, 100*g.MedianError
		volume[i] = float64(g.BestVolume)
	}
	errs := NewCurves("training error", "generation", "D_avg [%]").Log(false, true)
	errs.Add("fittest", x, best).Add("smallest", x, least).Add("median", x, median)
	vols := NewCurves("µop volume of the fittest", "generation", "V = Σ n·|u|").Log(false, true)
	vols.Add("fittest", x, volume)
	var b strings.Builder
	b.WriteString(`<div style="display:flex;flex-wrap:wrap;gap:12px">`)
	for _, c := range []*Curves{errs, vols} {
		c.Width, c.Height, c.DPI = 4.4, 3.0, viewDPI
		png, err := c.PNG()
		if err != nil {
			return HTMLFragment(errorHTML(err))
		}
		b.WriteString(`<img alt="PMEvo progress" src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(png) + `">`)
	}
	last := history[n-1]
	fmt.Fprintf(&b, `</div><p>%s — generation %d, %.1f s: fittest D_avg %.2f %% with volume %d, %d distinct candidates</p>`,
		html.EscapeString(title), last.Index, last.Elapsed.Seconds(), 100*last.BestError, last.BestVolume, last.Distinct)
	return HTMLFragment(b.String())
}
