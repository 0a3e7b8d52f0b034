package display

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
)

// Publisher receives what a cell shows while it runs and answers its
// requests for input. The kernel session provides one per cell; outside a
// session the package uses one that writes plain text to standard output.
type Publisher interface {
	// Publish shows b. A non-empty id names the display so that a later
	// publication with update set replaces it in place.
	Publish(b Bundle, id string, update bool)
	// Input asks the user for one line of text, hiding it if password is
	// set.
	Input(prompt string, password bool) (string, error)
	// Context returns the context of the running cell.
	Context() context.Context
}

// Show publishes each value's bundle (see Render) while the cell runs.
func Show(values ...any) {
	for _, v := range values {
		current().Publish(Render(v), "", false)
	}
}

// ShowAs publishes v's bundle as the display named id, which Update can
// later replace in place.
func ShowAs(id string, v any) { current().Publish(Render(v), id, false) }

// Update replaces the display named id (see ShowAs) with v's bundle.
func Update(id string, v any) { current().Publish(Render(v), id, true) }

// ClearOutput clears the output of the running cell; with wait set, the
// front end clears it only when new output arrives, which avoids flicker
// in animations.
func ClearOutput(wait bool) {
	if c, ok := current().(interface{ Clear(wait bool) }); ok {
		c.Clear(wait)
	}
}

// Input asks the user for a line of text and returns it without the line
// end; it returns "" if no input can be had.
func Input(prompt string) string {
	s, _ := current().Input(prompt, false)
	return s
}

// Password is Input with the typed text hidden.
func Password(prompt string) string {
	s, _ := current().Input(prompt, true)
	return s
}

// Context returns the context of the running cell, which the kernel cancels
// when the user interrupts the cell. Pass it to slow library calls.
func Context() context.Context { return current().Context() }

// publisher is the Publisher used by Show, Update, Input and Context: the
// kernel session's while one is running (see SetPublisher), and otherwise
// one that writes the text/plain form of bundles to standard output and
// reads lines from standard input, whose context is never cancelled.
var publisher struct {
	sync.RWMutex
	p Publisher
}

var standalone Publisher = &textPublisher{}

// current returns the publisher in use.
func current() Publisher {
	publisher.RLock()
	defer publisher.RUnlock()
	if publisher.p == nil {
		return standalone
	}
	return publisher.p
}

// SetPublisher makes p receive what Show, Update, Input and Context
// publish and ask, from any code in the process, and returns a function
// that restores the previous publisher. The kernel session calls it; a nil
// p restores plain-text output.
func SetPublisher(p Publisher) (restore func()) {
	publisher.Lock()
	defer publisher.Unlock()
	old := publisher.p
	publisher.p = p
	return func() {
		publisher.Lock()
		defer publisher.Unlock()
		publisher.p = old
	}
}

type textPublisher struct {
	once    sync.Once
	in      *bufio.Reader
	mu      sync.Mutex
	inPlace string // id of the one-line display last drawn without a newline
}

// Publish prints b's text. A named display that fits on one line is
// redrawn in place with a carriage return, so that updates (a ProgressBar)
// do not fill the terminal; the next other output starts on a new line.
func (p *textPublisher) Publish(b Bundle, id string, update bool) {
	text := b.PlainText()
	p.mu.Lock()
	defer p.mu.Unlock()
	if id != "" && !strings.Contains(text, "\n") {
		if update && p.inPlace == id {
			fmt.Print("\r\033[K" + text)
		} else {
			if p.inPlace != "" {
				fmt.Println()
			}
			fmt.Print(text)
		}
		p.inPlace = id
		return
	}
	if p.inPlace != "" {
		fmt.Println()
		p.inPlace = ""
	}
	fmt.Println(text)
}

func (p *textPublisher) Input(prompt string, password bool) (string, error) {
	p.once.Do(func() { p.in = bufio.NewReader(os.Stdin) })
	fmt.Print(prompt)
	line, err := p.in.ReadString('\n')
	if line == "" && err != nil {
		return "", errNoKernel
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func (p *textPublisher) Context() context.Context { return context.Background() }
