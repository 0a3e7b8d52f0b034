package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// progressBar shows the progress of a command on its standard error: a
// one-line bar redrawn in place on a terminal, and plain lines now and then
// (see plainProgress) where every frame would stay, in a log or a pipe.
type progressBar struct {
	w        io.Writer
	terminal bool
	last     string
	plain    plainProgress
	now      func() time.Time
}

// newProgressBar returns a progress bar writing to w, redrawn in place if
// w is a terminal.
func newProgressBar(w io.Writer) *progressBar {
	f, ok := w.(*os.File)
	return &progressBar{w: w, terminal: ok && term.IsTerminal(int(f.Fd())), now: time.Now}
}

func (b *progressBar) update(label string, done, total int64) {
	const width = 30
	frac := 0.0
	if total > 0 {
		frac = min(1, float64(max(done, 0))/float64(total))
	}
	if !b.terminal {
		if b.plain.due(done, total, b.now()) {
			line := fmt.Sprintf("%3.0f%% %d/%d %s", 100*frac, done, total, label)
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

func (b *progressBar) finish() {
	if b.last != "" && b.terminal {
		fmt.Fprintln(b.w)
	}
}

// plainProgress decides when progress written as plain lines deserves a
// new line: at the first report, when the work passes another tenth, when
// plainEvery has passed since the last line, and at the end. A new total,
// or less work done than before, starts a new stage (a command's bar may
// show the measurements, then the generations).
type plainProgress struct {
	printed bool
	tenth   int64
	done    int64
	total   int64
	at      time.Time
}

// plainEvery is the longest time between two plain progress lines while
// the work advances.
const plainEvery = 10 * time.Second

func (p *plainProgress) due(done, total int64, now time.Time) bool {
	var tenth int64
	if total > 0 {
		tenth = min(10, 10*max(done, 0)/total)
	}
	if total != p.total || done < p.done {
		p.printed, p.total = false, total
	}
	ok := !p.printed || tenth > p.tenth || done != p.done && now.Sub(p.at) >= plainEvery
	if ok {
		p.printed, p.tenth, p.done, p.at = true, tenth, done, now
	}
	return ok
}
