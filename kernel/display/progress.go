package display

import (
	"fmt"
	"html"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// ProgressBar is a progress bar in the running cell's output, updated in
// place: the notebook face of long work such as a measurement campaign
// (the progress function given to measure.Campaign.Run) or an inference
// run (infer.Settings.Progress, which every inference method reports to).
// It is safe for concurrent use.
type ProgressBar struct {
	mu     sync.Mutex
	id     string
	label  string
	start  time.Time
	last   time.Time
	shown  bool
	period time.Duration
	// plain says when a line is due where the bar cannot be redrawn in
	// place (standard output is not a terminal).
	plain PlainProgress
	// finished: Finish was called (a bar of unknown total is drawn full).
	finished bool
}

var progressSeq atomic.Int64

// NewProgressBar returns a progress bar titled label; it appears with the
// first Set.
func NewProgressBar(label string) *ProgressBar {
	return &ProgressBar{
		id:     fmt.Sprintf("portlab-progress-%d-%d", time.Now().UnixNano(), progressSeq.Add(1)),
		label:  label,
		start:  time.Now(),
		period: 100 * time.Millisecond,
	}
}

// Set shows done of total steps with a note (e.g. the last result). To
// spare the front end, updates come at most ten times a second, except the
// first and the final one (done ≥ total), which are always shown. A total
// of 0 or less means the number of steps is not known in advance (as in
// counter-example-guided inference, package infer/cegis): the bar then
// shows the work as going on, without a percentage, until Finish.
func (b *ProgressBar) Set(done, total int, note string) {
	b.set(done, total, note, false)
}

// Finish shows the work as ended after done steps, with a note; for a bar
// of unknown total, whose Set cannot tell the last step.
func (b *ProgressBar) Finish(done int, note string) {
	b.set(done, 0, note, true)
}

func (b *ProgressBar) set(done, total int, note string, finished bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	final := finished || total > 0 && done >= total
	if b.shown && !final && now.Sub(b.last) < b.period {
		return
	}
	if total <= 0 {
		b.finished = finished
	}
	b.last = now
	bundle := b.bundle(done, total, note, now.Sub(b.start))
	pub := current()
	if pub == standalone && !stdoutIsTerminal() {
		// A log or a pipe would keep every frame: a line now and then.
		if b.plain.Due(int64(done), int64(total), now) || finished {
			pub.Publish(bundle, "", false)
		}
		return
	}
	pub.Publish(bundle, b.id, b.shown)
	b.shown = true
}

// stdoutIsTerminal reports whether the process's standard output is a
// terminal (a variable for the tests).
var stdoutIsTerminal = func() bool { return term.IsTerminal(int(os.Stdout.Fd())) }

// PlainProgress decides when progress written as plain lines (to a log or
// a pipe, where a redrawn bar would leave hundreds of frames) deserves a
// new line: at the first report, when the work passes another tenth, when
// PlainEvery has passed since the last line, and at the end. A new total,
// or less work done than before, starts a new stage (a command's bar may
// show the measurements, then the generations). The zero value is ready;
// the terminal progress of the portlab command uses it too.
type PlainProgress struct {
	printed bool
	tenth   int64
	done    int64
	total   int64
	at      time.Time
}

// PlainEvery is the longest time between two plain progress lines while
// the work advances.
const PlainEvery = 10 * time.Second

// Due reports whether the report of done out of total at time now gets a
// line, and if so remembers it.
func (p *PlainProgress) Due(done, total int64, now time.Time) bool {
	var tenth int64
	if total > 0 {
		tenth = min(10, 10*max(done, 0)/total)
	}
	if total != p.total || done < p.done {
		p.printed, p.total = false, total
	}
	ok := !p.printed || tenth > p.tenth || done != p.done && now.Sub(p.at) >= PlainEvery
	if ok {
		p.printed, p.tenth, p.done, p.at = true, tenth, done, now
	}
	return ok
}

func (b *ProgressBar) bundle(done, total int, note string, elapsed time.Duration) Bundle {
	if total <= 0 {
		return b.open(done, note, elapsed)
	}
	frac := 0.0
	if total > 0 {
		frac = min(1, float64(max(done, 0))/float64(total))
	}
	timing := elapsed.Round(time.Second).String()
	if done > 0 && total > done {
		eta := time.Duration(float64(elapsed) / float64(done) * float64(total-done))
		timing += ", " + eta.Round(time.Second).String() + " left"
	}
	const width = 30
	n := int(frac * width)
	text := fmt.Sprintf("%s [%s%s] %3.0f%% %d/%d (%s)", b.label, strings.Repeat("#", n), strings.Repeat(".", width-n), 100*frac, done, total, timing)
	if note != "" {
		text += " " + note
	}
	h := fmt.Sprintf(`<div style="font-family:monospace"><progress value="%d" max="%d" style="width:30%%;vertical-align:middle"></progress> <b>%s</b> %d/%d (%.0f%%, %s) %s</div>`,
		max(done, 0), max(total, 1), html.EscapeString(b.label), done, total, 100*frac, html.EscapeString(timing), html.EscapeString(note))
	bundle := MIME(MIMEHTML, h, text)
	return bundle
}

// open is the bundle of a bar whose total is not known: the steps so far
// and the time, an indeterminate HTML progress bar (a full one once
// finished), no percentage and no estimate of the time left.
func (b *ProgressBar) open(done int, note string, elapsed time.Duration) Bundle {
	timing := elapsed.Round(time.Second).String()
	state, bar := "running", `<progress style="width:30%;vertical-align:middle"></progress>`
	if b.finished {
		state, bar = "done", `<progress value="1" max="1" style="width:30%;vertical-align:middle"></progress>`
	}
	text := fmt.Sprintf("%s [%s] %d steps (%s)", b.label, state, done, timing)
	if note != "" {
		text += " " + note
	}
	h := fmt.Sprintf(`<div style="font-family:monospace">%s <b>%s</b> %s, %d steps (%s) %s</div>`,
		bar, html.EscapeString(b.label), state, done, html.EscapeString(timing), html.EscapeString(note))
	return MIME(MIMEHTML, h, text)
}
