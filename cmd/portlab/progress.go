package main

import (
	"fmt"
	"io"
	"strings"
)

// progressBar draws a one-line progress bar on a terminal.
type progressBar struct {
	w    io.Writer
	last string
}

func newProgressBar(w io.Writer) *progressBar { return &progressBar{w: w} }

func (b *progressBar) update(label string, done, total int64) {
	const width = 30
	frac := 0.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	n := int(frac * width)
	line := fmt.Sprintf("\r[%s%s] %3.0f%% %s", strings.Repeat("#", n), strings.Repeat(".", width-n), 100*frac, label)
	if line != b.last {
		fmt.Fprint(b.w, line+"\033[K")
		b.last = line
	}
}

func (b *progressBar) finish() {
	if b.last != "" {
		fmt.Fprintln(b.w)
	}
}
