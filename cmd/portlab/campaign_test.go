package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

// TestShardFlag: a bad -shard, or a design that cannot be sharded, is one
// error naming the flag and the valid range, before anything is measured
// (no campaign file is made); -plan prints the parts' sizes, which add up
// to the design.
func TestShardFlag(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "c.jsonl")
	for _, c := range []struct{ shard, design, want string }{
		{"4/4", "pairs", `-shard: shard "4/4": the part must be in 0..3`},
		{"1", "pairs", `-shard: shard "1": want i/n`},
		{"0/0", "pairs", "at least 1"},
		{"0/2", "singletons,ratio", "-shard: design ratio chooses its experiments by measuring"},
		{"0/2", "latency,singletons", "-shard: design latency times chains, not throughput"},
	} {
		var buf bytes.Buffer
		err := run(t.Context(), []string{"measure", "-insns", "curated:5", "-design", c.design, "-shard", c.shard, "-out", out}, &buf, &buf)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-shard %s -design %s: %v, want %q", c.shard, c.design, err, c.want)
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Fatalf("-shard %s: a campaign file was made", c.shard)
		}
	}
	total := 0
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		var stdout bytes.Buffer
		if err := run(t.Context(), []string{"measure", "-insns", "curated:10", "-design", "singletons,pairs", "-shard", s, "-plan"}, &stdout, &stdout); err != nil {
			t.Fatal(err)
		}
		var n, all int
		i := strings.LastIndex(stdout.String(), ": ")
		if _, err := fmt.Sscanf(stdout.String()[i+2:], "%d experiments of %d", &n, &all); err != nil || all != 55 {
			t.Fatalf("-plan: %q (%v)", stdout.String(), err)
		}
		total += n
	}
	if total != 55 {
		t.Errorf("the three parts hold %d experiments, want the design's 55", total)
	}
}

// TestCampaignMergeCommand: the command merges, says what it merged, and
// fails (nothing written) when a shard is missing.
func TestCampaignMergeCommand(t *testing.T) {
	dir := t.TempDir()
	h := portmap.Header{Machine: portmap.Fingerprint{Vendor: "GenuineIntel", Family: 6, Model: 106, CyclesPerTick: 1, Version: "v"}}
	var files []string
	for i, insn := range []string{"add", "mul"} {
		e := portmap.NewExperiment(insn)
		h.Shard = &portmap.ShardPlan{Shard: portmap.Shard{Index: i, Count: 2}, Design: "singletons", Insns: "f", Planned: 1, Digest: portmap.PlanDigest([]portmap.Experiment{e})}
		head, _ := h.MarshalLine()
		rec, _ := portmap.RecordOf(portmap.Measurement{Experiment: e, Cycles: 1}, h.Time).MarshalLine()
		f := filepath.Join(dir, insn+".jsonl")
		os.WriteFile(f, append(head, rec...), 0o644)
		files = append(files, f)
	}
	out := filepath.Join(dir, "m.jsonl")
	var stdout bytes.Buffer
	err := run(t.Context(), []string{"campaign", "merge", "-out", out, files[0]}, &stdout, &stdout)
	if err == nil || exitCode(err, false) != 1 || !strings.Contains(err.Error(), "missing shards: 1/2") {
		t.Errorf("missing shard: %v", err)
	}
	if _, serr := os.Stat(out); serr == nil {
		t.Error("an incomplete merge was written")
	}
	stdout.Reset()
	if err := run(t.Context(), append([]string{"campaign", "merge", "-out", out}, files...), &stdout, &stdout); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "2 of 2 shards, 2 experiments measured, 0 failed") {
		t.Errorf("output %q", stdout.String())
	}
	if err := run(t.Context(), []string{"campaign", "split"}, &stdout, &stdout); err == nil || !strings.Contains(err.Error(), `unknown subcommand "split"`) {
		t.Errorf("unknown subcommand: %v", err)
	}
}
