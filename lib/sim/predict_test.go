package sim

import (
	"context"
	"errors"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/predict/llvmmca"
)

// bhive is a BHive-style file: cycles per 100 iterations. The FMA chain
// (4 cycles), imul after a zero idiom (1 cycle), the chain through memory
// (6 cycles), and sub rax, rbx, which the test machine does not map.
const bhive = `c4e275b8c2,400
31c0480fafc0,100
488b07 4883c001 488907,600
4829d8,100
`

// Both predictors are BlockPredictors.
var (
	_ BlockPredictor = (*Simulator)(nil)
	_ BlockPredictor = (*llvmmca.Predictor)(nil)
)

func readSet(t *testing.T) *BlockSet {
	t.Helper()
	if _, err := exec.LookPath("objdump"); err != nil {
		t.Skip("objdump (binutils) is needed to decode hex")
	}
	set, err := ReadBHive(context.Background(), strings.NewReader(strings.ReplaceAll(bhive, " ", "")), "test.csv", 100)
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != 4 || set.Cycles[0] != 4 {
		t.Fatalf("read %d blocks, first measured %v", set.Len(), set.Cycles)
	}
	return set
}

func TestEvaluateBlocks(t *testing.T) {
	set := readSet(t)
	s := newSim(t, Options{})
	v, err := s.PredictBlocks(context.Background(), set.Blocks)
	var ue *oracle.UnsupportedError
	if !errors.As(err, &ue) || len(ue.Failures) != 1 || ue.Failures[0].Index != 3 || !strings.Contains(ue.Failures[0].Reason, "sub") {
		t.Fatalf("PredictBlocks: %v, %v; want block 3 (sub) unsupported", v, err)
	}
	ev := Evaluate(context.Background(), s, set)
	if ev.Err() != nil || ev.Len() != 3 || len(ev.Failures) != 1 || ev.Data != "test.csv" {
		t.Fatalf("evaluation: %v (%d compared, %d failures)", ev, ev.Len(), len(ev.Failures))
	}
	if ev.Summary.MAPE > 1e-9 {
		t.Errorf("the simulator on its own known answers: MAPE %v%%, want 0", ev.Summary.MAPE)
	}
	if len(ev.Labels()) != 3 {
		t.Errorf("labels %v", ev.Labels())
	}
}

// llvm-mca and the simulator are compared on the same blocks; llvm-mca
// does not follow the chain through memory, so it errs there.
func TestEvaluateBlocksWithLLVMMCA(t *testing.T) {
	set := readSet(t)
	if _, err := llvmmca.Find(); err != nil {
		t.Skip(err)
	}
	ev := Evaluate(context.Background(), llvmmca.New("skylake"), set)
	if ev.Err() != nil || ev.Len() != 4 {
		t.Fatalf("llvm-mca: %v", ev)
	}
	if math.Abs(ev.Predicted[0]-4) > 0.1 {
		t.Errorf("llvm-mca on the FMA chain: %v, want ≈4", ev.Predicted[0])
	}
	if ev.Predicted[2] > 3 {
		t.Errorf("llvm-mca on the chain through memory: %v; it was ≈1.1 (no store-to-load dependency): has llvm-mca changed?", ev.Predicted[2])
	}
}

func TestEvaluateFailsAsAWhole(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b, err := block.Parse(fmaLoop, block.Intel)
	if err != nil {
		t.Fatal(err)
	}
	set := &BlockSet{Name: "one"}
	set.Add(b, 4)
	ev := Evaluate(ctx, newSim(t, Options{}), set)
	if !errors.Is(ev.Err(), context.Canceled) {
		t.Errorf("cancelled: %v", ev.Err())
	}
	if ev := Evaluate(context.Background(), newSim(t, Options{}), &BlockSet{}); ev.Err() == nil {
		t.Error("an empty set gives no error")
	}
}
