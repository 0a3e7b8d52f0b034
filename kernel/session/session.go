package session

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"log"
	"maps"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/kernel/internal/displaysym"
	"github.com/portlab/portlab/kernel/session/internal/yaegifix"
	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// Output receives what a running cell produces. The kernel turns the calls
// into IOPub messages; the REPL prints them.
type Output interface {
	// Stream receives text the cell wrote to "stdout" or "stderr".
	Stream(name, text string)
	// Display receives a bundle the cell showed (display.Show), with the
	// display id and whether it replaces the display of that id.
	Display(b display.Bundle, id string, update bool)
	// Input asks the user for a line of text.
	Input(prompt string, password bool) (string, error)
	// Clear clears the cell's output (display.ClearOutput).
	Clear(wait bool)
}

// Options configure a Session.
type Options struct {
	// CaptureStdio redirects the process's standard output and error into
	// the session, so that compiled library code that prints reaches the
	// cell's Output, and makes the session display's publisher (display.SetPublisher), so that
	// compiled code that shows things (display.ProgressBar) reaches it too.
	// Only one session of a process may set it; the kernel does, tests and
	// the REPL do not.
	CaptureStdio bool
	// Host holds the compiled packages cells may import besides the
	// standard library and display, and their documentation.
	Host Host
}

// Result is the outcome of a cell.
type Result struct {
	// Count is the cell's execution count (0 for a silent cell).
	Count int
	// Value is the bundle of the cell's last expression, nil when the cell
	// ends in a statement or its value is nil or the result of a print
	// call.
	Value *display.Bundle
	// Err is the cell's error, nil when it ran to the end.
	Err *Error
	// Page is text for the front end's pager (%doc), nil if none.
	Page *display.Bundle
}

// Error is a cell that failed: Name is "CompileError", "SyntaxError",
// "Panic", "InterpreterError" (the interpreter failed on a construct that
// compiled Go runs; see yaegifix.InterpreterFault), "Interrupted" or
// "MagicError"; Value is the message with cell
// line numbers; Traceback holds the lines a front end shows.
type Error struct {
	Name      string
	Value     string
	Traceback []string
}

// Error returns the error's name and message, "Panic: boom".
func (e *Error) Error() string { return e.Name + ": " + e.Value }

// maxHistory is the number of cells the history keeps; the oldest tenth is
// dropped when it is full.
const maxHistory = 10000

// HistoryEntry is one executed cell.
type HistoryEntry struct {
	Line   int    // execution count
	Input  string // the cell's source
	Output string // the text/plain form of its value, if any
}

// Session is a persistent interpreter for notebook cells. Its methods may
// be called from several goroutines; cells run one at a time.
type Session struct {
	opts Options

	mu      sync.Mutex // held while a cell runs
	interp  *interp.Interpreter
	imports map[yaegifix.ImportSpec]bool
	// cellImports are the imports cells made (also of a package the
	// prelude imports).
	cellImports map[yaegifix.ImportSpec]bool
	funcs       map[string]string // functions and types declared by cells: name → kind
	nresults    map[string]int    // their result counts (yaegifix.Plan's Results)
	count       int
	history     []HistoryEntry
	results     [][]any // values captured by _portlab.Value during the cell
	panics      []string
	// muted drops the running cell's output once a check of the kernel
	// has stopped it from a recovered value: what its deferred calls print
	// while the stop unwinds them is not what Go would print.
	muted   bool
	outMu   sync.Mutex
	out     Output
	cellCtx context.Context
	// cellStop ends the running cell with a cause (a panic in one of its
	// goroutines).
	cellStop context.CancelCauseFunc
	stdout   *stream
	stderr   *stream
	restore  func()
	// restorePublisher undoes display.SetPublisher on Close.
	restorePublisher func()
	origErr          *os.File
	stdinBuf         []byte

	// cellSeq numbers the cells; running is the number of the cell whose
	// statements run, 0 between cells (see Checkpoint).
	cellSeq atomic.Int64
	running atomic.Int64
	steps   atomic.Int64 // top-level statements the running cell has run
	// unassigned maps the names declared, but never assigned, by cells
	// that stopped early to the number of that cell (execution count).
	unassigned map[string]int
	// methods holds the methods declared by cells by receiver type and
	// name; varTypes the type names of variables where cells wrote them.
	methods  map[string]map[string]yaegifix.CellMethod
	varTypes map[string]string
	// genericSrc holds the declarations of the generic functions cells
	// declared, by name (yaegifix.GenericDefineEdits).
	genericSrc map[string]string
	// decls are the top-level declarations of earlier cells, and typesIm
	// the compiled packages, as go/types sees them
	// (yaegifix.IfaceCopyEdits).
	// fmtArgReady is set once yaegifix.FmtArgSource is declared.
	fmtArgReady bool
	decls       yaegifix.Decls
	typesIm     *yaegifix.SymbolImporter
	embeds      map[string][]string // struct type → the types it embeds
	// plan is the running cell's; funcWhere says where the functions
	// cells declared are ("line 2 of cell [4]").
	plan      *yaegifix.Plan
	funcWhere map[string]string
	typeSrc   map[string]typeDecl // the types cells declared
	// The names promoted through embedded fields from two depths in the
	// types of cells, with such a type (yaegifix.SelectorRefusals).
	twoDepths map[string]string
	// compiledTypeSrc holds the sources of the types of the cells that
	// compiled, also of those that then failed, whose types the
	// interpreter keeps (PhantomTypes).
	compiledTypeSrc map[string]string
	oldSlots        map[string][]reflect.Value // see freeRebound
	// deferred holds the calls of the running cell's top-level defer
	// statements, in order.
	deferred []func()
	// selectStop is closed when an evaluation is interrupted, ending the
	// cells' select statements that wait (selectStmt).
	selectStop chan struct{}
}

// preludeBody follows the imports of the prelude (preludeSource), which is
// evaluated in every new interpreter: the packages a notebook uses without
// importing them, the cell context, and the builtins the interpreter lacks.
const preludeBody = `
var ctx = _portlab.Context()
` + yaegifix.Builtins

// preludeNames are the globals of the prelude, hidden from %who.
var preludeNames = func() map[string]bool {
	names := map[string]bool{"ctx": true}
	for _, n := range yaegifix.BuiltinNames {
		names[n] = true
	}
	return names
}()

// New returns a session with a fresh interpreter.
func New(opts Options) (*Session, error) {
	s := &Session{opts: opts}
	if opts.CaptureStdio {
		s.restorePublisher = display.SetPublisher(publisher{s})
		var err error
		if s.stdout, err = newStream("stdout", false, s.emit, nil); err != nil {
			return nil, err
		}
		if s.stderr, err = newStream("stderr", true, s.emit, s.noise); err != nil {
			return nil, err
		}
		if s.origErr, s.restore, err = redirectStdio(s.stdout.w, s.stderr.w); err != nil {
			return nil, err
		}
	}
	if err := s.reset(); err != nil {
		return nil, err
	}
	return s, nil
}

// Close releases the session's pipes and restores the process's standard
// output and error.
func (s *Session) Close() error {
	if s.restore != nil {
		s.restore()
		s.stdout.close()
		s.stderr.close()
	}
	if s.restorePublisher != nil {
		s.restorePublisher()
	}
	return nil
}

// LogWriter returns where the kernel should write its own diagnostics: the
// original standard error when the session captures the process's.
func (s *Session) LogWriter() io.Writer {
	if s.origErr != nil {
		return s.origErr
	}
	return os.Stderr
}

// Count returns the execution count of the last cell.
func (s *Session) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// History returns the executed cells, oldest first (at most the last
// maxHistory).
func (s *Session) History() []HistoryEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]HistoryEntry(nil), s.history...)
}

func (s *Session) emit(name, text string) {
	s.outMu.Lock()
	out := s.out
	muted := s.muted
	s.outMu.Unlock()
	if out != nil && !muted {
		out.Stream(name, text)
	}
}

// output returns the running (or last) cell's Output.
func (s *Session) output() Output {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	return s.out
}

func (s *Session) noise(line string) {
	s.outMu.Lock()
	s.panics = append(s.panics, line)
	s.outMu.Unlock()
}

// flush forwards what compiled code has written to the captured standard
// output and error so far.
func (s *Session) flush() {
	if s.stdout != nil {
		s.stdout.flush()
		s.stderr.flush()
	}
}

// cellWriter is the interpreter's standard output or error: it forwards
// each write to the running cell's Output at once, dropping the lines the
// interpreter writes on its own when a cell panics.
type cellWriter struct {
	s    *Session
	name string
}

func (w cellWriter) Write(p []byte) (int, error) {
	if w.name == "stderr" {
		if t := strings.TrimRight(string(p), "\r\n"); yaegifix.Noise.MatchString(t) {
			w.s.noise(t)
			return len(p), nil
		}
	}
	w.s.flush()
	w.s.emit(w.name, string(p))
	return len(p), nil
}

// recoverRead is yaegifix.RecoverRead, which mutes the cell when it
// stops it.
func (s *Session) recoverRead(v any) any {
	defer func() {
		if p := recover(); p != nil {
			s.flush()
			s.outMu.Lock()
			s.muted = true
			s.outMu.Unlock()
			panic(p)
		}
	}()
	return yaegifix.RecoverRead(s.interp, v, s.imports[yaegifix.ImportSpec{Path: "reflect"}])
}

// reset replaces the interpreter by a fresh one with the prelude.
func (s *Session) reset() error {
	// os.Stdout, os.Stderr and os.Stdin in cells are the writers and the
	// reader below, so that everything interpreted code prints reaches the
	// cell in order.
	it := yaegifix.New(interp.Options{
		Stdin:  stdinReader{s},
		Stdout: cellWriter{s, "stdout"},
		Stderr: cellWriter{s, "stderr"},
		Env:    os.Environ(),
	})
	if err := it.Use(stdlib.Symbols); err != nil {
		return err
	}
	if err := it.Use(yaegifix.Stdlib()); err != nil {
		return err
	}
	if err := it.Use(displaysym.Symbols); err != nil {
		return err
	}
	if s.opts.Host.Symbols != nil {
		if err := it.Use(s.opts.Host.Symbols); err != nil {
			return err
		}
	}
	if err := it.Use(s.exports()); err != nil {
		return err
	}
	s.interp = it
	yaegifix.UseFmtFixes(it, cellWriter{s, "stdout"})
	yaegifix.UseReflectFixes(it)
	yaegifix.UseErrorsFixes(it)
	yaegifix.UseXMLFixes(it)
	yaegifix.UseJSONFixes(it)
	s.imports = map[yaegifix.ImportSpec]bool{}
	s.cellImports = map[yaegifix.ImportSpec]bool{}
	s.funcs = map[string]string{}
	s.nresults = map[string]int{}
	s.unassigned = map[string]int{}
	s.methods = map[string]map[string]yaegifix.CellMethod{}
	s.varTypes = map[string]string{}
	s.genericSrc = map[string]string{}
	s.decls.Reset()
	s.fmtArgReady = false
	var exports []interp.Exports // made when go/types first imports a package
	s.typesIm = &yaegifix.SymbolImporter{Symbols: func(path string) map[string]reflect.Value {
		if exports == nil {
			exports = []interp.Exports{stdlib.Symbols, yaegifix.Stdlib(), displaysym.Symbols, s.opts.Host.Symbols, s.exports()}
		}
		for _, e := range exports {
			for key, syms := range e {
				if dir, _ := lastSlash(key); dir == path {
					return syms
				}
			}
		}
		return nil
	}}
	s.embeds = map[string][]string{}
	s.funcWhere = map[string]string{}
	s.typeSrc = map[string]typeDecl{}
	s.twoDepths = map[string]string{}
	s.compiledTypeSrc = map[string]string{}
	s.oldSlots = map[string][]reflect.Value{}
	p, err := yaegifix.Prepare(preludeSource(s.opts.Host.Imports), s.imports, nil)
	if err != nil {
		return fmt.Errorf("session prelude: %w", err)
	}
	for _, c := range p.Chunks {
		if _, err := s.evalChunk(context.Background(), c); err != nil {
			return fmt.Errorf("session prelude: %w", err)
		}
		s.addImports(c.Imports)
	}
	return nil
}

// exports returns the session-bound symbols: the package the preprocessed
// cells call, and display's functions that talk to the running cell.
func (s *Session) exports() interp.Exports {
	rich := []reflect.Type{
		reflect.TypeOf((*display.Renderer)(nil)).Elem(),
		reflect.TypeOf((*display.HTMLer)(nil)).Elem(),
		reflect.TypeOf((*display.SVGer)(nil)).Elem(),
		reflect.TypeOf((*display.PNGer)(nil)).Elem(),
		reflect.TypeOf((*display.Markdowner)(nil)).Elem(),
		reflect.TypeOf((*display.JSONer)(nil)).Elem(),
		reflect.TypeOf((*yaegifix.CellError)(nil)).Elem(),
		reflect.TypeOf((*fmt.Stringer)(nil)).Elem(),
	}
	pub := publisher{s}
	value := reflect.ValueOf(func(vs ...any) { s.results = append(s.results, vs) })
	show := reflect.ValueOf(func(vs ...any) {
		for _, v := range vs {
			pub.Publish(display.Render(v), "", false)
		}
	})
	showAs := reflect.ValueOf(func(id string, v any) { pub.Publish(display.Render(v), id, false) })
	update := reflect.ValueOf(func(id string, v any) { pub.Publish(display.Render(v), id, true) })
	render := reflect.ValueOf(display.Render)
	cellCtx := cellContext{s}
	return interp.Exports{
		"portlab.kernel/cell/cell": {
			"Value":   value,
			"Context": reflect.ValueOf(func() context.Context { return cellCtx }),
			"Clear":   reflect.ValueOf(yaegifix.Clear),
			// Called by the cells as yaegifix rewrites them.
			"Defer":      reflect.ValueOf(s.deferCall),
			"Go":         reflect.ValueOf(s.goCall),
			"Checkpoint": reflect.ValueOf(s.checkpoint),
			"MakeLen":    reflect.ValueOf(makeLen),
			// Select statements (yaegifix's selectEdits).
			"Select":  reflect.ValueOf(s.selectStmt),
			"Relay":   reflect.ValueOf(yaegifix.Relay),
			"Print":   reflect.ValueOf(yaegifix.Printer(cellWriter{s, "stderr"}, false)),
			"Println": reflect.ValueOf(yaegifix.Printer(cellWriter{s, "stderr"}, true)),
			"Recover": reflect.ValueOf(func(v any) any { return yaegifix.RecoverIn(s.interp, v) }),
			// Deferred calls of functions with several (deferPanicEdits).
			"NewDefers": reflect.ValueOf(yaegifix.NewDefers),
			"Deferred":  reflect.ValueOf(yaegifix.Deferred),
			// Recovered values the cell reads (yaegifix's printEdits).
			"RecoverRead": reflect.ValueOf(s.recoverRead),
			// Indices of cells that read it (boundsEdits).
			"Index":       reflect.ValueOf(yaegifix.Index),
			"SliceIndex":  reflect.ValueOf(yaegifix.SliceIndex),
			"Slice3Index": reflect.ValueOf(yaegifix.Slice3Index),
			"ArrayLen":    reflect.ValueOf(yaegifix.ArrayLen),
			// slices.Sort and slices.Reverse (yaegifix's genericEdits).
			"SlicesSort":    reflect.ValueOf(yaegifix.SlicesSort),
			"SlicesReverse": reflect.ValueOf(yaegifix.SlicesReverse),
			// Range loops over what may be a string (rangeStringEdits).
			"RangeString": reflect.ValueOf(yaegifix.RangeString),
			// Type assertions to interfaces (assertEdits).
			"AssertFailed": reflect.ValueOf(yaegifix.AssertFailed),
			// Shifts by a count that may be negative (shiftEdits).
			"ShiftCount": reflect.ValueOf(yaegifix.ShiftCount),
			// Negative zero for a float parameter (negZeroEdits).
			"NegativeZeroArgument": reflect.ValueOf(yaegifix.NegativeZeroArgument),
			"ErrNegativeShift":     reflect.ValueOf(&yaegifix.ErrNegativeShift).Elem(),
			// Method expressions of interfaces with a nil receiver (methodExprEdits).
			"ErrNilMethod": reflect.ValueOf(&yaegifix.ErrNilMethod).Elem(),
			// Comparisons of what may be interfaces (EqualityEdits).
			"Equal": reflect.ValueOf(func(a, b any) bool {
				return yaegifix.EqualIn(s.interp, a, b)
			}),
			// Comparisons whose operands' types go/types knows (typedComparisons).
			"EqualAs": reflect.ValueOf(func(a, b any, da, db string, hint any) bool {
				return yaegifix.EqualAs(s.interp, s.hasAllMethods, a, b, da, db, hint)
			}),
			// Assertions to struct types of the cells (StandInEdits).
			"StandIn": reflect.ValueOf(yaegifix.StandIn),
			// Comma-ok assertions to interfaces (methodSetEdits).
			"LacksValueMethod": reflect.ValueOf(func(x any, iface, methods string) bool {
				return yaegifix.LacksValueMethod(x, iface, methods, s.interfaceSrc)
			}),
			// Range loops over functions (funcRangeLoops).
			"ErrRangeAfterFalse": reflect.ValueOf(&yaegifix.ErrRangeAfterFalse).Elem(),
			"ErrRangeAfterExit":  reflect.ValueOf(&yaegifix.ErrRangeAfterExit).Elem(),
			// Type switches with function types (funcSwitchEdits).
			"FuncValue": reflect.ValueOf(yaegifix.FuncValue),
			// case T: in generic functions (semanticEdits).
			"TypeParamCase": reflect.ValueOf(yaegifix.TypeParamCase),
			// Values of the cells' types in interfaces handed to fmt (fmtArgEdits).
			"FmtStandIn": reflect.ValueOf(yaegifix.FmtStandIn),
			"FmtSame":    reflect.ValueOf(yaegifix.FmtSame),
			"FmtWrap": reflect.ValueOf(func(v any, kind int, fs ...any) any {
				return yaegifix.FmtWrap(s.interp, v, kind, fs...)
			}),
			"FmtState": reflect.ValueOf((*fmt.State)(nil)),
		},
		"github.com/portlab/portlab/kernel/display/display": {
			"Show":     show,
			"ShowAs":   showAs,
			"Update":   update,
			"Render":   render,
			"Input":    reflect.ValueOf(func(prompt string) string { v, _ := pub.Input(prompt, false); return v }),
			"Password": reflect.ValueOf(func(prompt string) string { v, _ := pub.Input(prompt, true); return v }),
			"Context":  reflect.ValueOf(func() context.Context { return cellCtx }),
			"ClearOutput": reflect.ValueOf(func(wait bool) {
				s.flush()
				if out := s.output(); out != nil {
					out.Clear(wait)
				}
			}),
		},
		".": {"MapTypes": reflect.ValueOf(map[reflect.Value][]reflect.Type{
			value: rich, show: rich, showAs: rich, update: rich, render: rich,
		})},
	}
}

// Execute runs a cell and returns its result; the cell gets the next
// execution count and enters the history. Cancelling ctx interrupts it.
func (s *Session) Execute(ctx context.Context, code string, out Output) Result {
	return s.execute(ctx, code, out, true)
}

// ExecuteSilently runs a cell without counting it or recording it in the
// history (Jupyter's silent execution).
func (s *Session) ExecuteSilently(ctx context.Context, code string, out Output) Result {
	return s.execute(ctx, code, out, false)
}

func (s *Session) execute(ctx context.Context, code string, out Output, store bool) Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	if out == nil {
		out = discard{}
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	s.outMu.Lock()
	s.out = out
	s.muted = false
	s.panics = nil
	s.cellCtx = ctx
	s.cellStop = stop
	s.outMu.Unlock()
	s.stdinBuf = nil
	var r Result
	if store {
		s.count++
		r.Count = s.count
	}
	r.Value, r.Err = s.run(ctx, code, out)
	if r.Value != nil && r.Value.Metadata["portlab/page"] == true {
		delete(r.Value.Metadata, "portlab/page")
		r.Page, r.Value = r.Value, nil
	}
	s.flush()
	if store {
		e := HistoryEntry{Line: s.count, Input: code}
		if r.Value != nil {
			e.Output = r.Value.PlainText()
		}
		if len(s.history) == maxHistory {
			s.history = append(s.history[:0], s.history[maxHistory/10:]...)
		}
		s.history = append(s.history, e)
	}
	if s.count%100 == 0 {
		yaegifix.TrimFileSet(s.interp)
	}
	return r
}

// run evaluates a cell: magics first, then the preprocessed chunks.
func (s *Session) run(ctx context.Context, code string, out Output) (*display.Bundle, *Error) {
	trimmed := strings.TrimSpace(code)
	if strings.HasPrefix(trimmed, "%") {
		return s.magic(ctx, trimmed, out)
	}
	return s.eval(ctx, code)
}

func (s *Session) eval(ctx context.Context, code string) (*display.Bundle, *Error) {
	cell := int(s.cellSeq.Add(1))
	var typeSrcs []string
	for _, d := range s.typeSrc {
		typeSrcs = append(typeSrcs, d.src)
	}
	code, err := yaegifix.GenericDefineEdits(code, s.genericSrc, typeSrcs, s.globalTypeSrc)
	if err != nil {
		return nil, syntaxError(err)
	}
	code = yaegifix.MethodValueEdits(code, typeSrcs, s.cellMethods(), s.isGlobalVar)
	imports := make([]yaegifix.ImportSpec, 0, len(s.imports))
	for is := range s.imports {
		imports = append(imports, is)
	}
	code = yaegifix.InitOrderEdits(code, &s.decls, imports, s.typesIm)
	code, resolved := yaegifix.PromotedPathEdits(code, &s.decls, imports, s.typesIm)
	declSrc := code
	if code, err = yaegifix.IfaceCopyEdits(code, &s.decls, imports, s.typesIm, typeSrcs); err != nil {
		return nil, syntaxError(err)
	}
	p, err := yaegifix.PrepareCell(code, s.imports, s.isGlobalInt, s.isGlobalOrFunc, s.isInterface, s.nresults, s.isCompiledVar, cell)
	if err != nil {
		return nil, syntaxError(err)
	}
	if e := s.checkUnassigned(p, code); e != nil {
		return nil, e
	}
	if imps, ok := importsOf(code); ok {
		for _, is := range imps {
			if n := is.Name; n != "_" && n != "." {
				if n == "" {
					n = yaegifix.DefaultName(is.Path)
				}
				if _, typ := s.typeSrc[n]; !preludeNames[n] && (s.isGlobalOrFunc(n) || typ) {
					msg := fmt.Sprintf("%s already declared by a cell: the import of %q would not be seen; import it under another name (import x %q)", n, is.Path, is.Path)
					return nil, &Error{Name: "CompileError", Value: msg, Traceback: []string{"CompileError: " + msg}}
				}
			}
			s.cellImports[is] = true
		}
	} else {
		s.cellImports[yaegifix.ImportSpec{Path: "?"}] = true
	}
	if e := s.checkNames(p, code); e != nil {
		return nil, e
	}
	if err := yaegifix.ConcreteAssertions(declSrc, typeSrcs); err != nil {
		return nil, syntaxError(err)
	}
	if err := yaegifix.TypedNilRefusals(declSrc, s.isPointerVar, s.isCompiledIfaceVar); err != nil {
		return nil, syntaxError(err)
	}
	if err := yaegifix.SelectorRefusals(declSrc, typeSrcs, s.cellMethods(), s.imports[yaegifix.ImportSpec{Path: "reflect"}], s.isGlobalVar, resolved, s.twoDepths); err != nil {
		return nil, syntaxError(err)
	}
	if err := yaegifix.LocalTypeRefusals(declSrc, s.compiledTypes(), yaegifix.PhantomTypes(declSrc, s.compiledTypes()), s.isGenericFunc(declSrc)); err != nil {
		return nil, syntaxError(err)
	}
	yaegifix.EqualityEdits(p, s.isGlobalVar, s.isConcreteGlobal, typeSrcs, len(s.methods) > 0 || len(typeSrcs) > 0)
	yaegifix.StandInEdits(p, typeSrcs)
	s.plan = p
	defer func() { s.plan = nil }()
	before := map[string]bool{}
	oldValues := map[string]reflect.Value{}
	for name, v := range s.interp.Globals() {
		before[name] = true
		oldValues[name] = v
	}
	defer s.freeRebound(p, oldValues)
	s.results = nil
	// The whole cell compiles before any of it runs: a cell that fails to
	// compile has no effect but the declarations the interpreter keeps.
	var syms *yaegifix.Symbols
	if len(p.Defined) > 0 || len(p.Methods) > 0 || len(p.TypeSrcs) > 0 || len(p.Assigned) > 0 {
		// What the interpreter declares for a cell that then fails to
		// compile is undone (yaegifix.Symbols).
		names := append([]string(nil), p.Defined...)
		for name := range p.TypeSrcs {
			names = append(names, name)
		}
		for _, m := range p.Methods {
			names = append(names, m.Recv)
		}
		for _, a := range p.Assigned {
			names = append(names, a.Name)
		}
		for _, vs := range yaegifix.InitializedVars(p) {
			names = append(names, vs...)
		}
		syms = yaegifix.SnapshotSymbols(s.interp, names)
		yaegifix.DropMethods(s.interp, p.Methods)
	}
	// Generic types whose instantiations the interpreter makes one type
	// are refused once they have two (PhantomTypes).
	phantom := yaegifix.PhantomTypes(declSrc, s.compiledTypes())
	// The instantiations a cell that fails to compile leaves behind are
	// dropped (also without phantom types): with them, the same cell run
	// again compiled and ran wrongly (Go's typeparam/issue53087.go: a
	// panic where Go runs).
	var instancesBefore map[string]bool
	generics := len(phantom) > 0 || strings.Contains(code, "[") || len(s.genericSrc) > 0
	if generics {
		instancesBefore = yaegifix.InstanceSet(s.interp)
	}
	if !s.fmtArgReady {
		for _, c := range p.Chunks {
			if strings.Contains(c.Src, yaegifix.FmtArgFunc+"(") {
				if _, err := s.interp.Eval(yaegifix.FmtArgSource); err != nil {
					return nil, &Error{Name: "InterpreterError", Value: "the kernel's fmt helper failed to compile: " + err.Error()}
				}
				s.fmtArgReady = true
				break
			}
		}
	}
	progs := make([]*interp.Program, len(p.Chunks))
	for i, c := range p.Chunks {
		last := i == len(p.Chunks)-1
		prog, err := s.compileChunk(c)
		if err != nil && last && p.Wrapped {
			// The expression has no value, or an error whose column the
			// wrapping would shift: compile the chunk as written.
			c.Src = p.Unwrapped
			p.Chunks[i] = c
			p.Wrapped = false
			prog, err = s.compileChunk(c)
		}
		if err != nil {
			syms.Restore()
			if generics {
				yaegifix.DropInstances(s.interp, instancesBefore)
			}
			s.syncFrame()
			s.steps.Store(0)
			s.forgetUnassigned(p, before, s.count, 0)
			return nil, s.compileError(ctx, err, c)
		}
		s.addImports(c.Imports)
		progs[i] = prog
	}
	if inst := yaegifix.PhantomInstances(s.interp, phantom, s.sharedPackageNames()); len(inst) > 0 {
		syms.Restore()
		yaegifix.DropInstances(s.interp, instancesBefore)
		s.syncFrame()
		s.steps.Store(0)
		s.forgetUnassigned(p, before, s.count, 0)
		msg := yaegifix.PhantomRefusal(phantom, inst)
		return nil, &Error{Name: "CompileError", Value: msg, Traceback: []string{"CompileError: " + msg}}
	}
	for name, src := range p.TypeSrcs {
		// The interpreter keeps the first definition of a type.
		if _, ok := s.compiledTypeSrc[name]; !ok {
			s.compiledTypeSrc[name] = src
		}
	}
	s.decls.Learn(declSrc)
	s.steps.Store(0)
	s.running.Store(int64(cell))
	defer s.running.Store(0)
	var cellErr *Error
	failed := len(progs)
	for i, prog := range progs {
		if ctx.Err() != nil {
			cellErr = s.cellError(ctx, ctx.Err(), p.Chunks[i])
			failed = i
			break
		}
		if _, err := s.executeChunk(ctx, prog); err != nil {
			failed = i
			cellErr = s.cellError(ctx, err, p.Chunks[i])
			if c := p.Chunks[i]; cellErr.Name == "Panic" && c.Decl && yaegifix.RunsNoCode(c.Src) {
				// Declarations that run nothing of the cell (no var
				// initializer, no init): the panic is the interpreter's,
				// as in its instantiation of generic types.
				msg := "the interpreter failed on the declarations of the cell (" + cellErr.Value + "), which run no code of the cell in Go: " +
					"a construct here, often a generic type or function, is beyond what it runs the way Go does"
				cellErr = &Error{Name: "InterpreterError", Value: msg, Traceback: []string{"InterpreterError: " + msg}}
			}
			break
		}
		if c := p.Chunks[i]; !c.Decl && int64(c.LastStep) > s.steps.Load() {
			s.steps.Store(int64(c.LastStep))
		}
	}
	if cellErr != nil {
		s.forgetUnassigned(p, before, s.count, failed)
	}
	if err := s.runDeferred(ctx); err != nil && cellErr == nil {
		cellErr = err
	}
	for _, name := range p.Defined {
		s.funcs[name] = "defined"
	}
	generic := yaegifix.GenericFuncs(code)
	for _, name := range p.Defined {
		if _, ok := generic[name]; !ok {
			delete(s.genericSrc, name)
		}
	}
	maps.Copy(s.genericSrc, generic)
	if p.Results != nil {
		s.nresults = p.Results
	}
	// The cell compiled: the interpreter has its types, also when it
	// then failed.
	for name, src := range p.TypeSrcs {
		s.typeSrc[name] = typeDecl{src, fmt.Sprintf("line %d of cell [%d]", p.TypeLines[name], s.count)}
	}
	for name, line := range p.FuncLines {
		s.funcWhere[name] = fmt.Sprintf("line %d of cell [%d]", line, s.count)
	}
	s.learnTypes(p)
	if cellErr != nil {
		return nil, cellErr
	}
	if !p.Wrapped || len(s.results) == 0 {
		return nil, nil
	}
	vs := s.results[len(s.results)-1]
	if len(vs) == 0 || len(vs) == 1 && display.IsNil(vs[0]) {
		return nil, nil
	}
	b := display.Values(vs...)
	return &b, nil
}

// hideablePrelude are the packages of the prelude whose names a cell may
// declare (see checkNames).
var hideablePrelude = map[string]bool{"math": true, "os": true, "strings": true}

// preludeNameFree reports whether a cell may declare name, the name of
// the import is: a package of hideablePrelude that no cell imported, this
// one neither, and that code does not select from (name.X).
func (s *Session) preludeNameFree(is yaegifix.ImportSpec, name string, p *yaegifix.Plan, code string) bool {
	if is.Name != "" || !hideablePrelude[is.Path] || s.cellImports[yaegifix.ImportSpec{Path: "?"}] {
		return false
	}
	for ci := range s.cellImports {
		if ci.Path == is.Path || ci.Name == name {
			return false
		}
	}
	if regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(name) + `\s*\.`).MatchString(code) {
		return false
	}
	// Only a cell of declarations, which Go's file scope is, and not a
	// statement (strings := "a,b" is a local variable in Go, and more
	// likely a slip in a notebook).
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+code, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == name {
				return true
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						if n.Name == name {
							return true
						}
					}
				case *ast.TypeSpec:
					if spec.Name.Name == name {
						return true
					}
				}
			}
		}
	}
	return false
}

// importsOf returns the imports code, a cell, begins with, or false when
// they cannot be read.
func importsOf(code string) ([]yaegifix.ImportSpec, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+code, parser.ImportsOnly)
	if err != nil {
		return nil, false
	}
	var specs []yaegifix.ImportSpec
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return nil, false
		}
		is := yaegifix.ImportSpec{Path: path}
		if spec.Name != nil {
			is.Name = spec.Name.Name
		}
		specs = append(specs, is)
	}
	return specs, true
}

// A typeDecl is the source of a type a cell declared and where.
type typeDecl struct{ src, where string }

// checkNames refuses a cell that declares at top level the name of a
// package the session imports (Go rejects it too: the name is declared
// by the import; yaegi v0.16.1 lets the variable hide the package for
// the rest of the session, and a new import cannot undo it), and one that
// declares again a type with another definition (yaegi v0.16.1 keeps the
// first silently). A name of a package only the prelude imports (math,
// os, strings; not fmt, whose calls the kernel rewrites by that name) may
// be declared by a cell of declarations only (var, const, func, type)
// that does not select from it (code has no strings.X): as in a Go file
// that does not import the package, the name is the cell's from then on
// (Go's typeparam/ordered.go declares var strings).
func (s *Session) checkNames(p *yaegifix.Plan, code string) *Error {
	refuse := func(msg string) *Error {
		return &Error{Name: "CompileError", Value: msg, Traceback: []string{"CompileError: " + msg}}
	}
	for _, name := range p.Defined {
		for is := range s.imports {
			if is.Name == name || is.Name == "" && yaegifix.DefaultName(is.Path) == name {
				if s.preludeNameFree(is, name, p, code) {
					continue
				}
				return refuse(fmt.Sprintf("%s already declared through import of package %s (%q): a variable, function or type of that name "+
					"would hide the package for the rest of the session; choose another name", name, name, is.Path))
			}
		}
	}
	for name, src := range p.TypeSrcs {
		if old, ok := s.typeSrc[name]; ok && old.src != src {
			return refuse(fmt.Sprintf("%d: type %s is already declared differently (at %s: %s); the interpreter cannot change a type once declared "+
				"and would keep the old one: give the new type another name (or restart the kernel)", p.TypeLines[name], name, old.where, old.src))
		}
	}
	return nil
}

// freeRebound frees the old variables of the names the cell defined again,
// and the temporaries of its rewriting: yaegi v0.16.1 gives a redefined
// global a new slot of its frame and keeps the old one, so that each
// re-run of data := <10 MB> kept another 10 MB alive (see yaegifix doc).
// Functions compiled before the redefinition that use the name still read
// the old slot (like yaegi#1673): every old slot of the same type gets the
// new value (they see what the name now holds, and the old value is
// garbage); an old slot of another type keeps its value, never a zero the
// function did not see. The interpreter's unnamed slots that still hold
// an old value are replaced by fresh ones (yaegifix.FreeTemporaries).
func (s *Session) freeRebound(p *yaegifix.Plan, old map[string]reflect.Value) {
	freed := map[yaegifix.Identity]bool{}
	defer func() { yaegifix.FreeTemporaries(s.interp, freed) }()
	now := s.interp.Globals()
	zero := func(v reflect.Value) {
		if v.IsValid() && v.CanSet() && !v.IsZero() {
			v.SetZero()
		}
	}
	for _, name := range p.Defined {
		o, had := old[name]
		n, has := now[name]
		if !had || !has || !o.CanAddr() || !n.CanAddr() || o.UnsafeAddr() == n.UnsafeAddr() {
			continue
		}
		// Functions compiled before see the new value in the old slots, as
		// a notebook reader expects, and the old value is garbage. An old
		// slot of another type keeps its value: zeroing it would make such
		// a function compute with a zero it never saw.
		if id, ok := yaegifix.IdentityOf(o); ok {
			if nid, ok := yaegifix.IdentityOf(n); !ok || nid != id {
				freed[id] = true
			}
		}
		var slots []reflect.Value
		for _, old := range append(s.oldSlots[name], o) {
			if old.CanSet() && old.Type() == n.Type() {
				old.Set(n)
				slots = append(slots, old)
			}
		}
		s.oldSlots[name] = slots
	}
	for name, v := range now {
		if strings.HasPrefix(name, yaegifix.TempPrefix) {
			zero(v)
		}
	}
}

// addImports records imports the interpreter has evaluated.
func (s *Session) addImports(specs []yaegifix.ImportSpec) {
	for _, is := range specs {
		s.imports[is] = true
	}
}

// compileChunk compiles one chunk with its lines where they are in the
// cell, recovering from any panic of the interpreter.
func (s *Session) compileChunk(c yaegifix.Chunk) (prog *interp.Program, err error) {
	// The interpreter logs some of its compile panics ("nil reflect type")
	// to the standard logger before it panics: the message is the
	// error's, and it would reach the terminal too.
	w := log.Writer()
	log.SetOutput(io.Discard)
	defer func() {
		log.SetOutput(w)
		if r := recover(); r != nil {
			err = interp.Panic{Value: r, Stack: debug.Stack()}
		}
	}()
	// One extra line: the interpreter's wrapper shares the first line.
	return s.interp.Compile(strings.Repeat("\n", c.Line) + c.Src)
}

// syncFrame runs an empty statement after a chunk failed to compile: the
// interpreter has declared the chunk's globals but sizes its memory for
// them only when code runs, and Globals would fail until then.
func (s *Session) syncFrame() {
	if _, err := s.evalChunk(context.Background(), yaegifix.Chunk{Src: "_ = 0"}); err != nil {
		fmt.Fprintf(s.LogWriter(), "portlab session: %v\n", err)
	}
}

// executeChunk runs a compiled chunk, recovering from any panic of the
// interpreter.
func (s *Session) executeChunk(ctx context.Context, prog *interp.Program) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = interp.Panic{Value: r, Stack: debug.Stack()}
		}
	}()
	before := runtime.NumGoroutine()
	cctx, cancel := context.WithCancelCause(ctx)
	stop := yaegifix.WatchStack(func() { cancel(yaegifix.ErrDeepRecursion) })
	v, err = s.interp.ExecuteWithContext(cctx, prog)
	stop()
	if e := cctx.Err(); e != nil && err == e {
		s.stopSelects()
	}
	overflow := ctx.Err() == nil && context.Cause(cctx) == yaegifix.ErrDeepRecursion
	cancel(nil)
	yaegifix.ForgetCompiled(s.interp)
	if overflow {
		// The interpreter unwinds the deep stack after it was stopped: wait
		// for it longer than for an interrupt.
		settleFor(before, 5*time.Second)
		return reflect.Value{}, yaegifix.ErrDeepRecursion
	}
	if ctx.Err() != nil {
		settle(before)
	}
	return v, err
}

// evalChunk compiles and runs one chunk (the prelude).
func (s *Session) evalChunk(ctx context.Context, c yaegifix.Chunk) (reflect.Value, error) {
	prog, err := s.compileChunk(c)
	if err != nil {
		return reflect.Value{}, err
	}
	return s.executeChunk(ctx, prog)
}

// settle waits, up to half a second, until the goroutine of an
// interrupted evaluation has ended: the interpreter returns at once when
// the context is cancelled, while the interpreted code stops at its next
// step, and the next cell must not run beside it.
func settle(goroutines int) { settleFor(goroutines, 500*time.Millisecond) }

// settleFor is settle with another limit.
func settleFor(goroutines int, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}

// position matches the line:column positions in the interpreter's messages.
var position = regexp.MustCompile(`(?:_\.go:)?(\d+):(\d+)`)

// cellLines rewrites the interpreter's positions in msg as cell positions.
func cellLines(msg string) string {
	return position.ReplaceAllStringFunc(msg, func(m string) string {
		sub := position.FindStringSubmatch(m)
		line, _ := strconv.Atoi(sub[1])
		if line <= 1 {
			return m
		}
		return fmt.Sprintf("%d:%s", line-1, sub[2])
	})
}

func (s *Session) cellError(ctx context.Context, err error, c yaegifix.Chunk) *Error {
	var gp goroutinePanic
	if errors.As(context.Cause(ctx), &gp) {
		if m := yaegifix.ExplainPanic(gp.msg); yaegifix.InterpreterFault(m) {
			msg := "in a goroutine, " + yaegifix.InterpreterFaultMessage(m)
			return &Error{Name: "InterpreterError", Value: msg, Traceback: []string{"InterpreterError: " + msg}}
		}
		msg := "panic in a goroutine: " + gp.msg + " (in compiled Go it would end the program; the kernel stopped the cell and keeps its state)"
		return &Error{Name: "Panic", Value: msg, Traceback: []string{"panic: " + msg}}
	}
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return &Error{Name: "Interrupted", Value: "the cell was interrupted",
			Traceback: []string{"Interrupted: the cell was interrupted; the session keeps its state"}}
	}
	if errors.Is(err, yaegifix.ErrDeepRecursion) {
		msg := err.Error()
		return &Error{Name: "Panic", Value: msg, Traceback: []string{"panic: " + msg}}
	}
	var p interp.Panic
	if errors.As(err, &p) {
		value := fmt.Sprint(p.Value)
		if yaegifix.IsRangePanic(p.Value) {
			msg := yaegifix.NilTypeMessage(c.Src)
			return &Error{Name: "CompileError", Value: msg, Traceback: []string{"CompileError: " + msg}}
		}
		s.flush()
		s.outMu.Lock()
		frames := append([]string(nil), s.panics...)
		s.outMu.Unlock()
		value = yaegifix.ExplainPanic(value)
		name := "Panic"
		if yaegifix.InterpreterFault(value) {
			name, value = "InterpreterError", yaegifix.InterpreterFaultMessage(value)
		}
		tb := []string{"panic: " + value}
		if name != "Panic" {
			tb[0] = name + ": " + value
		}
		// The interpreter's positions of the frames are those of some
		// node of the same kind (yaegi v0.16.1 finds the node by its
		// function): the traceback names the functions and where they
		// are declared, and the cell's statement by the checkpoints.
		var last string
		repeat := 0
		addFrame := func() {
			if last == "" {
				return
			}
			line := "    in " + last
			if where, ok := s.funcWhere[strings.SplitN(last, ".", 2)[0]]; ok {
				line += " (declared at " + where + ")"
			}
			if repeat > 1 {
				line += fmt.Sprintf(", %d calls deep", repeat)
			}
			tb = append(tb, line)
		}
		for _, f := range frames {
			m := yaegifix.Noise.FindStringSubmatch(f)
			if m == nil || m[1] == "" {
				continue
			}
			fn := f[strings.Index(f, "panic: ")+len("panic: "):]
			fn = strings.TrimPrefix(strings.TrimSuffix(fn, "(...)"), "main.")
			if fn == "main" || strings.HasPrefix(fn, "_portlab") {
				continue // the cell itself: its line comes from the checkpoints
			}
			if fn == last {
				repeat++
				continue
			}
			addFrame()
			last, repeat = fn, 1
		}
		addFrame()
		if s.plan != nil && s.running.Load() != 0 && (!c.Decl || c.Call()) {
			if n := int(s.steps.Load()); n < len(s.plan.StepLines) {
				tb = append(tb, fmt.Sprintf("    at line %d of the cell", s.plan.StepLines[n]))
			}
		}
		if len(frames) == 0 && !isRuntimeValue(p.Value) {
			tb = append(tb, "    (inside the interpreter; the session keeps its state)")
		}
		return &Error{Name: name, Value: value, Traceback: tb}
	}
	var list scanner.ErrorList
	if errors.As(err, &list) {
		return syntaxError(yaegifix.ShiftError(list, -1))
	}
	msg := yaegifix.ExplainCompileError(cellLines(err.Error()))
	return &Error{Name: "CompileError", Value: msg, Traceback: []string{"CompileError: " + msg}}
}

// compileError is cellError for a chunk that failed to compile: it names
// an undefined name where the interpreter's message does not (see
// yaegifix.UndefinedName), and words the messages of an import that is not
// available and of positions outside the cell for a Go programmer.
func (s *Session) compileError(ctx context.Context, err error, c yaegifix.Chunk) *Error {
	msg := err.Error()
	var p interp.Panic
	isPanic := errors.As(err, &p)
	if isPanic && yaegifix.IsRangePanic(p.Value) {
		return s.cellError(ctx, err, c)
	}
	if isPanic || strings.Contains(msg, "constant definition loop") {
		if name, line, col, ok := yaegifix.UndefinedName(c, s.knownName); ok {
			text := fmt.Sprintf("%d:%d: undefined: %s", line, col, name)
			if _, std := stdlib.Symbols[name+"/"+name]; std {
				text += fmt.Sprintf(" (import %q)", name)
			}
			return &Error{Name: "CompileError", Value: text, Traceback: []string{"CompileError: " + text}}
		}
	}
	if isPanic {
		e := s.cellError(ctx, err, c)
		e.Name = "CompileError"
		// The positions of the interpreter's compile panic are its own,
		// a line after the cell's.
		e.Value = cellLines(e.Value)
		e.Value = "the interpreter failed to compile the cell: " + e.Value + yaegifix.InstantiationHint(c, e.Value)
		e.Traceback = append([]string{"CompileError: " + e.Value}, e.Traceback[1:]...)
		return e
	}
	if m := unavailableImport.FindStringSubmatch(msg); m != nil {
		text := fmt.Sprintf("%s: package %s is not available in this kernel: cells can import the standard library (of Go 1.22), "+
			"display and the packages the kernel was built with (%%help lists them)", cellLines(m[1]), m[2])
		return &Error{Name: "CompileError", Value: text, Traceback: []string{"CompileError: " + text}}
	}
	if m := undefinedSelector.FindStringSubmatch(msg); m != nil {
		if line, col, ok := yaegifix.SelectorPos(c, m[1]); ok {
			text := fmt.Sprintf("%d:%d: undefined selector %s", line, col, m[1])
			return &Error{Name: "CompileError", Value: text, Traceback: []string{"CompileError: " + text}}
		}
	}
	e := s.cellError(ctx, err, c)
	if s.plan != nil {
		if m := position.FindStringSubmatchIndex(e.Value); m != nil && m[0] == 0 {
			if line, _ := strconv.Atoi(e.Value[m[2]:m[3]]); line > s.plan.Lines {
				e.Value = strings.TrimPrefix(e.Value[m[1]:], ": ") +
					" (at a line of the interpreter's source of a generic standard library function the cell calls)"
				e.Traceback = []string{e.Name + ": " + e.Value}
			}
		}
	}
	return e
}

// unavailableImport matches the interpreter's message for an import it
// cannot find, which suggests setting GOPATH.
var unavailableImport = regexp.MustCompile(`^((?:_\.go:)?\d+:\d+): import "([^"]+)" error: unable to find source`)

// undefinedSelector matches the interpreter's message for a selector its
// operand lacks.
var undefinedSelector = regexp.MustCompile(`undefined selector:? (?:\w+\.)?(\w+)$`)

// knownName reports whether name is a global of the session, a package
// the session imports or a name of the prelude.
func (s *Session) knownName(name string) bool {
	if preludeNames[name] || s.funcs[name] != "" || s.isGlobal(name) {
		return true
	}
	for is := range s.imports {
		if is.Name == name || is.Name == "" && yaegifix.DefaultName(is.Path) == name {
			return true
		}
	}
	return false
}

func isRuntimeValue(v any) bool {
	_, ok := v.(error)
	_, str := v.(string)
	return ok || str
}

func syntaxError(err error) *Error {
	msg := err.Error()
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		// The first error is the one to fix; later ones are often echoes
		// (such as the end of the cell reached inside an open block).
		e := list[0]
		msg = fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Column, e.Msg)
		if strings.HasPrefix(e.Msg, yaegifix.Refused) || strings.HasPrefix(e.Msg, "undefined: ") {
			return &Error{Name: "CompileError", Value: msg, Traceback: []string{"CompileError: " + msg}}
		}
	}
	return &Error{Name: "SyntaxError", Value: msg, Traceback: []string{"SyntaxError: " + msg}}
}

// isGlobal reports whether name is a global variable of the session.
func (s *Session) isGlobal(name string) bool {
	_, ok := s.interp.Globals()[name]
	return ok
}

// isGlobalOrFunc is isGlobal, and for print, println and recover also whether a
// cell declared them (then they are not the builtins).
func (s *Session) isGlobalOrFunc(name string) bool {
	if name == "print" || name == "println" || name == "recover" {
		return s.funcs[name] != "" || s.isGlobal(name)
	}
	return s.isGlobal(name)
}

// isCompiledVar reports whether name is a variable of an earlier cell
// whose type (or the type it points to) is a compiled package's.
func (s *Session) isCompiledVar(name string) bool {
	v, ok := s.interp.Globals()[name]
	if !ok || !v.IsValid() {
		return false
	}
	t := v.Type()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() != "" || t.Kind() == reflect.Interface
}

// sharedPackageNames returns the names that two packages the session
// imports have (math/rand and math/rand/v2).
func (s *Session) sharedPackageNames() map[string]bool {
	paths := map[string]string{}
	shared := map[string]bool{}
	for is := range s.imports {
		name := yaegifix.DefaultName(is.Path)
		if p, ok := paths[name]; ok && p != is.Path {
			shared[name] = true
		}
		paths[name] = is.Path
	}
	return shared
}

// compiledTypes returns the sources of the types of the cells that
// compiled ("Foo[T any] struct{}").
func (s *Session) compiledTypes() []string {
	var out []string
	for _, src := range s.compiledTypeSrc {
		out = append(out, src)
	}
	return out
}

// isGenericFunc returns a function that reports whether a name is a
// generic function of an earlier cell or of code.
func (s *Session) isGenericFunc(code string) func(string) bool {
	cell := yaegifix.GenericFuncs(code)
	return func(name string) bool {
		_, earlier := s.genericSrc[name]
		_, now := cell[name]
		return earlier || now
	}
}

// hasAllMethods reports whether a cell's type has the methods (with a
// value or a pointer receiver), those the running cell declares included.
func (s *Session) hasAllMethods(name string, methods []string) bool {
	for _, m := range methods {
		if _, ok := s.methods[name][m]; ok {
			continue
		}
		found := false
		if p := s.plan; p != nil {
			for _, pm := range p.Methods {
				found = found || pm.Recv == name && pm.Name == m
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// isPointerVar reports whether name is a variable of an earlier cell of a
// pointer type that holds nil now. One that holds a pointer (a sentinel
// error, var ErrX = &MyErr{…}) is taken to keep it: a cell that sets it to
// nil before converting it to an interface is not caught.
func (s *Session) isPointerVar(name string) bool {
	v, ok := s.interp.Globals()[name]
	return ok && v.IsValid() && v.CanSet() && v.Kind() == reflect.Pointer && v.IsNil()
}

// isCompiledIfaceVar reports whether name is a variable of an earlier cell
// of a compiled interface type with methods (error, fmt.Stringer).
func (s *Session) isCompiledIfaceVar(name string) bool {
	v, ok := s.interp.Globals()[name]
	return ok && v.IsValid() && v.CanSet() && v.Kind() == reflect.Interface && v.Type().NumMethod() > 0
}

// isGlobalInt reports whether name is a global integer of the session.
// isInterface reports whether an earlier cell declared name as an
// interface type with methods.
func (s *Session) isInterface(name string) bool {
	d, ok := s.typeSrc[name]
	return ok && strings.HasPrefix(d.src, name+" interface {") && d.src != name+" interface { }"
}

// isGlobalVar reports whether name is a variable (not a constant) an
// earlier cell declared.
func (s *Session) isGlobalVar(name string) bool {
	v, ok := s.interp.Globals()[name]
	return ok && v.IsValid() && v.CanSet()
}

// isConcreteGlobal reports whether name is a variable of an earlier cell
// whose type is not an interface; or, for "v.f", whether v is a variable
// of an earlier cell of a struct type (or a pointer to one) whose field f
// is of no interface type.
func (s *Session) isConcreteGlobal(name string) bool {
	name, field, sel := strings.Cut(name, ".")
	v, ok := s.interp.Globals()[name]
	if !ok || !v.IsValid() {
		return false
	}
	if sel {
		// A field of a struct variable, or of the struct a pointer
		// variable points to. The interpreter gives an unexported field
		// of a cell's struct type an exported name (X and the name).
		if v.Kind() == reflect.Pointer && !v.IsNil() {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct || strings.HasPrefix(v.Type().String(), "interp.") {
			return false
		}
		f, ok := v.Type().FieldByName(field)
		if !ok {
			if f, ok = v.Type().FieldByName("X" + field); !ok {
				return false
			}
		}
		t := f.Type
		return t.Kind() != reflect.Interface && !(t.Kind() == reflect.Struct && strings.HasPrefix(t.String(), "interp."))
	}
	if !v.CanSet() || v.Kind() == reflect.Interface {
		return false
	}
	// The interpreter keeps an interface of a cell in its own wrapper.
	return !(v.Kind() == reflect.Struct && strings.HasPrefix(v.Type().String(), "interp."))
}

// cellMethods returns the methods earlier cells declared.
func (s *Session) cellMethods() []yaegifix.CellMethod {
	var ms []yaegifix.CellMethod
	for _, byName := range s.methods {
		for _, m := range byName {
			ms = append(ms, m)
		}
	}
	return ms
}

// interfaceSrc returns the source of the interface type name an earlier
// cell declared.
func (s *Session) interfaceSrc(name string) (string, bool) {
	d, ok := s.typeSrc[name]
	return d.src, ok && strings.HasPrefix(d.src, name+" interface {")
}

func (s *Session) isGlobalInt(name string) bool {
	v, ok := s.interp.Globals()[name]
	if !ok || !v.IsValid() {
		return false
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// Globals returns the names and plain-text types of the variables,
// constants, functions and types the cells have defined, sorted.
func (s *Session) Globals() [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for name, v := range s.interp.Globals() {
		if preludeNames[name] || strings.HasPrefix(name, "_") {
			continue
		}
		typ := "?"
		if v.IsValid() {
			typ = v.Type().String()
		}
		out = append(out, [2]string{name, typ})
		seen[name] = true
	}
	for name, kind := range s.funcs {
		if !seen[name] && !preludeNames[name] {
			out = append(out, [2]string{name, kind})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// stdinReader is the interpreter's standard input: each read with nothing
// buffered asks the user for a line through the cell's Output.
type stdinReader struct{ s *Session }

func (r stdinReader) Read(p []byte) (int, error) {
	s := r.s
	if len(s.stdinBuf) == 0 {
		s.flush()
		s.outMu.Lock()
		out := s.out
		s.outMu.Unlock()
		if out == nil {
			return 0, io.EOF
		}
		line, err := out.Input("", false)
		if err != nil {
			return 0, io.EOF
		}
		s.stdinBuf = []byte(line + "\n")
	}
	n := copy(p, s.stdinBuf)
	s.stdinBuf = s.stdinBuf[n:]
	return n, nil
}

// publisher is display.Publisher for the running cell.
type publisher struct{ s *Session }

func (p publisher) Publish(b display.Bundle, id string, update bool) {
	p.s.flush()
	p.s.outMu.Lock()
	out := p.s.out
	p.s.outMu.Unlock()
	if out != nil {
		out.Display(b, id, update)
	}
}

func (p publisher) Input(prompt string, password bool) (string, error) {
	p.s.flush()
	p.s.outMu.Lock()
	out := p.s.out
	p.s.outMu.Unlock()
	if out == nil {
		return "", io.EOF
	}
	return out.Input(prompt, password)
}

func (p publisher) Context() context.Context { return cellContext(p) }

// cellContext is the context of whichever cell is running: the
// predeclared ctx of every cell.
type cellContext struct{ s *Session }

func (c cellContext) current() context.Context {
	c.s.outMu.Lock()
	defer c.s.outMu.Unlock()
	if c.s.cellCtx == nil {
		return context.Background()
	}
	return c.s.cellCtx
}

func (c cellContext) Deadline() (time.Time, bool) { return c.current().Deadline() }
func (c cellContext) Done() <-chan struct{}       { return c.current().Done() }
func (c cellContext) Err() error                  { return c.current().Err() }
func (c cellContext) Value(key any) any           { return c.current().Value(key) }
func (c cellContext) String() string              { return "cell context" }

type discard struct{}

func (discard) Stream(string, string)                {}
func (discard) Display(display.Bundle, string, bool) {}
func (discard) Input(string, bool) (string, error)   { return "", io.EOF }
func (discard) Clear(bool)                           {}

// globalTypeSrc returns the type of the variable name of an earlier cell
// as source, when it is known: its type as reflect gives it, when made of
// predeclared types only ([]int, map[string]float64) and no type of the
// cells is declared as such a type (type Celsius float64, whose values
// reflect gives as float64); "" otherwise.
func (s *Session) globalTypeSrc(name string) string {
	for _, d := range s.typeSrc {
		if _, def, ok := strings.Cut(d.src, " "); ok && yaegifix.PredeclaredOnly(def) {
			return ""
		}
	}
	v, ok := s.interp.Globals()[name]
	if !ok || !v.IsValid() {
		return ""
	}
	if t := v.Type().String(); yaegifix.PredeclaredOnly(t) {
		return t
	}
	return ""
}

// lastSlash splits an interp.Exports key ("math/rand/rand") into the
// package path and name.
func lastSlash(key string) (string, string) {
	i := strings.LastIndex(key, "/")
	if i < 0 {
		return "", key
	}
	return key[:i], key[i+1:]
}
