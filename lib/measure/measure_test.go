package measure

import (
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	RunWorkerIfRequested()
	os.Exit(m.Run())
}

// TestLatencyChains measures dependency chains whose latency is the same on
// every x86-64 core of the last decade: add = 1 cycle, imul r64 = 3.
func TestLatencyChains(t *testing.T) {
	tm := NewTimer(testCPU(t))
	defer tm.Close()
	kernels := []Kernel{
		{Name: "add chain", Body: Repeat([]string{"add rax, 1"}, 64)},
		{Name: "imul chain", Body: Repeat([]string{"imul rax, rax"}, 64)},
	}
	ctx := context.Background()
	if err := tm.Load(ctx, kernels, hostVector()); err != nil {
		t.Fatal(err)
	}
	for k, want := range []float64{1, 3} {
		m, err := tm.Measure(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		got := m.Cycles / 64
		t.Logf("%s: %.3f cycles per instruction; %v", kernels[k].Name, got, m)
		if math.Abs(got-want) > 0.1*want {
			t.Errorf("%s: %.3f cycles per instruction, want %v ± 10%%", kernels[k].Name, got, want)
		}
		if m.TicksPerCycle <= 0 || m.Iterations == 0 || len(m.Samples) != tm.Samples {
			t.Errorf("%s: incomplete measurement %+v", kernels[k].Name, m)
		}
	}
}

func TestFaultsDoNotStopTheRun(t *testing.T) {
	tm := NewTimer(testCPU(t))
	defer tm.Close()
	tm.Runner.Timeout = time.Second
	kernels := []Kernel{
		{Name: "illegal", Body: []string{"ud2"}},
		{Name: "wild load", Body: []string{"mov rax, [0x10]"}},
		{Name: "endless", Init: []string{"mov r15, 0"}, Body: []string{"nop"}}, // dec r15 from 0 never reaches 0 in time
		{Name: "fine", Body: Repeat([]string{"add rax, 1"}, 16)},
	}
	ctx := context.Background()
	if err := tm.Load(ctx, kernels, hostVector()); err != nil {
		t.Fatal(err)
	}
	for k, sig := range []string{"SIGILL", "SIGSEGV"} {
		_, err := tm.Measure(ctx, k)
		var fe *FaultError
		if !errors.As(err, &fe) || fe.Signal != sig || !strings.Contains(err.Error(), kernels[k].Name) {
			t.Errorf("%s: error %v, want a FaultError with %s naming the kernel", kernels[k].Name, err, sig)
		}
	}
	_, err := tm.Measure(ctx, 2)
	var te *TimeoutError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "endless") {
		t.Errorf("endless loop: error %v, want a TimeoutError", err)
	}
	// The runner restarts its worker: the next kernel measures fine.
	m, err := tm.Measure(ctx, 3)
	if err != nil || math.Abs(m.Cycles/16-1) > 0.15 {
		t.Errorf("after faults: %v, %v; want 16 cycles per iteration", m, err)
	}
}

func TestAssemblyErrorNamesTheInstruction(t *testing.T) {
	_, err := Assemble(context.Background(), []Kernel{
		{Name: "ok", Body: []string{"add rax, rbx"}},
		{Name: "typo", Body: []string{"add rax, rbx", "vaddps ymm0, xmm1, ymm2"}},
	}, AVX)
	var ae *AssemblyError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), `"vaddps ymm0, xmm1, ymm2" in kernel 1 (typo), body line 2:`) {
		t.Fatalf("error %v, want one naming kernel 1, body line 2", err)
	}
	// The copies of a bad instruction in an unrolled body are one message.
	body := []string{}
	for range 50 {
		body = append(body, "add rax, rbx", "vaddps ymm0, xmm1, ymm2")
	}
	_, err = Assemble(context.Background(), []Kernel{{Name: "unrolled", Body: body}}, AVX)
	if !errors.As(err, &ae) || len(ae.Messages) != 1 || !strings.Contains(err.Error(), "body line 2 and 49 more") {
		t.Errorf("unrolled bad instruction: %v", err)
	}
	if _, err := Assemble(context.Background(), []Kernel{{Name: "two", Body: []string{"add rax, 1; add rbx, 1"}}}, AVX); err == nil {
		t.Error("a line with two instructions was accepted")
	}
	// A misspelt register reads as a symbol; the error says so.
	if _, err := Assemble(context.Background(), []Kernel{{Name: "sym", Body: []string{"vaddps ymm0, ymm1, ymm99"}}}, AVX); err == nil || !strings.Contains(err.Error(), `"ymm99"`) {
		t.Errorf("misspelt register: %v", err)
	}
}

// hostVector picks the widest vector extension /proc/cpuinfo reports.
func hostVector() Vector {
	b, _ := os.ReadFile("/proc/cpuinfo")
	flags := string(b)
	switch {
	case strings.Contains(flags, " avx512f"):
		return AVX512
	case strings.Contains(flags, " avx"):
		return AVX
	}
	return NoVector
}

// TestWorkerThatMeasuresIsRefused checks the guard against a program
// without RunWorkerIfRequested: its copy, started as a worker, would
// measure in turn and start copies without end; it must fail with an
// error that names the missing call instead.
func TestWorkerThatMeasuresIsRefused(t *testing.T) {
	t.Setenv(EnvWorker, "1")
	tm := NewTimer(testCPU(t))
	defer tm.Close()
	ctx := context.Background()
	if err := tm.Load(ctx, []Kernel{{Name: "add", Body: []string{"add rax, rbx"}}}, NoVector); err != nil {
		t.Fatal(err)
	}
	_, err := tm.Runner.Run(ctx, 0, 10, 1)
	if err == nil || !strings.Contains(err.Error(), "RunWorkerIfRequested") {
		t.Fatalf("err = %v, want one that names RunWorkerIfRequested", err)
	}
}
