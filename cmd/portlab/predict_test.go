package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/predict/llvmmca"
	"github.com/portlab/portlab/lib/resource"
)

func TestPredictPeer(t *testing.T) {
	var buf bytes.Buffer
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-experiments", "x.json"}, "-mapping or -peer"},
		{[]string{"-experiments", "pmevo:SKL/eval_tiny", "-peer", "iaca"}, `unknown -peer "iaca"`},
		{[]string{"-experiments", "x.json", "-peer", "llvm-mca"}, "give -mcpu"},
	} {
		err := run(t.Context(), append([]string{"predict"}, c.args...), &buf, &buf)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}

	if _, err := llvmmca.Find(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("%v: install LLVM to test -peer llvm-mca", err)
	}
	datasettest.Need(t)
	out := filepath.Join(t.TempDir(), "pred.json")
	buf.Reset()
	var progress bytes.Buffer
	err := run(t.Context(), []string{"predict", "-experiments", "pmevo:SKL/eval_tiny", "-peer", "llvm-mca", "-mcpu", "skylake", "-out", out}, &buf, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "llvm-mca -mcpu=skylake  20  ") || !strings.Contains(progress.String(), "100%") {
		t.Errorf("output:\n%s\nprogress: %q", buf.String(), progress.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(data, []byte(`"llvm-mca -mcpu=skylake"`)) != 20 {
		t.Errorf("%s lacks the 20 predictions:\n%.300s", out, data)
	}
}

// TestPredictResourceMapping: -mapping takes a resource mapping file as
// infer palmed writes it (PREFIX.resources.json) and compares its
// predictions with the measured cycles; -ipc with it is refused, and a
// file that is neither kind of mapping is still the port mapping's error.
func TestPredictResourceMapping(t *testing.T) {
	dir := t.TempDir()
	m := resource.MustNew("toy", "alu", "load")
	m.MustSetLoad("add", "alu", "1/2").MustSetLoad("ld", "load", "1").MustSetLoad("ld", "alu", "1/4")
	rfile := filepath.Join(dir, "toy.resources.json")
	if err := m.WriteFile(rfile, false); err != nil {
		t.Fatal(err)
	}
	// Measured: the mapping's cycles, one of them 10 % higher.
	set := &portmap.ExperimentSet{}
	for k, e := range []portmap.Experiment{portmap.NewExperiment("add"), portmap.NewExperiment("ld"), portmap.NewExperiment("add", "add", "ld"), portmap.NewExperiment("add", "ld", "ld")} {
		c, _, err := m.Cycles(e)
		if err != nil {
			t.Fatal(err)
		}
		if k == 3 {
			c *= 1.1
		}
		set.Measurements = append(set.Measurements, portmap.Measurement{Experiment: e, Cycles: c})
	}
	efile := filepath.Join(dir, "exps.json")
	if err := portmap.WriteExperiments(efile, set); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := run(t.Context(), []string{"predict", "-mapping", rfile, "-experiments", efile}, &out, &errs); err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	// MAPE: one experiment of four off by 1 − 1/1.1.
	if want := fmt.Sprintf("%.2f%%", 100*(1-1/1.1)/4); !strings.Contains(out.String(), rfile) || !strings.Contains(out.String(), "  4  ") || !strings.Contains(out.String(), want) {
		t.Errorf("want n=4 and MAPE %s:\n%s", want, out.String())
	}
	err := run(t.Context(), []string{"predict", "-mapping", rfile, "-experiments", efile, "-ipc", "4"}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "-ipc") || !strings.Contains(err.Error(), "resource mapping") {
		t.Errorf("-ipc with a resource mapping: %v", err)
	}
	junk := filepath.Join(dir, "junk.json")
	if err := os.WriteFile(junk, []byte(`{"kind": "nothing"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(t.Context(), []string{"predict", "-mapping", junk, "-experiments", efile}, &out, &errs); err == nil || strings.Contains(err.Error(), "resource") {
		t.Errorf("a file that is no mapping: %v, want the port mapping reader's error", err)
	}
}
