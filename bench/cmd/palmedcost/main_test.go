package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

// Bad names are refused before PALMED starts, naming the flag.
func TestRunRefusesBadNames(t *testing.T) {
	dir := t.TempDir()
	m := portmap.MustMapping("toy", "0", "1").MustSetUsage("add", "1*p01")
	mfile := filepath.Join(dir, "toy.json")
	if err := portmap.WriteMapping(mfile, m); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.jsonl")
	for _, c := range []struct {
		simulate, stored, insns string
		noise                   float64
		want                    string
	}{
		{mfile, missing, "", 0, "-stored: experiments " + `"` + missing + `": no such file`},
		{mfile, "random:5:10", "", 0, `-stored "random:5:10": random experiments are not stored measurements`},
		{mfile, mfile, "curated:0", 0, `-insns: forms "curated:0"`},
		{"nosuch:machine", mfile, "", 0, `unknown data-set prefix "nosuch:"`},
		{mfile, mfile, "", -1, "noise -1: want a relative standard deviation in [0, 1)"},
	} {
		err := run(c.simulate, c.stored, c.insns, 6.5, false, c.noise)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c, err, c.want)
		}
	}
}
