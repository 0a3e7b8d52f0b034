package cegis

import (
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

func TestQuick(t *testing.T) {
	debug = true
	truth := portmap.MustMapping("t", "0", "1", "2")
	truth.MustSetUsage("a", "1*p01").MustSetUsage("b", "1*p01").MustSetUsage("c", "1*p0").MustSetUsage("d", "1*p2")
	for _, cfg := range []Config{DefaultConfig(), ThesisConfig()} {
		cfg.Epsilon = 0
		cfg.Progress = func(it Iteration) { t.Log(it) }
		res, err := Infer(t.Context(), oracle.Simulate(truth, 0, 1), truth.Instructions(), 3, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(res.Mapping, res.Complete, res.Elapsed)
		if _, ok := portmap.EquivalentByRenaming(res.Mapping, truth); !ok {
			t.Errorf("not equivalent")
		}
	}
}
