package infer

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/pmu"
	"github.com/portlab/portlab/lib/portmap"
)

// Problem is what an inference method is asked to solve.
type Problem struct {
	// Oracle answers the experiments a method asks for: the host's
	// hardware (measure.Hardware, or a measure.Campaign around it), a
	// simulation (oracle.Simulate) or a replay of stored data. It may be
	// nil when Data is given: Infer then answers the method's queries from
	// a replay of Data.
	Oracle oracle.Oracle
	// Data, when not nil, holds measurements made before (a finished
	// campaign, a data set); methods learn from them instead of, or before,
	// asking the oracle.
	Data *portmap.ExperimentSet
	// Instructions are the instructions to map; empty means every
	// instruction of Data.
	Instructions []string
	// Ports is the number of execution ports to infer a mapping over, and
	// PortNames optionally names them (Infer fills in "0", "1", …).
	// Methods that find the number themselves accept 0 (Needs.Ports).
	Ports     int
	PortNames []string
	// InstructionsPerCycle, when positive, is the front end's peak:
	// predicted throughput is capped at |e| / InstructionsPerCycle
	// (thesis §5.1.3; the peak IPC of the explainable method and PALMED).
	InstructionsPerCycle float64
}

// Settings are what every method shares beyond the problem.
type Settings struct {
	// Seed makes randomised methods repeatable; Workers bounds their
	// parallelism (0: GOMAXPROCS; negative is refused). Results must not
	// depend on Workers.
	Seed    uint64
	Workers int
	// TimeLimit, when positive, bounds the run's wall time: Infer gives
	// the method a context with that deadline, and a run that reaches it
	// ends with its best result and Status TimeLimit.
	TimeLimit time.Duration
	// MaxQueries, when positive, bounds the oracle queries of the run: the
	// query after the last one allowed fails and cancels the method's
	// context, and the run ends with its best result and Status
	// QueryLimit.
	MaxQueries int
	// Progress, when set, receives the method's progress (see Notify).
	Progress func(Progress)

	start time.Time // of the run, for Progress.Elapsed
}

// Notify passes the method's progress to s.Progress (when set), with the
// time since the run started. Methods report through it, so that every
// method's progress looks alike.
func (s *Settings) Notify(stage string, done, total int, message string) {
	if s == nil || s.Progress == nil {
		return
	}
	var elapsed time.Duration
	if !s.start.IsZero() {
		elapsed = time.Since(s.start)
	}
	s.Progress(Progress{Stage: stage, Done: done, Total: total, Message: message, Elapsed: elapsed})
}

// Progress reports an inference run's progress.
type Progress struct {
	Stage       string // e.g. "measuring", "generation", "local search"
	Done, Total int    // progress within the stage; Total 0 when unknown
	Message     string // a line for a progress display
	Elapsed     time.Duration
}

// Needs says what a method needs of a problem beyond instructions; Infer
// provides it, or refuses the problem before the method asks anything.
type Needs struct {
	// Queries: the method asks the oracle for experiments. Without an
	// oracle Infer answers them from a replay of Problem.Data
	// (oracle.NewReplay), which fails on the experiments the data does not
	// hold.
	Queries bool
	// Data: the method learns from Problem.Data itself when it is given
	// (otherwise only through the oracle).
	Data bool
	// Ports: the method needs Problem.Ports (it does not find the number
	// of ports itself).
	Ports bool
	// UopCounter: the method reads the total µop count of measurements
	// (portmap.Measurement.Uops); Infer switches the oracle's counter on
	// (oracle.UopCounter) or refuses.
	UopCounter bool
	// PortCounters: the method reads per-port µop counts
	// (portmap.Measurement.PortUops); Infer switches the oracle's counters
	// on (oracle.PortUopCounter) or refuses.
	PortCounters bool
}

// String lists what n asks for, e.g. "queries, ports, µop counter";
// "nothing" when it asks for nothing.
func (n Needs) String() string {
	var out []string
	for _, f := range []struct {
		on   bool
		name string
	}{{n.Queries, "queries"}, {n.Data, "data"}, {n.Ports, "ports"}, {n.UopCounter, "µop counter"}, {n.PortCounters, "per-port counters"}} {
		if f.on {
			out = append(out, f.name)
		}
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, ", ")
}

// Method is an inference algorithm.
type Method interface {
	// Name is the method's name as Register and the command line know it.
	Name() string
	// Uses says what the method needs of the problem (see Needs).
	Uses() Needs
	// Infer solves p, which Infer has checked and completed as Uses
	// asked. It asks p.Oracle for measurements (never another oracle, so
	// that Infer can count and limit them), reports progress through
	// s.Notify, and when ctx is done returns the best result it has
	// together with ctx's error. It leaves Method, Queries, Elapsed and,
	// unless it knows better, Status of the result to Infer.
	Infer(ctx context.Context, p *Problem, s *Settings) (*Result, error)
}

// FlagSetter is implemented by methods whose settings the command line can
// set: SetFlags defines one flag per setting on fs, bound to the method
// (with BindFlags).
type FlagSetter interface {
	SetFlags(fs *flag.FlagSet)
}

// Configured is implemented by methods with a configuration struct whose
// fields carry range tags (see BindFlags): Infer checks it with Validate
// before the run.
type Configured interface {
	Configuration() any
}

// Result is an inferred mapping with how it came about.
type Result struct {
	// Method is the name of the method that produced the result.
	Method string
	// Mapping is the inferred port mapping; nil for methods that infer
	// another kind of model (see Predictor).
	Mapping *portmap.Mapping
	// Predictor predicts with the inferred model; Infer sets it to
	// oracle.FromMapping(Mapping) (with the problem's front-end bound) when
	// the method leaves it nil.
	Predictor oracle.Predictor
	// Queries is the number of oracle queries the run made, Distinct the
	// number of distinct experiments among them; Data the number of
	// measurements of Problem.Data available to it.
	Queries, Distinct, Data int
	// Elapsed is the wall time of the run.
	Elapsed time.Duration
	// Status says why the run stopped (Converged, TimeLimit, …).
	Status Status
	// Report is the method's own account of the run (its statistics, trace
	// or per-instruction explanations); it renders itself.
	Report Report
}

// String summarises r in one line.
func (r *Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: ", r.Method)
	if r.Mapping != nil {
		fmt.Fprintf(&b, "%s on %s, %d distinct µops", portmap.Count(r.Mapping.Len(), "instruction"), portmap.Count(r.Mapping.NumPorts(), "port"), r.Mapping.DistinctUops())
	} else if r.Predictor != nil {
		b.WriteString(r.Predictor.Name())
	}
	fmt.Fprintf(&b, "; %d oracle queries (%d distinct)", r.Queries, r.Distinct)
	if r.Data > 0 {
		fmt.Fprintf(&b, ", %d stored measurements", r.Data)
	}
	fmt.Fprintf(&b, "; %s", r.Elapsed.Round(time.Millisecond))
	if r.Status != Converged && r.Status != NotTerminated {
		fmt.Fprintf(&b, "; stopped: %s", r.Status)
	}
	return b.String()
}

// WriteFiles saves the result as PREFIX.json (portlab's mapping format),
// PREFIX.pmevo.json (PMEvo's Mapping3), the report's files
// (Report.WriteFiles) and PREFIX.report.json (the report as JSON with the
// run's figures, unless the report wrote it), and returns the names
// written.
func (r *Result) WriteFiles(prefix string) ([]string, error) {
	var names []string
	if r.Mapping != nil {
		if err := portmap.WriteMapping(prefix+".json", r.Mapping); err != nil {
			return names, err
		}
		if err := portmap.WritePMEvoMapping(prefix+".pmevo.json", r.Mapping); err != nil {
			return names, err
		}
		names = append(names, prefix+".json", prefix+".pmevo.json")
	}
	if r.Report == nil {
		return names, nil
	}
	more, err := r.Report.WriteFiles(prefix)
	names = append(names, more...)
	if err != nil {
		return names, err
	}
	for _, n := range more {
		if n == prefix+".report.json" {
			return names, nil
		}
	}
	data, err := marshalReport(r)
	if err != nil {
		return names, err
	}
	if err := os.WriteFile(prefix+".report.json", data, 0o644); err != nil {
		return names, err
	}
	names = append(names, prefix+".report.json")
	return names, nil
}

// Infer runs method m on problem p with settings s (nil: the defaults).
// Before the method asks anything it checks m's configuration (Validate)
// and p, fills in the instructions from p.Data when they are not given,
// answers from a replay of p.Data when the method asks and there is no
// oracle, names the ports "0", "1", … when p names none, and switches on
// the oracle's counters the method reads (Needs), refusing with an error
// that says what is missing otherwise. It counts and limits the oracle's
// queries, limits and times the run, and sets the result's Status. When
// ctx is cancelled it returns the method's best result (if any) together
// with ctx's error; a run stopped by s's limits returns its best result
// without error. A run that ends without a result returns a *StopError.
func Infer(ctx context.Context, p Problem, m Method, s *Settings) (*Result, error) {
	run := Settings{}
	if s != nil {
		run = *s
	}
	if err := prologue(&p, m, &run, m.Uses()); err != nil {
		return nil, err
	}
	var counter *oracle.Counter
	if p.Oracle != nil {
		counter = oracle.Count(p.Oracle)
		p.Oracle = counter
	}
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if run.TimeLimit > 0 {
		var stop context.CancelFunc
		rctx, stop = context.WithTimeoutCause(rctx, run.TimeLimit, ErrTimeLimit)
		defer stop()
	}
	if run.MaxQueries > 0 && p.Oracle != nil {
		p.Oracle = &budget{inner: p.Oracle, left: run.MaxQueries, stop: func() { cancel(ErrQueryLimit) }}
	}
	run.start = time.Now()
	r, err := m.Infer(rctx, &p, &run)
	elapsed := time.Since(run.start)
	st, err := stopped(ctx, rctx, r, err)
	if r == nil || r.Mapping == nil && r.Predictor == nil {
		if err == nil {
			err = fmt.Errorf("infer %s: no result", m.Name())
		}
		return nil, &StopError{Method: m.Name(), Status: st, Err: err}
	}
	r.Method, r.Elapsed, r.Status = m.Name(), elapsed, st
	if counter != nil {
		r.Queries, r.Distinct = counter.Queries(), counter.Distinct()
	}
	if p.Data != nil {
		r.Data = p.Data.Len()
	}
	if r.Predictor == nil && r.Mapping != nil {
		mp := oracle.FromMapping(r.Mapping)
		mp.FrontEnd.InstructionsPerCycle = p.InstructionsPerCycle
		r.Predictor = mp
	}
	return r, err
}

// prologue checks and completes p for m (see Infer).
func prologue(p *Problem, m Method, s *Settings, needs Needs) error {
	name := m.Name()
	if c, ok := m.(Configured); ok {
		if err := Validate(c.Configuration()); err != nil {
			return fmt.Errorf("infer %s: %w", name, err)
		}
	}
	if s.Workers < 0 {
		return fmt.Errorf("infer %s: %d workers, want ≥ 0 (0: all cores)", name, s.Workers)
	}
	if s.TimeLimit < 0 || s.MaxQueries < 0 {
		return fmt.Errorf("infer %s: negative limit (time %v, queries %d), want ≥ 0 (0: none)", name, s.TimeLimit, s.MaxQueries)
	}
	if p.Oracle == nil && p.Data == nil {
		return fmt.Errorf("infer %s: the problem has neither an oracle nor data", name)
	}
	if p.Oracle == nil && needs.Queries {
		p.Oracle = oracle.NewReplay("the problem's data", p.Data)
	}
	if len(p.Instructions) == 0 && p.Data != nil {
		p.Instructions = instructionsOf(p.Data)
	}
	if len(p.Instructions) == 0 {
		return fmt.Errorf("infer %s: no instructions to map", name)
	}
	if p.Ports < 0 || p.Ports > portmap.MaxPorts {
		return fmt.Errorf("infer %s: %d ports, want 0 to %d", name, p.Ports, portmap.MaxPorts)
	}
	if p.Ports == 0 && needs.Ports {
		return fmt.Errorf("%s: the number of ports is required (Problem.Ports; portlab infer -ports)", name)
	}
	if p.PortNames != nil && len(p.PortNames) != p.Ports {
		return fmt.Errorf("infer %s: %d port names for %d ports", name, len(p.PortNames), p.Ports)
	}
	if p.PortNames == nil && p.Ports > 0 {
		p.PortNames = PortNames(p.Ports)
	}
	if needs.UopCounter {
		if err := countUops(p.Oracle); err != nil {
			return fmt.Errorf("%s needs the µop counter (a total µop counter, portmap.Measurement.Uops): %w; %s", name, err, pmu.Detect().Advice())
		}
	}
	if needs.PortCounters {
		if err := countPortUops(p.Oracle); err != nil {
			return fmt.Errorf("%s reads per-port µop counts (portmap.Measurement.PortUops): %w; simulate instead (oracle.SimulateWithPortCounters; portlab infer -simulate M) or replay measurements made with them (portlab infer -experiments)", name, err)
		}
	}
	return nil
}

// countUops switches o's µop counter on.
func countUops(o oracle.Oracle) error {
	if c, ok := o.(oracle.UopCounter); ok {
		return c.CountUops()
	}
	return fmt.Errorf("%w: %s answers cycles only", oracle.ErrNoUopCounter, oracle.NameOf(o))
}

// countPortUops switches o's per-port µop counters on.
func countPortUops(o oracle.Oracle) error {
	if c, ok := o.(oracle.PortUopCounter); ok {
		return c.CountPortUops()
	}
	return fmt.Errorf("%w: %s reads no per-port µop counters (model-specific events portlab does not program); this host: %v", oracle.ErrNoPortCounters, oracle.NameOf(o), pmu.Detect())
}

// PortNames returns the default names of n ports: "0", "1", ….
func PortNames(n int) []string {
	names := make([]string, n)
	for k := range names {
		names[k] = strconv.Itoa(k)
	}
	return names
}

// instructionsOf returns the instructions of s in order of appearance.
func instructionsOf(s *portmap.ExperimentSet) []string {
	if s.Arch != nil && s.Arch.NumInstructions() > 0 {
		return s.Arch.Instructions()
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range s.Measurements {
		for _, it := range m.Experiment.Items() {
			if !seen[it.Insn] {
				seen[it.Insn] = true
				out = append(out, it.Insn)
			}
		}
	}
	return out
}

var registry = struct {
	sync.Mutex
	m map[string]func() Method
}{m: map[string]func() Method{}}

// Register makes a method available by name to New and the command line;
// newMethod returns a fresh method with its default settings. It panics
// when name is registered twice (a programming error).
func Register(name string, newMethod func() Method) {
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.m[name]; dup {
		panic("infer: method " + name + " registered twice")
	}
	registry.m[name] = newMethod
}

// ErrUnknownMethod is wrapped by New's error for a name nobody registered.
var ErrUnknownMethod = errors.New("unknown inference method")

// New returns a fresh method registered under name, with its defaults.
func New(name string) (Method, error) {
	registry.Lock()
	defer registry.Unlock()
	if f, ok := registry.m[name]; ok {
		return f(), nil
	}
	return nil, fmt.Errorf("infer: %w %q (have %s)", ErrUnknownMethod, name, strings.Join(methods(), ", "))
}

// Methods returns the registered methods' names, sorted.
func Methods() []string {
	registry.Lock()
	defer registry.Unlock()
	return methods()
}

func methods() []string {
	var out []string
	for n := range registry.m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
