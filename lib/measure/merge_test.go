package measure

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// shardCampaign measures shard s of exps with o into dir/name under
// header h (its plan filled in) and returns the file's path.
func shardCampaign(t *testing.T, dir, name string, h portmap.Header, s portmap.Shard, exps []portmap.Experiment, o oracle.Oracle) string {
	t.Helper()
	h = shardPlanHeader(h, s, exps)
	part := h.Shard.Shard.Select(exps)
	path := filepath.Join(dir, name)
	c := openCampaign(t, path, o)
	if err := c.Begin(h); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background(), part, nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	return path
}

// dispersedOracle adds a dispersion, a contention and passes to the
// measurements of a simulation, as the hardware oracle reports them.
type dispersedOracle struct{ oracle.Oracle }

func (o dispersedOracle) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	m, err := o.Oracle.Measure(ctx, e)
	m.Dispersion, m.Contention, m.Passes = 0.01, 0.03, 3
	return m, err
}

func toyHeader() portmap.Header {
	return portmap.Header{
		Machine:  portmap.Fingerprint{Vendor: "AuthenticAMD", Family: 25, Model: 1, Stepping: 1, CyclesPerTick: 1.4, Version: "test"},
		Settings: portmap.Settings{Layout: "default", BodySize: 100, Passes: 3, MaxPasses: 6, Agreement: 0.02, Samples: 5, Repeats: 3, TargetNano: 250000, Resettle: 0.1},
		Time:     time.Now().UTC(),
	}
}

func TestMergeCampaigns(t *testing.T) {
	insns := []string{"add", "mul", "store", "div"}
	exps := append(design.Singletons(insns), design.Pairs(insns)...)
	dir := t.TempDir()
	o := dispersedOracle{oracle.Simulate(toyMapping(), 0.02, 1)}
	h := toyHeader()
	var files []string
	for i := range 3 {
		files = append(files, shardCampaign(t, dir, "s"+string(rune('0'+i))+".jsonl", h, portmap.Shard{Index: i, Count: 3}, exps, o))
	}
	out := filepath.Join(dir, "merged.jsonl")

	// Complete, with the second shard given twice (once as a copy): merged once.
	dup := filepath.Join(dir, "s1-copy.jsonl")
	data, _ := os.ReadFile(files[1])
	os.WriteFile(dup, data, 0o644)
	rep, err := MergeCampaigns(out, append(files, dup, files[0]), false)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete() || rep.Experiments != len(exps) || len(rep.Files[1]) != 2 || !strings.Contains(rep.String(), "shard 1/3 given 2 times") {
		t.Errorf("report: %+v\n%s", rep, rep)
	}
	set, failures, err := portmap.ReadCampaign(out)
	if err != nil || set.Len() != len(exps) || len(failures) != 0 {
		t.Fatalf("merged file: %d experiments, %d failures, %v; want %d", set.Len(), len(failures), err, len(exps))
	}
	// The records are whole: dispersion and contention kept.
	recs, headers, err := portmap.ReadCampaignHeaders(out)
	if err != nil || len(headers) != 1 || headers[0].Shard.Count != 1 || headers[0].Shard.Planned != len(exps) || len(recs) != len(exps) {
		t.Fatalf("merged header %+v, %d records, %v", headers, len(recs), err)
	}
	if headers[0].Shard.Digest != portmap.PlanDigest(exps) {
		t.Errorf("merged digest %s, want the whole design's %s", headers[0].Shard.Digest, portmap.PlanDigest(exps))
	}
	dispersed := 0
	for _, r := range recs {
		if r.Dispersion == 0.01 && r.Contention == 0.03 && r.Passes == 3 {
			dispersed++
		}
	}
	if dispersed != len(recs) {
		t.Errorf("%d of %d merged records keep their dispersion and passes", dispersed, len(recs))
	}

	// A missing shard: refused, nothing written, unless partial.
	os.Remove(out)
	_, err = MergeCampaigns(out, files[:2], false)
	if err == nil || !strings.Contains(err.Error(), "missing shards: 2/3") {
		t.Errorf("missing shard: %v", err)
	}
	if _, serr := os.Stat(out); serr == nil {
		t.Error("an incomplete merge was written")
	}
	if rep, err = MergeCampaigns(out, files[:2], true); err != nil || rep.Complete() || len(rep.Missing) != 1 {
		t.Errorf("partial merge: %+v, %v", rep, err)
	}

	// A shard cut short (a task killed before it finished): its missing
	// experiments are counted.
	short := filepath.Join(dir, "s2-short.jsonl")
	data, _ = os.ReadFile(files[2])
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(short, []byte(strings.Join(lines[:3], "")), 0o644)
	_, err = MergeCampaigns(out, []string{files[0], files[1], short}, false)
	if err == nil || !strings.Contains(err.Error(), "2 of 3 planned experiments recorded, 1 missing") {
		t.Errorf("short shard: %v", err)
	}

	// A doctored fingerprint, other settings, another campaign's shard: refused, naming the file and field.
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"model.jsonl", `"model":1,`, `"model":17,`, "model is 17 there, 1 in"},
		{"microcode.jsonl", `"stepping":1,`, `"stepping":1,"microcode":"0xa0011d1",`, `microcode is "0xa0011d1" there, (none) in`},
		{"clock.jsonl", `"cycles_per_tick":1.4,`, `"cycles_per_tick":2.1,`, "cycles_per_tick is 2.1 there, 1.4 in"},
		{"version.jsonl", `"version":"test"`, `"version":"other"`, `version is "other" there`},
		{"passes.jsonl", `"passes":3,"max_passes"`, `"passes":1,"max_passes"`, "with other settings than " + files[0] + ": passes is 1 there, 3 in"},
		{"layout.jsonl", `"layout":"default"`, `"layout":"one-line"`, `layout is "one-line" there`},
		{"count.jsonl", `"count":3,`, `"count":4,`, "shard count is 4 there, 3 in"},
	} {
		path := filepath.Join(dir, c.name)
		data, _ := os.ReadFile(files[1])
		doctored := strings.Replace(string(data), c.from, c.to, 1)
		if doctored == string(data) {
			t.Fatalf("%s: %q not in the header", c.name, c.from)
		}
		os.WriteFile(path, []byte(doctored), 0o644)
		_, err := MergeCampaigns(out, []string{files[0], path, files[2]}, true)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}

	// A file of an earlier version (no header) cannot be merged.
	old := filepath.Join(dir, "old.jsonl")
	os.WriteFile(old, []byte(strings.Join(lines[1:], "")), 0o644)
	if _, err := MergeCampaigns(out, []string{files[0], old}, true); err == nil || !strings.Contains(err.Error(), "old.jsonl has no header") {
		t.Errorf("old file: %v", err)
	}
}

// TestCampaignBegin: a campaign writes its header once, resumes under the
// same one, reads files of earlier versions (no header) and refuses to
// go on with another machine, settings or shard.
func TestCampaignBegin(t *testing.T) {
	insns := []string{"add", "mul", "store"}
	exps := design.Pairs(insns)
	dir := t.TempDir()
	o := oracle.Simulate(toyMapping(), 0, 1)
	h := toyHeader()
	path := shardCampaign(t, dir, "s.jsonl", h, portmap.Shard{Index: 0, Count: 2}, exps, o)
	// Resumed with the same plan (the clock a little different): no new header.
	path2 := shardCampaign(t, dir, "s.jsonl", func() portmap.Header { h := h; h.Machine.CyclesPerTick *= 1.03; return h }(), portmap.Shard{Index: 0, Count: 2}, exps, o)
	if path2 != path {
		t.Fatal(path2)
	}
	if _, headers, err := portmap.ReadCampaignHeaders(path); err != nil || len(headers) != 1 {
		t.Errorf("resumed shard: %d headers, %v", len(headers), err)
	}
	c := openCampaign(t, path, o)
	other := h
	other.Machine.Model = 17
	other.Shard = c.Headers()[0].Shard
	if err := c.Begin(other); err == nil || !strings.Contains(err.Error(), "model is 1 there, 17 here") {
		t.Errorf("other machine: %v", err)
	}
	wrong := h
	wrong.Shard = &portmap.ShardPlan{Shard: portmap.Shard{Index: 1, Count: 2}}
	if err := c.Begin(wrong); err == nil || !strings.Contains(err.Error(), "holds shard 0/2") {
		t.Errorf("other shard: %v", err)
	}
	if err := c.Begin(h); err == nil || !strings.Contains(err.Error(), "give -shard 0/2 to resume it") {
		t.Errorf("no shard: %v", err)
	}
	c.Close()

	// A file of an earlier version: read and resumed, the header appended.
	old := filepath.Join(dir, "old.jsonl")
	os.WriteFile(old, []byte(`{"insns":{"add":1},"cycles":0.5,"time":"2026-11-22T00:00:00Z"}`+"\n"), 0o644)
	c = openCampaign(t, old, o)
	if err := c.Begin(h); err != nil {
		t.Fatal(err)
	}
	out, err := c.Run(context.Background(), design.Singletons([]string{"add", "mul"}), nil)
	if err != nil || out.Resumed != 1 || out.Set.Len() != 2 {
		t.Errorf("old file resumed: %+v, %v", out, err)
	}
	c.Close()
	set, _, err := portmap.ReadCampaign(old)
	if err != nil || set.Len() != 2 {
		t.Errorf("old file with a header: %v, %v", set, err)
	}
}

// Shards of one name over different instructions (a forms file edited
// between shards) are refused: each matches its own plan, but together
// they would make a campaign of neither.
func TestMergeCampaignsOtherPlan(t *testing.T) {
	dir := t.TempDir()
	o := oracle.Simulate(toyMapping(), 0.02, 1)
	h := toyHeader()
	a := []string{"add", "mul", "store"}
	b := []string{"add", "mul", "div"}
	designOf := func(insns []string) []portmap.Experiment {
		return append(design.Singletons(insns), design.Pairs(insns)...)
	}
	s0 := shardCampaign(t, dir, "s0.jsonl", h, portmap.Shard{Index: 0, Count: 2}, designOf(a), o)
	s1 := shardCampaign(t, dir, "s1.jsonl", h, portmap.Shard{Index: 1, Count: 2}, designOf(b), o)
	out := filepath.Join(dir, "merged.jsonl")
	_, err := MergeCampaigns(out, []string{s0, s1}, false)
	if err == nil || !strings.Contains(err.Error(), "s1.jsonl is a shard of another campaign") || !strings.Contains(err.Error(), "whole design") {
		t.Errorf("shards of other plans: %v, want a refusal naming s1.jsonl", err)
	}
	if _, serr := os.Stat(out); serr == nil {
		t.Error("a refused merge was written")
	}
	// Shards of one plan merge, and the merged header records the plan.
	s1a := shardCampaign(t, dir, "s1a.jsonl", h, portmap.Shard{Index: 1, Count: 2}, designOf(a), o)
	if _, err := MergeCampaigns(out, []string{s0, s1a}, false); err != nil {
		t.Errorf("shards of one plan: %v", err)
	}
	if _, headers, err := portmap.ReadCampaignHeaders(out); err != nil || headers[0].Shard.Whole != portmap.PlanDigest(designOf(a)) {
		t.Errorf("merged header: %+v, %v; want the whole plan's digest", headers, err)
	}
	// A header written before the whole plan was recorded (Whole empty)
	// is the same shard as one with it, so that its file still resumes.
	p := portmap.ShardPlan{Shard: portmap.Shard{Index: 1, Count: 2}, Design: "pairs", Insns: "f", Planned: 3, Digest: "d", Whole: "w"}
	old, other := p, p
	old.Whole, other.Whole = "", "v"
	if !p.Same(old) || !old.Same(p) || p.Same(other) {
		t.Errorf("ShardPlan.Same: %v %v %v, want true true false", p.Same(old), old.Same(p), p.Same(other))
	}
}

// TestMergePartialCompleted: a partial merge keeps each shard under its own
// header, so that it is never taken for the whole campaign, merging it
// with the missing shard completes the campaign, a shard cut short
// resumes inside it, and a shard of another plan is refused there.
func TestMergePartialCompleted(t *testing.T) {
	insns := []string{"add", "mul", "store", "div"}
	exps := append(design.Singletons(insns), design.Pairs(insns)...)
	dir := t.TempDir()
	o := dispersedOracle{oracle.Simulate(toyMapping(), 0.02, 1)}
	h := toyHeader()
	var files []string
	for i := range 3 {
		files = append(files, shardCampaign(t, dir, "s"+string(rune('0'+i))+".jsonl", h, portmap.Shard{Index: i, Count: 3}, exps, o))
	}
	// Shard 1 cut short by a kill: two of its records kept.
	data, _ := os.ReadFile(files[1])
	lines := strings.SplitAfter(string(data), "\n")
	short := filepath.Join(dir, "s1-short.jsonl")
	os.WriteFile(short, []byte(strings.Join(lines[:3], "")), 0o644)

	part := filepath.Join(dir, "part.jsonl")
	rep, err := MergeCampaigns(part, []string{files[0], short}, true)
	if err != nil || rep.Complete() || len(rep.Missing) != 1 || len(rep.Incomplete) != 1 {
		t.Fatalf("partial merge: %+v, %v", rep, err)
	}
	secs, err := portmap.ReadCampaignSections(part)
	if err != nil || len(secs) != 2 || secs[0].Header.Shard.Index != 0 || secs[1].Header.Shard.Index != 1 || len(secs[1].Records) != 2 {
		t.Fatalf("partial merge's sections: %+v, %v", secs, err)
	}
	// Alone, the partial merge is still incomplete: it is not the whole campaign.
	if _, err := MergeCampaigns(filepath.Join(dir, "x.jsonl"), []string{part}, false); err == nil || !strings.Contains(err.Error(), "missing shards: 2/3") {
		t.Errorf("partial merge merged alone: %v, want the missing shard named", err)
	}
	// With the missing shard it is complete except the short one.
	out := filepath.Join(dir, "all.jsonl")
	if _, err := MergeCampaigns(out, []string{part, files[2]}, false); err == nil || !strings.Contains(err.Error(), "1 missing") {
		t.Errorf("short shard in the partial merge: %v", err)
	}
	// Resuming shard 1 inside the partial merge measures what it lacked.
	part1 := shardPlanHeader(h, portmap.Shard{Index: 1, Count: 3}, exps)
	c := openCampaign(t, part, o)
	if err := c.Begin(part1); err != nil {
		t.Fatalf("resuming shard 1 in the partial merge: %v", err)
	}
	if _, err := c.Run(context.Background(), part1.Shard.Shard.Select(exps), nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	rep, err = MergeCampaigns(out, []string{part, files[2]}, false)
	if err != nil || !rep.Complete() || rep.Experiments != len(exps) {
		t.Fatalf("completed merge: %+v, %v", rep, err)
	}
	_, headers, err := portmap.ReadCampaignHeaders(out)
	if err != nil || len(headers) != 1 || headers[0].Shard.Whole != portmap.PlanDigest(exps) {
		t.Errorf("completed merge's header: %+v, %v", headers, err)
	}
	// A shard of another plan is refused in the partial merge, naming the shards it holds.
	other := shardPlanHeader(h, portmap.Shard{Index: 2, Count: 4}, exps)
	c = openCampaign(t, part, o)
	err = c.Begin(other)
	c.Close()
	if err == nil || !strings.Contains(err.Error(), "holds shard 0/3, 1/3") {
		t.Errorf("another plan's shard in the partial merge: %v", err)
	}
	// A file that does not exist is named.
	if _, err := MergeCampaigns(out, []string{filepath.Join(dir, "none.jsonl")}, true); err == nil || !strings.Contains(err.Error(), "none.jsonl does not exist") {
		t.Errorf("missing file: %v", err)
	}
}

// shardPlanHeader is h with the plan of shard s of exps.
func shardPlanHeader(h portmap.Header, s portmap.Shard, exps []portmap.Experiment) portmap.Header {
	part := s.Select(exps)
	h.Shard = &portmap.ShardPlan{Shard: s, Design: "singletons,pairs", Insns: "toy", Planned: len(part), Digest: portmap.PlanDigest(part), Whole: portmap.PlanDigest(exps)}
	return h
}
