package kernel

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/portlab/portlab/kernel/session"
)

// BenchmarkTrivialCell measures the round trip of a trivial cell as a
// front end sees it: execute_request on shell until the idle status on
// IOPub (busy, execute_input, execute_result and the reply in between).
func BenchmarkTrivialCell(b *testing.B) {
	c := startKernel(b)
	b.ResetTimer()
	for range b.N {
		reply, _ := c.execute("1 + 1", nil)
		if reply["status"] != "ok" {
			b.Fatal(reply)
		}
	}
}

// BenchmarkStartup measures the start of a kernel in process: a fresh
// session (the standard library and display), the sockets bound, and the first
// kernel_info_reply received by a client.
func BenchmarkStartup(b *testing.B) {
	for range b.N {
		ports := freePorts(b, 5)
		ci := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: ports[0], ControlPort: ports[1],
			StdinPort: ports[2], IOPubPort: ports[3], HBPort: ports[4], Key: "k", SignatureScheme: "hmac-sha256"}
		ctx, cancel := context.WithCancel(context.Background())
		sess, err := session.New(session.Options{})
		if err != nil {
			b.Fatal(err)
		}
		k, err := New(ctx, ci, Options{Session: sess, Log: testWriter{b}})
		if err != nil {
			b.Fatal(err)
		}
		go k.Run()
		shell := zmq4.NewDealer(ctx)
		if err := shell.Dial(ci.endpoint(ci.ShellPort)); err != nil {
			b.Fatal(err)
		}
		m, _ := newMessage("kernel_info_request", nil, map[string]any{})
		frames, _ := m.encode(mustSigner(ci))
		if err := shell.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
			b.Fatal(err)
		}
		if _, err := shell.Recv(); err != nil {
			b.Fatal(err)
		}
		shell.Close()
		k.Close()
		sess.Close()
		cancel()
	}
}

// BenchmarkMemory10000Cells runs 10,000 cells through the kernel and
// reports the live heap after the first 1,000 and after all of them, and
// the growth per 1,000 cells in between: redefinitions and history must
// not make the kernel grow without bound.
func BenchmarkMemory10000Cells(b *testing.B) {
	for range b.N {
		c := startKernel(b)
		heap := func() float64 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			return float64(ms.HeapAlloc) / (1 << 20)
		}
		var at1k float64
		start := time.Now()
		for i := range 10000 {
			code := fmt.Sprintf("v := %d\nfunc f() int { return v * 2 }\nf()", i)
			if reply, _ := c.execute(code, nil); reply["status"] != "ok" {
				b.Fatal(reply)
			}
			if i == 999 {
				at1k = heap()
			}
		}
		at10k := heap()
		b.ReportMetric(at1k, "MB-heap@1k")
		b.ReportMetric(at10k, "MB-heap@10k")
		b.ReportMetric((at10k-at1k)/9, "MB/1k-cells")
		b.ReportMetric(float64(time.Since(start).Microseconds())/10000, "µs/cell")
	}
}
