package session

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/kernel/session/internal/yaegifix"
)

// help returns what %help shows.
func (s *Session) help() string {
	names := s.importedNames()
	for i, n := range names {
		names[i] = "`" + n + "`"
	}
	list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	host := ""
	if s.opts.Host.Help != "" {
		host = " " + strings.TrimSpace(s.opts.Host.Help)
	}
	return "## portlab Go kernel\n\n" +
		"Cells are Go: declarations (`func`, `type`, `var`, `const`, `import`) and statements may be mixed; " +
		"the value of the last expression is shown. These packages are imported in every session: " + list + "." + host + "\n\n" +
		"* `ctx` is the cell's context, cancelled by *Interrupt*: pass it to slow calls.\n" +
		"* `display.Show(v)` shows a value now, `display.ShowAs(id, v)` / `display.Update(id, v)` keep a display up to date, " +
		"`display.Input(prompt)` asks for a line; `display.HTML`, `Markdown`, `SVG`, `PNG`, `JSON`, `Plot` make bundles. " +
		"Values with `HTML()`, `Markdown()`, `SVG()` or `PNG()` methods render themselves.\n" +
		"* `min`, `max` and `clear` are provided; `for i := range n` works when `n` is a constant, `len(…)` or a global integer.\n" +
		"* Redefining a function or a method does not change functions already compiled that call it directly: re-run those cells too.\n\n" +
		"### Go in cells\n\n" + yaegifix.FeatureTable + "\n" +
		"Magics: `%help` this text · `%doc name` documentation of a name in the pager · `%reset` forget all variables and definitions · " +
		"`%time` (first line of a cell, or `%time expr`) time the cell · `%who` list the cell-defined names.\n"
}

// magic runs a cell that starts with %.
func (s *Session) magic(ctx context.Context, code string, out Output) (*display.Bundle, *Error) {
	line, rest, _ := strings.Cut(code, "\n")
	fields := strings.Fields(line)
	name := fields[0]
	args := strings.TrimSpace(strings.TrimPrefix(line, name))
	switch name {
	case "%help", "%?":
		b := display.Markdown(s.help())
		return &b, nil
	case "%reset":
		if err := s.reset(); err != nil {
			return nil, &Error{Name: "MagicError", Value: err.Error(), Traceback: []string{"MagicError: " + err.Error()}}
		}
		b := display.Text("the session was reset: all variables and definitions are gone")
		return &b, nil
	case "%doc":
		text, ok := s.describe(strings.TrimSpace(args))
		if !ok {
			msg := fmt.Sprintf("no documentation for %q", args)
			return nil, &Error{Name: "MagicError", Value: msg, Traceback: []string{"MagicError: " + msg}}
		}
		b := display.Text(text)
		b.Metadata["portlab/page"] = true
		return &b, nil
	case "%who":
		var lines []string
		for _, g := range s.Globals() {
			lines = append(lines, g[0]+"\t"+g[1])
		}
		if len(lines) == 0 {
			lines = []string{"no names defined yet"}
		}
		b := display.Text(strings.Join(lines, "\n"))
		return &b, nil
	case "%time":
		body := rest
		if args != "" {
			body = args + "\n" + rest
		}
		start := time.Now()
		// Keep the body's line numbers: it starts on the cell's first or
		// second line.
		pad := "\n"
		if args != "" {
			pad = ""
		}
		v, err := s.eval(ctx, pad+body)
		s.flush()
		out.Stream("stdout", fmt.Sprintf("time: %s\n", roundDuration(time.Since(start))))
		return v, err
	}
	msg := fmt.Sprintf("unknown magic %s (%%help lists the magics)", name)
	return nil, &Error{Name: "MagicError", Value: msg, Traceback: []string{"MagicError: " + msg}}
}

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(time.Microsecond)
	}
	return d
}
