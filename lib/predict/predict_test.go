package predict

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

func toy() *portmap.Mapping {
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	return m
}

func TestFromMapping(t *testing.T) {
	exps := []portmap.Experiment{
		portmap.NewExperiment("add", "add", "mul", "store"),
		portmap.NewExperiment("div", "add"),
		{}, // the empty experiment costs nothing
		portmap.NewExperiment("mul", "mul", "sqrt"),
	}
	p := FromMapping(toy())
	got, err := p.Predict(t.Context(), exps)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !errors.Is(err, ErrUnsupported) {
		t.Fatalf("err = %v, want *UnsupportedError", err)
	}
	if len(got) != 4 || got[0] != 1.5 || !math.IsNaN(got[1]) || got[2] != 0 || !math.IsNaN(got[3]) {
		t.Errorf("predictions %v, want [1.5 NaN 0 NaN]", got)
	}
	if len(ue.Failures) != 2 || ue.Failures[0].Index != 1 || ue.Failures[0].Insn != "div" || ue.Failures[1].Insn != "sqrt" {
		t.Errorf("failures %+v", ue.Failures)
	}
	for _, want := range []string{"fig3.1: 2 of 4 experiments not supported", `instruction "div"`, "and 1 more"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if idx := Supported(got); len(idx) != 2 || idx[0] != 0 || idx[1] != 2 {
		t.Errorf("Supported = %v", idx)
	}

	// The same as the throughput model, front end included.
	p.FrontEnd = throughput.FrontEnd{InstructionsPerCycle: 1}
	got, err = p.Predict(t.Context(), exps[:1])
	if err != nil || got[0] != 4 {
		t.Errorf("with 1 IPC: %v, %v; want [4]", got, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := p.Predict(ctx, exps[:1]); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestStored(t *testing.T) {
	arch, err := portmap.NewArchitecture("toy", []string{"p1"}, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	set := &portmap.ExperimentSet{Arch: arch, Measurements: []portmap.Measurement{
		{Experiment: portmap.NewExperiment("a", "b"), Cycles: 2, Others: map[string]float64{"IACA": 1.5, "llvm-mca": 3}},
		{Experiment: portmap.NewExperiment("b"), Cycles: 1, Others: map[string]float64{"IACA": 0.5}},
		{Experiment: portmap.NewExperiment("b", "a"), Cycles: 2, Others: map[string]float64{"IACA": 9}}, // duplicate
	}}
	exps := []portmap.Experiment{portmap.NewExperiment("b", "a"), portmap.NewExperiment("b"), portmap.NewExperiment("a")}
	got, fails, err := Run(t.Context(), Stored(set, "llvm-mca"), exps)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 3 || !math.IsNaN(got[1]) || !math.IsNaN(got[2]) || len(fails) != 2 {
		t.Fatalf("got %v, failures %v", got, fails)
	}
	if fails[0].Reason != "no stored llvm-mca prediction" || fails[1].Reason != "not in the experiment set" {
		t.Errorf("reasons %q, %q", fails[0].Reason, fails[1].Reason)
	}
	got, err = Stored(set, "IACA").Predict(t.Context(), exps[:2])
	if err != nil || got[0] != 1.5 || got[1] != 0.5 {
		t.Errorf("IACA: %v, %v; want [1.5 0.5] (first occurrence wins)", got, err)
	}
}

func TestParseOutput(t *testing.T) {
	out := `
[0] Code Region - e0

Iterations:        100
Instructions:      1000
Total Cycles:      610
Total uOps:        2400

Dispatch Width:    6
uOps Per Cycle:    3.93
IPC:               1.64
Block RThroughput: 4.0

[1] Code Region - e2

Iterations:        200
Instructions:      200
Total Cycles:      103
Block RThroughput: 0.3
`
	res := parseOutput(out)
	if len(res) != 2 || res[0].totalCycles != 610 || res[0].iterations != 100 || res[0].rthroughput != 4 || res[2].iterations != 200 {
		t.Fatalf("parsed %+v", res)
	}
	p := &LLVMMCA{}
	if v, ok := p.value(res[0], 2); !ok || v != 3.05 {
		t.Errorf("Total Cycles per copy = %v, want 3.05", v)
	}
	p.Metric = BlockRThroughput
	if v, ok := p.value(res[0], 2); !ok || v != 2 {
		t.Errorf("Block RThroughput per copy = %v, want 2", v)
	}
}

func TestSource(t *testing.T) {
	p := NewLLVMMCA("skylake")
	src, copies, err := p.Source(portmap.NewExperiment("add RW:GPR:64, R:GPR:64", "add RW:GPR:64, R:GPR:64", "imul RW:GPR:64, R:GPR:64"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(src), "\n")
	// round(10/3) = 3 copies of add, imul, add.
	if copies != 3 || len(lines) != 3+9 || lines[0] != ".intel_syntax noprefix" || lines[1] != "# LLVM-MCA-BEGIN e0" || lines[11] != "# LLVM-MCA-END" {
		t.Fatalf("copies %d, source:\n%s", copies, src)
	}
	if !strings.HasPrefix(lines[2], "add ") || !strings.HasPrefix(lines[3], "imul ") || !strings.HasPrefix(lines[4], "add ") {
		t.Errorf("not round-robin:\n%s", src)
	}
	// PMEvo's 5-instruction experiments get PMEvo's 2 copies; memory is
	// addressed through r14.
	_, copies, err = p.Source(portmap.NewExperiment("ADD_((REG:RW:G:64)),_((IMM:32))", "NEG_((REG:RW:G:64))", "INC_((REG:RW:G:64))",
		"BSWAP_((REG:RW:G:64))", "ADD_qword_ptr_[((MEM:64))_+_((MIMM:16))],_((IMM:32))"))
	if err != nil || copies != 2 {
		t.Errorf("PMEvo experiment: %d copies, %v", copies, err)
	}
	p.Copies = 1
	src, _, err = p.Source(portmap.NewExperiment("_add_((REG:W:G:64)),_((REG:R:G:64)),_((REG:R:G:64))"))
	if err != nil || strings.Contains(src, "intel_syntax") || strings.Count(src, "add x") != 1 {
		t.Errorf("AArch64 source %q, %v", src, err)
	}
	if _, _, err := p.Source(portmap.NewExperiment("no such instruction")); err == nil || !strings.Contains(err.Error(), `"no such instruction"`) {
		t.Errorf("bad name: %v", err)
	}
}
