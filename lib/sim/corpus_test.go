package sim

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/dataset/datasettest"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus.golden")

// corpusMachine is the test machine's front end, reorder buffer, retire
// width and latencies on the uops.info port mapping of Ice Lake, which
// maps most forms of the corpus.
func corpusMachine(t testing.TB) *Simulator {
	t.Helper()
	m := TestMachine()
	icl, err := dataset.UopsInfo("ICL")
	if err != nil {
		t.Fatal(err)
	}
	m.Name, m.Mapping, m.MappingSource = "test-icl", icl, "uops.info:ICL"
	for k := range m.Latencies {
		if _, ok := icl.Uops(k); !ok {
			delete(m.Latencies, k)
		}
	}
	s, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The simulator's results on the block corpus of bench/blocks, to the
// last bit, are those of testdata/corpus.golden: the simulation and its
// steady-state detection stay the same when they are made faster. Run
// with -update after a change of the model that is meant to change them.
func TestCorpusGolden(t *testing.T) {
	if _, err := exec.LookPath("objdump"); err != nil {
		t.Skip("needs binutils' objdump")
	}
	datasettest.Need(t)
	s := corpusMachine(t)
	var b strings.Builder
	for _, file := range []string{"tune.csv", "heldout.csv"} {
		f, err := os.Open(filepath.Join("..", "..", "bench", "blocks", file))
		if err != nil {
			t.Fatal(err)
		}
		set, err := ReadBHive(context.Background(), f, file, 1)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for k, blk := range set.Blocks {
			fmt.Fprintf(&b, "%s:%d ", file, k+1)
			r, err := s.Simulate(blk)
			if err != nil {
				b.WriteString("not simulated\n")
				continue
			}
			fmt.Fprintf(&b, "%v %v %d %d %d %v", r.Cycles, r.FirstPass, r.Iterations, r.Period, r.Window, r.Converged)
			if k%16 == 0 {
				shares, cr, err := s.Critical(blk)
				if err != nil {
					t.Fatalf("%s:%d: Critical: %v", file, k+1, err)
				}
				fmt.Fprintf(&b, " critical %v", cr.Cycles)
				for _, c := range shares {
					fmt.Fprintf(&b, " %.6g/%.6g", c.Share, c.Latency)
				}
			}
			b.WriteByte('\n')
		}
	}
	golden := filepath.Join("testdata", "corpus.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(b.String(), "\n")
	lines := strings.Split(string(want), "\n")
	if len(got) != len(lines) {
		t.Fatalf("%d results, golden file has %d", len(got), len(lines))
	}
	bad := 0
	for i := range got {
		if got[i] != lines[i] {
			if bad < 5 {
				t.Errorf("got  %s\nwant %s", got[i], lines[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d blocks differ from %s", bad, len(got), golden)
	}
}
