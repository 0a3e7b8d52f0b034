package palmed

import (
	"context"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// toy is the port mapping of PALMED Fig. 1a.
func toy() *portmap.Mapping {
	m := portmap.MustMapping("fig1", "0", "1", "6")
	return m.MustSetUsage("DIVPS", "1*p0").MustSetUsage("VCVTT", "2*p01").
		MustSetUsage("ADDSS", "1*p01").MustSetUsage("BSR", "1*p1").
		MustSetUsage("JNLE", "1*p06").MustSetUsage("JMP", "1*p6")
}

func TestToy(t *testing.T) {
	truth := toy()
	cfg := DefaultConfig()
	cfg.Basic = 5
	res, err := Infer(context.Background(), oracle.Simulate(truth, 0, 1), truth.Instructions(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res)
	t.Log(res.Mapping)
}
