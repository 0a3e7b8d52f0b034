package llvmmca

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// fakeLLVMMCA writes a wrapper around the real llvm-mca that aborts, with
// a message, on any input holding abort and hangs on any input holding
// hang: a crashing and a hanging peer.
func fakeLLVMMCA(t *testing.T, abort, hang string) string {
	t.Helper()
	real, err := Find()
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), "llvm-mca-fake")
	script := "#!/bin/sh\nin=$(cat)\ncase \"$in\" in\n" +
		"*" + abort + "*) echo 'LLVM ERROR: fake assertion failed' >&2; kill -ABRT $$;;\n" +
		"*" + hang + "*) exec sleep 60;;\nesac\n" +
		"printf '%s\\n' \"$in\" | exec " + real + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper
}

// TestPredictBlocksCrashAndTimeout: in one batch, a block on which
// llvm-mca aborts fails with its message, one on which it hangs fails as
// timed out once the run is killed, and the others are predicted.
func TestPredictBlocksCrashAndTimeout(t *testing.T) {
	needLLVMMCA(t)
	p := New("znver3")
	p.Binary = fakeLLVMMCA(t, "bswap", "popcnt")
	p.Timeout = 5 * time.Second
	var blocks []*block.Block
	for _, src := range []string{"add rax, rcx", "bswap rax\nadd rcx, rdx", "imul rax, rcx", "popcnt rax, rcx", "add rdx, 1\nadd rsi, 1"} {
		b, err := block.Parse(src, block.Intel)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, b)
	}
	start := time.Now()
	v, err := p.PredictBlocks(t.Context(), blocks)
	var ue *oracle.UnsupportedError
	if !errors.As(err, &ue) || len(ue.Failures) != 2 {
		t.Fatalf("%v, %v: want two failures", v, err)
	}
	for i, want := range map[int]string{1: "fake assertion failed", 3: "timed out after 5s"} {
		f := ue.Failures[min(i/2, 1)]
		if f.Index != i || !strings.Contains(f.Reason, want) || !math.IsNaN(v[i]) {
			t.Errorf("block %d: failure %+v, value %v; want %q", i, f, v[i], want)
		}
	}
	for _, i := range []int{0, 2, 4} {
		if !(v[i] > 0) {
			t.Errorf("block %d: %v, want a prediction", i, v[i])
		}
	}
	// The batch and the hanging block alone: two timeouts, not one per block.
	if el := time.Since(start); el > 30*time.Second {
		t.Errorf("took %v", el)
	}
}
