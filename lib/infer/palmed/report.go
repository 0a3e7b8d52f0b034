package palmed

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/portlab/portlab/lib/infer"
)

// String summarises the run: its trace and the resource mapping.
func (r *Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "PALMED: %d kernels measured, %d classes, %d basic instructions, %d resources, LP2 residual %.4g (worst kernel %.2f%% sub-saturated), %s\n",
		r.Benchmarks, len(r.Classes), len(r.Basic), r.Mapping.NumResources(), r.Residual, 100*r.WorstFit, duration(r.Elapsed))
	for _, s := range r.Trace {
		fmt.Fprintf(&b, "  [%8s] %s: %s\n", duration(s.Elapsed), s.Stage, s.Message)
	}
	if len(r.Misfits) > 0 {
		fmt.Fprintf(&b, "  WARNING: the core mapping does not fit %d of its %d kernels (sub-saturated by more than FitTol %.1f%%; predicted faster than measured):\n",
			len(r.Misfits), len(r.Core), 100*r.Config.FitTol)
		for j, m := range r.Misfits {
			if j == 10 {
				fmt.Fprintf(&b, "    … and %d more\n", len(r.Misfits)-10)
				break
			}
			fmt.Fprintf(&b, "    %5.1f%%  %v (%.4g cycles measured)\n", 100*m.SubSaturation, m.Kernel.Experiment, m.Kernel.Cycles)
		}
	}
	if len(r.FrontEndOnly) > 0 {
		fmt.Fprintf(&b, "  %d instructions bound by the front end alone (%s), mapped to it only: %s\n", len(r.FrontEndOnly), r.frontEndText(), strings.Join(r.FrontEndOnly, "; "))
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
	var h infer.HTML
	h.Para(fmt.Sprintf("PALMED: %d kernels measured, %d classes, %d basic instructions, %d resources, LP2 residual %.4g",
		r.Benchmarks, len(r.Classes), len(r.Basic), r.Mapping.NumResources(), r.Residual))
	var steps []string
	for _, s := range r.Trace {
		steps = append(steps, fmt.Sprintf("<b>%s</b> (%s): %s", infer.Escape(s.Stage), duration(s.Elapsed), infer.Escape(s.Message)))
	}
	h.List(true, steps...)
	if len(r.Misfits) > 0 {
		h.Para(fmt.Sprintf("Warning: the core mapping does not fit %d of its %d kernels (sub-saturated by more than %.1f%%):", len(r.Misfits), len(r.Core), 100*r.Config.FitTol))
		var items []string
		for j, m := range r.Misfits {
			if j == 10 {
				items = append(items, fmt.Sprintf("… and %d more", len(r.Misfits)-10))
				break
			}
			items = append(items, fmt.Sprintf("%.1f%%: %s", 100*m.SubSaturation, infer.Escape(m.Kernel.Experiment.String())))
		}
		h.List(false, items...)
	}
	if len(r.FrontEndOnly) > 0 {
		h.Para(fmt.Sprintf("Bound by the front end alone (%s), mapped to it only: %s", r.frontEndText(), infer.Escape(strings.Join(r.FrontEndOnly, "; "))))
	}
	if r.PortMappingNote != "" {
		h.Para("Port mapping: " + r.PortMappingNote)
	}
	h.Raw(r.Mapping.HTML())
	return h.String()
}

// FrontEndBound returns the instructions mapped to the front end only
// (Result.FrontEndOnly), for reports that combine methods.
func (r *Result) FrontEndBound() []string { return r.FrontEndOnly }

// frontEndText describes the front end's peak and where it came from.
func (r *Result) frontEndText() string {
	if r.FrontEndEstimated {
		return fmt.Sprintf("peak %.3g instructions per cycle, the largest measured", r.FrontEnd)
	}
	return fmt.Sprintf("peak %.3g instructions per cycle", r.FrontEnd)
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
	var misfits []string
	for _, m := range r.Misfits {
		misfits = append(misfits, fmt.Sprintf("%.4f %s (%.4g cycles)", m.SubSaturation, m.Kernel.Experiment, m.Kernel.Cycles))
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
		FrontEndOnly                 []string
		FrontEnd                     float64
		FrontEndEstimated            bool
		Skipped                      []string
		Benchmarks                   int
		PortMapping                  string
		Residual, WorstFit           float64
		Misfits                      []string
		Config                       Config
		ElapsedSeconds               float64
	}{r.Trace, r.Classes, r.Basic, r.VeryBasic, r.MostFrugal, sat, r.Unmapped, r.FrontEndOnly, r.FrontEnd, r.FrontEndEstimated, skipped, r.Benchmarks, r.PortMappingNote, r.Residual, r.WorstFit, misfits, r.Config, r.Elapsed.Seconds()}, "", "  ")
	if err != nil {
		return names, err
	}
	if err := os.WriteFile(prefix+".report.json", append(data, '\n'), 0o644); err != nil {
		return names, err
	}
	return append(names, prefix+".report.json"), nil
}
