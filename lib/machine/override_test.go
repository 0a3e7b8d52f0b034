package machine_test

import (
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/machine"
)

func TestOverride(t *testing.T) {
	m, err := machine.Parse([]byte(small), "small.json")
	if err != nil {
		t.Fatal(err)
	}
	over := `{"format": "portlab.machine-override/v1", "description": "Tuned by hand.",
	  "uops": {"mov dword ptr W:MEM(32), R:GPR:32": [{"count": 1, "ports": ["2"]}, {"count": 1, "ports": ["3"]}], "nop": []},
	  "latencies": {"add RW:GPR:32, R:GPR:32": {"cycles": 2}},
	  "complexLEALatency": 3,
	  "chains": [{"forms": ["add RW:GPR:32, R:GPR:32"], "cycles": 1}],
	  "wakeup": {"forms": ["add RW:GPR:32, R:GPR:32"], "cost": 3}}`
	o, err := machine.Override(m, []byte(over), "over.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Mapping.Usage("mov dword ptr W:MEM(32), R:GPR:32"); got != "1*p2+1*p3" {
		t.Errorf("store µops %q, want 1*p2+1*p3", got)
	}
	if u, ok := o.Mapping.Uops("nop"); !ok || len(u) != 0 {
		t.Errorf("nop: %v %v, want mapped without µops", u, ok)
	}
	if l := o.Latencies["add RW:GPR:32, R:GPR:32"]; l.Cycles != 2 || len(l.Operands) != 0 {
		t.Errorf("add latency %+v, want 2 cycles", l)
	}
	if l := o.Latencies["add RW:GPR:32, dword ptr R:MEM(32)"]; l.Cycles != 1 || len(l.Operands) != 1 {
		t.Errorf("the latency not overridden changed: %+v", l)
	}
	if o.ComplexLEALatency != 3 || len(o.Chains) != 1 || o.Chains[0].Cycles != 1 {
		t.Errorf("complex lea %v, chains %+v", o.ComplexLEALatency, o.Chains)
	}
	if o.Wakeup == nil || o.Wakeup.Cost != 3 || len(o.Wakeup.Forms) != 1 {
		t.Errorf("wakeup %+v, want cost 3 for one form", o.Wakeup)
	}
	if o.ReorderBuffer != 192 || o.InstructionsPerCycle != 4 || !strings.HasSuffix(o.Description, "four ports Tuned by hand.") {
		t.Errorf("fields not overridden changed: %+v", o)
	}
	if m.Mapping.Has("nop") || m.ComplexLEALatency != 2 || m.Latencies["add RW:GPR:32, R:GPR:32"].Cycles != 1 {
		t.Error("the machine given was modified")
	}
	for _, c := range []struct{ doc, want string }{
		{`{"complexLEALatency": 3}`, "format: missing"},
		{`{"format": "portlab.machine/v1"}`, "want \"portlab.machine-override/v1\""},
		{`{"format": "portlab.machine-override/v1", "name": "x"}`, "name: unknown field"},
		{`{"format": "portlab.machine-override/v1", "uops": {"nop": [{"count": 1, "ports": ["9"]}]}}`, `uops["nop"][0].ports`},
		{`{"format": "portlab.machine-override/v1", "latencies": {"nop": {"cycles": 1}}}`, "nop"},
		{`{"format": "portlab.machine-override/v1", "complexLEALatency": -1}`, "complexLEALatency"},
		{`{"format": "portlab.machine-override/v1", "fusions": [{"first": ["add RW:GPR:32, R:GPR:32"], "second": []}]}`, "fusions[0].second"},
	} {
		_, err := machine.Override(m, []byte(c.doc), "over.json")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "over.json") {
			t.Errorf("%s: error %v, want one naming over.json and %q", c.doc, err, c.want)
		}
	}
}
