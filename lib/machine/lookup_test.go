package machine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/portmap"
)

// TestLookup looks up each kind of name: a built-in machine, an unknown
// built-in name, a machine file, a mapping file, a data-set name and a
// machine file referring to a mapping by data-set name.
func TestLookup(t *testing.T) {
	if got := machine.Names(); len(got) != 1 || got[0] != machine.ZenPlusLikeName {
		t.Errorf("Names: %v", got)
	}
	zen, err := machine.Lookup(machine.ZenPlusLikeName)
	if err != nil || zen.Name != machine.ZenPlusLikeName || zen.Mapping.Len() != 162 || zen.Counters.Uops != machine.MacroOps {
		t.Fatalf("%v, %v", zen, err)
	}
	// Every call returns a new copy.
	zen.InstructionsPerCycle = 1
	if again, _ := machine.Lookup(machine.ZenPlusLikeName); again.InstructionsPerCycle != 5 {
		t.Errorf("a change to one copy shows in the next: %v", again)
	}
	if _, err := machine.Lookup("portlab:nonesuch"); err == nil || !strings.Contains(err.Error(), machine.ZenPlusLikeName) {
		t.Errorf("unknown machine: %v", err)
	}

	dir := t.TempDir()
	sm, err := machine.Parse([]byte(small), "small.json")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "small.json")
	if err := machine.Write(file, sm); err != nil {
		t.Fatal(err)
	}
	got, err := machine.Lookup(file)
	if err != nil {
		t.Fatal(err)
	}
	same(t, got, sm)

	mfile := filepath.Join(dir, "mapping.json")
	if err := portmap.WriteMapping(mfile, sm.Mapping); err != nil {
		t.Fatal(err)
	}
	got, err = machine.Lookup(mfile)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != mfile || got.MappingSource != mfile || got.Mapping.Len() != 3 || got.FrontEnd != (machine.FrontEnd{}) || got.Counted() != nil {
		t.Errorf("mapping file: %+v", got)
	}
	if got.String() != mfile+": 3 instructions on 4 ports" {
		t.Errorf("String: %s", got)
	}
	if _, err := machine.Lookup(filepath.Join(dir, "nonesuch.json")); err == nil || !os.IsNotExist(err) && !strings.Contains(err.Error(), "nonesuch.json") {
		t.Errorf("missing file: %v", err)
	}

	datasettest.Need(t)
	got, err = machine.Lookup("pmevo:SKL/uops_info")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "pmevo:SKL/uops_info" || got.Mapping.Len() != 310 || got.Mapping.NumPorts() != 9 {
		t.Errorf("data set: %v", got)
	}
	ref := filepath.Join(dir, "skl.json")
	if err := os.WriteFile(ref, []byte(`{"format": "portlab.machine/v1", "name": "skl", "mapping": "pmevo:SKL/uops_info", "frontEnd": {"instructionsPerCycle": 4}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = machine.Lookup(ref)
	if err != nil || got.Mapping.Len() != 310 || got.MappingSource != "pmevo:SKL/uops_info" || got.InstructionsPerCycle != 4 {
		t.Errorf("machine on a data set: %v, %v", got, err)
	}
}
