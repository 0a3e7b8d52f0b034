package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/portlab/portlab/kernel/display"
)

// progressBar shows the progress of a command on its standard error: a
// one-line bar redrawn in place on a terminal, and plain lines now and then
// (see plainProgress) where every frame would stay, in a log or a pipe.
type progressBar struct {
	w        io.Writer
	terminal bool
	last     string
	plain    display.PlainProgress
	now      func() time.Time
	// pending is the latest line of open progress not yet written off a
	// terminal (finish writes it).
	pending string
}

// newProgressBar returns a progress bar writing to w, redrawn in place if
// w is a terminal.
func newProgressBar(w io.Writer) *progressBar {
	f, ok := w.(*os.File)
	return &progressBar{w: w, terminal: ok && term.IsTerminal(int(f.Fd())), now: time.Now}
}

func (b *progressBar) update(label string, done, total int64) {
	if total <= 0 {
		b.open(label, done)
		return
	}
	const width = 30
	frac := 0.0
	if total > 0 {
		frac = min(1, float64(max(done, 0))/float64(total))
	}
	if !b.terminal {
		if b.plain.Due(done, total, b.now()) {
			line := fmt.Sprintf("%3.0f%% %d/%d %s", 100*frac, done, total, label)
			if strings.Contains(label, fmt.Sprintf("%d/%d", done, total)) {
				line = fmt.Sprintf("%3.0f%% %s", 100*frac, label) // the label counts already
			}
			fmt.Fprintln(b.w, strings.TrimRight(line, " "))
			b.last = line
		}
		return
	}
	n := int(frac * width)
	line := fmt.Sprintf("\r[%s%s] %3.0f%% %s", strings.Repeat("#", n), strings.Repeat(".", width-n), 100*frac, label)
	if line != b.last {
		fmt.Fprint(b.w, line+"\033[K")
		b.last = line
	}
}

// open shows progress whose total is not known in advance (total 0, as in
// counter-example-guided inference, which ends when no second mapping
// exists): the label alone, which says how far the work has come, with
// no bar, percentage or "done/0".
func (b *progressBar) open(label string, done int64) {
	if !b.terminal {
		if b.plain.Due(done, 0, b.now()) {
			fmt.Fprintln(b.w, label)
			b.last, b.pending = label, ""
		} else {
			b.pending = label
		}
		return
	}
	line := "\r" + label
	if line != b.last {
		fmt.Fprint(b.w, line+"\033[K")
		b.last = line
	}
}

func (b *progressBar) finish() {
	if b.pending != "" && !b.terminal {
		// The last report of open progress: where the work ended.
		fmt.Fprintln(b.w, b.pending)
		b.pending = ""
	}
	if b.last != "" && b.terminal {
		fmt.Fprintln(b.w)
	}
}
