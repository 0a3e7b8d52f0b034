package source

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/anica"
	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/oracle"
)

func TestMain(m *testing.M) {
	measure.RunWorkerIfRequested() // the host predictor's worker
	os.Exit(m.Run())
}

func TestParseBlockPredictor(t *testing.T) {
	for _, c := range []struct{ name, kind, arg, err string }{
		{"sim:zenplus-like", "sim", "portlab:zenplus-like", ""},
		{"sim:portlab:zenplus-like", "sim", "portlab:zenplus-like", ""},
		{"llvm-mca:znver3", "llvm-mca", "znver3", ""},
		{"host:0", "host", "0", ""},
		{"host:x", "", "", `"x" is not a CPU number`},
		{"host:0+0", "", "", "listed twice"},
		{"host:", "", "", "is not a CPU number"},
		{"sim:", "", "", "want sim:MACHINE"},
		{"llvm-mca:a b", "", "", "no -mcpu value"},
		{"sim:portlab:nope", "", "", "unknown simulated machine"},
		{"iaca:haswell", "", "", `unknown kind "iaca"`},
	} {
		p, err := ParseBlockPredictor(c.name)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || p.Kind != c.kind || p.Arg != c.arg {
			t.Errorf("%q: %+v, %v", c.name, p, err)
		}
	}
	p, _ := ParseBlockPredictor("sim:zenplus-like")
	bp, m, err := p.Open(context.Background(), nil)
	if err != nil || m == nil || bp.Name() != "sim:portlab:zenplus-like" {
		t.Errorf("Open: %v, %v, %v", bp, m, err)
	}
}

// TestHostBlockPredictor measures two blocks on the host through the
// "host" predictor with a journal: the one the harness can run gets
// cycles, the other fails as outside the predictor (anica.Limited) with
// the harness's reason, and a second run is answered from the journal.
func TestHostBlockPredictor(t *testing.T) {
	cpu, err := measure.DefaultCPU()
	if err != nil {
		t.Skip(err)
	}
	p, err := ParseBlockPredictor("host")
	if err != nil {
		t.Fatal(err)
	}
	// The name says the CPU and the machine: a journal of its answers is
	// not resumed elsewhere.
	wantName := fmt.Sprintf("host:%d (", cpu)
	p.Journal = filepath.Join(t.TempDir(), "host.jsonl")
	ctx := context.Background()
	blocks := make([]*block.Block, 2)
	for i, src := range []string{"add rax, 1\nadd rax, 1", "mov rax, [rip+x]"} {
		if blocks[i], err = block.Parse(src, block.Intel); err != nil {
			t.Fatal(err)
		}
	}
	for run := range 2 {
		bp, m, err := p.Open(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m != nil || !strings.HasPrefix(bp.Name(), wantName) || !strings.Contains(bp.Name(), " family ") {
			t.Errorf("Open: %s, machine %v", bp.Name(), m)
		}
		lim, ok := bp.(anica.Limited)
		if !ok {
			t.Fatalf("%T is no anica.Limited", bp)
		}
		got, err := bp.PredictBlocks(ctx, blocks)
		var ue *oracle.UnsupportedError
		if !errors.As(err, &ue) || len(ue.Failures) != 1 || ue.Failures[0].Index != 1 || !math.IsNaN(got[1]) {
			t.Fatalf("run %d: %v, %v: want the rip-relative block to fail", run, got, err)
		}
		// Two dependent adds: 2 cycles per iteration on any x86-64 core.
		if math.Abs(got[0]-2) > 0.3 {
			t.Errorf("run %d: add chain %.3f cycles per iteration, want 2", run, got[0])
		}
		if why, out := lim.Outside(blocks[1]); !out || !strings.Contains(why, "not measurable") {
			t.Errorf("rip-relative block: outside %v (%q)", out, why)
		}
		if _, out := lim.Outside(blocks[0]); out {
			t.Error("add chain outside the host predictor")
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(p.Journal)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "block: add rax, 1; add rax, 1"); n != 1 {
		t.Errorf("journal holds the add chain %d times, want once:\n%s", n, data)
	}
}
