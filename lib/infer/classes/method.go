package classes

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/pmevo"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

func init() { infer.Register("classes", func() infer.Method { return New() }) }

// Config is the configuration of the class pipeline.
type Config struct {
	// Method is the inference method run on the class representatives
	// (a registered name: pmevo, palmed, …).
	Method MethodName `flag:"method" help:"inference method run on the class representatives (palmed, pmevo, …)"`
	// Tolerance is the relative difference within which two measurements
	// count as equal when forms are grouped and members checked; 0 takes
	// it from the oracle: 5 standard deviations of its noise when it
	// reports one (oracle.NoiseReporter), else 3 times the median spread
	// of the singletons' passes, and at least 2 %.
	Tolerance float64 `flag:"tol" help:"relative difference within which two measurements are equal (0: from the measurements' own spread, at least 0.02)" min:"0" max:"0.5"`
	// MaxProbes bounds the probe forms every form is measured against.
	MaxProbes int `flag:"probes" help:"at most this many probe forms" min:"1" max:"128"`
	// PortRange is how many port counts above the lower bound (the
	// independent mix's instructions per cycle) the representatives are
	// inferred with; the smallest whose training error is within noise of
	// the best is chosen. Problem.Ports > 0 fixes the count instead.
	PortRange int `flag:"port-range" help:"port counts tried above the lower bound from the data" min:"0" max:"8"`
	// InnerTime is the time limit of each inference run on the
	// representatives.
	InnerTime time.Duration `flag:"inner-time" help:"time limit of each inference run on the representatives" min:"1s"`
	// Population is PMEvo's population on the representatives (when
	// Method is pmevo).
	Population int `flag:"population" help:"PMEvo's population on the representatives" min:"2"`
}

// MethodName names a registered inference method other than classes; as
// a flag it is refused when parsed if no method has the name.
type MethodName string

// UnmarshalText accepts the name of a registered method other than
// classes.
func (n *MethodName) UnmarshalText(text []byte) error {
	name := string(text)
	if name == "classes" {
		return errors.New("the method on the representatives cannot be classes itself")
	}
	if _, err := infer.New(name); err != nil {
		return fmt.Errorf("want one of %s, not %q", strings.Join(slices.DeleteFunc(infer.Methods(), func(m string) bool { return m == "classes" }), ", "), name)
	}
	*n = MethodName(name)
	return nil
}

// DefaultConfig is the configuration New starts from: PALMED on the
// representatives (on the simulated Skylake it fits them far better than
// PMEvo in the same time; see the package documentation).
func DefaultConfig() Config {
	return Config{Method: "palmed", MaxProbes: 32, PortRange: 2, InnerTime: 2 * time.Minute, Population: 2000}
}

// Method is the class pipeline behind the inference contract (see the
// package documentation). Its Report is a *Report.
type Method struct {
	Config Config
	// Notes, when set, receives the plan and the measurement-time estimate
	// as lines of text (the command line passes its standard error).
	Notes io.Writer
}

// New returns the method with DefaultConfig.
func New() *Method { return &Method{Config: DefaultConfig()} }

// Name returns "classes".
func (*Method) Name() string { return "classes" }

// Uses returns what the pipeline needs: an oracle (or data holding its
// experiments); it chooses the number of ports itself.
func (*Method) Uses() infer.Needs { return infer.Needs{Queries: true} }

// Configuration returns the configuration, for infer.Validate.
func (m *Method) Configuration() any {
	m.defaults()
	return &m.Config
}

func (m *Method) defaults() {
	if reflect.ValueOf(m.Config).IsZero() {
		m.Config = DefaultConfig()
	}
}

// SetFlags defines the configuration as command-line flags.
func (m *Method) SetFlags(fs *flag.FlagSet) {
	m.defaults()
	infer.BindFlags(fs, &m.Config)
}

// ChoosesPorts reports that the method chooses the number of ports from
// the data when Problem.Ports is 0 (the command line then does not fill
// in a simulated machine's count).
func (*Method) ChoosesPorts() bool { return true }

// SetNotes makes the method write its plan and estimates to w.
func (m *Method) SetNotes(w io.Writer) { m.Notes = w }

func (m *Method) notef(format string, args ...any) {
	if m.Notes != nil {
		fmt.Fprintf(m.Notes, format+"\n", args...)
	}
}

// run is the state of one pipeline run.
type run struct {
	m      *Method
	cfg    Config
	p      *infer.Problem
	s      *infer.Settings
	tol    float64
	single map[string]float64
	all    *portmap.ExperimentSet // every measurement, for the training set and the front end
	seen   map[string]bool
	rep    *Report
	rate   float64 // measurements per second, from the singletons
}

// measure measures exps (those not measured before) and returns the cycles
// by experiment key; failures are recorded in the report under stage.
func (r *run) measure(ctx context.Context, stage string, exps []portmap.Experiment) (map[string]float64, error) {
	out := map[string]float64{}
	var todo []portmap.Experiment
	for _, e := range exps {
		if r.seen[e.Key()] {
			continue
		}
		r.seen[e.Key()] = true
		todo = append(todo, e)
	}
	for _, m := range r.all.Measurements {
		out[m.Experiment.Key()] = m.Cycles
	}
	if len(todo) == 0 {
		return out, nil
	}
	start := time.Now()
	got, fails, err := oracle.MeasureAll(ctx, r.p.Oracle, todo, func(pr oracle.Progress) {
		r.s.Notify("measuring", pr.Done, pr.Total, fmt.Sprintf("%s: %d/%d measured, %d failed", stage, pr.Done, pr.Total, pr.Failed))
	})
	r.all.Measurements = append(r.all.Measurements, got.Measurements...)
	for _, m := range got.Measurements {
		out[m.Experiment.Key()] = m.Cycles
	}
	if k := len(r.rep.Stages) - 1; k >= 0 && r.rep.Stages[k].Name == stage {
		st := &r.rep.Stages[k]
		st.Experiments, st.Failed, st.Elapsed = st.Experiments+len(todo), st.Failed+len(fails), st.Elapsed+time.Since(start)
	} else {
		r.rep.Stages = append(r.rep.Stages, Stage{Name: stage, Experiments: len(todo), Failed: len(fails), Elapsed: time.Since(start)})
	}
	r.rep.Failures = append(r.rep.Failures, fails...)
	return out, err
}

// Infer runs the pipeline on p (see the package documentation).
func (m *Method) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	m.defaults()
	cfg := m.Config
	if err := new(MethodName).UnmarshalText([]byte(cfg.Method)); err != nil {
		return nil, fmt.Errorf("classes: Config.Method: %w", err)
	}
	if _, err := newInner(cfg); err != nil {
		return nil, err
	}
	r := &run{m: m, cfg: cfg, p: p, s: s, all: &portmap.ExperimentSet{}, seen: map[string]bool{}, rep: &Report{Forms: len(p.Instructions), Method: string(cfg.Method)}}
	res, err := r.pipeline(ctx)
	if res == nil {
		return nil, err
	}
	return res, err
}

func newInner(cfg Config) (infer.Method, error) {
	inner, err := infer.New(string(cfg.Method))
	if err != nil {
		return nil, fmt.Errorf("classes: -method: %w", err)
	}
	if pm, ok := inner.(*pmevo.Method); ok {
		pm.Config.TimeLimit = cfg.InnerTime
		pm.Config.Population = cfg.Population
	}
	return inner, nil
}

func (r *run) pipeline(ctx context.Context) (*infer.Result, error) {
	forms := r.p.Instructions
	n := len(forms)
	r.m.notef("classes: %d forms; %d singletons first (the pairs design over all of them would be %d experiments); the estimate of the rest follows from their rate", n, n, n*n)

	// 1. Singletons.
	start := time.Now()
	got, err := r.measure(ctx, "singletons", design.Singletons(forms))
	if err != nil {
		return nil, fmt.Errorf("classes: singletons: %w", err)
	}
	if el := time.Since(start).Seconds(); el > 0 && float64(len(got))/el < liveRate {
		r.rate = float64(len(got)) / el
	}
	r.single = map[string]float64{}
	var measured []string
	for _, f := range forms {
		t, ok := got[portmap.NewExperiment(f).Key()]
		switch {
		case !ok:
			r.rep.Unmeasured = append(r.rep.Unmeasured, Unmeasured{Form: f, Reason: r.failureOf(f)})
		case t <= 1e-9:
			r.single[f] = t
			r.rep.PortLess = append(r.rep.PortLess, PortLess{Form: f, Cycles: t, Reason: "no measurable cost (zero cycles)"})
		default:
			r.single[f] = t
			measured = append(measured, f)
		}
	}
	if len(measured) == 0 {
		return nil, fmt.Errorf("classes: no form measured (%d failed; first: %v)", len(r.rep.Unmeasured), firstReason(r.rep.Unmeasured))
	}
	r.tol = r.tolerance(ctx, measured)
	r.rep.Tolerance = r.tol
	r.m.notef("classes: %d singletons measured (%d failed), tolerance %.1f %%; next ≤ %d probe experiments (%d forms × ≤ %d probes)%s",
		len(measured), len(r.rep.Unmeasured), 100*r.tol, len(measured)*r.cfg.MaxProbes, len(measured), r.cfg.MaxProbes, r.eta(len(measured)*r.cfg.MaxProbes))

	// 2. Probes and classes (partition refinement).
	sig := map[string][]float64{}
	for _, f := range measured {
		sig[f] = []float64{r.single[f]}
	}
	var probes []string
	isProbe := map[string]bool{}
	classes := cluster(measured, sig, isProbe, r.tol)
	for round := 1; len(probes) < r.cfg.MaxProbes; round++ {
		var fresh []string
		for _, c := range classes {
			lead := c[0]
			if isProbe[lead] || r.single[lead] > 1+r.tol || len(probes)+len(fresh) >= r.cfg.MaxProbes {
				continue
			}
			fresh = append(fresh, lead)
		}
		if len(fresh) == 0 {
			break
		}
		for _, f := range fresh {
			isProbe[f] = true
		}
		probes = append(probes, fresh...)
		exps := design.AgainstProbes(measured, fresh, r.single, r.tol)
		got, err := r.measure(ctx, fmt.Sprintf("probes, round %d", round), exps)
		if err != nil {
			return r.partial(err)
		}
		for _, f := range measured {
			for _, q := range fresh {
				v, ok := got[design.Blocking(f, r.single[f], q, r.single[q], r.tol).Key()]
				if !ok {
					v = math.NaN()
				}
				sig[f] = append(sig[f], v)
			}
		}
		classes = cluster(measured, sig, isProbe, r.tol)
		r.m.notef("classes: round %d: %d new probes (%d in all), %d classes", round, len(fresh), len(probes), len(classes))
	}
	r.rep.Probes = probes
	reps := make([]string, len(classes))
	repOf := map[string]string{}
	for i, c := range classes {
		reps[i] = c[0]
		for _, f := range c {
			repOf[f] = c[0]
		}
		r.rep.Classes = append(r.rep.Classes, Class{Representative: c[0], Members: c[1:], Cycles: r.single[c[0]]})
	}
	rr := len(reps)
	probe, _ := newInner(r.cfg)
	if probe.Uses().Data {
		r.m.notef("classes: %d classes of %d forms; next %d experiments among the representatives (PMEvo's design) and ≤ %d checks%s",
			rr, len(measured), rr*rr, 2*(len(measured)-rr), r.eta(rr*rr+2*(len(measured)-rr)))
	} else {
		r.m.notef("classes: %d classes of %d forms; next ≤ %d checks%s, then %s asks for its own experiments among the representatives (PALMED: about %d, ¾ of r², on the simulated Skylake%s)",
			rr, len(measured), 2*(len(measured)-rr), r.eta(2*(len(measured)-rr)), r.cfg.Method, 3*rr*rr/4, r.eta(3*rr*rr/4))
	}

	// 3. For a method that learns from data (PMEvo), PMEvo's design among
	// the representatives; methods that ask for their own experiments
	// (PALMED) get them from the same oracle during inference. And a
	// check experiment per member.
	if probe.Uses().Data {
		if _, err := r.measure(ctx, "representatives", pmevoDesign(reps, r.single)); err != nil {
			return r.partial(err)
		}
	}
	if err := r.check(ctx, classes, reps); err != nil {
		return r.partial(err)
	}

	// 4. The number of ports: the independent mix's instructions per
	// cycle bound it from below.
	mixIPC, err := r.independentMix(ctx, probes)
	if err != nil {
		return r.partial(err)
	}
	r.rep.MixIPC = mixIPC
	r.rep.FrontEndIPC = maxIPC(r.all)
	isRep := map[string]bool{}
	for _, f := range reps {
		isRep[f] = true
	}
	train := &portmap.ExperimentSet{}
	for _, ms := range r.all.Measurements {
		if onlyOf(ms.Experiment, isRep) {
			train.Measurements = append(train.Measurements, ms)
		}
	}
	lo := max(1, int(math.Ceil(mixIPC*(1-r.tol))))
	lo = min(lo, portmap.MaxPorts)
	hi := min(portmap.MaxPorts, lo+r.cfg.PortRange)
	switch {
	case r.p.Ports > 0:
		lo, hi = r.p.Ports, r.p.Ports
	case !probe.Uses().Ports:
		lo, hi = 0, 0 // the method finds its resources itself
	}
	r.m.notef("classes: measured %d experiments; %s on the %d representatives with %s", len(r.all.Measurements), r.cfg.Method, rr, portText(lo, hi))
	bestMAPE := math.Inf(1)
	var tried []PortFit
	results := map[int]*infer.Result{}
	errs := map[int]error{}
	for k := lo; k <= hi; k++ {
		inner, _ := newInner(r.cfg)
		settings := &infer.Settings{Seed: r.s.Seed, Workers: r.s.Workers, Progress: func(pr infer.Progress) {
			r.s.Notify(pr.Stage, pr.Done, pr.Total, fmt.Sprintf("%s: %s", portText(k, k), pr.Message))
		}}
		res, err := infer.Infer(ctx, infer.Problem{Oracle: r.p.Oracle, Data: train, Instructions: reps, Ports: k, InstructionsPerCycle: r.p.InstructionsPerCycle}, inner, settings)
		if res == nil {
			if ctx.Err() != nil {
				return nil, err
			}
			tried = append(tried, PortFit{Ports: k, MAPE: -1, Error: err.Error()})
			continue
		}
		ev := metrics.Evaluate(ctx, res.Predictor, train)
		if ev.Len() == 0 {
			tried = append(tried, PortFit{Ports: k, MAPE: -1, Error: "predicts none of the training experiments"})
			continue
		}
		mape := ev.Summary.MAPE
		tried = append(tried, PortFit{Ports: k, MAPE: mape, Elapsed: res.Elapsed})
		results[k], errs[k] = res, err
		r.m.notef("classes: %s: training MAPE %.2f %% (%s)", portText(k, k), mape, res.Elapsed.Round(time.Second))
		bestMAPE = min(bestMAPE, mape)
		if ctx.Err() != nil {
			break
		}
	}
	r.rep.PortFits = tried
	// The smallest count within noise of the best fit.
	var best *infer.Result
	var bestErr error
	for _, t := range tried {
		if t.Error == "" && t.MAPE <= bestMAPE*1.1+30*r.tol {
			best, bestErr = results[t.Ports], errs[t.Ports]
			r.rep.Ports = t.Ports
			break
		}
	}
	if best == nil {
		return nil, fmt.Errorf("classes: %s found no model of the %d representatives with %s", r.cfg.Method, rr, portText(lo, hi))
	}
	if best.Mapping != nil {
		r.rep.Ports = best.Mapping.NumPorts()
	}
	r.rep.Inner = best.String()

	// 5. Members inherit their representative's model; forms faster than
	// any µop on the ports can be are left without µops.
	repOfMapped := map[string]string{}
	portLess := map[string]bool{}
	for _, pl := range r.rep.PortLess {
		portLess[pl.Form] = true
	}
	// A method that maps representatives to the front end only (PALMED's
	// forms bound by the front end alone) leaves their classes without
	// µops too.
	feOnly := map[string]bool{}
	if fo, ok := best.Report.(frontEndBounder); ok {
		for _, q := range fo.FrontEndBound() {
			feOnly[q] = true
		}
	}
	for _, f := range measured {
		if q := repOf[f]; feOnly[q] {
			r.rep.PortLess = append(r.rep.PortLess, PortLess{Form: f, Cycles: r.single[f],
				Reason: fmt.Sprintf("%.2f per cycle alone, at the front end's peak (%s maps its representative %s to the front end only)", 1/r.single[f], r.cfg.Method, q)})
			portLess[f] = true
			continue
		}
		if k := r.rep.Ports; k > 0 && 1/r.single[f] > float64(k)*(1+r.tol) {
			r.rep.PortLess = append(r.rep.PortLess, PortLess{Form: f, Cycles: r.single[f],
				Reason: fmt.Sprintf("%.2f per cycle alone, more than %d ports can run (move elimination, a zero idiom or a NOP: bound by the front end)", 1/r.single[f], k)})
			portLess[f] = true
			continue
		}
		repOfMapped[f] = repOf[f]
	}
	// A representative the method's model does not predict leaves its
	// class unmapped.
	unpredicted := map[string]string{}
	if vals, err := best.Predictor.Predict(ctx, design.Singletons(reps)); err != nil && !errors.Is(err, oracle.ErrUnsupported) {
		return nil, fmt.Errorf("classes: predicting the representatives with %s: %w", r.cfg.Method, err)
	} else {
		for i, v := range vals {
			if math.IsNaN(v) {
				unpredicted[reps[i]] = fmt.Sprintf("%s's model does not predict its representative %s", r.cfg.Method, reps[i])
			}
		}
	}
	for f, q := range repOfMapped {
		if why, ok := unpredicted[q]; ok {
			delete(repOfMapped, f)
			r.rep.Unmeasured = append(r.rep.Unmeasured, Unmeasured{Form: f, Reason: why})
		}
	}
	pred := &classPredictor{inner: best.Predictor, rep: repOfMapped, portLess: portLess, ipc: r.p.InstructionsPerCycle}
	if pred.ipc == 0 && len(portLess) > 0 {
		pred.ipc = r.rep.FrontEndIPC
		r.rep.FrontEndModelled = true
	}
	var out *portmap.Mapping
	if mp := best.Mapping; mp != nil {
		out, err = portmap.NewMapping("classes", mp.Ports()...)
		if err != nil {
			return nil, err
		}
		for _, f := range measured {
			if portLess[f] {
				if err := out.Set(f); err != nil {
					return nil, err
				}
				continue
			}
			u, ok := mp.Uops(repOf[f])
			if !ok {
				r.rep.Unmeasured = append(r.rep.Unmeasured, Unmeasured{Form: f, Reason: fmt.Sprintf("%s did not map its representative %s", r.cfg.Method, repOf[f])})
				delete(pred.rep, f)
				continue
			}
			if err := out.Set(f, u...); err != nil {
				return nil, err
			}
		}
		for _, pl := range r.rep.PortLess {
			if !out.Has(pl.Form) {
				if err := out.Set(pl.Form); err != nil {
					return nil, err
				}
			}
		}
	}
	r.rep.RepresentativeOf = map[string]string{}
	for f, q := range pred.rep {
		r.rep.RepresentativeOf[f] = q
	}
	for f := range portLess {
		r.rep.RepresentativeOf[f] = ""
	}
	r.rep.Mapped = len(r.rep.RepresentativeOf)
	r.rep.Experiments = len(r.all.Measurements)
	r.rep.Mapping = out
	if bestErr != nil {
		// The model of the representatives came with an error (PALMED's
		// misfit kernels, a time limit): the result is given, with it.
		return &infer.Result{Mapping: out, Predictor: pred, Report: r.rep, Status: infer.StatusOf(bestErr)},
			fmt.Errorf("classes: %s on the representatives: %w", r.cfg.Method, bestErr)
	}
	return &infer.Result{Mapping: out, Predictor: pred, Report: r.rep, Status: infer.Converged}, nil
}

// frontEndBounder is a method's report that names the instructions it
// maps to the front end only (palmed.Result).
type frontEndBounder interface{ FrontEndBound() []string }

// portText says which port counts are tried.
func portText(lo, hi int) string {
	switch {
	case hi == 0:
		return "the resources it finds"
	case lo == hi:
		return fmt.Sprintf("%d ports", lo)
	}
	return fmt.Sprintf("%d to %d ports", lo, hi)
}

// partial ends a run interrupted while measuring: there is no mapping yet.
func (r *run) partial(err error) (*infer.Result, error) {
	return nil, fmt.Errorf("classes: %d experiments measured before: %w (a rerun with the same campaign resumes)", len(r.all.Measurements), err)
}

// check measures one experiment per class member (see Report.Checks).
func (r *run) check(ctx context.Context, classes [][]string, reps []string) error {
	if len(reps) < 2 {
		return nil
	}
	rng := rand.New(rand.NewPCG(r.s.Seed, 0xc1a55e5))
	type pending struct{ member, rep, partner string }
	var todo []pending
	var exps []portmap.Experiment
	for _, c := range classes {
		for _, f := range c[1:] {
			q := reps[rng.IntN(len(reps))]
			for q == c[0] {
				q = reps[rng.IntN(len(reps))]
			}
			todo = append(todo, pending{f, c[0], q})
			exps = append(exps, portmap.NewExperiment(f, q), portmap.NewExperiment(c[0], q))
		}
	}
	got, err := r.measure(ctx, "checks", exps)
	if err != nil {
		return err
	}
	for _, t := range todo {
		a, okA := got[portmap.NewExperiment(t.member, t.partner).Key()]
		b, okB := got[portmap.NewExperiment(t.rep, t.partner).Key()]
		c := Check{Member: t.member, Representative: t.rep, Partner: t.partner, MemberCycles: a, RepresentativeCycles: b}
		switch {
		case !okA || !okB:
			c.Outcome = "not measured"
		case math.Abs(a-b) <= 2*r.tol*math.Max(a, b):
			c.Outcome = "ok"
		default:
			c.Outcome = "differs"
		}
		r.rep.Checks = append(r.rep.Checks, c)
	}
	return nil
}

// independentMix builds a mix of probes that do not compete (PALMED's
// "very basic" instructions, CGO 2022 §4.1, a clique of disjoint
// instructions): probes in order of decreasing instructions per cycle,
// each with round(1/t) copies (a cycle's worth), kept when the mix still
// runs in about a cycle. Its instructions per cycle bound the number of
// ports from below (every instruction that costs a port has at least one
// µop).
func (r *run) independentMix(ctx context.Context, probes []string) (float64, error) {
	best := 0.0
	for _, f := range probes {
		best = max(best, 1/r.single[f])
	}
	order := slices.Clone(probes)
	sort.SliceStable(order, func(i, j int) bool { return r.single[order[i]] < r.single[order[j]] })
	var mix portmap.Experiment
	cycles := 0.0
	for _, q := range order {
		c := max(1, int(math.Round(1/r.single[q])))
		next := mix.With(q, c)
		got, err := r.measure(ctx, "independent mix", []portmap.Experiment{next})
		if err != nil {
			return best, err
		}
		t, ok := got[next.Key()]
		if !ok {
			continue
		}
		if t <= math.Max(1, cycles)*(1+r.tol) {
			mix, cycles = next, t
			best = max(best, float64(mix.Len())/t)
			r.rep.Mix = mix.String()
		}
	}
	return best, nil
}

// tolerance returns the configured tolerance or the one the oracle's noise
// gives (see Config.Tolerance): σ from the oracle (oracle.NoiseReporter),
// else from the passes of the singletons (the median spread of the two
// fastest, a host campaign's), else, from an oracle that gives a fresh
// sample when asked again, the pooled relative spread of noiseSamples
// forms' singletons measured twice more.
func (r *run) tolerance(ctx context.Context, forms []string) float64 {
	if r.cfg.Tolerance > 0 {
		return r.cfg.Tolerance
	}
	if nr, ok := r.p.Oracle.(oracle.NoiseReporter); ok {
		if sigma, n := nr.Noise(); n > 0 && sigma > 0 {
			r.rep.Noise = sigma
			return min(0.5, max(0.02, 5*sigma))
		}
	}
	var spreads []float64
	for _, m := range r.all.Measurements {
		if m.Experiment.Len() == 1 && m.Passes > 1 {
			spreads = append(spreads, m.Spread)
		}
	}
	if len(spreads) > 0 {
		sort.Float64s(spreads)
		r.rep.Noise = spreads[len(spreads)/2]
		return min(0.5, max(0.02, 3*r.rep.Noise))
	}
	if oracle.Remembers(r.p.Oracle) {
		return 0.02
	}
	var sum float64
	var dof int
	for _, f := range forms[:min(len(forms), noiseSamples)] {
		e := portmap.NewExperiment(f)
		xs := []float64{r.single[f]}
		for range 2 {
			m, err := r.p.Oracle.Measure(ctx, e)
			if err != nil {
				break
			}
			xs = append(xs, m.Cycles)
		}
		if len(xs) < 2 {
			continue
		}
		mean := 0.0
		for _, x := range xs {
			mean += x
		}
		mean /= float64(len(xs))
		for _, x := range xs {
			sum += (x/mean - 1) * (x/mean - 1)
		}
		dof += len(xs) - 1
	}
	if dof == 0 {
		return 0.02
	}
	r.rep.Noise = math.Sqrt(sum / float64(dof))
	return min(0.5, max(0.02, 5*r.rep.Noise))
}

// liveRate is the rate of measurement above which the singletons were
// answered from memory (a campaign's file, a simulation), not measured:
// they then give no estimate of the time.
const liveRate = 200

// noiseSamples is how many forms' singletons are measured again to
// estimate the noise of an oracle that gives fresh samples.
const noiseSamples = 30

// eta is the measurement time n experiments take at the singletons' rate,
// as text (empty when the rate is unknown or the time negligible).
func (r *run) eta(n int) string {
	if !(r.rate > 0) || float64(n)/r.rate < 1 {
		return ""
	}
	return fmt.Sprintf(", about %s at the singletons' %.1f per second", (time.Duration(float64(n)/r.rate) * time.Second).Round(time.Minute), r.rate)
}

func (r *run) failureOf(f string) string {
	for _, fl := range r.rep.Failures {
		if fl.Experiment.Len() == 1 && fl.Experiment.Count(f) == 1 {
			return fl.Reason
		}
	}
	return "not measured"
}

func firstReason(u []Unmeasured) string {
	if len(u) == 0 {
		return "none"
	}
	return u[0].Form + ": " + u[0].Reason
}

// cluster groups forms whose signatures agree within tol with the mean
// signature of a class (a form joins the first class whose mean it
// matches; the mean, not the first member, so that the first member's
// noise does not decide alone), probes first so that they lead their
// classes; each class lists its leader (representative) first.
func cluster(forms []string, sig map[string][]float64, isProbe map[string]bool, tol float64) [][]string {
	order := slices.Clone(forms)
	sort.SliceStable(order, func(i, j int) bool { return isProbe[order[i]] && !isProbe[order[j]] })
	var classes [][]string
	var sums [][]float64
	for _, f := range order {
		joined := false
		for i, c := range classes {
			mean := make([]float64, len(sums[i]))
			for k, v := range sums[i] {
				mean[k] = v / float64(len(c))
			}
			if same(sig[f], mean, tol) {
				classes[i] = append(classes[i], f)
				for k, v := range sig[f] {
					sums[i][k] += v
				}
				joined = true
				break
			}
		}
		if !joined {
			classes = append(classes, []string{f})
			sums = append(sums, slices.Clone(sig[f]))
		}
	}
	return classes
}

// same reports whether two signatures agree: the same components measured
// and each pair within tol of the larger.
func same(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		na, nb := math.IsNaN(a[i]), math.IsNaN(b[i])
		if na || nb {
			if na != nb {
				return false
			}
			continue
		}
		if math.Abs(a[i]-b[i]) > tol*math.Max(a[i], b[i]) {
			return false
		}
	}
	return true
}

// pmevoDesign is PMEvo's training design over forms from measured
// singletons: the singletons, every pair and every ratio pair (thesis
// §5.1.1).
func pmevoDesign(forms []string, single map[string]float64) []portmap.Experiment {
	ratio, _ := design.RatioPairs(forms, single) // every form has a positive singleton
	return append(append(design.Singletons(forms), design.Pairs(forms)...), ratio...)
}

// onlyOf reports whether every instruction of e is in set.
func onlyOf(e portmap.Experiment, set map[string]bool) bool {
	for _, it := range e.Items() {
		if !set[it.Insn] {
			return false
		}
	}
	return true
}

// maxIPC is the most instructions per cycle of any measurement of s.
func maxIPC(s *portmap.ExperimentSet) float64 {
	best := 0.0
	for _, m := range s.Measurements {
		if m.Cycles > 1e-9 {
			best = max(best, float64(m.Experiment.Len())/m.Cycles)
		}
	}
	return best
}
