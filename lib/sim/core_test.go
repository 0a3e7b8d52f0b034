package sim

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/machine"
)

// fusionMachine has four ALU ports, a front end of two instructions a
// cycle, eliminated register moves and, with fuse, a move fused with the
// add on its copy.
func fusionMachine(t *testing.T, fuse bool) *Simulator {
	t.Helper()
	src := `{"format": "portlab.machine/v1", "name": "fusion-test",
	  "mapping": {"format": "portlab.mapping/v1", "name": "fusion-test", "ports": ["0", "1", "2", "3"], "instructions": [
	    {"name": "mov W:GPR:64, R:GPR:64", "uops": []},
	    {"name": "add RW:GPR:64, IMM(8)", "uops": [{"count": 1, "ports": ["0", "1", "2", "3"]}]},
	    {"name": "shl RW:GPR:64, IMM(8)", "uops": [{"count": 1, "ports": ["0", "1", "2", "3"]}]}]},
	  "frontEnd": {"instructionsPerCycle": 2},
	  "latencies": {"mov W:GPR:64, R:GPR:64": {"cycles": 0}, "add RW:GPR:64, IMM(8)": {"cycles": 1}, "shl RW:GPR:64, IMM(8)": {"cycles": 1}}`
	if fuse {
		src += `, "fusions": [{"first": ["mov W:GPR:64, R:GPR:64"], "second": ["add RW:GPR:64, IMM(8)"]}]`
	}
	return inlineSim(t, src+"}", "fusion-test.json")
}

// A move followed by an add on its copy takes one front-end slot when the
// machine fuses them; an add of another register, a shift, or a machine
// without the fusion take two.
func TestFusion(t *testing.T) {
	four := func(second string) string {
		var b strings.Builder
		for _, r := range [][2]string{{"rdx", "rdi"}, {"rcx", "rsi"}, {"r8", "r9"}, {"r10", "r11"}} {
			b.WriteString("mov " + r[0] + ", " + r[1] + "\n" + strings.ReplaceAll(second, "DST", r[0]) + "\n")
		}
		return b.String()
	}
	other := "mov rdx, rdi\nadd rbx, 8\nmov rcx, rsi\nadd rbp, 8\nmov r8, r9\nadd r12, 8\nmov r10, r11\nadd r13, 8\n"
	for _, c := range []struct {
		name string
		fuse bool
		src  string
		want float64
	}{
		{"fused", true, four("add DST, 8"), 2},                     // 4 slots at 2 a cycle
		{"no fusion in the machine", false, four("add DST, 8"), 4}, // 8 slots
		{"add of another register", true, other, 4},
		{"shift is not fused", true, four("shl DST, 3"), 4},
	} {
		r := simulate(t, fusionMachine(t, c.fuse), c.src)
		if !near(r.Cycles, c.want) {
			t.Errorf("%s: %v cycles, want %v", c.name, r.Cycles, c.want)
		}
	}
	// The pair spans the loop's back edge: the last move fuses with the
	// first add of the next iteration.
	r := simulate(t, fusionMachine(t, true), "add rdx, 8\nmov rdx, rdi")
	if !near(r.Cycles, 0.5) {
		t.Errorf("pair across the back edge: %v cycles, want 0.5", r.Cycles)
	}
}

// A fusion naming a form the mapping lacks is refused with its field.
func TestFusionUnmapped(t *testing.T) {
	src := `{"format": "portlab.machine/v1", "name": "x",
	  "mapping": {"format": "portlab.mapping/v1", "name": "x", "ports": ["0"], "instructions": [
	    {"name": "add RW:GPR:64, IMM(8)", "uops": [{"count": 1, "ports": ["0"]}]}]},
	  "fusions": [{"first": ["mov W:GPR:64, R:GPR:64"], "second": ["add RW:GPR:64, IMM(8)"]}]}`
	_, err := machine.Parse([]byte(src), "x.json")
	if err == nil || !strings.Contains(err.Error(), "fusions[0].first") {
		t.Fatalf("got %v, want an error naming fusions[0].first", err)
	}
}

// wakeupMachine has four ALU ports and no front-end bound; with cost > 0
// an ALU operation reading a head's result holds its port cost times as
// long.
func wakeupMachine(t *testing.T, cost float64) *Simulator {
	t.Helper()
	src := `{"format": "portlab.machine/v1", "name": "wakeup-test",
	  "mapping": {"format": "portlab.mapping/v1", "name": "wakeup-test", "ports": ["0", "1", "2", "3"], "instructions": [
	    {"name": "lea W:GPR:64, MEM(0)", "uops": [{"count": 1, "ports": ["0", "1", "2", "3"]}]},
	    {"name": "add RW:GPR:64, IMM(8)", "uops": [{"count": 1, "ports": ["0", "1", "2", "3"]}]},
	    {"name": "cmp R:GPR:64, IMM(8)", "uops": [{"count": 1, "ports": ["0", "1", "2", "3"]}]}]},
	  "latencies": {"lea W:GPR:64, MEM(0)": {"cycles": 1}, "add RW:GPR:64, IMM(8)": {"cycles": 1}, "cmp R:GPR:64, IMM(8)": {"cycles": 1}}`
	if cost > 0 {
		src += fmt.Sprintf(`, "wakeup": {"forms": ["lea W:GPR:64, MEM(0)", "add RW:GPR:64, IMM(8)", "cmp R:GPR:64, IMM(8)"], "cost": %v}`, cost)
	}
	return inlineSim(t, src+"}", "wakeup-test.json")
}

// The first reader of a head's result pays the wakeup cost, later links
// of its chain and independent operations do not.
func TestWakeup(t *testing.T) {
	pairs := "lea rax, [rdi+1]\ncmp rax, 3\nlea rcx, [rdi+2]\ncmp rcx, 3\nlea rdx, [rdi+3]\ncmp rdx, 3\nlea r8, [rdi+4]\ncmp r8, 3\n"
	indep := "lea rax, [rdi+1]\ncmp rsi, 3\nlea rcx, [rdi+2]\ncmp rsi, 3\nlea rdx, [rdi+3]\ncmp rsi, 3\nlea r8, [rdi+4]\ncmp rsi, 3\n"
	chain := "lea rax, [rdi+1]\nadd rax, 1\nadd rax, 2\nadd rax, 3\n"
	for _, c := range []struct {
		name string
		cost float64
		src  string
		want float64
	}{
		{"pairs without wakeup", 0, pairs, 2},     // 8 µops on 4 ports
		{"pairs", 2, pairs, 3},                    // 4 + 4·2 port cycles
		{"independent", 2, indep, 2},              // nobody reads a head
		{"chain", 2, chain, 1.25},                 // only the first add pays: 3 + 2
		{"loop-carried only", 2, "add rax, 1", 1}, // the latency bounds
	} {
		r := simulate(t, wakeupMachine(t, c.cost), c.src)
		if !near(r.Cycles, c.want) {
			t.Errorf("%s: %v cycles, want %v", c.name, r.Cycles, c.want)
		}
	}
}

// mergeMachine merges legacy-SSE writes in 2 cycles, only while the upper
// halves are in use.
func mergeMachine(t *testing.T, latency int) *Simulator {
	t.Helper()
	src := `{"format": "portlab.machine/v1", "name": "merge-test",
	  "mapping": {"format": "portlab.mapping/v1", "name": "merge-test", "ports": ["0", "1", "2", "3"], "instructions": [
	    {"name": "movdqu W:XMM0..15, xmmword ptr R:MEM(128)", "uops": [{"count": 1, "ports": ["0", "1"]}]},
	    {"name": "vmulps W:YMM0..15, R:YMM0..15, R:YMM0..15", "uops": [{"count": 1, "ports": ["2", "3"]}]},
	    {"name": "vmulps W:XMM0..15, R:XMM0..15, R:XMM0..15", "uops": [{"count": 1, "ports": ["2", "3"]}]},
	    {"name": "vzeroupper", "uops": [{"count": 1, "ports": ["2", "3"]}]}]},
	  "latencies": {"movdqu W:XMM0..15, xmmword ptr R:MEM(128)": {"cycles": 4}, "vmulps W:YMM0..15, R:YMM0..15, R:YMM0..15": {"cycles": 3},
	    "vmulps W:XMM0..15, R:XMM0..15, R:XMM0..15": {"cycles": 3}, "vzeroupper": {"cycles": 1}},
	  "mergeLatency": ` + strconv.Itoa(latency) + `, "mergeWhen": "dirty-upper"}`
	return inlineSim(t, src, "merge-test.json")
}

// A legacy-SSE load into xmm0 merges into the old xmm0 only in a loop
// that writes a YMM register and does not clear the upper halves.
func TestMergeDirtyUpper(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      float64
	}{
		{"256-bit write", "movdqu xmm0, [rsi]\nvmulps ymm3, ymm13, ymm9", 2},   // the merge chain through xmm0
		{"128-bit write", "movdqu xmm0, [rsi]\nvmulps xmm3, xmm13, xmm9", 0.5}, // ports
	} {
		r := simulate(t, mergeMachine(t, 2), c.src)
		if !near(r.Cycles, c.want) {
			t.Errorf("%s: %v cycles, want %v", c.name, r.Cycles, c.want)
		}
	}
	// With vzeroupper in the loop nothing merges: as on a machine without
	// merges (the chain through vzeroupper's vector registers remains).
	src := "movdqu xmm0, [rsi]\nvmulps ymm3, ymm13, ymm9\nvzeroupper"
	if a, b := simulate(t, mergeMachine(t, 2), src), simulate(t, mergeMachine(t, 0), src); !near(a.Cycles, b.Cycles) {
		t.Errorf("with vzeroupper: %v cycles, without merges %v", a.Cycles, b.Cycles)
	}
}

// inlineSim returns a simulator of the machine description src (file
// name name in errors).
func inlineSim(t *testing.T, src, name string) *Simulator {
	t.Helper()
	m, err := machine.Parse([]byte(src), name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
