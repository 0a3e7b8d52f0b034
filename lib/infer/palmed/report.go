package palmed

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"strings"
)

// String summarises the run: its trace and the resource mapping.
func (r *Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "PALMED: %d kernels measured, %d classes, %d basic instructions, %d resources, LP2 residual %.4g (worst kernel %.2f%% sub-saturated), %s\n",
		r.Benchmarks, len(r.Classes), len(r.Basic), r.Mapping.NumResources(), r.Residual, 100*r.WorstFit, duration(r.Elapsed))
	for _, s := range r.Trace {
		fmt.Fprintf(&b, "  [%8s] %s: %s\n", duration(s.Elapsed), s.Stage, s.Message)
	}
	if r.PortMappingNote != "" {
		fmt.Fprintf(&b, "  port mapping: %s\n", r.PortMappingNote)
	}
	if len(r.Unmapped) > 0 {
		fmt.Fprintf(&b, "  %d instructions not mapped\n", len(r.Unmapped))
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(&b, "  %d kernels skipped; first: %s\n", len(r.Skipped), r.Skipped[0])
	}
	return b.String()
}

// HTML renders the run for a notebook: the trace and the resource table.
func (r *Result) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<p>PALMED: %d kernels measured, %d classes, %d basic instructions, %d resources, LP2 residual %.4g</p><ol>",
		r.Benchmarks, len(r.Classes), len(r.Basic), r.Mapping.NumResources(), r.Residual)
	for _, s := range r.Trace {
		fmt.Fprintf(&b, "<li><b>%s</b> (%s): %s</li>", html.EscapeString(s.Stage), duration(s.Elapsed), html.EscapeString(s.Message))
	}
	b.WriteString("</ol>")
	b.WriteString(r.Mapping.HTML())
	return b.String()
}

// WriteFiles writes PREFIX.resources.json (the normalised resource
// mapping), PREFIX.resources-nn.json (non-normalised), PREFIX.resources.txt
// (the resource table) and PREFIX.report.json (trace, classes, basic
// instructions, saturating kernels, skipped kernels), and returns the
// names written.
func (r *Result) WriteFiles(prefix string) ([]string, error) {
	var names []string
	if err := r.Mapping.WriteFile(prefix+".resources.json", true); err != nil {
		return names, err
	}
	names = append(names, prefix+".resources.json")
	if err := r.Mapping.WriteFile(prefix+".resources-nn.json", false); err != nil {
		return names, err
	}
	names = append(names, prefix+".resources-nn.json")
	table := r.Mapping.String()
	if err := os.WriteFile(prefix+".resources.txt", []byte(table), 0o644); err != nil {
		return names, err
	}
	names = append(names, prefix+".resources.txt")
	sat := map[string]string{}
	for k, v := range r.Saturating {
		sat[k] = v.Experiment.String()
	}
	var skipped []string
	for _, f := range r.Skipped {
		skipped = append(skipped, f.String())
	}
	data, err := json.MarshalIndent(struct {
		Trace                        []Step
		Classes                      []Class
		Basic, VeryBasic, MostFrugal []string
		Saturating                   map[string]string
		Unmapped                     map[string]string
		Skipped                      []string
		Benchmarks                   int
		PortMapping                  string
		Residual, WorstFit           float64
		Config                       Config
		ElapsedSeconds               float64
	}{r.Trace, r.Classes, r.Basic, r.VeryBasic, r.MostFrugal, sat, r.Unmapped, skipped, r.Benchmarks, r.PortMappingNote, r.Residual, r.WorstFit, r.Config, r.Elapsed.Seconds()}, "", "  ")
	if err != nil {
		return names, err
	}
	if err := os.WriteFile(prefix+".report.json", append(data, '\n'), 0o644); err != nil {
		return names, err
	}
	return append(names, prefix+".report.json"), nil
}
