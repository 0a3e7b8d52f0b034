package measure

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/portlab/portlab/lib/operands"
	"github.com/portlab/portlab/lib/portmap"
)

// alternative is an operand layout the self-check compares with the
// hardware's own.
type alternative struct {
	name  string
	means string
	apply func(operands.Layout) operands.Layout
	// fasterOnly: only a faster result under the alternative is a
	// finding.
	fasterOnly bool
}

var alternatives = []alternative{
	// Treating every written register as read takes each copy's
	// destination from the read-write pool: faster means the layout under
	// test chained the copies through a register they write; slower means
	// the alternative chains them (a long-latency form that now reads its
	// destination, vdpps), which says nothing against the layout.
	{"writes-read", "a write that reads its register: a hidden dependency",
		func(l operands.Layout) operands.Layout { l.WritesRead = true; return l }, true},
	{"other-lines", "a memory effect: the result depends on which cache lines the stores and loads use",
		func(l operands.Layout) operands.Layout { l.OneLine = !l.OneLine; return l }, false},
}

// finding describes what alternative alt's measurement k says against
// the measurement under test, m0, each the fastest of its measurements;
// "" when they do not differ by more than tol, or only in the direction
// that is no finding.
func (alt alternative) finding(m0, k portmap.Measurement, tol float64) string {
	if !differ(m0, k, tol) || alt.fasterOnly && k.Cycles > m0.Cycles {
		return ""
	}
	return fmt.Sprintf("%s %+.0f%% (%.3f → %.3f cycles): %s", alt.name,
		100*(k.Cycles/m0.Cycles-1), m0.Cycles, k.Cycles, alt.means)
}

// LayoutCheck is the self-check of one instruction form: its throughput
// (cycles per instance, measured as a singleton) under the default
// operand layout and under each alternative layout.
type LayoutCheck struct {
	Form    string
	Default portmap.Measurement
	// Alternatives are the measurements under the alternative layouts,
	// which Layouts names: "writes-read" (every written register from the
	// read-write pool) and "other-lines" (OneLine toggled).
	Alternatives []portmap.Measurement
	Layouts      []string
	// SameCode marks the alternatives whose code is the default's: they
	// are not measured, and their measurement is the default's.
	SameCode []bool
	// Finding says which layout changed the result, by how much and
	// what that means; "" when none did.
	Finding string
}

// Changed reports whether an alternative layout changed the result.
func (c LayoutCheck) Changed() bool { return c.Finding != "" }

func (c LayoutCheck) String() string {
	s := fmt.Sprintf("%s: %.3f", c.Form, c.Default.Cycles)
	for i, m := range c.Alternatives {
		if i < len(c.SameCode) && c.SameCode[i] {
			s += fmt.Sprintf(", %s (same code)", c.Layouts[i])
			continue
		}
		s += fmt.Sprintf(", %s %.3f", c.Layouts[i], m.Cycles)
	}
	if c.Finding != "" {
		s += ": " + c.Finding
	}
	return s
}

// CheckLayouts is the measurement's self-check: it measures every form as
// a singleton under the hardware's operand layout (h.Layout) and under each
// alternative that changes its code (every written register treated as
// read; the memory pools in one cache line each, or spread when h.Layout
// has OneLine), interleaved so that a slow period of the machine hits all
// layouts of a form alike. Where an alternative's cycles differ from the
// default's by more than tol (relative), both are measured twice more,
// alternately, and the fastest of the three of each side count (other
// tenants only ever slow a measurement down); a difference that persists
// — for writes-read only a faster result, see alternatives — is reported
// in Finding: under the default layout the form has a
// dependency or a memory effect that is not its throughput, and its
// default result must not be stored as one. Forms that cannot be built are
// returned as failures. progress, if not nil, is called after each form.
func (h *Hardware) CheckLayouts(ctx context.Context, forms []string, tol float64, progress func(done, total int)) ([]LayoutCheck, []portmap.Failure, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	layouts := []operands.Layout{h.Layout}
	for _, a := range alternatives {
		layouts = append(layouts, a.apply(h.Layout))
	}
	type built struct {
		form   string
		copies int
		kernel []int // kernel index per layout; the default's where the code is the same
	}
	var forms2 []built
	var kernels []Kernel
	var failures []portmap.Failure
	for i, name := range forms {
		e := portmap.NewExperiment(name)
		var ks []Kernel
		b := built{form: name}
		var err error
		for k, l := range layouts {
			var body []string
			body, b.copies, err = h.body(e, l)
			if err != nil {
				break
			}
			if k > 0 && slices.Equal(body, ks[0].Body) {
				// The same code: nothing to compare.
				b.kernel = append(b.kernel, b.kernel[0])
				continue
			}
			b.kernel = append(b.kernel, len(kernels)+len(ks))
			ks = append(ks, Kernel{Name: e.String(), Body: body, Init: operands.X86Init()})
		}
		if err != nil {
			failures = append(failures, portmap.Failure{Index: i, Experiment: e, Insn: name, Reason: err.Error()})
			continue
		}
		forms2 = append(forms2, b)
		kernels = append(kernels, ks...)
	}
	// The prepared experiments are replaced by the check's kernels.
	h.loaded, h.unroll, h.failed = map[string]int{}, map[string]int{}, map[string]string{}
	if len(kernels) == 0 {
		return nil, failures, nil
	}
	if err := h.Timer.Load(ctx, kernels, h.Vector); err != nil {
		return nil, failures, fmt.Errorf("measure: self-check: %w", err)
	}
	measure := func(b built, k int) (portmap.Measurement, error) {
		t, err := h.timeKernel(ctx, b.kernel[k], b.copies)
		if err != nil {
			return portmap.Measurement{}, err
		}
		return portmap.Measurement{Experiment: portmap.NewExperiment(b.form), Cycles: t.Cycles, Min: t.Min, Max: t.Max, Dispersion: t.Dispersion, Contention: t.Contention}, nil
	}
	var checks []LayoutCheck
	for n, b := range forms2 {
		if err := ctx.Err(); err != nil {
			return checks, failures, err
		}
		c := LayoutCheck{Form: b.form}
		ms := make([]portmap.Measurement, len(layouts))
		var err error
		for k := range layouts {
			if k > 0 && b.kernel[k] == b.kernel[0] {
				ms[k] = ms[0]
				continue
			}
			if ms[k], err = measure(b, k); err != nil {
				break
			}
		}
		if err != nil {
			failures = append(failures, portmap.Failure{Index: indexOf(forms, b.form), Experiment: portmap.NewExperiment(b.form), Insn: b.form, Reason: err.Error()})
			continue
		}
		// A difference must survive more measurements of both sides: the
		// fastest of three of each counts (other tenants only ever slow a
		// measurement down), taken alternately so that a slow period hits
		// both sides.
		var found []string
		for k := 1; k < len(layouts); k++ {
			alt := alternatives[k-1]
			if alt.finding(ms[0], ms[k], tol) == "" {
				continue
			}
			fast0, fastK := ms[0], ms[k]
			var err error
			for _, side := range []int{k, 0, 0, k} {
				var m portmap.Measurement
				if m, err = measure(b, side); err != nil {
					break
				}
				if side == 0 && m.Cycles < fast0.Cycles {
					fast0 = m
				}
				if side == k && m.Cycles < fastK.Cycles {
					fastK = m
				}
			}
			if err != nil {
				continue
			}
			if f := alt.finding(fast0, fastK, tol); f != "" {
				found = append(found, f)
			}
		}
		c.Default, c.Alternatives = ms[0], ms[1:]
		for k, a := range alternatives {
			c.Layouts = append(c.Layouts, a.name)
			c.SameCode = append(c.SameCode, b.kernel[k+1] == b.kernel[0])
		}
		c.Finding = strings.Join(found, "; ")
		checks = append(checks, c)
		if progress != nil {
			progress(n+1, len(forms2))
		}
	}
	return checks, failures, nil
}

// differ reports whether a and b differ by more than tol relative to a.
func differ(a, b portmap.Measurement, tol float64) bool {
	return math.Abs(b.Cycles-a.Cycles)/a.Cycles > tol
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
