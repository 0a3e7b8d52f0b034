package display

import (
	"context"
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
