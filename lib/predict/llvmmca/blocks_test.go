package llvmmca

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/oracle"
)

func TestBlockLine(t *testing.T) {
	b, err := block.Parse("movq (%rdi), %rax\naddq $1, %rax\nmovzbl 8(%rdi,%rcx,4), %edx\nvfmadd231ps %ymm2, %ymm1, %ymm0", block.ATT)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"mov rax, qword ptr [rdi]", "add rax, 1", "movzx edx, byte ptr [rdi+rcx*4+8]", "vfmadd231ps ymm0, ymm1, ymm2"}
	for k := range b.Insns {
		if got := BlockLine(&b.Insns[k]); got != want[k] {
			t.Errorf("line %d: %q, want %q", k+1, got, want[k])
		}
	}
}

// A latency-bound block runs at its latency in llvm-mca too, and a block
// that cannot be run is reported, the others standing.
func TestPredictBlocks(t *testing.T) {
	needLLVMMCA(t)
	var blocks []*block.Block
	for _, src := range []string{"vfmadd231ps ymm0, ymm1, ymm2", "xor eax, eax\nimul rax, rax"} {
		b, err := block.Parse(src, block.Intel)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, b)
	}
	blocks = append(blocks, &block.Block{})
	v, err := New("skylake").PredictBlocks(context.Background(), blocks)
	var ue *oracle.UnsupportedError
	if !errors.As(err, &ue) || len(ue.Failures) != 1 || ue.Failures[0].Index != 2 {
		t.Fatalf("got %v, %v; want the empty block reported as unsupported", v, err)
	}
	// Skylake's FMA latency is 4; the zero idiom leaves imul's port.
	if math.Abs(v[0]-4) > 0.1 || !(v[1] < 1.5) || !math.IsNaN(v[2]) {
		t.Errorf("predictions %v, want ≈4, < 1.5, NaN", v)
	}
}
