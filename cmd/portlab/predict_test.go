package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/predict/llvmmca"
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
