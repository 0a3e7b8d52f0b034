package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/predict/llvmmca"
	"github.com/portlab/portlab/lib/sim"
)

// predict -blocks simulates each block of a BHive-style file, lists the
// blocks the machine cannot simulate and the lines it cannot read, and
// compares the measured ones.
func TestPredictBlocks(t *testing.T) {
	if _, err := exec.LookPath("objdump"); err != nil {
		t.Skip("needs binutils' objdump")
	}
	datasettest.Need(t)
	dir := t.TempDir()
	mfile := filepath.Join(dir, "machine.json")
	if err := machine.Write(mfile, sim.TestMachine()); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "blocks.csv")
	if err := os.WriteFile(csv, []byte(strings.Join([]string{
		"c4e275b8c2,4.2",  // vfmadd231ps ymm0, ymm1, ymm2: the FMA latency
		"480fafc0,3",      // imul rax, rax
		"f3480fb8c3,",     // popcnt rax, rbx: not in the machine, not measured
		"480fafc0c4e2,9",  // cut inside an instruction
		"4801d8480fafc0,", // add rax, rbx; imul rax, rax: not measured
	}, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := run(t.Context(), []string{"predict", "-blocks", csv, "-machine", mfile}, &out, &errs); err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	o := squeeze(out.String())
	for _, want := range []string{
		"line 1 1 4.000 4.200",
		"line 2 1 3.000 3.000",
		"line 3 1 NaN NaN",
		"line 5 2 4.000 NaN",
		"1 of 4 blocks not predicted",
		`line 3: sim: the machine's mapping`,
		"2 measured blocks",
	} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
	if !strings.Contains(errs.String(), csv+":4") || !strings.Contains(errs.String(), "1 lines not understood") {
		t.Errorf("the cut line is not reported on stderr:\n%s", errs.String())
	}
	// MAPE of 4 vs 4.2 and 3 vs 3: 2.38 %.
	if !strings.Contains(o, "2.38") {
		t.Errorf("no MAPE of 2.38 %%:\n%s", o)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-blocks", csv}, "needs -machine"},
		{[]string{"-blocks", filepath.Join(dir, "none.csv"), "-machine", mfile}, "-blocks: blocks"},
		{[]string{"-blocks", csv, "-machine", "portlab:nonesuch"}, "-machine: machine: unknown machine"},
		{[]string{"-blocks", csv, "-machine", mfile, "-per", "0"}, "-per: 0: the iterations a block's measured cycles are for must be a number > 0"},
		{[]string{"-blocks", csv, "-mapping", mfile}, "-machine, not -mapping"},
		{[]string{"-blocks", csv, "-peer", "llvm-mca"}, "give -mcpu"},
	} {
		err := run(t.Context(), append([]string{"predict"}, c.args...), &out, &out)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	// A machine that maps none of the blocks: an error, not a table of NaN.
	only := filepath.Join(dir, "only.csv")
	if err := os.WriteFile(only, []byte("f3480fb8c3,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run(t.Context(), []string{"predict", "-blocks", only, "-machine", mfile}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "predicts none of the 1 blocks") || !strings.Contains(err.Error(), "popcnt") {
		t.Errorf("no block predicted: %v", err)
	}

	if _, err := llvmmca.Find(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("%v: install LLVM to test -peer llvm-mca", err)
	}
	out.Reset()
	if err := run(t.Context(), []string{"predict", "-blocks", csv, "-machine", mfile, "-peer", "llvm-mca", "-mcpu", "skylake"}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if o := out.String(); !strings.Contains(o, "llvm-mca -mcpu=skylake") || !strings.Contains(o, "the 2 measured blocks all predictors predict") {
		t.Errorf("output with llvm-mca:\n%s", o)
	}
}

// squeeze replaces every run of spaces in each line by one space.
func squeeze(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}
