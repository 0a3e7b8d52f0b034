package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressPlainLinesOffTerminal is issue 13 item 14: off a terminal
// (a log of portlab infer) the bar wrote every \r frame; now it writes a
// line per tenth of the work or per display.PlainEvery, and the last one.
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
