package infer

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Problem is what an inference method is asked to solve.
type Problem struct {
	// Oracle answers the experiments a method asks for: the host's
	// hardware (measure.Hardware, or a measure.Campaign around it), a
	// simulation (oracle.Simulate) or a replay of stored data. It may be
	// nil when Data is given and the method needs nothing else.
	Oracle oracle.Oracle
	// Data, when not nil, holds measurements made before (a finished
	// campaign, a data set); methods learn from them instead of, or before,
	// asking the oracle.
	Data *portmap.ExperimentSet
	// Instructions are the instructions to map; empty means every
	// instruction of Data.
	Instructions []string
	// Ports is the number of execution ports to infer a mapping over, and
	// PortNames optionally names them (default "0", "1", …). Methods that
	// find the number themselves accept 0.
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
	// parallelism (0: GOMAXPROCS). Results must not depend on Workers.
	Seed    uint64
	Workers int
	// Progress, when set, receives the method's progress.
	Progress func(Status)
}

// Status reports an inference run's progress.
type Status struct {
	Stage       string // e.g. "measuring", "generation", "local search"
	Done, Total int    // progress within the stage; Total 0 when unknown
	Message     string // a line for a progress display
	Elapsed     time.Duration
}

// Method is an inference algorithm.
type Method interface {
	// Name is the method's name as Register and the command line know it.
	Name() string
	// Infer solves p. It asks p.Oracle for measurements (never another
	// oracle, so that Infer can count them), reports progress through
	// s.Progress, and when ctx is cancelled returns the best result it has
	// together with ctx's error. It leaves Method, Queries and Elapsed of
	// the result to Infer.
	Infer(ctx context.Context, p *Problem, s *Settings) (*Result, error)
}

// FlagSetter is implemented by methods whose settings the command line can
// set: SetFlags defines one flag per setting on fs, bound to the method.
type FlagSetter interface {
	SetFlags(fs *flag.FlagSet)
}

// PortCounterUser is implemented by methods that read per-port µop counts
// (portmap.Measurement.PortUops) from the problem's oracle, such as
// uops.info's blocking-instruction algorithm (package infer/uopsinfo).
// Whoever builds the oracle turns the counters on for them where it can
// (the command line's -simulate does, see oracle.Simulated); other methods
// need not pay for them.
type PortCounterUser interface {
	UsesPortCounters() bool
}

// UopCounterUser is implemented by methods that read the total µop count
// (portmap.Measurement.Uops), such as the explainable method (package
// infer/explainable). Whoever builds a hardware oracle turns its µop
// counter on for them (measure.Hardware.CountUops), or stops with the
// error that says why it cannot.
type UopCounterUser interface {
	UsesUopCounter() bool
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
	// Report is the method's own account of the run (its statistics, trace
	// or per-instruction explanations); it renders itself.
	Report any
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
	return b.String()
}

// WriteFiles saves the result as PREFIX.json (portlab's mapping format),
// PREFIX.pmevo.json (PMEvo's Mapping3) and PREFIX.report.json (the report
// as JSON), and returns the names written.
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
	if w, ok := r.Report.(interface {
		WriteFiles(prefix string) ([]string, error)
	}); ok {
		more, err := w.WriteFiles(prefix)
		return append(names, more...), err
	}
	if r.Report != nil {
		data, err := marshalReport(r)
		if err != nil {
			return names, err
		}
		if err := os.WriteFile(prefix+".report.json", data, 0o644); err != nil {
			return names, err
		}
		names = append(names, prefix+".report.json")
	}
	return names, nil
}

// Infer runs method m on problem p: it checks p, fills in the instructions
// from p.Data when they are not given, counts the oracle's queries, and
// times the run. When ctx is cancelled it returns the method's best result
// (if any) together with ctx's error.
func Infer(ctx context.Context, p Problem, m Method, s *Settings) (*Result, error) {
	if s == nil {
		s = &Settings{}
	}
	if p.Oracle == nil && p.Data == nil {
		return nil, fmt.Errorf("infer %s: the problem has neither an oracle nor data", m.Name())
	}
	if len(p.Instructions) == 0 && p.Data != nil {
		p.Instructions = instructionsOf(p.Data)
	}
	if len(p.Instructions) == 0 {
		return nil, fmt.Errorf("infer %s: no instructions to map", m.Name())
	}
	if p.Ports < 0 || p.Ports > portmap.MaxPorts {
		return nil, fmt.Errorf("infer %s: %d ports, want 0 to %d", m.Name(), p.Ports, portmap.MaxPorts)
	}
	if p.PortNames != nil && len(p.PortNames) != p.Ports {
		return nil, fmt.Errorf("infer %s: %d port names for %d ports", m.Name(), len(p.PortNames), p.Ports)
	}
	var counter *oracle.Counter
	if p.Oracle != nil {
		counter = oracle.Count(p.Oracle)
		p.Oracle = counter
	}
	start := time.Now()
	r, err := m.Infer(ctx, &p, s)
	if r == nil {
		if err == nil {
			err = fmt.Errorf("infer %s: no result", m.Name())
		}
		return nil, err
	}
	r.Method, r.Elapsed = m.Name(), time.Since(start)
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
