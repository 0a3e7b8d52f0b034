package account

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

// TestOutcomes checks which outcomes map an instruction and that the
// JSON of an account names its outcome.
func TestOutcomes(t *testing.T) {
	mapped := map[Outcome]bool{Blocking: true, ImproperBlocking: true, Equivalent: true, Mapped: true, CountDiffers: true, Resolved: true, StoreBlocking: true}
	for o := Pending; o <= StoreBlocking; o++ {
		if o.Mapped() != mapped[o] {
			t.Errorf("%v.Mapped() = %v", o, o.Mapped())
		}
		if strings.HasPrefix(o.String(), "Outcome(") {
			t.Errorf("outcome %d has no name", int(o))
		}
	}
	if s := Outcome(99).String(); s != "Outcome(99)" {
		t.Errorf("unknown outcome: %s", s)
	}
	in := Insn{Insn: "add", Outcome: Incomplete, Why: "found 1 of its 2 µops", Uops: []portmap.Uop{{Ports: portmap.Ports(0), Count: 1}},
		Evidence: []Evidence{{Blocker: "mul", Ports: portmap.Ports(0), Copies: 10, OnPorts: 11, Surplus: 1, Uops: 1}}}
	b, err := json.Marshal(in)
	if err != nil || !strings.Contains(string(b), `"Outcome":"incomplete"`) || !strings.Contains(string(b), `"OnPorts":11`) || strings.Contains(string(b), "WithInsn") {
		t.Errorf("JSON %s, %v", b, err)
	}
}
