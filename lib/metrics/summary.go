package metrics

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Summary holds the accuracy and correlation metrics of predicted against
// measured values, as computed by Summarize. Percentages are in percent.
type Summary struct {
	N           int     // number of (measured, predicted) pairs
	MAPE        float64 // mean absolute percentage error, in percent
	MedianAPE   float64 // median absolute percentage error, in percent
	Pearson     float64 // Pearson's r of measured and predicted
	Spearman    float64 // Spearman's ρ of measured and predicted
	KendallTauB float64 // Kendall's τ-b of measured and predicted
}

// Summarize computes all metrics of predicted against measured values; see
// MAPE, MedianAPE, Pearson, Spearman and KendallTauB. Round the values first
// (see Round) to compute the rank correlations on rounded data.
//
// Summarize returns an error for the problems that MAPE reports, with a zero
// Summary. If only the correlations are undefined, because measured or
// predicted is constant (as for a model that predicts the same value for
// every experiment), it returns an error wrapping ErrConstant together with a
// Summary whose N, MAPE and MedianAPE are valid and whose three correlation
// fields are NaN.
func Summarize(measured, predicted []float64) (Summary, error) {
	if err := checkAccuracy("Summarize", measured, predicted); err != nil {
		return Summary{}, err
	}
	e, err := ape("Summarize", measured, predicted)
	if err != nil {
		return Summary{}, err
	}
	s := Summary{N: len(measured), MAPE: mean(e), MedianAPE: median(e)}
	if err := checkCorrelation("correlation", "measured", "predicted", measured, predicted); err != nil {
		s.Pearson, s.Spearman, s.KendallTauB = math.NaN(), math.NaN(), math.NaN()
		return s, err
	}
	if s.Pearson, err = pearson("Pearson", measured, predicted); err != nil {
		return Summary{}, err
	}
	if s.Spearman, err = pearson("Spearman", midRanks(measured), midRanks(predicted)); err != nil {
		return Summary{}, err
	}
	s.KendallTauB = kendallTauB(measured, predicted)
	return s, nil
}

// String returns a one-line summary such as
//
//	n=2000 MAPE=9.55% median APE=1.64% Pearson=0.913 Spearman=0.874 Kendall τ-b=0.758
//
// with percentages to two decimals and correlations to three. An undefined
// (NaN) metric is shown as "undefined".
func (s Summary) String() string {
	return fmt.Sprintf("n=%d MAPE=%s median APE=%s Pearson=%s Spearman=%s Kendall τ-b=%s",
		s.N, pct(s.MAPE), pct(s.MedianAPE), corr(s.Pearson), corr(s.Spearman), corr(s.KendallTauB))
}

// summaryHeader holds the column titles of HTML and Markdown.
var summaryHeader = [...]string{"n", "MAPE", "median APE", "Pearson", "Spearman", "Kendall τ-b"}

func (s Summary) cells() [6]string {
	return [6]string{strconv.Itoa(s.N), pct(s.MAPE), pct(s.MedianAPE), corr(s.Pearson), corr(s.Spearman), corr(s.KendallTauB)}
}

// HTML returns the summary as a small HTML table with one header row and one
// row of values, formatted as in String, for display in a notebook.
func (s Summary) HTML() string {
	var b strings.Builder
	b.WriteString("<table class=\"metrics-summary\">\n<thead><tr>")
	for _, h := range summaryHeader {
		b.WriteString("<th>" + strings.ReplaceAll(h, "τ", "&tau;") + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody><tr>")
	for _, c := range s.cells() {
		b.WriteString("<td style=\"text-align:right\">" + c + "</td>")
	}
	b.WriteString("</tr></tbody>\n</table>")
	return b.String()
}

// Markdown returns the summary as a Markdown table with one header row and
// one row of values, formatted as in String, right-aligned.
func (s Summary) Markdown() string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(summaryHeader[:], " | ") + " |\n|")
	for range summaryHeader {
		b.WriteString("---:|")
	}
	c := s.cells()
	b.WriteString("\n| " + strings.Join(c[:], " | ") + " |")
	return b.String()
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "undefined"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + "%"
}

func corr(v float64) string {
	if math.IsNaN(v) {
		return "undefined"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}
