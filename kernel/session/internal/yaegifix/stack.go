package yaegifix

import (
	"errors"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// StackBudget is how much the goroutine stacks of the process may grow
// while a chunk runs. yaegi v0.16.1 needs about 600 bytes of Go stack per
// interpreted call, and slows down as the stack grows (the collector scans
// it again and again): a recursion 100,000 calls deep takes 3 s, and an
// unbounded one runs for minutes towards Go's 1 GB limit, where the
// process dies, while an interrupt has no effect. 64 MB is some 100,000
// interpreted calls. Goroutines started since add GoroutineStackBudget
// each, so that many goroutines with shallow stacks (Go's
// test/chan/goroutines.go chains 10,000) are not taken for one deep
// recursion.
const StackBudget = 64 << 20

// GoroutineStackBudget is what each goroutine created since the chunk
// started adds to StackBudget: the stacks of goroutines that have ended
// stay counted (the runtime keeps them for new goroutines until a
// collection frees them), so that a program starting many short ones
// (Go's test/gcgort.go, under load) was taken for a deep recursion by
// a budget of the goroutines alive.
const GoroutineStackBudget = 64 << 10

// ErrDeepRecursion is the error of a chunk whose stacks outgrew
// StackBudget.
var ErrDeepRecursion = errors.New("stack overflow: the cell's calls nest deeper than the interpreter allows " +
	"(its goroutine stacks grew by more than 64 MB, some 100,000 interpreted calls; is a recursion missing its base case?); " +
	"the cell was stopped and the session keeps its state")

// stackSampleEvery is how often WatchStack reads the stack size.
const stackSampleEvery = 20 * time.Millisecond

// WatchStack calls overflow once if the goroutine stacks of the process
// grow by more than StackBudget (and GoroutineStackBudget for each new
// goroutine) before the returned stop is called. A
// chunk shorter than stackSampleEvery costs one reading and a timer.
func WatchStack(overflow func()) (stop func()) {
	base := stackBytes()
	baseG := goroutinesCreated()
	var mu sync.Mutex
	stopped := false
	var t *time.Timer
	check := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		budget := uint64(StackBudget)
		if g := goroutinesCreated(); g > baseG {
			budget += (g - baseG) * GoroutineStackBudget
		}
		if stackBytes() > base+budget {
			stopped = true
			overflow()
			return
		}
		t.Reset(stackSampleEvery)
	}
	mu.Lock()
	t = time.AfterFunc(stackSampleEvery, check)
	mu.Unlock()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		t.Stop()
	}
}

var stackSample = []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}

// goroutinesCreated returns the number of goroutines created since the
// process started.
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return uint64(runtime.NumGoroutine())
	}
	return s[0].Value.Uint64()
}

func stackBytes() uint64 {
	s := []metrics.Sample{stackSample[0]}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
