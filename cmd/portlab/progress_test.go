package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestProgressPlainLinesOffTerminal checks that off a terminal (a log of
// portlab infer) the bar does not write every \r frame but a line per
// tenth of the work or per display.PlainEvery, and the last one.
func TestProgressPlainLinesOffTerminal(t *testing.T) {
	var buf bytes.Buffer
	b := newProgressBar(&buf)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b.now = func() time.Time { return clock }
	for i := int64(0); i <= 1000; i++ {
		clock = clock.Add(time.Millisecond)
		b.update("generation", i, 1000)
	}
	b.finish()
	out := buf.String()
	if strings.ContainsAny(out, "\r\033") {
		t.Fatalf("terminal control characters in %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 11 || lines[0] != "  0% 0/1000 generation" || lines[10] != "100% 1000/1000 generation" {
		t.Errorf("%d lines, want one per tenth:\n%s", len(lines), out)
	}
	// Slow work: a line every display.PlainEvery while it advances.
	buf.Reset()
	b = newProgressBar(&buf)
	b.now = func() time.Time { return clock }
	for i := int64(0); i < 60; i++ {
		clock = clock.Add(time.Second)
		b.update("slow", i, 1000)
	}
	if n := strings.Count(buf.String(), "\n"); n != 6 {
		t.Errorf("60 s of slow progress: %d lines, want 6 (one per 10 s):\n%s", n, buf.String())
	}
}

// TestProgressUnknownTotal checks the bar of a method that does not know
// its number of iterations (portlab infer cegis), which must not show
// "0% 1/0": the line is the method's own report (iteration, experiments, size, solver time),
// off a terminal one line per display.PlainEvery and the last one at the
// end; on a terminal redrawn in place without a bar or percentage.
func TestProgressUnknownTotal(t *testing.T) {
	var buf bytes.Buffer
	b := newProgressBar(&buf)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b.now = func() time.Time { return clock }
	for i := int64(1); i <= 25; i++ {
		clock = clock.Add(time.Second)
		b.update(fmt.Sprintf("iteration %d (solver): %d experiments", i, 10+i), i, 0)
	}
	b.finish()
	out := buf.String()
	if strings.Contains(out, "/0") || strings.Contains(out, "%") {
		t.Errorf("unknown total shown as a fraction:\n%s", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{"iteration 1 (solver): 11 experiments", "iteration 11 (solver): 21 experiments",
		"iteration 21 (solver): 31 experiments", "iteration 25 (solver): 35 experiments"}
	if !slices.Equal(lines, want) {
		t.Errorf("lines %q, want %q", lines, want)
	}
	buf.Reset()
	b = newProgressBar(&buf)
	b.terminal = true
	b.update("iteration 1 (solver): 11 experiments", 1, 0)
	b.update("iteration 2 (bound): 12 experiments", 2, 0)
	b.finish()
	if got := buf.String(); got != "\riteration 1 (solver): 11 experiments\033[K\riteration 2 (bound): 12 experiments\033[K\n" {
		t.Errorf("terminal output %q", got)
	}
}

// TestProgressPlainCountsOnce: a label that counts already (portlab
// measure's "3/10, 0 failed") is not prefixed with the count again.
func TestProgressPlainCountsOnce(t *testing.T) {
	var buf bytes.Buffer
	b := newProgressBar(&buf)
	b.update("3/10, 0 failed", 3, 10)
	b.update("forms", 5, 10)
	b.finish()
	want := "30% 3/10, 0 failed\n 50% 5/10 forms\n"
	if got := buf.String(); got != " "+want {
		t.Errorf("lines %q, want %q", got, " "+want)
	}
}
