package llvmmca

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/operands"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// ErrNotFound is wrapped by the error of Find (and so of Predict)
// when no llvm-mca executable is found.
var ErrNotFound = errors.New("llvm-mca not found on PATH (install Debian's llvm or conda's llvm-tools)")

// Metric selects the number a Predictor reads from llvm-mca's summary.
type Metric int

const (
	// TotalCycles is "Total Cycles" / "Iterations": the cycles per
	// iteration of llvm-mca's simulation of the loop. This is how the PMEvo
	// authors used llvm-mca: their iwho wrapper divides Total Cycles by the
	// 100 iterations, and the stored llvm-mca values of the PMEvo data are
	// such quotients divided by 2 copies (this methodology reproduces most
	// stored Cortex-A72 values to within 3 %). It includes the loop-carried
	// dependencies of the body and the pipeline fill, a few cycles in all,
	// whose share per iteration shrinks as Iterations grows.
	TotalCycles Metric = iota
	// BlockRThroughput is llvm-mca's "Block RThroughput": the static bound
	// of the body's resource pressure, ignoring dependencies and the
	// simulation — llvm-mca's own port-mapping bound.
	BlockRThroughput
)

func (m Metric) String() string {
	switch m {
	case TotalCycles:
		return "Total Cycles"
	case BlockRThroughput:
		return "Block RThroughput"
	}
	return "Metric(" + strconv.Itoa(int(m)) + ")"
}

// Predictor is the peer llvm-mca, LLVM's machine code analyzer, run as a
// subprocess: an oracle.Predictor. Each experiment becomes a loop body: its instructions in
// round-robin order ({a ↦ 2, b ↦ 1} is a, b, a), repeated Copies times and
// instantiated by operands.Instantiate (thesis Algorithm 3.1: operands
// allocated without read-after-write dependencies where possible, memory
// addressed through r14 on x86-64 and x28 on AArch64). Many experiments go
// to one llvm-mca run as code regions, several runs in parallel. The
// prediction is the Metric of the experiment's region divided by the number
// of copies: cycles per execution of the experiment's multiset.
//
// The zero value needs CPU set; New fills in the defaults. Change
// the fields before Predict, not while it runs.
type Predictor struct {
	// Binary is the llvm-mca executable, a path or a name looked up on PATH;
	// empty means the first found by Find.
	Binary string
	// CPU is llvm-mca's -mcpu: "skylake", "icelake-server", "znver1" (Zen+),
	// "znver3", "cortex-a72". It is required: llvm-mca's default, the host,
	// would make predictions depend on the machine they are made on.
	CPU string
	// Iterations is llvm-mca's -iterations (0: 100, llvm-mca's default and
	// PMEvo's).
	Iterations int
	// Copies is the number of copies of the experiment in the loop body.
	// 0 means round(BodySize / |e|), at least 1, as the hardware benchmarker
	// does (measure.Hardware).
	Copies int
	// BodySize is the loop body length the default Copies aims at (0: 10,
	// PMEvo's methodology: two copies of its 5-instruction experiments,
	// so that the allocation avoids loop-carried dependencies).
	BodySize int
	// Metric is the number read from the summary (default TotalCycles).
	Metric Metric
	// Args are further llvm-mca arguments, e.g. "-dispatch=4".
	Args []string
	// BatchSize bounds the experiments per llvm-mca run (0: 200); Parallel
	// the runs at a time (0: runtime.NumCPU()).
	BatchSize, Parallel int
	// Progress, when set, is called after each run with the number of
	// experiments done and the total, from one goroutine at a time.
	Progress func(done, total int)
	probeMu  sync.Mutex
	probed   map[string]error // probe results by binary, ISA and arguments

	// Timeout bounds one llvm-mca run (0: DefaultTimeout). A run that
	// takes longer is killed and its regions are run again one at a time;
	// a region that times out alone fails with a message saying so, as a
	// crash does, and the others are predicted.
	Timeout time.Duration
}

// DefaultTimeout bounds an llvm-mca run when Predictor.Timeout is 0: far
// more than the few seconds a batch of hundreds of small regions takes.
const DefaultTimeout = 5 * time.Minute

// aloneAtATime bounds the regions of a timed-out run that are run again
// alone at the same time.
const aloneAtATime = 8

// New returns the llvm-mca predictor for the CPU (llvm-mca's -mcpu)
// with PMEvo's settings: the llvm-mca found on PATH, 100 iterations, bodies
// of about 10 instructions, Total Cycles per iteration.
func New(cpu string) *Predictor { return &Predictor{CPU: cpu} }

// Name returns "llvm-mca -mcpu=CPU", followed by the metric when it is not
// TotalCycles.
func (p *Predictor) Name() string {
	n := "llvm-mca -mcpu=" + p.CPU
	if p.Metric != TotalCycles {
		n += " (" + p.Metric.String() + ")"
	}
	return n
}

// Find returns the path of the first of llvm-mca, llvm-mca-21, …,
// llvm-mca-10 found on PATH, or an error wrapping ErrNotFound.
func Find() (string, error) {
	names := []string{"llvm-mca"}
	for v := 21; v >= 10; v-- {
		names = append(names, "llvm-mca-"+strconv.Itoa(v))
	}
	for _, n := range names {
		if path, err := exec.LookPath(n); err == nil {
			return path, nil
		}
	}
	return "", ErrNotFound
}

func (p *Predictor) binary() (string, error) {
	if p.Binary == "" {
		return Find()
	}
	path, err := exec.LookPath(p.Binary)
	if err != nil {
		return "", fmt.Errorf("llvm-mca binary %q: %w", p.Binary, err)
	}
	return path, nil
}

var errUnknownCPU = errors.New("llvm-mca: unknown CPU")

var versionRE = regexp.MustCompile(`LLVM version (\S+)`)

// Version returns the LLVM version of the binary, e.g. "14.0.6".
func (p *Predictor) Version(ctx context.Context) (string, error) {
	bin, err := p.binary()
	if err != nil {
		return "", err
	}
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	m := versionRE.FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("%s --version: no LLVM version in %q", bin, firstLine(string(out)))
	}
	return string(m[1]), nil
}

// mcaJob is one distinct experiment of a Predict call.
type mcaJob struct {
	exp    portmap.Experiment
	at     []int // its indices in the input
	isa    string
	lines  []string // the loop body
	insns  []string // for each line, the experiment's instruction it instantiates
	copies int

	done   bool
	value  float64
	insn   string // failure: instruction at fault
	reason string // failure: why
}

func (j *mcaJob) fail(insn, reason string) {
	j.done, j.insn, j.reason = true, insn, reason
}

func (j *mcaJob) succeed(v float64) {
	j.done, j.value = true, v
}

// Source returns the llvm-mca input for e alone (one code region) and the
// number of copies of e in its loop body, for inspection or to run llvm-mca
// by hand.
func (p *Predictor) Source(e portmap.Experiment) (string, int, error) {
	j := p.job(e, map[string]isa.Form{})
	if j.done {
		if j.insn != "" {
			return "", 0, fmt.Errorf("%v: instruction %q: %s", e, j.insn, j.reason)
		}
		return "", 0, fmt.Errorf("%v: %s", e, j.reason)
	}
	src, _ := source([]*mcaJob{j})
	return src, j.copies, nil
}

// job builds the loop body of e; a job that cannot be built is returned
// done with the reason.
func (p *Predictor) job(e portmap.Experiment, forms map[string]isa.Form) *mcaJob {
	j := &mcaJob{exp: e}
	if e.Len() == 0 {
		j.fail("", "empty experiment")
		return j
	}
	items := e.Items()
	var seq []isa.Form
	var names []string
	for left := true; left; {
		left = false
		for i := range items {
			if items[i].Count == 0 {
				continue
			}
			f, ok := forms[items[i].Insn]
			if !ok {
				var err error
				if f, err = isa.ParseName(items[i].Insn); err != nil {
					j.fail(items[i].Insn, err.Error())
					return j
				}
				forms[items[i].Insn] = f
			}
			switch {
			case j.isa == "":
				j.isa = f.ISA
			case j.isa != f.ISA:
				j.fail(items[i].Insn, fmt.Sprintf("an %s instruction in an %s experiment", f.ISA, j.isa))
				return j
			}
			seq, names = append(seq, f), append(names, items[i].Insn)
			items[i].Count--
			left = left || items[i].Count > 0
		}
	}
	j.copies = p.Copies
	if j.copies <= 0 {
		size := p.BodySize
		if size <= 0 {
			size = 10
		}
		j.copies = max(1, int(math.Round(float64(size)/float64(len(seq)))))
	}
	body := make([]isa.Form, 0, j.copies*len(seq))
	for range j.copies {
		body = append(body, seq...)
		j.insns = append(j.insns, names...)
	}
	instantiate := operands.Instantiate
	if j.isa == isa.AArch64 {
		instantiate = operands.InstantiateAArch64
	}
	lines, err := instantiate(body)
	if err != nil {
		j.fail("", "cannot instantiate operands: "+err.Error())
		return j
	}
	j.lines = lines
	return j
}

// triple returns llvm-mca's -mtriple for an ISA.
func triple(arch string) string {
	if arch == isa.AArch64 {
		return "aarch64-unknown-linux-gnu"
	}
	return "x86_64-unknown-linux-gnu"
}

// source writes the llvm-mca input for jobs of one ISA: region "eK" holds
// jobs[K]. at maps a 1-based input line to its job and body line.
func source(jobs []*mcaJob) (string, map[int][2]int) {
	var b strings.Builder
	at := map[int][2]int{}
	line := 0
	emit := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
		line++
	}
	if len(jobs) > 0 && jobs[0].isa == isa.X86 {
		emit(".intel_syntax noprefix")
	}
	for k, j := range jobs {
		emit("# LLVM-MCA-BEGIN e" + strconv.Itoa(k))
		for i, l := range j.lines {
			emit(l)
			at[line] = [2]int{k, i}
		}
		emit("# LLVM-MCA-END")
	}
	return b.String(), at
}

// Predict returns llvm-mca's inverse throughputs of exps; see Predictor
// for the experiments it cannot predict: instruction names that do not
// parse, instructions llvm-mca rejects (with its message and the line) or
// has no scheduling information for on CPU. Each distinct experiment is
// analysed once. Predict stops with ctx's error when ctx is cancelled,
// killing the running llvm-mca processes.
func (p *Predictor) Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error) {
	if p.CPU == "" {
		return nil, errors.New("llvm-mca: CPU (-mcpu) not set, e.g. \"skylake\"")
	}
	bin, err := p.binary()
	if err != nil {
		return nil, err
	}
	forms := map[string]isa.Form{}
	byKey := map[string]*mcaJob{}
	var jobs []*mcaJob
	for i, e := range exps {
		k := e.Key()
		j, ok := byKey[k]
		if !ok {
			j = p.job(e, forms)
			byKey[k] = j
			jobs = append(jobs, j)
		}
		j.at = append(j.at, i)
	}

	// Group by ISA, probe llvm-mca once per ISA, and cut batches.
	var batches [][]*mcaJob
	size := p.BatchSize
	if size <= 0 {
		size = 200
	}
	par := p.Parallel
	if par <= 0 {
		par = runtime.NumCPU()
	}
	var cpuErr error
	for _, a := range []string{isa.X86, isa.AArch64} {
		var list []*mcaJob
		for _, j := range jobs {
			if !j.done && j.isa == a {
				list = append(list, j)
			}
		}
		if len(list) == 0 {
			continue
		}
		if err := p.probe(ctx, bin, a); errors.Is(err, errUnknownCPU) {
			// Experiments of another ISA than the CPU's are unsupported;
			// a CPU of no ISA present is an error.
			cpuErr = err
			for _, j := range list {
				j.fail("", fmt.Sprintf("llvm-mca -mcpu=%s is not a CPU of %s", p.CPU, a))
			}
			continue
		} else if err != nil {
			return nil, err
		}
		n := min(size, (len(list)+par-1)/par)
		for len(list) > 0 {
			k := min(n, len(list))
			batches = append(batches, list[:k])
			list = list[k:]
		}
	}

	if len(batches) == 0 && cpuErr != nil {
		return nil, cpuErr
	}

	// Run the batches on par workers.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan []*mcaJob)
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
	)
	total := len(exps)
	for _, j := range jobs {
		if j.done {
			done += len(j.at) // built with a failure: nothing to run
		}
	}
	for range min(par, len(batches)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				err := p.run(ctx, bin, b)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				if err == nil {
					for _, j := range b {
						done += len(j.at)
					}
					if p.Progress != nil {
						p.Progress(done, total)
					}
				}
				mu.Unlock()
			}
		}()
	}
send:
	for _, b := range batches {
		select {
		case work <- b:
		case <-ctx.Done():
			break send
		}
	}
	close(work)
	wg.Wait()
	if len(batches) == 0 && p.Progress != nil {
		p.Progress(done, total)
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	values := make([]float64, len(exps))
	var failures []portmap.Failure
	for _, j := range jobs {
		for _, i := range j.at {
			if f, failed := j.failure(i); failed {
				failures = append(failures, f)
				continue
			}
			values[i] = j.value
		}
	}
	return oracle.Unsupported(p.Name(), values, failures)
}

func (p *Predictor) args(arch string) []string {
	it := p.Iterations
	if it <= 0 {
		it = 100
	}
	a := []string{"-mtriple=" + triple(arch), "-mcpu=" + p.CPU, "-iterations=" + strconv.Itoa(it),
		"-resource-pressure=false", "-instruction-info=false"}
	a = append(a, p.Args...)
	return append(a, "-")
}

// probe checks that llvm-mca runs and knows the CPU for the ISA's target:
// llvm-mca only warns about an unknown CPU and then models a generic one.
func (p *Predictor) probe(ctx context.Context, bin, arch string) error {
	key := bin + "\x00" + arch + "\x00" + strings.Join(p.args(arch), "\x00")
	p.probeMu.Lock()
	defer p.probeMu.Unlock()
	if err, ok := p.probed[key]; ok {
		return err
	}
	err := p.probeOnce(ctx, bin, arch)
	// An answer of llvm-mca is kept; a cancelled or timed-out probe is
	// tried again next time.
	if err == nil || errors.Is(err, errUnknownCPU) {
		if p.probed == nil {
			p.probed = map[string]error{}
		}
		p.probed[key] = err
	}
	return err
}

func (p *Predictor) probeOnce(ctx context.Context, bin, arch string) error {
	src := ".intel_syntax noprefix\nadd rax, rcx\n"
	if arch == isa.AArch64 {
		src = "add x0, x1, x2\n"
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, bin, p.args(arch)...)
	cmd.Stdin = strings.NewReader(src)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if runCtx.Err() != nil {
		return fmt.Errorf("llvm-mca: %s: no answer for one instruction within %v", bin, timeout)
	}
	if strings.Contains(stderr.String(), "is not a recognized processor") {
		return fmt.Errorf("%w: -mcpu=%s is not a processor of target %s (see %s -mtriple=%s -mcpu=help)", errUnknownCPU, p.CPU, triple(arch), bin, triple(arch))
	}
	if err != nil || !strings.Contains(stdout.String(), "Total Cycles:") {
		return fmt.Errorf("llvm-mca: %s %s: %v: %s", bin, strings.Join(p.args(arch), " "), err, firstLine(stderr.String()))
	}
	return nil
}

var (
	regionRE   = regexp.MustCompile(`^\[\d+\] Code Region - e(\d+)$`)
	lineErrRE  = regexp.MustCompile(`^<stdin>:(\d+):\d+: error: (.*)$`)
	noteInsnRE = regexp.MustCompile(`^note: instruction:\s*(.*)$`)
)

// regionResult is what llvm-mca printed for one region.
type regionResult struct {
	iterations, totalCycles float64
	rthroughput             float64
	haveIt, haveTC, haveRT  bool
}

// parseOutput reads the summary of each region from llvm-mca's output.
func parseOutput(out string) map[int]*regionResult {
	res := map[int]*regionResult{}
	var cur *regionResult
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if m := regionRE.FindStringSubmatch(line); m != nil {
			k, _ := strconv.Atoi(m[1])
			cur = &regionResult{}
			res[k] = cur
			continue
		}
		if cur == nil {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			continue
		}
		switch key {
		case "Iterations":
			cur.iterations, cur.haveIt = v, true
		case "Total Cycles":
			cur.totalCycles, cur.haveTC = v, true
		case "Block RThroughput":
			cur.rthroughput, cur.haveRT = v, true
		}
	}
	return res
}

// run analyses a batch of jobs of one ISA. Instructions llvm-mca cannot
// parse are reported with line numbers and dropped from their region, so
// those regions fail and the others stand. An instruction without
// scheduling information ends the run at its region: the regions before it
// stand, it fails, and the rest is run again.
func (p *Predictor) run(ctx context.Context, bin string, jobs []*mcaJob) error {
	for len(jobs) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		src, at := source(jobs)
		timeout := p.Timeout
		if timeout <= 0 {
			timeout = DefaultTimeout
		}
		runCtx, cancel := context.WithTimeout(ctx, timeout)
		cmd := exec.CommandContext(runCtx, bin, p.args(jobs[0].isa)...)
		cmd.Stdin = strings.NewReader(src)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		// A killed llvm-mca (a wrapper's children may hold its pipes) is
		// waited for no longer than this.
		cmd.WaitDelay = time.Second
		runErr := cmd.Run()
		timedOut := runCtx.Err() != nil
		cancel()
		if err := ctx.Err(); err != nil {
			return err
		}
		if timedOut {
			if len(jobs) == 1 {
				jobs[0].fail("", fmt.Sprintf("llvm-mca -mcpu=%s timed out after %v", p.CPU, timeout))
				return nil
			}
			// Which region hangs is unknown: run each alone, several at a
			// time, so that regions that all hang cost one more timeout,
			// not one each.
			sem := make(chan struct{}, aloneAtATime)
			errs := make([]error, len(jobs))
			var wg sync.WaitGroup
			for k, j := range jobs {
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer wg.Done()
					errs[k] = p.run(ctx, bin, []*mcaJob{j})
					<-sem
				}()
			}
			wg.Wait()
			return errors.Join(errs...)
		}
		var exitErr *exec.ExitError
		if runErr != nil && !errors.As(runErr, &exitErr) {
			return fmt.Errorf("llvm-mca: %s: %w", bin, runErr)
		}

		// Instructions llvm-mca could not parse.
		var other []string // error lines without a position
		var note string
		for _, line := range strings.Split(stderr.String(), "\n") {
			if m := lineErrRE.FindStringSubmatch(line); m != nil {
				n, _ := strconv.Atoi(m[1])
				if pos, ok := at[n]; ok && !jobs[pos[0]].done {
					j := jobs[pos[0]]
					j.fail(j.insns[pos[1]], fmt.Sprintf("llvm-mca rejects %q: %s", j.lines[pos[1]], m[2]))
				}
				continue
			}
			if m := noteInsnRE.FindStringSubmatch(line); m != nil {
				note = m[1]
				continue
			}
			if strings.HasPrefix(line, "error: ") {
				other = append(other, strings.TrimPrefix(line, "error: "))
			}
		}

		results := parseOutput(stdout.String())
		for k, j := range jobs {
			r, ok := results[k]
			if j.done || !ok {
				continue
			}
			v, okv := p.value(r, j.copies)
			if !okv {
				return fmt.Errorf("llvm-mca: no %s in the output for %v", p.Metric, j.exp)
			}
			j.succeed(v)
		}
		if runErr == nil {
			for _, j := range jobs {
				if !j.done {
					j.fail("", "llvm-mca printed no result for it")
				}
			}
			return nil
		}

		// The run failed at the first region without a result.
		k := 0
		for k < len(jobs) && jobs[k].done {
			k++
		}
		if k == len(jobs) {
			return nil // every region accounted for
		}
		j := jobs[k]
		msg := strings.Join(other, "; ")
		if msg == "" {
			msg = fmt.Sprintf("%v: %s", runErr, firstLine(stderr.String()))
		}
		insn := -1
		if note != "" {
			want := normalize(note)
			for i, l := range j.lines {
				if normalize(l) == want {
					insn = i
					break
				}
			}
		}
		switch {
		case insn >= 0:
			j.fail(j.insns[insn], fmt.Sprintf("llvm-mca -mcpu=%s cannot analyse %q: %s", p.CPU, j.lines[insn], msg))
		case len(jobs) == 1:
			if note != "" {
				msg += fmt.Sprintf(" (instruction %q)", strings.TrimSpace(note))
			}
			j.fail("", "llvm-mca: "+msg)
		default:
			// Not sure the region is at fault: confirm it alone.
			if err := p.run(ctx, bin, jobs[k:k+1]); err != nil {
				return err
			}
		}
		var rest []*mcaJob
		for _, j := range jobs[k+1:] {
			if !j.done {
				rest = append(rest, j)
			}
		}
		jobs = rest
	}
	return nil
}

// value returns the prediction for a region: the metric per iteration,
// divided by the copies.
func (p *Predictor) value(r *regionResult, copies int) (float64, bool) {
	switch p.Metric {
	case BlockRThroughput:
		return r.rthroughput / float64(copies), r.haveRT
	default:
		if !r.haveIt || !r.haveTC || r.iterations <= 0 {
			return 0, false
		}
		return r.totalCycles / r.iterations / float64(copies), true
	}
}

// normalize drops white space and case, so that llvm-mca's printing of an
// instruction ("vaddps\tzmm1, zmm2, [r14 + 64]") matches ours.
func normalize(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), ""))
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// failure returns the failure of experiment i when the job has no value:
// llvm-mca's reason, or "not analysed" when its region gave no result.
func (j *mcaJob) failure(i int) (portmap.Failure, bool) {
	if j.done && j.reason == "" {
		return portmap.Failure{}, false
	}
	r := j.reason
	if r == "" {
		r = "not analysed"
	}
	return portmap.Failure{Index: i, Experiment: j.exp, Insn: j.insn, Reason: r}, true
}
