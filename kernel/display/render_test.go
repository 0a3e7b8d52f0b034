package display

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// TestLibraryValuesRenderThemselves: library values reach the notebook as
// their own HTML (or a plots view), never as raw structs, and the display
// knows none of their types.
func TestLibraryValuesRenderThemselves(t *testing.T) {
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	e := portmap.NewExperiment("add", "add", "mul", "store")
	set := &portmap.ExperimentSet{Arch: m.Arch(), Measurements: []portmap.Measurement{
		{Experiment: e, Cycles: 1.6, Min: 1.5, Max: 1.7, Dispersion: 0.01},
		{Experiment: portmap.NewExperiment("store", "store"), Cycles: 2},
	}}
	s, _ := throughput.LP(m, e)
	ev := metrics.Evaluate(context.Background(), oracle.FromMapping(m), set)
	for _, c := range []struct {
		v          any
		text, html string
	}{
		{m, "mapping fig3.1: 3 instructions", `<img alt="mapping graph of fig3.1" src="data:image/png;base64,`},
		{set, "2 measured experiments on fig3.1", "<th>dispersion</th>"},
		{s, "cycles 1.5; port pressure", `<img alt="port pressure" src="data:image/png;base64,`},
		{ev, "fig3.1 on fig3.1: n=2", `<img alt="heat map"`},
		{set.Measurements[0], "{add ↦ 2, mul ↦ 1, store ↦ 1}: 1.6 cycles (min 1.5, max 1.7, dispersion 1.00%)", ""},
		{portmap.Failure{Index: 2, Experiment: e, Insn: "add", Reason: "no"}, `experiment 2 {add ↦ 2, mul ↦ 1, store ↦ 1}: instruction "add": no`, ""},
	} {
		b := Render(c.v)
		if !strings.Contains(b.PlainText(), c.text) {
			t.Errorf("%T: text %q lacks %q", c.v, b.PlainText(), c.text)
		}
		h, _ := b.Data[MIMEHTML].(string)
		if !strings.Contains(h, c.html) {
			t.Errorf("%T: HTML lacks %q: %.300s", c.v, c.html, h)
		}
		if strings.Contains(b.PlainText(), "{0x") || strings.Contains(b.PlainText(), "&{") {
			t.Errorf("%T shows as a raw struct: %s", c.v, b.PlainText())
		}
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

// TestValuesWithPointerMethodsAndPlainStructs is issue 13 item 13: a dereferenced
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
