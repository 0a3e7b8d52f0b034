package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset/datasettest"
)

func TestReproduce(t *testing.T) {
	datasettest.Need(t)
	var out bytes.Buffer
	if err := run(t.Context(), []string{"reproduce"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"pmevo:SKL/uops_info  2000  9.55%    1.64%       0.913    0.758",
		"pmevo:SKL/pmevo  2000  14.67%",
		"pmevo:ZEN/pmevo    2000  13.65%",
		"pmevo:A72/pmevo    2000  21.31%",
		"llvm-mca (stored)  2000  127.53%",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestPredictWritesFile(t *testing.T) {
	datasettest.Need(t)
	out := filepath.Join(t.TempDir(), "pred.json")
	var buf bytes.Buffer
	err := run(t.Context(), []string{"predict", "-mapping", "pmevo:SKL/uops_info", "-experiments", "pmevo:SKL/eval_tiny", "-out", out}, &buf, &buf)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"portlab:pmevo:SKL/uops_info"`)) || !strings.Contains(buf.String(), "  20  ") {
		t.Errorf("unexpected output %s / %s", buf.String(), data[:200])
	}
}

func TestErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := run(t.Context(), []string{"frobnicate"}, &buf, &buf); err == nil || !strings.Contains(err.Error(), "frobnicate") {
		t.Errorf("unknown command: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte("{\"kind\": \"Mapping3\",\n \"arch\": [}"), 0o644)
	err := run(t.Context(), []string{"predict", "-mapping", bad, "-experiments", bad}, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), bad+":2:") {
		t.Errorf("malformed mapping: %v, want file:line", err)
	}
	if err := run(t.Context(), []string{"predict", "-mapping", "pmevo:SKL"}, &buf, &buf); err == nil {
		t.Error("predict without -experiments succeeded")
	}
}

// TestMeasureCPUs checks the -cpu flag: a bad value names itself, a CPU
// listed twice or one this machine does not have is refused, and nothing
// is measured or written then; so is a malformed -design.
func TestMeasureCPUs(t *testing.T) {
	dir := t.TempDir()
	insns := filepath.Join(dir, "insns.txt")
	os.WriteFile(insns, []byte("add RW:GPR:64, R:GPR:64\n"), 0o644)
	out := filepath.Join(dir, "c.jsonl")
	var buf bytes.Buffer
	err := run(t.Context(), []string{"measure", "-insns", insns, "-out", out, "-design", "singletons,random:5"}, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), `-design: designs "singletons,random:5": "random:5": want random:LENGTH:COUNT[:SEED]`) {
		t.Errorf("-design random:5: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("-design random:5: %s written", out)
	}
	for _, c := range []struct{ cpu, want string }{
		{"x", `"x" is not a CPU number`},
		{"0,", `"" is not a CPU number`},
		{"-2", `"-2" is not a CPU number`},
		{"0,-1", "CPU -1: not a CPU number"},
		{"0,0", "CPU 0 listed twice"},
		{"0,4096", "-cpu: CPUs \"0,4096\": CPU 4096 is not one this machine lets portlab run on"},
	} {
		var buf bytes.Buffer
		err := run(t.Context(), []string{"measure", "-insns", insns, "-out", out, "-cpu", c.cpu}, &buf, &buf)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-cpu %q: %v, want %q", c.cpu, err, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("-cpu %q: %s written", c.cpu, out)
		}
	}
}
