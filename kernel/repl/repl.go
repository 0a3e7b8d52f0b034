package repl

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"

	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/kernel/session"
	"golang.org/x/term"
)

// Options configure Run.
type Options struct {
	// Host holds the compiled packages the session hands to cells (see
	// session.Host); the zero Host gives the standard library and display.
	Host session.Host
	// OutDir is the folder for the images and HTML the cells show; ""
	// means portlab-repl-PID in the temporary folder.
	OutDir string
	// History is the history file of the line editor; "" means
	// portlab/repl_history in the user's configuration folder.
	History string
	// Banner is the line printed at the start; "" means a line that names
	// %help and Ctrl-D.
	Banner string
}

// Run runs the terminal REPL until the end of its input: the kernel's
// session read line by line, with line editing, tab completion and a
// history file when stdin is a terminal, multi-line input while
// session.IsComplete says a cell is incomplete, and images and HTML saved
// to files whose paths are printed. SIGINT interrupts the running cell; at
// the prompt, Ctrl-C clears the cell being typed and Ctrl-D ends the REPL.
// The end of ctx (SIGTERM) ends it at once, also during a cell.
func Run(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, opts Options) error {
	sess, err := session.New(session.Options{Host: opts.Host})
	if err != nil {
		return err
	}
	defer sess.Close()
	log.SetOutput(session.NoiseFilter(stderr))
	outDir, histFile := opts.OutDir, opts.History
	if outDir == "" {
		outDir = filepath.Join(os.TempDir(), fmt.Sprintf("portlab-repl-%d", os.Getpid()))
	}
	if histFile == "" {
		if dir, err := os.UserConfigDir(); err == nil {
			histFile = filepath.Join(dir, "portlab", "repl_history")
		}
	}
	// SIGINT interrupts the running cell; at the prompt, Ctrl-C clears the
	// cell being typed and Ctrl-D ends the REPL.
	signal.Reset(os.Interrupt)
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	r := &repl{sess: sess, outDir: outDir}
	go func() {
		for range interrupts {
			r.interrupt()
		}
	}()

	var lines lineReader
	f, isFile := stdin.(*os.File)
	if isFile && term.IsTerminal(int(f.Fd())) {
		tl, err := newTermLines(f, stdout, histFile, sess)
		if err != nil {
			return err
		}
		defer tl.close()
		lines = tl
		r.out = termWriter{tl}
		r.cooked = tl
	} else {
		lines = &plainLines{in: bufio.NewReader(stdin), out: stdout}
		r.out = stdout
	}
	r.lines = lines
	banner := opts.Banner
	if banner == "" {
		banner = "portlab REPL — %help for help, Ctrl-D to quit"
	}
	fmt.Fprintln(r.out, banner)
	// The cells run in a goroutine of their own, so that the end of ctx
	// (SIGTERM) ends the REPL even while a cell does not return.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			cell, ok := readCell(lines)
			if !ok {
				fmt.Fprintln(r.out)
				return
			}
			if strings.TrimSpace(cell) == "" {
				continue
			}
			r.run(cell)
		}
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		r.interrupt()
		return ctx.Err()
	}
}

// lineReader reads one line of input after showing a prompt.
type lineReader interface {
	readLine(prompt string) (string, error)
}

// readCell reads lines until they form a complete cell (or an invalid one,
// which the session then reports).
func readCell(lines lineReader) (string, bool) {
	var b strings.Builder
	prompt := ">>> "
	for {
		line, err := lines.readLine(prompt)
		if errors.Is(err, errInterrupt) {
			// Ctrl-C clears the cell being typed, as shells and IPython
			// do; only Ctrl-D ends the REPL.
			b.Reset()
			prompt = ">>> "
			continue
		}
		if err != nil {
			if b.Len() > 0 {
				return b.String(), true
			}
			return "", false
		}
		b.WriteString(line)
		cell := b.String()
		if status, _ := session.IsComplete(cell); status != "incomplete" {
			return cell, true
		}
		b.WriteString("\n")
		prompt = "... "
	}
}

type repl struct {
	sess   *session.Session
	outDir string
	out    io.Writer
	cooked interface{ cookedMode(bool) }
	lines  lineReader // also answers the cells' input requests

	mu     sync.Mutex
	cancel context.CancelFunc
	files  int
}

func (r *repl) interrupt() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		r.cancel()
	}
}

func (r *repl) run(cell string) {
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	r.cancel = cancel
	r.mu.Unlock()
	if r.cooked != nil {
		r.cooked.cookedMode(true)
		defer r.cooked.cookedMode(false)
	}
	res := r.sess.Execute(ctx, cell, replOutput{r})
	r.mu.Lock()
	r.cancel = nil
	r.mu.Unlock()
	cancel()
	if res.Err != nil {
		fmt.Fprintln(r.out, strings.Join(res.Err.Traceback, "\n"))
		return
	}
	if res.Page != nil {
		fmt.Fprintln(r.out, res.Page.PlainText())
	}
	if res.Value != nil {
		fmt.Fprintf(r.out, "[%d] %s\n", res.Count, r.show(*res.Value))
	}
}

// show returns the terminal form of a bundle: its text, or the path of the
// file an image or HTML was saved to.
func (r *repl) show(b display.Bundle) string {
	save := func(ext string, data []byte) string {
		if err := os.MkdirAll(r.outDir, 0o755); err != nil {
			return b.PlainText() + " (not saved: " + err.Error() + ")"
		}
		r.files++
		path := filepath.Join(r.outDir, fmt.Sprintf("out-%d%s", r.files, ext))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return b.PlainText() + " (not saved: " + err.Error() + ")"
		}
		return b.PlainText() + " → " + path
	}
	switch {
	case b.Has(display.MIMEPNG):
		data, _ := b.Data[display.MIMEPNG].([]byte)
		return save(".png", data)
	case b.Has(display.MIMESVG):
		s, _ := b.Data[display.MIMESVG].(string)
		return save(".svg", []byte(s))
	case b.Has(display.MIMEMarkdown):
		s, _ := b.Data[display.MIMEMarkdown].(string)
		return s
	case b.Has(display.MIMEHTML):
		text := b.PlainText()
		if strings.HasPrefix(text, "<") { // no useful text form
			s, _ := b.Data[display.MIMEHTML].(string)
			return save(".html", []byte(s))
		}
		return text
	case b.Has(display.MIMEJSON):
		data, _ := json.MarshalIndent(b.Data[display.MIMEJSON], "", "  ")
		return string(data)
	}
	return b.PlainText()
}

// replOutput prints a cell's output on the terminal.
type replOutput struct{ r *repl }

func (o replOutput) Stream(name, text string) { io.WriteString(o.r.out, text) }

func (o replOutput) Display(b display.Bundle, id string, update bool) {
	fmt.Fprintln(o.r.out, o.r.show(b))
}

func (o replOutput) Clear(bool) {}

func (o replOutput) Input(prompt string, password bool) (string, error) {
	switch lr := o.r.lines.(type) {
	case *termLines:
		fmt.Fprint(o.r.out, prompt)
		return lr.readPlainLine()
	case *plainLines:
		return lr.readLine(prompt)
	}
	return "", io.EOF
}

// plainLines reads lines from a pipe or file, echoing nothing.
type plainLines struct {
	in  *bufio.Reader
	out io.Writer
}

func (p *plainLines) readLine(prompt string) (string, error) {
	fmt.Fprint(p.out, prompt)
	line, err := p.in.ReadString('\n')
	if line == "" && err != nil {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// termLines reads lines from a terminal with line editing (x/term), tab
// completion from the session and a history file.
type termLines struct {
	f       *os.File
	state   *term.State
	term    *term.Terminal
	history *fileHistory
	keys    *keyWatch
	rw      io.ReadWriter // what term reads and writes
}

// termWriter writes to the current terminal of tl (readLine replaces it
// after Ctrl-C).
type termWriter struct{ tl *termLines }

func (w termWriter) Write(p []byte) (int, error) { return w.tl.term.Write(p) }

func newTermLines(f *os.File, out io.Writer, histFile string, sess *session.Session) (*termLines, error) {
	state, err := term.MakeRaw(int(f.Fd()))
	if err != nil {
		return nil, err
	}
	keys := &keyWatch{r: f}
	rw := struct {
		io.Reader
		io.Writer
	}{keys, out}
	t := term.NewTerminal(rw, ">>> ")
	if w, h, err := term.GetSize(int(f.Fd())); err == nil {
		t.SetSize(w, h)
	}
	h := loadHistory(histFile)
	t.History = h
	t.AutoCompleteCallback = func(line string, pos int, key rune) (string, int, bool) {
		if key != '\t' {
			return "", 0, false
		}
		matches, start := sess.Complete(line, pos)
		if len(matches) == 0 {
			return "", 0, false
		}
		common := matches[0]
		for _, m := range matches[1:] {
			for !strings.HasPrefix(m, common) {
				common = common[:len(common)-1]
			}
		}
		if len(matches) > 1 && len(common) <= pos-start {
			// Nothing to add: list the candidates above the prompt (the
			// terminal redraws the line after a write).
			fmt.Fprintf(t, "%s\n", strings.Join(matches, "  "))
			return "", 0, false
		}
		return line[:start] + common + line[pos:], start + len(common), true
	}
	return &termLines{f: f, state: state, term: t, history: h, keys: keys, rw: rw}, nil
}

func (tl *termLines) readLine(prompt string) (string, error) {
	tl.term.SetPrompt(prompt)
	line, err := tl.term.ReadLine()
	if err == io.EOF && tl.keys != nil && tl.keys.ctrlC {
		// x/term reports Ctrl-C as the end of input, like Ctrl-D.
		tl.keys.ctrlC = false
		fmt.Fprint(tl.term, "^C\n")
		// ReadLine keeps the line typed so far: a new terminal starts
		// empty, with the same history, completion and size.
		t := term.NewTerminal(tl.rw, prompt)
		t.History, t.AutoCompleteCallback = tl.term.History, tl.term.AutoCompleteCallback
		if tl.f != nil {
			if w, h, err := term.GetSize(int(tl.f.Fd())); err == nil {
				t.SetSize(w, h)
			}
		}
		tl.term = t
		return "", errInterrupt
	}
	return line, err
}

// errInterrupt is the error of readLine when the user typed Ctrl-C.
var errInterrupt = errors.New("interrupt")

// keyWatch passes a terminal's input on and records whether the last read
// held Ctrl-C, which x/term's ReadLine reports as io.EOF like Ctrl-D.
type keyWatch struct {
	r     io.Reader
	ctrlC bool
}

func (k *keyWatch) Read(p []byte) (int, error) {
	n, err := k.r.Read(p)
	if n > 0 {
		k.ctrlC = bytes.IndexByte(p[:n], 3) >= 0
	}
	return n, err
}

// readPlainLine reads a line for a cell's input request, in cooked mode.
func (tl *termLines) readPlainLine() (string, error) {
	line, err := bufio.NewReader(tl.f).ReadString('\n')
	return strings.TrimRight(line, "\r\n"), err
}

// cookedMode switches the terminal to its normal mode while a cell runs,
// so that Ctrl-C sends SIGINT and output line ends are translated.
func (tl *termLines) cookedMode(on bool) {
	if on {
		term.Restore(int(tl.f.Fd()), tl.state)
		return
	}
	if s, err := term.MakeRaw(int(tl.f.Fd())); err == nil {
		tl.state = s
	}
}

func (tl *termLines) close() {
	term.Restore(int(tl.f.Fd()), tl.state)
	tl.history.save()
}

// fileHistory is the terminal's history, loaded from and saved to a file.
type fileHistory struct {
	path    string
	entries []string // oldest first
}

const maxHistory = 1000

func loadHistory(path string) *fileHistory {
	h := &fileHistory{path: path}
	if data, err := os.ReadFile(path); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if line != "" {
				h.entries = append(h.entries, strings.ReplaceAll(line, `\n`, "\n"))
			}
		}
	}
	return h
}

func (h *fileHistory) Add(entry string) {
	if entry == "" || len(h.entries) > 0 && h.entries[len(h.entries)-1] == entry {
		return
	}
	h.entries = append(h.entries, entry)
	if len(h.entries) > maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
	}
}

func (h *fileHistory) Len() int { return len(h.entries) }

func (h *fileHistory) At(i int) string { return h.entries[len(h.entries)-1-i] }

func (h *fileHistory) save() {
	if h.path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o755); err != nil {
		return
	}
	lines := make([]string, len(h.entries))
	for i, e := range h.entries {
		lines[i] = strings.ReplaceAll(e, "\n", `\n`)
	}
	// Through a temporary file, so that a reader never sees half a history.
	tmp := h.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err == nil {
		_ = os.Rename(tmp, h.path)
	}
}
