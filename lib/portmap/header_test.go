package portmap

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestShardSelect(t *testing.T) {
	var exps []Experiment
	insns := []string{"add", "mul", "div", "store", "load", "nop", "lea"}
	for _, a := range insns {
		for _, b := range insns {
			exps = append(exps, NewExperiment(a, b)) // each pair twice, in both orders
		}
	}
	distinct := PlanDigest(exps)
	rev := slices.Clone(exps)
	slices.Reverse(rev)
	for _, n := range []int{1, 2, 3, 4, 7, 40} {
		seen := map[string]int{}
		sizes := []int{}
		for i := range n {
			s := Shard{Index: i, Count: n}
			part := s.Select(exps)
			if PlanDigest(part) != PlanDigest(s.Select(rev)) {
				t.Errorf("shard %s depends on the order of the experiments", s)
			}
			for _, e := range part {
				seen[e.Key()]++
			}
			sizes = append(sizes, len(part))
		}
		total := 0
		for k, c := range seen {
			if c != 1 {
				t.Errorf("%d shards: %s in %d shards", n, k, c)
			}
			total++
		}
		if total != 28 || slices.Max(sizes)-slices.Min(sizes) > 1 {
			t.Errorf("%d shards: %d distinct experiments in parts of %v; want 28, balanced", n, total, sizes)
		}
		var all []Experiment
		for i := range n {
			all = append(all, Shard{Index: i, Count: n}.Select(exps)...)
		}
		if PlanDigest(all) != distinct {
			t.Errorf("%d shards together are not the design", n)
		}
	}
}

func TestParseShard(t *testing.T) {
	if s, err := ParseShard(" 2/4"); err != nil || s != (Shard{2, 4}) || s.String() != "2/4" {
		t.Errorf("ParseShard(2/4) = %v, %v", s, err)
	}
	for _, c := range []struct{ spec, want string }{
		{"4/4", "the part must be in 0..3"},
		{"-1/4", "the part must be in 0..3"},
		{"0/0", "at least 1"},
		{"2", "want i/n"},
		{"a/b", "want i/n"},
	} {
		if _, err := ParseShard(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseShard(%q) = %v, want %q", c.spec, err, c.want)
		}
	}
}

// TestCampaignHeader: header lines are read apart from the records; a
// file without one (earlier versions) reads as before; a broken header is
// an error naming the line.
func TestCampaignHeader(t *testing.T) {
	h := Header{Machine: Fingerprint{Vendor: "GenuineIntel", Family: 6, Model: 106, Stepping: 6, CyclesPerTick: 1.2, Version: "v"},
		Settings: Settings{Layout: "default", Passes: 3}, Shard: &ShardPlan{Shard: Shard{1, 4}, Design: "pairs", Insns: "curated:9", Planned: 9}}
	line, err := h.MarshalLine()
	if err != nil {
		t.Fatal(err)
	}
	rec := `{"insns":{"add":1},"cycles":0.5,"time":"2026-11-22T00:00:00Z"}` + "\n"
	recs, headers, valid, err := ParseCampaignHeaders("c.jsonl", append(line, rec...))
	if err != nil || len(recs) != 1 || len(headers) != 1 || valid != len(line)+len(rec) || *headers[0].Shard != *h.Shard || headers[0].Machine != h.Machine {
		t.Errorf("parsed %v %+v %d %v", recs, headers, valid, err)
	}
	if recs, headers, _, err := ParseCampaignHeaders("old.jsonl", []byte(rec)); err != nil || len(recs) != 1 || len(headers) != 0 {
		t.Errorf("file without a header: %v %v %v", recs, headers, err)
	}
	if _, _, _, err := ParseCampaignHeaders("c.jsonl", []byte(rec+`{"header":null}`+"\n")); err == nil || !strings.Contains(err.Error(), "c.jsonl:2") {
		t.Errorf("broken header: %v", err)
	}
	if got, want := h.String(), "GenuineIntel  (family 6, model 106, stepping 6, microcode not shown), 1.20 core cycles per TSC tick, portlab v; layout default, 3–0 passes; shard 1/4 of pairs over curated:9, 9 experiments"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	g := h.Machine
	g.CyclesPerTick *= 1 + MaxTickDrift/2
	if f, _, _ := h.Machine.Difference(g); f != "" {
		t.Errorf("a clock within MaxTickDrift differs in %s", f)
	}
	g.Microcode = "0xd0003b9"
	if f, a, b := h.Machine.Difference(g); f != "microcode" || a != "(none)" || b != `"0xd0003b9"` {
		t.Errorf("microcode: %s %s %s", f, a, b)
	}
}

// TestReadCampaignSections: records before the first header form a section
// without one; every header starts a section holding the records up to the
// next header, a line cut by a kill left out.
func TestReadCampaignSections(t *testing.T) {
	path := t.TempDir() + "/c.jsonl"
	rec := func(insn string) string { return `{"insns":{"` + insn + `":1},"cycles":1}` + "\n" }
	head := func(i int) string {
		return `{"header":{"machine":{"vendor":"v"},"settings":{},"shard":{"index":` + string(rune('0'+i)) + `,"count":3,"design":"d","insns":"i","planned":2,"digest":"x"},"time":"2026-01-01T00:00:00Z"}}` + "\n"
	}
	data := rec("old") + head(0) + rec("a") + rec("b") + head(1) + head(1) + rec("c") + `{"insns":{"cu`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	secs, err := ReadCampaignSections(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range secs {
		name := "none"
		if s.Header != nil {
			name = s.Header.Shard.Shard.String()
		}
		var keys []string
		for _, r := range s.Records {
			keys = append(keys, r.Experiment().Key())
		}
		got = append(got, name+":"+strings.Join(keys, ","))
	}
	want := []string{`none:"old"`, `0/3:"a","b"`, "1/3:", `1/3:"c"`}
	if !slices.Equal(got, want) {
		t.Errorf("sections %q, want %q", got, want)
	}
}
