package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/portmap"
)

// TestHelpAndUsage: help asked for (-h, help, a command's -h) succeeds
// with the help; no command is exit status 2; an unknown method is one
// line naming the valid ones; an extra argument is an error naming it.
func TestHelpAndUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // in stdout+stderr
	}{
		{[]string{"-h"}, "Usage:"},
		{[]string{"help"}, "Usage:"},
		{[]string{"help", "predict"}, "portlab predict"},
		{[]string{"reproduce", "-h"}, "portlab reproduce"},
		{[]string{"data", "-h"}, "download"},
		{[]string{"infer", "-h"}, "portlab infer NAME"},
		{[]string{"predict", "-h"}, "-mapping"},
		{[]string{"measure", "-h"}, "-insns"},
	} {
		var buf bytes.Buffer
		if err := run(t.Context(), c.args, &buf, &buf); err != nil || exitCode(err, false) != 0 {
			t.Errorf("%q: %v, want success", c.args, err)
		}
		if !strings.Contains(buf.String(), c.want) {
			t.Errorf("%q: output lacks %q:\n%s", c.args, c.want, buf.String())
		}
		if strings.Contains(buf.String(), "Bottleneck predictions") {
			t.Errorf("%q: ran the command instead of printing its help", c.args)
		}
	}
	var buf bytes.Buffer
	err := run(t.Context(), nil, &buf, &buf)
	if exitCode(err, false) != 2 || !strings.Contains(buf.String(), "Usage:") {
		t.Errorf("no command: %v (exit %d), %q", err, exitCode(err, false), buf.String())
	}
	buf.Reset()
	err = run(t.Context(), []string{"infer", "frobnicate"}, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), `unknown method "frobnicate"`) || !strings.Contains(err.Error(), "pmevo") || buf.Len() > 0 {
		t.Errorf("infer frobnicate: %v, printed %d bytes first", err, buf.Len())
	}
	for _, args := range [][]string{
		{"install", "-user", "-sys-prefix"},
		{"kernel"},
	} {
		if err := run(t.Context(), args, &buf, &buf); err == nil {
			t.Errorf("%q succeeded", args)
		}
	}
	for _, args := range [][]string{
		{"reproduce", "extra"},
		{"data", "dir", "extra"},
		{"version", "extra"},
		{"predict", "-mapping", "pmevo:SKL/uops_info", "-experiments", "pmevo:SKL/eval_tiny", "extra"},
		{"infer", "pmevo", "-simulate", "pmevo:SKL/uops_info", "extra"},
		{"measure", "-insns", "curated:2", "-out", filepath.Join(t.TempDir(), "x.jsonl"), "extra"},
		{"repl", "extra"},
		{"help", "predict", "extra"},
		{"install", "extra"},
		{"kernel", "conn.json", "extra"},
	} {
		buf.Reset()
		err := run(t.Context(), args, &buf, &buf)
		if err == nil || !strings.Contains(err.Error(), `"extra"`) {
			t.Errorf("%q: %v, want an error naming the extra argument", args, err)
		}
	}
}

// TestExitCodes: main's mapping of run's errors to exit statuses.
func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		err         error
		interrupted bool
		want        int
	}{
		{nil, false, 0},
		{errNoCommand, false, 2},
		{errors.New("bad"), false, 1},
		{fmt.Errorf("measure: %w", context.Canceled), true, 130},
		{context.Canceled, false, 1}, // cancelled without an interrupt: an error
	} {
		if got := exitCode(c.err, c.interrupted); got != c.want {
			t.Errorf("exitCode(%v, %v) = %d, want %d", c.err, c.interrupted, got, c.want)
		}
	}
}

// TestPredictNone: a mapping that names none of the experiments'
// instructions is an error that says why, not a table with an error in
// its MAPE column; labels carry no doubled "portlab:" and no "(stored)".
func TestPredictNone(t *testing.T) {
	datasettest.Need(t)
	var buf bytes.Buffer
	err := run(t.Context(), []string{"predict", "-mapping", "uops.info:SKX", "-experiments", "pmevo:SKL/eval_small"}, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), "predicts none of the 2000 experiments") ||
		!strings.Contains(err.Error(), "iwho scheme syntax") || !strings.Contains(err.Error(), "PMEvo's") ||
		!strings.Contains(err.Error(), "0 of the experiments' 310 instructions are in the mapping") || len(err.Error()) > 400 {
		t.Errorf("uops.info:SKX on pmevo:SKL/eval_small: %v", err)
	}
	if exitCode(err, false) == 0 {
		t.Error("exit status 0")
	}
	buf.Reset()
	err = run(t.Context(), []string{"predict", "-mapping", "portlab:zenplus-like", "-experiments", "pmevo:ZEN/eval_small"}, &buf, &buf)
	if err == nil || strings.Contains(err.Error(), "portlab:portlab:") || strings.Contains(err.Error(), "(stored)") {
		t.Errorf("portlab:zenplus-like: %v", err)
	}
}

// TestPredictLeftOutBelow: experiments a mapping does not predict are
// counted in a line under the table, not inside its columns; -out keys
// a machine's predictions by its name, without a doubled prefix.
func TestPredictLeftOutBelow(t *testing.T) {
	datasettest.Need(t)
	set, err := dataset.Experiments("pmevo:SKL/eval_tiny")
	if err != nil {
		t.Fatal(err)
	}
	bogus, _ := portmap.ExperimentOf(map[string]int{"bogus": 1})
	set.Measurements[3].Experiment = bogus
	set.Arch = nil // the file lists the instructions it uses
	dir := t.TempDir()
	path := filepath.Join(dir, "exps.json")
	if err := portmap.WriteExperiments(path, set); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := run(t.Context(), []string{"predict", "-mapping", "pmevo:SKL/uops_info", "-experiments", path}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if strings.Contains(lines[1], "left out") || !strings.Contains(lines[1], "pmevo:SKL/uops_info  19  ") {
		t.Errorf("row %q: want n=19 and nothing left out inside the row", lines[1])
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, `pmevo:SKL/uops_info: 1 of 20 experiments left out (not predicted; first: instruction "bogus")`) {
		t.Errorf("last line %q\n%s", last, out.String())
	}
	zen := filepath.Join(dir, "zen.json")
	if err := run(t.Context(), []string{"predict", "-mapping", "portlab:zenplus-like", "-experiments", "pmevo:ZEN/eval_tiny", "-out", zen}, &out, &errs); err == nil {
		// pmevo:ZEN names no form the way the machine does: nothing written.
		t.Errorf("portlab:zenplus-like on pmevo:ZEN/eval_tiny succeeded")
	}
	if got := predictionID("portlab:zenplus-like"); got != "portlab:zenplus-like" {
		t.Errorf("predictionID = %q", got)
	}
	if _, err := os.Stat(zen); err == nil {
		t.Errorf("%s written", zen)
	}
}

// TestPredictPeerDefaultCPU: -peer llvm-mca without -mcpu takes the data
// set's CPU where portlab knows it and says so; elsewhere it asks for it
// before loading anything.
func TestPredictPeerDefaultCPU(t *testing.T) {
	for exps, want := range map[string]string{"pmevo:SKL/eval_small": "skylake", "pmevo:ZEN/eval_tiny": "znver1", "pmevo:A72/eval_small": "cortex-a72"} {
		if got, ok := mcpuOf(exps); !ok || got != want {
			t.Errorf("mcpuOf(%q) = %q, %v; want %q", exps, got, ok, want)
		}
	}
	var buf bytes.Buffer
	err := run(t.Context(), []string{"predict", "-peer", "llvm-mca", "-experiments", filepath.Join(t.TempDir(), "none.json")}, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), "give -mcpu") {
		t.Errorf("-peer llvm-mca on a file: %v", err)
	}
}

// TestMeasureInterrupted: an interrupted campaign says once how many
// experiments it kept — exactly the lines of its file — and that a rerun
// resumes; its error is an interrupt (exit status 130).
func TestMeasureInterrupted(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.jsonl")
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"measure", "-insns", "curated:40", "-out", out}, &stdout, &stderr)
	if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		t.Skipf("not interrupted (%v): the machine measured 40 forms in 3 s", err)
	}
	var ie *interruptedError
	if !errors.As(err, &ie) || exitCode(err, true) != 130 {
		t.Fatalf("%v (exit %d), want an interrupt with what was kept", err, exitCode(err, true))
	}
	data, _ := os.ReadFile(out)
	// Every line but the header is an experiment kept.
	lines := bytes.Count(data, []byte("\n")) - bytes.Count(data, []byte(`{"header":`))
	kept := fmt.Sprintf("interrupted: %d experiment", lines)
	if !strings.HasPrefix(message(err), kept) || !strings.Contains(message(err), "run the same command again to resume") {
		t.Errorf("message %q, file has %d lines", message(err), lines)
	}
	if all := stdout.String() + stderr.String(); strings.Contains(all, "context") {
		t.Errorf("output mentions the context:\n%s", all)
	}
}

// TestMeasureInfrastructure: with no assembler, measure fails, says that
// nothing was recorded, and the campaign file holds nothing.
func TestMeasureInfrastructure(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.jsonl")
	t.Setenv("PATH", t.TempDir())
	var buf bytes.Buffer
	err := run(t.Context(), []string{"measure", "-insns", "curated:3", "-out", out}, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), "nothing recorded") || !strings.Contains(err.Error(), "binutils") || exitCode(err, false) != 1 {
		t.Errorf("measure without as: %v", err)
	}
	if data, _ := os.ReadFile(out); len(data) > 0 {
		t.Errorf("%s holds:\n%s", out, data)
	}
}

// TestMeasureNothingMeasured: a form list whose instruction nobody knows
// is refused before anything is measured, naming the file and line, and
// nothing is written.
func TestMeasureNothingMeasured(t *testing.T) {
	dir := t.TempDir()
	insns := filepath.Join(dir, "insns.txt")
	os.WriteFile(insns, []byte("frobnicate RW:GPR:64, R:GPR:64\n"), 0o644)
	var buf bytes.Buffer
	out := filepath.Join(dir, "c.jsonl")
	err := run(t.Context(), []string{"measure", "-insns", insns, "-out", out}, &buf, &buf)
	if err == nil || exitCode(err, false) == 0 || !strings.Contains(err.Error(), insns+`:1: unknown mnemonic "frobnicate"`) {
		t.Fatalf("unknown mnemonic: %v\n%s", err, buf.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written", out)
	}
}

// TestDataDownloadFails: a download that fails says so in one line, and
// data dir then reports no data directory, not an empty cache.
func TestDataDownloadFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "gone", http.StatusNotFound)
	}))
	defer srv.Close()
	old := dataset.BaseURL
	dataset.BaseURL = srv.URL
	defer func() { dataset.BaseURL = old }()
	cache := filepath.Join(t.TempDir(), "cache")
	t.Setenv(dataset.EnvCache, cache)
	t.Setenv(dataset.EnvData, "")
	t.Chdir(t.TempDir())
	var buf bytes.Buffer
	err := run(t.Context(), []string{"data", "download"}, &buf, io.Discard)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d of %d files failed", len(dataset.Files()), len(dataset.Files()))) || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("data download from nowhere: %v", err)
	}
	buf.Reset()
	if err := run(t.Context(), []string{"data", "dir"}, &buf, &buf); err == nil || strings.Contains(buf.String(), cache) {
		t.Errorf("data dir after a failed download: %v, %q", err, buf.String())
	}
}

// TestBadFlagIsOneLine: a bad flag or value is the error alone, naming the
// flag and where the help is, not the command's whole help after it.
func TestBadFlagIsOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"infer", "pmevo", "-simulate", "pmevo:SKL/uops_info", "-population", "0"},
		{"infer", "palmed", "-simulate", "pmevo:SKL/uops_info", "-basic", "100000"},
		{"infer", "explainable", "-simulate", "portlab:zenplus-like", "-runs", "0"},
		{"measure", "-frob"},
		{"predict", "-mapping"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), "-h)") {
			t.Errorf("%q: error %v, want one naming the flag and the help", args, err)
		}
		if stdout.Len()+stderr.Len() > 0 {
			t.Errorf("%q printed %d bytes besides the error:\n%s%s", args, stdout.Len()+stderr.Len(), stdout.String(), stderr.String())
		}
	}
}

// TestMeasureBlocks: a block file with a line portlab cannot read is an
// error naming file and line before anything is measured (no journal
// written); of good blocks, one that cannot run inside the buffer is
// listed as not measurable and the other is measured and journalled.
func TestMeasureBlocks(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.s")
	os.WriteFile(bad, []byte("add rax, 1\nfrobnicate rax, rbx\n"), 0o644)
	journal := filepath.Join(dir, "b.jsonl")
	var buf bytes.Buffer
	err := run(t.Context(), []string{"measure", "-blocks", bad, "-out", journal}, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), bad+":2") {
		t.Fatalf("bad line: %v, want an error naming %s:2", err, bad)
	}
	if _, serr := os.Stat(journal); serr == nil {
		t.Errorf("a journal was written for input that does not parse")
	}
	good := filepath.Join(dir, "good")
	os.Mkdir(good, 0o755)
	os.WriteFile(filepath.Join(good, "a.s"), []byte("add rax, 1\nimul rbx, rbx\n"), 0o644)
	os.WriteFile(filepath.Join(good, "b.s"), []byte("mov rax, [rip+x]\n"), 0o644)
	buf.Reset()
	if err := run(t.Context(), []string{"measure", "-blocks", good, "-out", journal}, &buf, &buf); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	out := buf.String()
	if !strings.Contains(out, "a.s: ") || !strings.Contains(out, "cycles per iteration") || !strings.Contains(out, "b.s: not measurable") || !strings.Contains(out, "1 measured") {
		t.Errorf("output:\n%s", out)
	}
	// -csv writes the measured lines of a CSV file, in its order, with
	// the cycles printed; the block that cannot run is left out. It is
	// refused for anything but a CSV file, before anything is measured.
	err = run(t.Context(), []string{"measure", "-blocks", good, "-out", journal, "-csv", filepath.Join(dir, "m.csv")}, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), "-csv") {
		t.Errorf("-csv with a directory of assembly files: %v, want an error naming -csv", err)
	}
	in := filepath.Join(dir, "in.csv")
	os.WriteFile(in, []byte("4801d8480fafdb,\n488b05ffffffff,\n4801c3,\n"), 0o644)
	measured := filepath.Join(dir, "m.csv")
	buf.Reset()
	if err := run(t.Context(), []string{"measure", "-blocks", in, "-out", filepath.Join(dir, "c.jsonl"), "-csv", measured}, &buf, &buf); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	data, err := os.ReadFile(measured)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "4801d8480fafdb,") || !strings.HasPrefix(lines[1], "4801c3,") {
		t.Fatalf("-csv wrote:\n%s", data)
	}
	for i, l := range lines {
		_, c, _ := strings.Cut(l, ",")
		v, err := strconv.ParseFloat(c, 64)
		want := fmt.Sprintf("%s:%d: %s cycles per iteration", in, 2*i+1, c)
		if err != nil || !(v > 0) || !strings.Contains(buf.String(), want) {
			t.Errorf("line %q: want positive cycles, printed as %q in:\n%s", l, want, buf.String())
		}
	}
}

// TestMachineNeedsItsFlags: portlab machine names the flag it misses.
func TestMachineNeedsItsFlags(t *testing.T) {
	var buf bytes.Buffer
	err := run(t.Context(), []string{"machine", "-mapping", "x.json", "-out", "host.json"}, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), "-latencies") {
		t.Errorf("%v, want an error naming -latencies", err)
	}
	// Flags that need another are refused before anything is read.
	base := []string{"machine", "-mapping", "x.json", "-latencies", "l.jsonl", "-out", "host.json"}
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{[]string{"-store-forward-latency", "7"}, "need -load-latency"},
		{[]string{"-memory-renaming"}, "need -load-latency"},
		{[]string{"-merge-latency", "-1"}, "-merge-latency -1"},
		{[]string{"-address-increment-latency", "-0.5"}, "-address-increment-latency -0.5"},
		{[]string{"-overrides", filepath.Join(t.TempDir(), "none.json")}, "-overrides"},
	} {
		err := run(t.Context(), append(append([]string(nil), base...), c.extra...), &buf, &buf)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error naming %q", c.extra, err, c.want)
		}
	}
}
