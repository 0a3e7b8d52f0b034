package session

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestSelectInConcurrentGoroutines runs one select statement in several
// goroutines at once, each on channels of its own: each must receive its
// own values, and send its own.
func TestSelectInConcurrentGoroutines(t *testing.T) {
	s := newSession(t)
	code := `import "sync"
func worker(id int, in, out chan int, wrong *int, mu *sync.Mutex) {
	for k := 0; k < 300; k++ {
		in <- id*1000 + k
		select {
		case v := <-in:
			if v != id*1000+k {
				mu.Lock()
				*wrong++
				mu.Unlock()
			}
		}
		select {
		case out <- id*1000 + k:
		}
		if v := <-out; v != id*1000+k {
			mu.Lock()
			*wrong++
			mu.Unlock()
		}
	}
}
var wg sync.WaitGroup
var mu sync.Mutex
wrong := 0
for id := 0; id < 8; id++ {
	wg.Add(1)
	go func() {
		defer wg.Done()
		worker(id, make(chan int, 1), make(chan int, 1), &wrong, &mu)
	}()
}
wg.Wait()
fmt.Println("wrong", wrong)`
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rec := &recorder{}
	r := s.Execute(ctx, code, rec)
	if r.Err != nil || rec.text("stdout") != "wrong 0\n" {
		t.Errorf("output %q, error %v; want wrong 0", rec.text("stdout"), r.Err)
	}
}

// TestSelectCaseShapes runs a select of each kind of case and checks
// what Go gives.
func TestSelectCaseShapes(t *testing.T) {
	s := newSession(t)
	run(t, s, `type P struct{ X int; S string }
type Shape interface{ Area() int }
type Sq int
func (q Sq) Area() int { return int(q * q) }
type Ints chan int`)
	for _, c := range []struct{ name, code, want string }{
		{"receive and define",
			"func f(c chan int) int {\n\tselect {\n\tcase v := <-c:\n\t\treturn v\n\t}\n}\nc := make(chan int, 1)\nc <- 7\nfmt.Print(f(c))", "7"},
		{"receive with ok from a closed channel",
			"func f(c chan int) (int, bool) {\n\tselect {\n\tcase v, ok := <-c:\n\t\treturn v, ok\n\t}\n}\nc := make(chan int, 1)\nc <- 3\nclose(c)\na, b := f(c)\nx, y := f(c)\nfmt.Print(a, b, x, y)", "3 true 0 false"},
		{"receive into existing variables",
			"func f(c chan string) (s []string, ok bool) {\n\ts = make([]string, 2)\n\ti := 1\n\tselect {\n\tcase s[i], ok = <-c:\n\t}\n\treturn\n}\nc := make(chan string, 1)\nc <- \"a\"\nfmt.Print(f(c))", "[ a] true"},
		{"address of a received value, channel received from a channel",
			"func f(cc chan chan int) int {\n\tc := <-cc\n\tcc <- c\n\tselect {\n\tcase <-cc <- 2:\n\t}\n\tcc <- c\n\tselect {\n\tcase v := <-<-cc:\n\t\tp := &v\n\t\t*p++\n\t\treturn v\n\t}\n}\ncc := make(chan chan int, 1)\ncc <- make(chan int, 1)\nfmt.Print(f(cc))", "3"},
		{"receive and drop",
			"func f(c chan int) int {\n\tselect {\n\tcase <-c:\n\t\treturn len(c)\n\t}\n}\nc := make(chan int, 2)\nc <- 1\nc <- 2\nfmt.Print(f(c))", "1"},
		{"send, operands in source order",
			"func g(s string, v int) int { fmt.Print(s, \" \"); return v }\nfunc f(a, b chan int) {\n\tselect {\n\tcase a <- g(\"one\", 1):\n\t\tfmt.Print(\"sent a \")\n\tcase <-[]chan int{b}[g(\"two\", 0)]:\n\t\tfmt.Print(\"received b \")\n\t}\n}\na := make(chan int, 1)\nf(a, nil)\nfmt.Print(<-a)", "one two sent a 1"},
		{"default and nil channels",
			"func f(c chan int, d chan int) string {\n\tselect {\n\tcase <-c:\n\t\treturn \"c\"\n\tcase d <- 1:\n\t\treturn \"d\"\n\tdefault:\n\t\treturn \"default\"\n\t}\n}\nfmt.Print(f(nil, nil))", "default"},
		{"break leaves the select, not the loop",
			"func f(c chan int) (n int) {\n\tfor i := 0; i < 3; i++ {\n\t\tselect {\n\t\tcase c <- i:\n\t\t\tif i < 5 {\n\t\t\t\tbreak\n\t\t\t}\n\t\t\tn += 100\n\t\t}\n\t\tn++\n\t}\n\treturn\n}\nfmt.Print(f(make(chan int, 5)))", "3"},
		{"labelled break and continue",
			"func f(c chan int) (n int) {\nL:\n\tfor {\n\t\tselect {\n\t\tcase v := <-c:\n\t\t\tif v == 1 {\n\t\t\t\tcontinue L\n\t\t\t}\n\t\t\tn += v\n\t\tdefault:\n\t\t\tbreak L\n\t\t}\n\t}\n\treturn\n}\nc := make(chan int, 3)\nc <- 1\nc <- 2\nc <- 4\nfmt.Print(f(c))", "6"},
		{"labelled select",
			"func f(c chan int) (n int) {\nS:\n\tselect {\n\tcase v := <-c:\n\t\tif v > 0 {\n\t\t\tbreak S\n\t\t}\n\t\tn = 1\n\t}\n\treturn n + 10\n}\nc := make(chan int, 1)\nc <- 1\nfmt.Print(f(c))", "10"},
		{"struct of the cell",
			"func f(c chan P) P {\n\tselect {\n\tcase c <- P{1, \"one\"}:\n\t}\n\tselect {\n\tcase p := <-c:\n\t\treturn p\n\t}\n}\nfmt.Printf(\"%+v\", f(make(chan P, 1)))", "{X:1 S:one}"},
		{"interface of the cell",
			"func f(c chan Shape) int {\n\tselect {\n\tcase c <- Sq(3):\n\t}\n\tselect {\n\tcase v := <-c:\n\t\treturn v.Area()\n\t}\n}\nfmt.Print(f(make(chan Shape, 1)))", "9"},
		{"nil error",
			"func f(c chan error) error {\n\tselect {\n\tcase c <- nil:\n\t}\n\tselect {\n\tcase err, ok := <-c:\n\t\tif !ok {\n\t\t\treturn fmt.Errorf(\"closed\")\n\t\t}\n\t\treturn err\n\t}\n}\nfmt.Print(f(make(chan error, 1)))", "<nil>"},
		{"channel of channels and function values",
			"func f(c chan chan func() int) int {\n\tinner := make(chan func() int, 1)\n\tk := 5\n\tselect {\n\tcase c <- inner:\n\t}\n\tselect {\n\tcase ch := <-c:\n\t\tselect {\n\t\tcase ch <- func() int { return k * 2 }:\n\t\t}\n\t}\n\treturn (<-inner)()\n}\nfmt.Print(f(make(chan chan func() int, 1)))", "10"},
		{"directional and named channels",
			"func f(in <-chan int, out chan<- int, n Ints) int {\n\tselect {\n\tcase v := <-in:\n\t\tselect {\n\t\tcase out <- v + 1:\n\t\t}\n\t}\n\tselect {\n\tcase w := <-n:\n\t\treturn w\n\t}\n}\na, b := make(chan int, 1), make(chan int, 1)\nn := make(Ints, 1)\nn <- 9\na <- 1\nr := f(a, b, n)\nfmt.Print(<-b, r)", "2 9"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		rec := &recorder{}
		r := s.Execute(ctx, c.code, rec)
		cancel()
		if r.Err != nil || rec.text("stdout") != c.want {
			t.Errorf("%s: output %q, error %v; want %q", c.name, rec.text("stdout"), r.Err, c.want)
		}
	}
	// A send on a closed channel panics, as in Go.
	if err := fails(t, s, "func f(c chan int) {\n\tselect {\n\tcase c <- 1:\n\t}\n}\nc := make(chan int)\nclose(c)\nf(c)"); !strings.Contains(err.Value, "send on closed channel") {
		t.Errorf("send on a closed channel: %v", err.Value)
	}
}

// TestInterruptSelect checks that an interrupt stops a cell that waits in
// a select for ever, and the goroutines of the cell that wait in one.
func TestInterruptSelect(t *testing.T) {
	if raceDetector {
		t.Skip("yaegi's interrupted goroutine unwinds without a synchronisation the race detector sees")
	}
	s := newSession(t)
	run(t, s, "func wait(c chan int) int {\n\tselect {\n\tcase v := <-c:\n\t\treturn v\n\t}\n}")
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	rec := &recorder{}
	r := s.Execute(ctx, "var c chan int\nfor i := 0; i < 3; i++ {\n\tgo wait(c)\n}\nwait(make(chan int))", rec)
	if d := time.Since(start); d > 1200*time.Millisecond {
		t.Errorf("interrupt took %v", d)
	}
	if r.Err == nil || r.Err.Name != "Interrupted" {
		t.Fatalf("want Interrupted, got %+v", r.Err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the interrupt, %d before", n, before)
	}
	if r, rec := run(t, s, "c := make(chan int, 1)\nc <- 4\nwait(c)"); value(r) != "4" || rec.text("stderr") != "" {
		t.Errorf("after the interrupt: %s, stderr %q", value(r), rec.text("stderr"))
	}
}
