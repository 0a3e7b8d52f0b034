package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/predict/llvmmca"
	"github.com/portlab/portlab/lib/resource"
	"github.com/portlab/portlab/lib/source"
)

const predictUsage = `portlab predict — predict inverse throughputs with a port mapping or a peer tool

  portlab predict -mapping M -experiments E [-ipc R] [-out FILE]
  portlab predict -mapping R.resources.json -experiments E [-out FILE]
  portlab predict -peer llvm-mca [-mcpu CPU] -experiments E
  portlab predict -blocks FILE [-machine M] [-peer llvm-mca -mcpu CPU] [-per N] [-aliasing same-buffer]

When the experiments are measured, the predictions are compared with them
(MAPE, median APE, Pearson, Kendall τ-b). M is a port mapping (file or
data-set name) or a resource mapping file as infer palmed writes it
(PREFIX.resources.json); experiments a predictor cannot
predict are left out and counted below the table. A predictor that
predicts none of them is an error.

With -blocks, basic blocks and loop bodies are predicted in cycles per
iteration: by the simulator on machine M (a built-in machine such as
portlab:zenplus-like, a machine file, or a mapping name such as
uops.info:ZEN3, whose forms then take default latencies) and by llvm-mca.
FILE is a BHive-style CSV file (hex,cycles a line, cycles per -per
iterations, empty when not measured) or an assembly file of one block.
Every block's prediction is printed, the blocks a predictor cannot predict
are listed with the reason, and when blocks carry measured cycles the
predictions are compared with them. -aliasing same-buffer makes the
simulator compare addresses as a block benchmark (BHive's, portlab measure
-blocks) runs them: every base register at one address, indexes at 0.

`

func cmdPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mapping := fs.String("mapping", "", "mapping file or data-set name")
	exps := fs.String("experiments", "", "experiment file or data-set name")
	blocks := fs.String("blocks", "", "predict the blocks of this file (BHive-style CSV or assembly) instead of experiments")
	mach := fs.String("machine", "", "with -blocks: the simulated machine (built-in name, machine file or mapping name)")
	per := fs.Float64("per", 1, "with -blocks: iterations the CSV file's cycles are for (100 for BHive's files)")
	aliasing := fs.String("aliasing", "expression", "with -blocks: which stores a load reads, by address expression or, as measured blocks run, with every base register at one address (same-buffer)")
	ipc := fs.Float64("ipc", 0, "front-end bound in instructions per cycle (0: none)")
	out := fs.String("out", "", "write the predictions as a portlab experiment file")
	peer := fs.String("peer", "", "also predict with a peer tool: llvm-mca")
	mcpu := fs.String("mcpu", "", "the peer's CPU, e.g. skylake, icelake-server, znver1, cortex-a72, or host (the closest model llvm-mca has for this machine)")
	mcaBin := fs.String("llvm-mca", "", "the llvm-mca executable (default: llvm-mca or llvm-mca-NN on PATH)")
	fs.Usage = func() { fmt.Fprint(stderr, predictUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *blocks != "" {
		switch {
		case *exps != "":
			return fmt.Errorf("predict: give -blocks or -experiments, not both")
		case *mapping != "":
			return fmt.Errorf("predict -blocks: name the simulated machine with -machine, not -mapping")
		case *out != "" || *ipc != 0:
			return fmt.Errorf("predict -blocks: -out and -ipc are for experiments")
		}
		return predictBlocks(ctx, blockArgs{file: *blocks, machine: *mach, per: *per, peer: *peer, mcpu: *mcpu, mcaBin: *mcaBin, aliasing: *aliasing}, stdout, stderr)
	}
	if *mach != "" {
		return fmt.Errorf("predict: -machine is for -blocks; experiments take -mapping")
	}
	if (*mapping == "" && *peer == "") || *exps == "" {
		return fmt.Errorf("predict needs -experiments and -mapping or -peer, or -blocks and -machine or -peer")
	}
	switch {
	case *peer != "" && *peer != "llvm-mca":
		return fmt.Errorf("unknown -peer %q (want llvm-mca)", *peer)
	case *peer == "llvm-mca" && *mcpu == "":
		cpu, ok := mcpuOf(*exps)
		if !ok {
			return fmt.Errorf("-peer llvm-mca: -experiments %q is no data set whose CPU portlab knows; give -mcpu, e.g. -mcpu skylake (or host)", *exps)
		}
		*mcpu = cpu
		fmt.Fprintf(stderr, "llvm-mca: -mcpu %s, the CPU of %s (give -mcpu to choose another)\n", cpu, *exps)
	}
	src, err := source.ParseExperiments(*exps)
	if err != nil {
		return flagError("experiments", err)
	}
	if src.NeedsTruth() {
		return fmt.Errorf("-experiments %q: random experiments need a truth to be measured with; predict reads experiment files and data sets", *exps)
	}
	var m *portmap.Mapping
	var rm *resource.Mapping // a resource mapping (palmed's PREFIX.resources.json)
	if *mapping != "" {
		mach, err := machine.Lookup(*mapping) // a machine's mapping, or any mapping dataset.Mapping reads
		if err != nil {
			if fi, serr := os.Stat(*mapping); serr != nil || !fi.Mode().IsRegular() {
				return err
			}
			r, rerr := resource.ReadFile(*mapping)
			if rerr != nil {
				return err
			}
			if *ipc != 0 {
				return flagError("ipc", fmt.Errorf("%s is a resource mapping, which holds its front end as a resource when it has one; -ipc is for port mappings", *mapping))
			}
			rm = r
		} else {
			m = mach.Mapping
		}
	}
	set, err := src.Load(ctx, &source.Options{Notes: stderr})
	if err != nil {
		return err
	}
	type column struct {
		name, id string // id: the key in -out files
		p        oracle.Predictor
	}
	var cols []column
	if m != nil {
		mp := oracle.FromMapping(m)
		mp.FrontEnd.InstructionsPerCycle = *ipc
		cols = append(cols, column{*mapping, predictionID(*mapping), mp})
	}
	if rm != nil {
		cols = append(cols, column{*mapping, predictionID(*mapping), rm})
	}
	if *peer == "llvm-mca" {
		mca, done, err := newMCA(ctx, *mcpu, *mcaBin, stderr)
		if err != nil {
			return err
		}
		defer done()
		cols = append(cols, column{mca.Name(), mca.Name(), mca})
	}
	measured := len(set.Measurements) > 0
	for _, mm := range set.Measurements {
		measured = measured && mm.Cycles > 0
	}
	// The predictions join the stored ones of each experiment (for -out,
	// and so that the table compares every column the same way).
	preds := make([][]float64, len(cols))
	leftOut := make([][]portmap.Failure, len(cols)) // with the predictor's reasons
	res := &portmap.ExperimentSet{Arch: set.Arch}
	for _, mm := range set.Measurements {
		others := map[string]float64{}
		for id, v := range mm.Others {
			others[id] = v
		}
		res.Measurements = append(res.Measurements, portmap.Measurement{Experiment: mm.Experiment, Cycles: mm.Cycles, Others: others})
	}
	for i, c := range cols {
		pred, unsupported, err := oracle.Predict(ctx, c.p, set.Experiments())
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if len(pred) > 0 && len(unsupported) == len(pred) {
			why := ": first: " + unsupported[0].Reason
			if m != nil && i == 0 {
				why = ": " + coverage(m, set)
			}
			return fmt.Errorf("%s predicts none of the %d experiments of %s%s", c.name, len(pred), *exps, why)
		}
		preds[i], leftOut[i] = pred, unsupported
		for k, v := range pred {
			if !math.IsNaN(v) {
				res.Measurements[k].Others[c.id] = v
			}
		}
	}
	if *out != "" {
		if err := portmap.WriteExperiments(*out, res); err != nil {
			return err
		}
	}
	if !measured {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for k, e := range set.Experiments() {
			for i := range cols {
				fmt.Fprintf(tw, "%.4f\t", preds[i][k])
			}
			fmt.Fprintf(tw, "%s\n", e)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for i, c := range cols {
			if n := len(leftOut[i]); n > 0 {
				why := leftOut[i][0].Reason
				if insn := leftOut[i][0].Insn; insn != "" {
					why = fmt.Sprintf("instruction %q", insn)
				}
				fmt.Fprintf(stdout, "%s: %d of %d experiments not predicted (NaN above; first: %s)\n", c.name, n, len(preds[i]), why)
			}
		}
		return nil
	}
	var evals []*metrics.Evaluation
	for i, c := range cols {
		ev := metrics.Evaluate(ctx, oracle.Stored(res, c.id), res).Titled(c.name)
		if len(ev.Failures) == len(leftOut[i]) {
			ev.Failures = leftOut[i] // the same experiments, with why
		}
		evals = append(evals, ev)
	}
	for _, id := range set.OtherIDs() {
		evals = append(evals, metrics.Evaluate(ctx, oracle.Stored(set, id), set))
	}
	for _, ev := range evals {
		ev.Data = "" // the data set is the command's argument
	}
	table := metrics.Table(evals...)
	table.LeftOutBelow = true
	_, err = io.WriteString(stdout, table.String())
	return err
}

// newMCA returns the llvm-mca predictor of -mcpu cpu ("host": the closest
// model llvm-mca has for this machine), with a progress bar on stderr that
// done ends.
func newMCA(ctx context.Context, cpu, bin string, stderr io.Writer) (*llvmmca.Predictor, func(), error) {
	mca := llvmmca.New(cpu)
	mca.Binary = bin
	if cpu == "host" {
		c, err := mca.HostCPU(ctx)
		if err != nil {
			return nil, nil, err
		}
		mca.CPU = c
		fmt.Fprintf(stderr, "llvm-mca: -mcpu %s for this host\n", c)
	}
	bar := newProgressBar(stderr)
	mca.Progress = func(done, total int) { bar.update(mca.Name(), int64(done), int64(total)) }
	return mca, bar.finish, nil
}

// predictionID is the key under which -out files keep a mapping's
// predictions: "portlab:" and the mapping's name, which a machine name
// ("portlab:zenplus-like") already is.
func predictionID(mapping string) string {
	if strings.HasPrefix(mapping, "portlab:") {
		return mapping
	}
	return "portlab:" + mapping
}

// mcpuOf returns llvm-mca's CPU for the data set an experiments name
// belongs to, when portlab knows it.
func mcpuOf(exps string) (string, bool) {
	for prefix, cpu := range map[string]string{
		"pmevo:SKL/": "skylake", "pmevo:ZEN/": "znver1", "pmevo:A72/": "cortex-a72",
	} {
		if strings.HasPrefix(exps, prefix) {
			return cpu, true
		}
	}
	return "", false
}

// coverage says how many of set's instructions m maps and, when none,
// which naming schemes the two use.
func coverage(m *portmap.Mapping, set *portmap.ExperimentSet) string {
	insns := map[string]bool{}
	for _, e := range set.Experiments() {
		for _, it := range e.Items() {
			insns[it.Insn] = true
		}
	}
	mapped := m.Arch().Instructions()
	known := map[string]bool{}
	for _, name := range mapped {
		known[name] = true
	}
	in := 0
	for name := range insns {
		if known[name] {
			in++
		}
	}
	s := fmt.Sprintf("%d of the experiments' %d instructions are in the mapping", in, len(insns))
	if in > 0 || len(mapped) == 0 || len(insns) == 0 {
		return s
	}
	theirs := slices.Sorted(maps.Keys(insns))[0]
	if a, b := nameScheme(mapped[0]), nameScheme(theirs); a != b && a != "" && b != "" {
		s = fmt.Sprintf("the mapping names forms in %s (%q), the experiments in %s (%q); %s", a, mapped[0], b, theirs, s)
	}
	return s
}

// nameScheme tells the naming scheme of an instruction form's name:
// PMEvo's ("ADD_((REG:RW:G:64)),_((REG:R:G:64))"), iwho scheme syntax
// ("add RW:GPR:64, R:GPR:64") or "" when neither.
func nameScheme(name string) string {
	switch {
	case strings.Contains(name, "(("):
		return "PMEvo's syntax"
	case strings.Contains(name, ":") && !strings.Contains(name, "_"):
		return "iwho scheme syntax"
	}
	return ""
}

const reproduceUsage = `portlab reproduce — the reference table of the PMEvo data: the bottleneck
predictions of the artifact's mappings (SKL, ZEN, A72) against the measured
inverse throughputs of its 2,000-experiment evaluation sets, beside the
stored predictions of IACA, Ithemal and llvm-mca. No flags.
`

func cmdReproduce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, reproduceUsage) }
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "Bottleneck predictions of the PMEvo artifact's mappings vs measured inverse throughput")
	fmt.Fprintln(stdout, "(2,000 length-5 experiments per architecture; the paper used 40,000)")
	fmt.Fprintln(stdout)
	for _, c := range []struct{ mapping, exps string }{
		{"pmevo:SKL/uops_info", "pmevo:SKL/eval_small_annotated"},
		{"pmevo:SKL/pmevo", "pmevo:SKL/eval_small"},
		{"pmevo:ZEN/pmevo", "pmevo:ZEN/eval_small_annotated"},
		{"pmevo:A72/pmevo", "pmevo:A72/eval_small_annotated"},
	} {
		fmt.Fprintf(stdout, "%s on %s\n", c.mapping, c.exps)
		if err := cmdPredict(ctx, []string{"-mapping", c.mapping, "-experiments", c.exps}, stdout, io.Discard); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

const dataUsage = `portlab data dir|list|download — the public data sets

  dir       print the data directory in use (PORTLAB_DATA, ../shared/data
            beside the checkout, or the user cache once downloaded)
  list      list the pinned data files (path, size, source repository)
  download  download the pinned files into the user cache (SHA-256 checked)
`

func cmdData(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprint(stdout, dataUsage)
		return nil
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, dataUsage)
		return fmt.Errorf("data: name a command: dir, list or download")
	}
	if len(args) > 1 {
		return fmt.Errorf("data %s: unexpected argument %q", args[0], args[1])
	}
	switch args[0] {
	case "dir":
		d, err := dataset.Dir()
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, d)
	case "list":
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, f := range dataset.Files() {
			fmt.Fprintf(tw, "%s\t%d\t%s@%.8s\n", f.Rel, f.Size, f.Repo, f.Commit)
		}
		return tw.Flush()
	case "download":
		bar := newProgressBar(stderr)
		err := dataset.Download(ctx, func(file string, done, total int64) { bar.update(file, done, total) })
		bar.finish()
		if j, ok := err.(interface{ Unwrap() []error }); ok && len(j.Unwrap()) > 1 {
			// One line, not one per file: they usually fail alike.
			errs := j.Unwrap()
			return fmt.Errorf("data download: %d of %d files failed, none of them kept; first: %w", len(errs), len(dataset.Files()), errs[0])
		}
		return err
	default:
		return fmt.Errorf("unknown data command %q (want dir, list or download)", args[0])
	}
	return nil
}
