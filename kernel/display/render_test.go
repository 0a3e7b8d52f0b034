package display

import (
	"fmt"
	"strings"
	"testing"
)

// point stands for a library value that is best shown with a picture.
type point struct{ X, Y int }

func (p point) String() string { return fmt.Sprintf("(%d, %d)", p.X, p.Y) }

// TestViewers: a registered viewer shows the values it knows before their
// own methods and forms, others render as before, and a removed viewer is
// no longer asked.
func TestViewers(t *testing.T) {
	if b := Render(point{1, 2}); b.PlainText() != "(1, 2)" || b.Has(MIMESVG) {
		t.Fatalf("without a viewer: %v", b.Data)
	}
	remove := AddViewer(func(v any) (Bundle, bool) {
		p, ok := v.(point)
		if !ok {
			return Bundle{}, false
		}
		b := SVG(fmt.Sprintf("<svg><circle cx='%d' cy='%d' r='1'/></svg>", p.X, p.Y))
		b.Data[MIMEText] = Format(p)
		return b, true
	})
	second := AddViewer(func(v any) (Bundle, bool) { return Text("second"), true })
	b := Render(point{1, 2})
	if b.PlainText() != "(1, 2)" || b.Data[MIMESVG] != "<svg><circle cx='1' cy='2' r='1'/></svg>" {
		t.Errorf("viewed: %v", b.Data)
	}
	if got := Values(point{3, 4}, 5).PlainText(); got != "((3, 4), second)" {
		t.Errorf("a tuple of viewed values: %q", got)
	}
	second()
	if b := Render(42); b.PlainText() != "42" || len(b.Data) != 1 {
		t.Errorf("a value no viewer knows: %v", b.Data)
	}
	remove()
	if b := Render(point{1, 2}); b.Has(MIMESVG) {
		t.Errorf("a removed viewer still shows the value: %v", b.Data)
	}
}

// measured stands for a library result whose methods have pointer
// receivers (as *portmap.ExperimentSet).
type measured struct{ n int }

func (m *measured) String() string { return fmt.Sprintf("%d measured", m.n) }
func (m *measured) HTML() string   { return fmt.Sprintf("<i>%d measured</i>", m.n) }

// outcome stands for a library struct without methods (as
// *measure.Outcome).
type outcome struct {
	Set     *measured
	Resumed int
	Note    string
	hidden  int
}

// TestValuesWithPointerMethodsAndPlainStructs: a dereferenced
// value whose methods have pointer receivers, and a library struct without
// methods, showed as raw structs ({<nil> [...]}, &{0x… 0}).
func TestValuesWithPointerMethodsAndPlainStructs(t *testing.T) {
	b := Render(measured{3})
	if b.PlainText() != "3 measured" || b.Data[MIMEHTML] != "<i>3 measured</i>" {
		t.Errorf("value with pointer methods: %q %q", b.PlainText(), b.Data[MIMEHTML])
	}
	o := &outcome{Set: &measured{2}, Resumed: 1, Note: "ok", hidden: 5}
	b = Render(o)
	if got, want := b.PlainText(), `&display.outcome{Set: 2 measured, Resumed: 1, Note: "ok"}`; got != want {
		t.Errorf("struct text %q, want %q", got, want)
	}
	h, _ := b.Data[MIMEHTML].(string)
	if !strings.Contains(h, "<i>2 measured</i>") || !strings.Contains(h, "<th style=\"text-align:left;vertical-align:top\">Resumed</th>") || strings.Contains(h, "hidden") {
		t.Errorf("struct HTML %q", h)
	}
	if got := Format(*o); got != `display.outcome{Set: 2 measured, Resumed: 1, Note: "ok"}` {
		t.Errorf("Format of the struct value: %q", got)
	}
}
