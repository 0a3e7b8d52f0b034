package measure

import (
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"github.com/portlab/portlab/lib/pmu"
)

// EnvWorker is the environment variable that turns a process into a
// measurement worker (see RunWorkerIfRequested).
const EnvWorker = "PORTLAB_MEASURE_WORKER"

type request struct {
	Op    string // "load", "run"
	Code  []byte
	Entry int
	Iters uint64
	Reps  int
	CPU   int // pin to this CPU; -1: do not pin
	// Counters are perf events to count around each timed run (nil:
	// none); the worker keeps them open while they stay the same.
	Counters []pmu.Spec
}

type response struct {
	Ticks []uint64
	Nanos []int64
	// Counts holds, per run, the counts of the request's Counters.
	Counts [][]float64
	Err    string
	Hello  string // the first response of a worker: workerHello
}

// workerHello is what a worker says first, so that the parent knows the
// process it started is one (and not a program that never calls
// RunWorkerIfRequested).
const workerHello = "portlab measure worker"

// RunWorkerIfRequested turns the process into a measurement worker when it
// was started as one by a Runner (EnvWorker is set), and never returns in
// that case. Programs that measure — the portlab command, test binaries —
// call it first thing in main (or TestMain), so that the Runner can start a
// copy of the running executable as its isolated worker.
func RunWorkerIfRequested() {
	if os.Getenv(EnvWorker) != "1" {
		return
	}
	os.Exit(workerMain())
}

func workerMain() int {
	runtime.LockOSThread()
	runtime.GOMAXPROCS(1)
	if err := installFaultHandler(); err != nil {
		fmt.Fprintln(os.Stderr, "measure worker:", err)
		return 1
	}
	dec := gob.NewDecoder(os.Stdin)
	enc := gob.NewEncoder(os.Stdout)
	mem, err := syscall.Mmap(-1, 0, BufferSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		fmt.Fprintln(os.Stderr, "measure worker: mmap buffer:", err)
		return 1
	}
	for i := 0; i+4 <= len(mem); i += 4 {
		binary.LittleEndian.PutUint32(mem[i:], 0x3f800000)
	}
	memBase := uintptr(unsafe.Pointer(&mem[0]))
	if err := enc.Encode(&response{Hello: workerHello}); err != nil {
		return 0
	}
	var code []byte
	pinned := -2
	var group *pmu.Group
	var groupKey string
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			return 0 // parent closed the pipe
		}
		var resp response
		switch req.Op {
		case "load":
			if code != nil {
				syscall.Munmap(code)
				code = nil
			}
			code, err = loadCode(req.Code)
			if err != nil {
				resp.Err = err.Error()
			}
		case "run":
			if req.CPU != pinned {
				if err := pin(req.CPU); err != nil {
					resp.Err = err.Error()
					break
				}
				pinned = req.CPU
			}
			if code == nil || req.Entry < 0 || req.Entry >= len(code) {
				resp.Err = "no code loaded at that entry"
				break
			}
			if key := fmt.Sprint(req.Counters); key != groupKey {
				if group != nil {
					group.Close()
					group = nil
				}
				groupKey = ""
				if len(req.Counters) > 0 {
					// Opened on this (locked) thread, which runs the code.
					g, err := pmu.Open(req.Counters...)
					if err != nil {
						resp.Err = "counters: " + err.Error()
						break
					}
					group, groupKey = g, key
				}
			}
			fn := uintptr(unsafe.Pointer(&code[req.Entry]))
			for r := 0; r < req.Reps; r++ {
				if group != nil {
					if err := group.Start(); err != nil {
						resp.Err = "counters: " + err.Error()
						break
					}
				}
				t0 := time.Now()
				ticks := callCode(fn, memBase, req.Iters)
				resp.Nanos = append(resp.Nanos, time.Since(t0).Nanoseconds())
				resp.Ticks = append(resp.Ticks, ticks)
				if group != nil {
					err := group.Stop()
					var counts []float64
					if err == nil {
						counts, err = group.Read()
					}
					if err != nil {
						resp.Err = "counters: " + err.Error()
						break
					}
					resp.Counts = append(resp.Counts, counts)
				}
			}
		default:
			resp.Err = "unknown request " + req.Op
		}
		if err := enc.Encode(&resp); err != nil {
			return 1
		}
	}
}

// loadCode copies code into fresh memory and makes it executable (and no
// longer writable).
func loadCode(b []byte) ([]byte, error) {
	n := (len(b) + 4095) &^ 4095
	if n == 0 {
		n = 4096
	}
	m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, fmt.Errorf("mmap code: %w", err)
	}
	copy(m, b)
	if err := syscall.Mprotect(m, syscall.PROT_READ|syscall.PROT_EXEC); err != nil {
		syscall.Munmap(m)
		return nil, fmt.Errorf("mprotect code: %w", err)
	}
	return m, nil
}

// pin binds the calling thread to one CPU.
func pin(cpu int) error {
	if cpu < 0 {
		return nil
	}
	var mask [16]uint64
	if cpu >= len(mask)*64 {
		return fmt.Errorf("cpu %d out of range", cpu)
	}
	mask[cpu/64] |= 1 << (cpu % 64)
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, uintptr(len(mask)*8), uintptr(unsafe.Pointer(&mask[0])))
	if errno != 0 {
		return fmt.Errorf("sched_setaffinity(cpu %d): %v", cpu, errno)
	}
	return nil
}

// installFaultHandler replaces the handlers of the synchronous fault
// signals by faultHandler, so that a faulting kernel ends the worker with a
// status naming the signal.
func installFaultHandler() error {
	const saOnStack, saRestorer = 0x08000000, 0x04000000
	act := struct {
		handler  uintptr
		flags    uint64
		restorer uintptr
		mask     uint64
	}{faultHandlerAddr(), saOnStack | saRestorer, faultHandlerAddr(), 0}
	for _, sig := range []syscall.Signal{syscall.SIGILL, syscall.SIGBUS, syscall.SIGFPE, syscall.SIGSEGV} {
		_, _, errno := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
		if errno != 0 {
			return fmt.Errorf("rt_sigaction(%v): %v", sig, errno)
		}
	}
	return nil
}
