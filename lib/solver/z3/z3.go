package z3

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ErrNotInstalled is returned by Start when the z3 binary cannot be found.
var ErrNotInstalled = errors.New("z3: the z3 binary was not found on PATH (install the Debian package z3 or the conda package z3)")

// ErrTimeout is wrapped by the error of a check that ran past the
// session's time limit; the session stays usable.
var ErrTimeout = errors.New("z3: time limit exceeded")

// ErrCrashed is wrapped by the error of a call during which the z3 process
// died; the next call starts a new process.
var ErrCrashed = errors.New("z3: the solver process died")

// Status is the answer of a satisfiability check.
type Status int

// The answers of Check.
const (
	Unknown Status = iota
	Sat
	Unsat
)

// String returns "sat", "unsat" or "unknown".
func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Options configure a Session.
type Options struct {
	// Path is the z3 binary; empty means "z3" on PATH.
	Path string
	// Timeout, when positive, limits each Check: z3 is asked to give up
	// after it (the check then returns ErrTimeout) and is killed if it has
	// not answered a second later.
	Timeout time.Duration
	// Options are SMT-LIB options set at the start of every process, as
	// name-value pairs without the colon, e.g. {"smt.random_seed", "1"}.
	Options [][2]string
}

// Error is an error z3 reported for a command.
type Error struct {
	Command string // the command (or the first of the batch) z3 rejected
	Message string // z3's message
}

func (e *Error) Error() string {
	return fmt.Sprintf("z3: %s (in %s)", e.Message, abbreviate(e.Command, 200))
}

// Session is a conversation with one z3 process (replaced when it dies).
// Its methods must not be called concurrently.
type Session struct {
	opts   Options
	path   string
	frames [][]string // the commands of each open scope; frames[0] is the base

	proc  *exec.Cmd
	stdin io.WriteCloser
	lines chan string // stdout, line by line; closed when the process exits
	errs  *tailBuffer
	sync  int
	mu    sync.Mutex // guards proc against Close during a check
}

// Start looks up z3 and starts a session. It returns an error wrapping
// ErrNotInstalled when z3 is missing, and any other error starting it.
func Start(ctx context.Context, opts Options) (*Session, error) {
	name := opts.Path
	if name == "" {
		name = "z3"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotInstalled, err)
	}
	s := &Session{opts: opts, path: path, frames: [][]string{nil}}
	if err := s.start(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// start starts a process and replays the open scopes.
func (s *Session) start(ctx context.Context) error {
	cmd := exec.Command(s.path, "-in", "-smt2")
	dieWithParent(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	s.errs = &tailBuffer{max: 4096}
	cmd.Stderr = s.errs
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("z3: starting %s: %w", s.path, err)
	}
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<16), 1<<28)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	s.mu.Lock()
	s.proc, s.stdin, s.lines = cmd, stdin, lines
	s.mu.Unlock()
	setup := []string{}
	if s.opts.Timeout > 0 {
		setup = append(setup, fmt.Sprintf("(set-option :timeout %d)", s.opts.Timeout.Milliseconds()))
	}
	for _, o := range s.opts.Options {
		setup = append(setup, fmt.Sprintf("(set-option :%s %s)", o[0], o[1]))
	}
	if _, err := s.exchange(ctx, setup, 0); err != nil {
		return err
	}
	for i, f := range s.frames {
		cmds := f
		if i > 0 {
			cmds = append([]string{"(push 1)"}, f...)
		}
		if _, err := s.exchange(ctx, cmds, 0); err != nil {
			return fmt.Errorf("z3: replaying scope %d after a restart: %w", i, err)
		}
	}
	return nil
}

// kill ends the process, if any; the next call starts a new one.
func (s *Session) kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil {
		return
	}
	s.stdin.Close()
	s.proc.Process.Kill()
	for range s.lines {
	}
	s.proc.Wait()
	s.proc = nil
}

// ensure starts a process if the last one was killed.
func (s *Session) ensure(ctx context.Context) error {
	if s.proc != nil {
		return nil
	}
	return s.start(ctx)
}

// exchange sends cmds followed by a synchronisation marker and returns the
// lines z3 printed before the marker. A line of the form (error "…") makes
// it return an *Error. limit, when positive, kills z3 if it has not
// answered in time; ctx kills it when cancelled.
func (s *Session) exchange(ctx context.Context, cmds []string, limit time.Duration) ([]string, error) {
	s.sync++
	marker := fmt.Sprintf("portlab-sync-%d", s.sync)
	var b strings.Builder
	for _, c := range cmds {
		b.WriteString(c)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "(echo \"%s\")\n", marker)
	// Write in the background: a large batch can fill the pipe while z3
	// is still answering.
	written := make(chan error, 1)
	stdin := s.stdin
	go func() {
		_, err := io.WriteString(stdin, b.String())
		written <- err
	}()
	var timer <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timer = t.C
	}
	var out []string
	var zerr *Error
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				err := s.died()
				return nil, err
			}
			if line == marker {
				if err := <-written; err != nil {
					return nil, fmt.Errorf("%w: writing to z3: %v", ErrCrashed, err)
				}
				if zerr != nil {
					zerr.Command = firstCommand(cmds)
					return out, zerr
				}
				return out, nil
			}
			if strings.HasPrefix(line, "(error ") && zerr == nil {
				zerr = &Error{Message: strings.Trim(strings.TrimSuffix(strings.TrimPrefix(line, "(error "), ")"), `"`)}
				continue
			}
			out = append(out, line)
		case <-ctx.Done():
			s.kill()
			return nil, ctx.Err()
		case <-timer:
			s.kill()
			return nil, fmt.Errorf("%w: no answer after %v; z3 was restarted", ErrTimeout, limit)
		}
	}
}

// died reports the end of the process with what it printed on stderr.
func (s *Session) died() error {
	s.mu.Lock()
	proc := s.proc
	s.proc = nil
	s.mu.Unlock()
	status := "exited"
	if proc != nil {
		if err := proc.Wait(); err != nil {
			status = err.Error()
		}
	}
	msg := strings.TrimSpace(s.errs.String())
	if msg != "" {
		return fmt.Errorf("%w (%s): %s", ErrCrashed, status, abbreviate(msg, 500))
	}
	return fmt.Errorf("%w (%s)", ErrCrashed, status)
}

// Assert sends declarations and assertions (any SMT-LIB commands without
// output) to the current scope. It returns an *Error when z3 rejects one;
// the scope then keeps the commands before it.
func (s *Session) Assert(ctx context.Context, cmds ...string) error {
	if err := s.ensure(ctx); err != nil {
		return err
	}
	top := len(s.frames) - 1
	_, err := s.exchange(ctx, cmds, 0)
	if err != nil {
		var zerr *Error
		if errors.As(err, &zerr) {
			// z3 stops at nothing: it executed the good commands; keep the
			// scope in step by replaying from the recorded frames.
			s.kill()
		}
		return err
	}
	s.frames[top] = append(s.frames[top], cmds...)
	return nil
}

// Push opens a scope: what is asserted until the matching Pop is
// forgotten by it.
func (s *Session) Push(ctx context.Context) error {
	if err := s.ensure(ctx); err != nil {
		return err
	}
	if _, err := s.exchange(ctx, []string{"(push 1)"}, 0); err != nil {
		return err
	}
	s.frames = append(s.frames, nil)
	return nil
}

// Pop closes the innermost scope. It returns an error when none is open.
func (s *Session) Pop(ctx context.Context) error {
	if len(s.frames) == 1 {
		return errors.New("z3: Pop without Push")
	}
	s.frames = s.frames[:len(s.frames)-1]
	if s.proc == nil {
		return nil // the next start replays the remaining scopes
	}
	if _, err := s.exchange(ctx, []string{"(pop 1)"}, 0); err != nil {
		return err
	}
	return nil
}

// Depth returns the number of open scopes.
func (s *Session) Depth() int { return len(s.frames) - 1 }

// Check asks whether the assertions of all open scopes, together with the
// given assumptions (boolean constants or their negations), are
// satisfiable. It returns an error wrapping ErrTimeout when the session's
// time limit passed, ErrCrashed when z3 died, and ctx's error when ctx was
// cancelled; in each case the session stays usable.
func (s *Session) Check(ctx context.Context, assumptions ...string) (Status, error) {
	if err := s.ensure(ctx); err != nil {
		return Unknown, err
	}
	cmd := "(check-sat)"
	if len(assumptions) > 0 {
		cmd = "(check-sat-assuming (" + strings.Join(assumptions, " ") + "))"
	}
	var limit time.Duration
	if s.opts.Timeout > 0 {
		limit = s.opts.Timeout + time.Second
	}
	out, err := s.exchange(ctx, []string{cmd}, limit)
	if err != nil {
		return Unknown, err
	}
	if len(out) != 1 {
		return Unknown, fmt.Errorf("z3: unexpected answer to %s: %q", cmd, out)
	}
	switch out[0] {
	case "sat":
		return Sat, nil
	case "unsat":
		return Unsat, nil
	case "unknown":
		reason, _ := s.exchange(ctx, []string{"(get-info :reason-unknown)"}, 0)
		r := strings.Join(reason, " ")
		if strings.Contains(r, "timeout") || strings.Contains(r, "canceled") {
			return Unknown, fmt.Errorf("%w after %v", ErrTimeout, s.opts.Timeout)
		}
		return Unknown, fmt.Errorf("z3: unknown: %s", r)
	}
	return Unknown, fmt.Errorf("z3: unexpected answer to %s: %q", cmd, out[0])
}

// Values returns the values of terms in the model of the last satisfiable
// check, as SMT-LIB text: "true", "3", "(- 2)", "(/ 1.0 3.0)"… (see
// ParseRat).
func (s *Session) Values(ctx context.Context, terms ...string) ([]string, error) {
	if s.proc == nil {
		return nil, fmt.Errorf("%w: the model was lost", ErrCrashed)
	}
	if len(terms) == 0 {
		return nil, nil
	}
	out, err := s.exchange(ctx, []string{"(get-value (" + strings.Join(terms, " ") + "))"}, 0)
	if err != nil {
		return nil, err
	}
	pairs, err := parsePairs(strings.Join(out, " "))
	if err != nil {
		return nil, err
	}
	if len(pairs) != len(terms) {
		return nil, fmt.Errorf("z3: asked for %d values, got %d", len(terms), len(pairs))
	}
	return pairs, nil
}

// UnsatCore returns the names of the named assertions (asserted as
// (! F :named NAME) with the option produce-unsat-cores) in the core of
// the last unsatisfiable check.
func (s *Session) UnsatCore(ctx context.Context) ([]string, error) {
	if s.proc == nil {
		return nil, fmt.Errorf("%w: the core was lost", ErrCrashed)
	}
	out, err := s.exchange(ctx, []string{"(get-unsat-core)"}, 0)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSpace(strings.Join(out, " "))
	text = strings.TrimSuffix(strings.TrimPrefix(text, "("), ")")
	return strings.Fields(text), nil
}

// Close ends the z3 process.
func (s *Session) Close() error {
	s.kill()
	return nil
}

// parsePairs splits the answer of get-value, ((t1 v1) (t2 v2) …), into
// the values.
func parsePairs(text string) ([]string, error) {
	e, rest, err := readSexp(strings.TrimSpace(text))
	if err != nil || strings.TrimSpace(rest) != "" {
		return nil, fmt.Errorf("z3: cannot read the values %q", abbreviate(text, 200))
	}
	var out []string
	for _, p := range e.list {
		if len(p.list) != 2 {
			return nil, fmt.Errorf("z3: cannot read the value %s", p)
		}
		out = append(out, p.list[1].String())
	}
	return out, nil
}

// sexp is a parsed S-expression: an atom or a list.
type sexp struct {
	atom   string
	list   []sexp
	isList bool
}

func (e sexp) String() string {
	if !e.isList {
		return e.atom
	}
	parts := make([]string, len(e.list))
	for i, x := range e.list {
		parts[i] = x.String()
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func readSexp(s string) (sexp, string, error) {
	s = strings.TrimLeft(s, " \t\r\n")
	if s == "" {
		return sexp{}, s, errors.New("unexpected end")
	}
	if s[0] == '(' {
		e := sexp{isList: true}
		s = s[1:]
		for {
			s = strings.TrimLeft(s, " \t\r\n")
			if s == "" {
				return e, s, errors.New("unclosed list")
			}
			if s[0] == ')' {
				return e, s[1:], nil
			}
			x, rest, err := readSexp(s)
			if err != nil {
				return e, rest, err
			}
			e.list = append(e.list, x)
			s = rest
		}
	}
	if s[0] == ')' {
		return sexp{}, s, errors.New("unexpected )")
	}
	if s[0] == '|' {
		j := strings.IndexByte(s[1:], '|')
		if j < 0 {
			return sexp{}, s, errors.New("unclosed |")
		}
		return sexp{atom: s[:j+2]}, s[j+2:], nil
	}
	j := strings.IndexAny(s, " \t\r\n()")
	if j < 0 {
		j = len(s)
	}
	return sexp{atom: s[:j]}, s[j:], nil
}

func firstCommand(cmds []string) string {
	if len(cmds) == 0 {
		return ""
	}
	return cmds[0]
}

func abbreviate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
