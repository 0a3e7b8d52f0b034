package classes

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/portmap"
)

// Report is the account of a run of the class pipeline.
type Report struct {
	// Forms is the number of forms asked for, Mapped the number mapped
	// (with µops, or without any as PortLess), Experiments the distinct
	// experiments measured.
	Forms, Mapped, Experiments int
	// Method is the method run on the representatives, Inner its result.
	Method, Inner string
	// Tolerance is the relative difference within which measurements
	// counted as equal.
	// Noise is the relative noise of one measurement the tolerance was
	// taken from (0 when the tolerance was given or the oracle exact).
	Tolerance, Noise float64
	// Stages are the measurement stages in order.
	Stages []Stage
	// Probes are the forms every form was measured against; Classes the
	// groups of forms that behaved alike against all of them, each led by
	// its representative.
	Probes  []string
	Classes []Class
	// Mix is the largest mix of probes that ran in about a cycle, MixIPC
	// its instructions per cycle (the lower bound of the port count);
	// PortFits the training error with each port count tried, Ports the
	// count chosen (the smallest within noise of the best fit; Ports 0 for
	// a method that finds its own resources and gives no port mapping).
	Mix      string
	MixIPC   float64
	PortFits []PortFit
	Ports    int
	// FrontEndIPC is the most instructions per cycle any measurement ran;
	// FrontEndModelled says whether the predictor is capped at it (it is
	// when forms without µops were found: they cost the front end only).
	FrontEndIPC      float64
	FrontEndModelled bool
	// PortLess are the forms no port explains, mapped to no µops.
	PortLess []PortLess
	// Unmeasured are the forms left unmapped, with the reason.
	Unmeasured []Unmeasured
	// Checks is one check experiment per class member.
	Checks []Check
	// Failures are the experiments that failed to measure.
	Failures []portmap.Failure
	// RepresentativeOf maps every mapped form to the representative whose
	// model it inherits (itself for a representative, "" for a form
	// without µops).
	RepresentativeOf map[string]string
	// Mapping is the result (not in the JSON: PREFIX.json holds it).
	Mapping *portmap.Mapping `json:"-"`
}

// Stage is one stage of measurement.
type Stage struct {
	Name                string
	Experiments, Failed int
	Elapsed             time.Duration
}

// Class is a group of forms with equal behaviour.
type Class struct {
	Representative string
	Members        []string
	Cycles         float64 // the representative's singleton
}

// PortFit is the training error of the representatives' mapping with a
// number of ports (MAPE in %; −1 and Error when the method failed).
type PortFit struct {
	Ports   int
	MAPE    float64
	Elapsed time.Duration
	Error   string `json:",omitempty"`
}

// PortLess is a form no port explains.
type PortLess struct {
	Form   string
	Cycles float64
	Reason string
}

// Unmeasured is a form left unmapped.
type Unmeasured struct{ Form, Reason string }

// Check is a member's check experiment: {Member, Partner} measured beside
// {Representative, Partner}; Outcome "ok" when they agree within twice the
// tolerance, "differs" when not (the member's inherited mapping is in
// doubt), "not measured" when either failed.
type Check struct {
	Member, Representative, Partner    string
	MemberCycles, RepresentativeCycles float64
	Outcome                            string
}

// MappedForms returns the mapped forms, sorted.
func (r *Report) MappedForms() []string {
	out := make([]string, 0, len(r.RepresentativeOf))
	for f := range r.RepresentativeOf {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Counts returns how many checks had each outcome.
func (r *Report) Counts() map[string]int {
	out := map[string]int{}
	for _, c := range r.Checks {
		out[c.Outcome]++
	}
	return out
}

// PairsDesign is the number of experiments of PMEvo's design over all
// measured forms (n² for n forms: singletons, pairs and ratio pairs at
// most), the cost the classes avoid.
func (r *Report) PairsDesign() int {
	n := r.Forms - len(r.Unmeasured)
	return n * n
}

// String renders the report as text.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "classes: %d of %d forms mapped, %d classes, %d probes, tolerance %.1f %% (noise %.1f %%)\n", r.Mapped, r.Forms, len(r.Classes), len(r.Probes), 100*r.Tolerance, 100*r.Noise)
	total := 0
	var el time.Duration
	for _, s := range r.Stages {
		total += s.Experiments
		el += s.Elapsed
	}
	fmt.Fprintf(&b, "experiments measured: %d (%s), against %d for PMEvo's design over all forms\n", total, el.Round(time.Second), r.PairsDesign())
	for _, s := range r.Stages {
		fmt.Fprintf(&b, "  %-20s %6d experiments, %d failed, %s\n", s.Name, s.Experiments, s.Failed, s.Elapsed.Round(time.Second))
	}
	fmt.Fprintf(&b, "independent mix: %s, %.2f instructions per cycle\n", r.Mix, r.MixIPC)
	for _, f := range r.PortFits {
		if f.Error != "" {
			fmt.Fprintf(&b, "  %2d ports: %s\n", f.Ports, f.Error)
			continue
		}
		if f.Ports == 0 {
			fmt.Fprintf(&b, "  the method's own resources: training MAPE %.2f %%\n", f.MAPE)
			continue
		}
		fmt.Fprintf(&b, "  %2d ports: training MAPE %.2f %%\n", f.Ports, f.MAPE)
	}
	if r.Ports > 0 {
		fmt.Fprintf(&b, "ports chosen: %d; ", r.Ports)
	}
	fmt.Fprintf(&b, "on the representatives: %s\n", r.Inner)
	fmt.Fprintf(&b, "front end: at least %.2f instructions per cycle measured", r.FrontEndIPC)
	if r.FrontEndModelled {
		b.WriteString(" (the predictor's cap: forms without µops cost the front end only)")
	}
	b.WriteString("\n")
	for _, p := range r.PortLess {
		fmt.Fprintf(&b, "no port: %s (%.3g cycles): %s\n", p.Form, p.Cycles, p.Reason)
	}
	for _, u := range r.Unmeasured {
		fmt.Fprintf(&b, "unmapped: %s: %s\n", u.Form, u.Reason)
	}
	c := r.Counts()
	fmt.Fprintf(&b, "checks: %d ok, %d differ, %d not measured\n", c["ok"], c["differs"], c["not measured"])
	shown := 0
	for _, ch := range r.Checks {
		if ch.Outcome == "differs" && shown < 10 {
			fmt.Fprintf(&b, "  differs: %s beside %s: %.3g cycles, its representative %s: %.3g\n", ch.Member, ch.Partner, ch.MemberCycles, ch.Representative, ch.RepresentativeCycles)
			shown++
		}
	}
	return b.String()
}

// HTML renders the report for a notebook.
func (r *Report) HTML() string {
	h := &infer.HTML{}
	h.Pre(r.String())
	return h.String()
}

// WriteFiles writes PREFIX.classes.txt: one line a class, the
// representative first.
func (r *Report) WriteFiles(prefix string) ([]string, error) {
	var b strings.Builder
	b.WriteString("# representative (singleton cycles): members\n")
	for _, c := range r.Classes {
		fmt.Fprintf(&b, "%s (%.4g): %s\n", c.Representative, c.Cycles, strings.Join(c.Members, ", "))
	}
	name := prefix + ".classes.txt"
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	return []string{name}, nil
}
