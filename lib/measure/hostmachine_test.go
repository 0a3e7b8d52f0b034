package measure

import (
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/portmap"
)

// TestHostMachine builds a description from a mapping and latency
// measurements (given here, as a campaign would hold them): latencies by
// form key, per operand pair, the memory input's pair with the load
// latency added, and the forms left out listed.
func TestHostMachine(t *testing.T) {
	add, vadd, addm, imul := "add RW:GPR:64, R:GPR:64", "vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15", "add RW:GPR:64, qword ptr R:MEM(64)", "imul RW:GPR:64, R:GPR:64"
	mp := portmap.MustMapping("test", "0", "1")
	for _, f := range []string{add, vadd, addm} {
		if err := mp.SetPorts(f, "0", "1"); err != nil {
			t.Fatal(err)
		}
	}
	set := &portmap.ExperimentSet{}
	for _, m := range []struct {
		form     string
		from, to int
		cycles   float64
	}{{add, 0, 0, 1.02}, {add, 1, 0, 0.98}, {vadd, 1, 0, 3.01}, {vadd, 2, 0, 2.97}, {addm, 0, 0, 1.0}, {imul, 0, 0, 3}} {
		set.Measurements = append(set.Measurements, portmap.Measurement{Experiment: portmap.NewExperiment(design.LatencyName(m.form, m.from, m.to)), Cycles: m.cycles})
	}
	m, notes, err := HostMachine(HostDescription{Mapping: mp, Latencies: set, LoadLatency: 4, IssueWidth: 6})
	if err != nil {
		t.Fatal(err)
	}
	if l := m.Latencies[vadd]; l.Cycles != 3 || len(l.Operands) != 2 {
		t.Errorf("vaddps: %+v", l)
	}
	if l := m.Latencies[addm]; l.Cycles != 5 || len(l.Operands) != 2 || l.Operands[1] != (machine.OperandLatency{From: 1, To: 0, Cycles: 5}) {
		t.Errorf("add r64, m64: %+v, want 1 from the register, 5 from memory", l)
	}
	if _, ok := m.Latencies[imul]; ok || len(notes) != 1 || !strings.Contains(notes[0], "1 form with measured latencies but not in the mapping, left out: "+imul) {
		t.Errorf("imul is not mapped: latencies %v, notes %q", m.Latencies, notes)
	}
	data, err := machine.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := machine.Parse(data, "host.json")
	if err != nil || back.Latencies[addm].Cycles != 5 || back.IssueWidth != 6 {
		t.Errorf("round trip: %v, %+v", err, back)
	}
	// Without a load latency, forms with a memory input are left out.
	m, notes, err = HostMachine(HostDescription{Mapping: mp, Latencies: set})
	if _, ok := m.Latencies[addm]; err != nil || ok || !strings.Contains(strings.Join(notes, "\n"), "memory input") {
		t.Errorf("no load latency: %v, %v, %q", err, m.Latencies, notes)
	}
	// Latencies of other forms than the mapping's: an error, no machine.
	other := portmap.MustMapping("other", "0")
	if err := other.SetPorts("xor RW:GPR:64, R:GPR:64", "0"); err != nil {
		t.Fatal(err)
	}
	if m, _, err := HostMachine(HostDescription{Mapping: other, Latencies: set}); err == nil || m != nil || !strings.Contains(err.Error(), "not in the mapping") {
		t.Errorf("no overlap: %v, %v, want an error", m, err)
	}
	for _, d := range []HostDescription{{Latencies: set}, {Mapping: mp}, {Mapping: mp, Latencies: &portmap.ExperimentSet{}}} {
		if _, _, err := HostMachine(d); err == nil || !strings.Contains(err.Error(), "Latencies") && !strings.Contains(err.Error(), "Mapping") {
			t.Errorf("%+v: %v, want an error naming the missing field", d, err)
		}
	}
}

// TestHostMachineMemory: the measured memory behaviour and merge latency
// go into the description (and survive a round trip); eliminated forms
// get no µops and need a front end; forwarding without the load latency
// it replaces is an error.
func TestHostMachineMemory(t *testing.T) {
	add, mov := "add RW:GPR:64, R:GPR:64", "mov W:GPR:64, R:GPR:64"
	mp := portmap.MustMapping("test", "0", "1")
	for _, f := range []string{add, mov} {
		if err := mp.SetPorts(f, "0", "1"); err != nil {
			t.Fatal(err)
		}
	}
	set := &portmap.ExperimentSet{Measurements: []portmap.Measurement{{Experiment: portmap.NewExperiment(design.LatencyName(add, 0, 0)), Cycles: 1}}}
	d := HostDescription{Mapping: mp, Latencies: set, LoadLatency: 4, StoreForwardLatency: 7, Renaming: true, MergeLatency: 2,
		Eliminated: []string{mov}, FrontEnd: machine.FrontEnd{InstructionsPerCycle: 8}, AddressIncrementLatency: 0.5}
	m, _, err := HostMachine(d)
	if err != nil {
		t.Fatal(err)
	}
	if m.Memory != (machine.Memory{LoadLatency: 4, StoreForwardLatency: 7, Renaming: true}) || m.MergeLatency != 2 || m.AddressIncrementLatency != 0.5 {
		t.Errorf("memory %+v, merge %d", m.Memory, m.MergeLatency)
	}
	if u, ok := m.Mapping.Uops(mov); !ok || len(u) != 0 {
		t.Errorf("eliminated mov: %v %v, want mapped with no µops", u, ok)
	}
	if u, _ := mp.Uops(mov); len(u) != 1 {
		t.Errorf("the given mapping was changed: %v", u)
	}
	data, err := machine.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := machine.Parse(data, "host.json")
	if err != nil || back.Memory != m.Memory || back.MergeLatency != 2 || back.AddressIncrementLatency != 0.5 || !back.Mapping.Has(mov) || back.Mapping.NumUops(mov) != 0 {
		t.Errorf("round trip: %v, %+v", err, back)
	}
	for _, c := range []struct {
		d    HostDescription
		want string
	}{
		{HostDescription{Mapping: mp, Latencies: set, StoreForwardLatency: 7}, "LoadLatency"},
		{HostDescription{Mapping: mp, Latencies: set, Eliminated: []string{mov}}, "front end"},
		{HostDescription{Mapping: mp, Latencies: set, Eliminated: []string{"nop"}, IssueWidth: 8}, `"nop" is not in the mapping`},
	} {
		if _, _, err := HostMachine(c.d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %s", c.d, err, c.want)
		}
	}
}
