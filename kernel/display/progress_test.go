package display

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

type recorder struct {
	ids     []string
	updates []bool
	texts   []string
}

func (r *recorder) Publish(b Bundle, id string, update bool) {
	r.ids, r.updates = append(r.ids, id), append(r.updates, update)
	r.texts = append(r.texts, b.Data[MIMEText].(string))
}
func (r *recorder) Input(string, bool) (string, error) { return "", nil }
func (r *recorder) Context() context.Context           { return context.Background() }

func TestProgressBar(t *testing.T) {
	rec := &recorder{}
	defer SetPublisher(rec)()
	b := NewProgressBar("campaign")
	for i := 1; i <= 1000; i++ {
		b.Set(i, 1000, "last 0.25")
	}
	// The first and the final update are always published, in between at
	// most ten a second.
	if n := len(rec.texts); n < 2 || n > 2+int(10*time.Since(b.start).Seconds())+1 {
		t.Fatalf("%d publications", n)
	}
	if rec.updates[0] || !rec.updates[len(rec.updates)-1] {
		t.Errorf("first must create, later ones update: %v", rec.updates)
	}
	for _, id := range rec.ids {
		if id != rec.ids[0] || id == "" {
			t.Fatalf("ids %v", rec.ids)
		}
	}
	last := rec.texts[len(rec.texts)-1]
	if !strings.Contains(last, "100% 1000/1000") || !strings.Contains(last, "last 0.25") || !strings.Contains(last, "[##############################]") {
		t.Errorf("final text %q", last)
	}
	if NewProgressBar("x").id == b.id {
		t.Error("two bars share an id")
	}
	half := b.bundle(5, 10, "", 10*time.Second)
	if txt := half.Data[MIMEText].(string); !strings.Contains(txt, " 50% 5/10 (10s, 10s left)") {
		t.Errorf("half-way text %q", txt)
	}
	if h := half.Data[MIMEHTML].(string); !strings.Contains(h, `<progress value="5" max="10"`) {
		t.Errorf("html %q", h)
	}
}

// TestProgressBarPlainLinesOffTerminal checks the text
// publisher: off a terminal, the bar writes a line per tenth of the work
// instead of redrawing itself with \r frames.
func TestProgressBarPlainLinesOffTerminal(t *testing.T) {
	defer SetPublisher(nil)()
	saved := stdoutIsTerminal
	stdoutIsTerminal = func() bool { return false }
	defer func() { stdoutIsTerminal = saved }()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	b := NewProgressBar("campaign")
	b.period = 0
	for i := 0; i <= 500; i++ {
		b.Set(i, 500, "")
	}
	os.Stdout = stdout
	w.Close()
	data, _ := io.ReadAll(r)
	out := string(data)
	if strings.ContainsAny(out, "\r\033") {
		t.Fatalf("terminal control characters in %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 11 || !strings.Contains(lines[10], "100% 500/500") {
		t.Errorf("%d lines, want one per tenth:\n%s", len(lines), out)
	}
}

// TestProgressBarUnknownTotal: counter-example-guided inference
// does not know its number of steps, and its bar showed "0% 1/0". With a
// total of 0 the bar shows the steps and the note, no percentage, no
// "/0", an indeterminate HTML bar, and a full one after Finish.
func TestProgressBarUnknownTotal(t *testing.T) {
	rec := &recorder{}
	defer SetPublisher(rec)()
	b := NewProgressBar("cegis")
	b.period = 0
	b.Set(1, 0, "iteration 1 (solver): 5 experiments")
	b.Set(7, 0, "iteration 7 (bound): 12 experiments")
	txt := rec.texts[len(rec.texts)-1]
	if strings.Contains(txt, "%") || strings.Contains(txt, "/0") || strings.Contains(txt, "left") {
		t.Errorf("unknown total shown as a fraction: %q", txt)
	}
	if !strings.Contains(txt, "cegis [running] 7 steps (") || !strings.Contains(txt, "iteration 7 (bound): 12 experiments") {
		t.Errorf("running text %q", txt)
	}
	h := b.bundle(7, 0, "n", time.Second).Data[MIMEHTML].(string)
	if !strings.Contains(h, "<progress style=") || strings.Contains(h, "value=") || strings.Contains(h, "/0") {
		t.Errorf("running html %q", h)
	}
	n := len(rec.texts)
	b.period = time.Hour // Finish is shown even right after another update
	b.Finish(8, "iteration 8 (done): 12 experiments")
	if len(rec.texts) != n+1 {
		t.Fatalf("Finish not published: %d publications, want %d", len(rec.texts), n+1)
	}
	if txt := rec.texts[n]; !strings.Contains(txt, "cegis [done] 8 steps") || !rec.updates[n] {
		t.Errorf("finished text %q (update %v)", txt, rec.updates[n])
	}
	if h := b.bundle(8, 0, "", time.Second).Data[MIMEHTML].(string); !strings.Contains(h, `<progress value="1" max="1"`) {
		t.Errorf("finished html %q", h)
	}
}
