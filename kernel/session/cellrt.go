package session

import (
	"context"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"reflect"
	"runtime/debug"

	"github.com/portlab/portlab/kernel/session/internal/yaegifix"
	"github.com/traefik/yaegi/interp"
)

// errStopped is the panic that ends the rest of an interrupted cell at its
// next checkpoint.
var errStopped = errors.New("the cell was interrupted")

// checkpoint stops the statements of cell when it is no longer the running
// cell or has been interrupted, and otherwise records that the cell has
// run step top-level statements. The preprocessed cells call it between
// top-level statements (_portlab.Checkpoint, see yaegifix).
func (s *Session) checkpoint(cell, step int) {
	if s.running.Load() != int64(cell) || (cellContext{s}).Err() != nil {
		panic(errStopped)
	}
	s.steps.Store(int64(step))
}

// forgetUnassigned records the names the cell of plan p would have
// defined in statements it did not reach (it was interrupted or failed),
// and those of its var declarations with initial values in chunks from
// the chunk failed on (0 when the cell failed to compile): the
// interpreter has declared them, with zero values, and a later cell that
// uses them is told so (checkUnassigned). Names the session had before
// are left alone.
func (s *Session) forgetUnassigned(p *yaegifix.Plan, before map[string]bool, cell, failed int) {
	reached := int(s.steps.Load())
	for _, a := range p.Assigned {
		if a.Step > reached && !before[a.Name] {
			s.unassigned[a.Name] = cell
		}
	}
	for i, names := range yaegifix.InitializedVars(p) {
		if i < failed {
			continue
		}
		for _, name := range names {
			if !before[name] {
				s.unassigned[name] = cell
			}
		}
	}
}

// checkUnassigned returns an error naming the first name the cell uses
// that an interrupted or failed cell declared without assigning it; the
// names the cell defines are no longer unassigned.
func (s *Session) checkUnassigned(p *yaegifix.Plan, code string) *Error {
	if len(s.unassigned) == 0 {
		return nil
	}
	for _, name := range p.Defined {
		delete(s.unassigned, name)
	}
	local := yaegifix.DefinedNames(p)
	var sc scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(code))
	sc.Init(file, []byte(code), nil, 0)
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			return nil
		}
		if tok != token.IDENT {
			continue
		}
		if cell, ok := s.unassigned[lit]; ok && !local[lit] {
			p := file.Position(pos)
			msg := fmt.Sprintf("%d:%d: %s was to be defined by a statement of cell %d that did not run (the cell was interrupted or failed before it): run that cell again or define %s",
				p.Line, p.Column, lit, cell, lit)
			return &Error{Name: "CompileError", Value: msg, Traceback: []string{"CompileError: " + msg}}
		}
	}
}

// deferCall records a call of a top-level defer statement of the running
// cell (_portlab.Defer, see yaegifix); runDeferred makes it when the cell ends.
func (s *Session) deferCall(f func()) {
	s.deferred = append(s.deferred, f)
}

// runDeferred makes the calls recorded by deferCall, last first, and
// forgets them. It returns the first panic of one of them.
func (s *Session) runDeferred(ctx context.Context) *Error {
	var first *Error
	for len(s.deferred) > 0 {
		f := s.deferred[len(s.deferred)-1]
		s.deferred = s.deferred[:len(s.deferred)-1]
		func() {
			defer func() {
				if r := recover(); r != nil && first == nil {
					first = s.cellError(ctx, interp.Panic{Value: r, Stack: debug.Stack()}, yaegifix.Chunk{})
				}
			}()
			f()
		}()
	}
	return first
}

// goroutinePanic is the cause with which a panic in a goroutine of a cell
// stops the running cell.
type goroutinePanic struct{ msg string }

func (g goroutinePanic) Error() string { return "panic in a goroutine: " + g.msg }

// goCall runs f in a new goroutine (_portlab.Go, for every go statement of a
// cell). A panic in f does not end the process, as it would in Go: it stops
// the running cell with an error that says so (Go would not go on either;
// a cell waiting for the goroutine would wait for ever), or, when no cell
// runs, is reported on the last cell's standard error; in the kernel also
// in its log.
func (s *Session) goCall(f func()) {
	go func() {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if p, ok := r.(interp.Panic); ok {
				r = p.Value
			}
			if r == errStopped { // a select of an interrupted evaluation
				return
			}
			text := fmt.Sprint(r)
			s.outMu.Lock()
			stop := s.cellStop
			s.outMu.Unlock()
			if s.origErr != nil { // the kernel: its log too
				fmt.Fprintf(s.origErr, "portlab kernel: panic in a goroutine: %s\n", text)
			}
			if s.running.Load() != 0 && stop != nil {
				stop(goroutinePanic{text})
				return
			}
			s.flush()
			s.emit("stderr", fmt.Sprintf("panic in a goroutine: %s (recovered by the kernel; in compiled Go it would end the program)\n", text))
		}()
		f()
	}()
}

// makeLen returns n, the length or capacity of a make of the type of zero
// (_portlab.MakeLen, for the make calls of a cell), after checking that the
// allocation fits in the machine's memory: the Go runtime ends the process
// when an allocation fails, with nothing the kernel could report.
func makeLen(n int, zero any) int {
	if n <= 0 || zero == nil {
		return n
	}
	t := reflect.TypeOf(zero)
	var size uintptr
	switch t.Kind() {
	case reflect.Slice, reflect.Chan:
		size = t.Elem().Size()
	case reflect.Map:
		size = t.Key().Size() + t.Elem().Size()
	}
	limit := totalMemory()
	if size == 0 || limit == 0 || uint64(n) <= limit/uint64(size) {
		return n
	}
	panic(fmt.Errorf("make(%v, %d) needs %s, more than the %s of memory of this machine (the Go runtime would end the kernel)",
		t, n, bytesString(float64(n)*float64(size)), bytesString(float64(limit))))
}

// bytesString formats a number of bytes in binary units.
func bytesString(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %s", b, units[i])
}

// selectStmt runs a select statement of a cell (_portlab.Select, see
// yaegifix's selectEdits) and returns the index of the case it chose. When
// the evaluation is interrupted while it waits, it stops the goroutine
// that runs it, as the interpreter stops its own channel operations.
func (s *Session) selectStmt(kinds string, ptrs ...any) int {
	s.outMu.Lock()
	if s.selectStop == nil {
		s.selectStop = make(chan struct{})
	}
	stop := s.selectStop
	s.outMu.Unlock()
	i, stopped := yaegifix.Select(stop, kinds, ptrs...)
	if stopped {
		panic(errStopped)
	}
	return i
}

// stopSelects ends the select statements of cells that wait, after the
// interpreter has been stopped: their goroutines end, as the
// interpreter's own ones do.
func (s *Session) stopSelects() {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if s.selectStop != nil {
		close(s.selectStop)
		s.selectStop = nil
	}
}
