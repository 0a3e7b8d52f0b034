package bench_test

import (
	"bytes"
	"encoding/csv"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/bench"
	"github.com/portlab/portlab/lib/dataset/datasettest"
)

// TestRunQuick runs the table in quick mode on one configuration of each
// axis and checks the rows and both output formats. It asserts nothing about
// timings beyond their being positive.
func TestRunQuick(t *testing.T) {
	configs := []bench.Config{bench.PortsAxis()[0], bench.LengthAxis()[4]}
	var progress bytes.Buffer
	rows, err := bench.Run(bench.Options{Quick: true, Configs: configs, HotTime: time.Millisecond, Progress: &progress})
	if err != nil {
		t.Fatal(err) // includes any disagreement of LP and bottleneck
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	for i, r := range rows {
		if r.Config != configs[i] || r.Cases != 2*16 {
			t.Errorf("row %d: %v with %d cases, want %v with 32", i, r.Config, r.Cases, configs[i])
		}
		if !(r.LPNanos > 0 && r.BottleneckNanos > 0 && r.Speedup() > 0 && r.EvalsPerSecond() > 0) {
			t.Errorf("row %d: non-positive timing %+v", i, r)
		}
		if r.MaxLPError > 1e-6 {
			t.Errorf("row %d: LP off the exact value by %g", i, r.MaxLPError)
		}
	}
	if n := strings.Count(progress.String(), "\n"); n != 2 {
		t.Errorf("%d progress lines, want 2:\n%s", n, progress.String())
	}

	var buf bytes.Buffer
	if err := bench.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll() // also checks equal field counts
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || strings.Join(recs[0], ",") != strings.Join(bench.Columns, ",") {
		t.Fatalf("CSV: %d records, header %v; want 3, %v", len(recs), recs[0], bench.Columns)
	}
	col := map[string]int{}
	for j, name := range bench.Columns {
		col[name] = j
	}
	for i, rec := range recs[1:] {
		c := configs[i]
		if rec[col["axis"]] != c.Axis || rec[col["mapping"]] != "three-level" ||
			rec[col["ports"]] != strconv.Itoa(c.Ports) || rec[col["length"]] != strconv.Itoa(c.Length) || rec[col["cases"]] != "32" {
			t.Errorf("CSV row %d: %v, want %v", i, rec, c)
		}
		lp, _ := strconv.ParseFloat(rec[col["lp_ns_per_exp"]], 64)
		bn, _ := strconv.ParseFloat(rec[col["bottleneck_ns_per_exp"]], 64)
		sp, _ := strconv.ParseFloat(rec[col["speedup"]], 64)
		if lp <= 0 || bn <= 0 || sp <= 0 {
			t.Errorf("CSV row %d: timings %v", i, rec)
		}
	}

	buf.Reset()
	if err := bench.WriteTable(&buf, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	// Header, a ports row, an empty separator row, a length row.
	if len(lines) != 4 {
		t.Fatalf("table has %d lines, want 4:\n%s", len(lines), buf.String())
	}
	for _, h := range bench.TableHeader {
		if !strings.Contains(lines[0], h) {
			t.Errorf("table header %q lacks %q", lines[0], h)
		}
	}
	for i, ln := range []string{lines[1], lines[3]} {
		f := strings.Fields(ln)
		if len(f) != len(bench.TableHeader) || f[0] != configs[i].Axis || f[2] != strconv.Itoa(configs[i].Ports) || f[3] != strconv.Itoa(configs[i].Length) {
			t.Errorf("table row %q, want %d cells for %v", ln, len(bench.TableHeader), configs[i])
		}
	}
}

// TestMeasureDetectsDisagreement evaluates each experiment with the LP of one
// mapping and the bottleneck model of another: Measure must refuse.
func TestMeasureDetectsDisagreement(t *testing.T) {
	cases := bench.RandomCases(bench.ThreeLevel, 6, 4, 2, 8)
	crossed := make([]bench.Case, 8)
	for i := range crossed {
		a, b := cases[i], cases[8+i] // mappings 0 and 1 share instruction names
		x, err := b.Model.Index(a.Experiment)
		if err != nil {
			t.Fatal(err)
		}
		crossed[i] = bench.Case{Mapping: a.Mapping, Experiment: a.Experiment, Model: b.Model, Terms: x.Terms}
	}
	if _, err := bench.Measure(crossed, 0.5, time.Millisecond); err == nil || !strings.Contains(err.Error(), "disagree") {
		t.Fatalf("error %v, want a disagreement", err)
	}
}

// TestGenerator checks the documented shape of the random mappings and
// experiments and that the draw is deterministic.
func TestGenerator(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, nports := range []int{4, 10, 20} {
		m := bench.RandomMapping(r, bench.ThreeLevel, nports, bench.Instructions)
		if m.Len() != bench.Instructions || m.NumPorts() != nports {
			t.Fatalf("%d instructions over %d ports", m.Len(), m.NumPorts())
		}
		for _, insn := range m.Instructions() {
			u, _ := m.Uops(insn)
			if len(u) < 1 || len(u) > 3 {
				t.Errorf("%s: %d µops", insn, len(u))
			}
			for j, x := range u {
				if x.Count < 1 || x.Count > 2 || x.Ports.Len() < 1 || x.Ports.Len() > bench.MaxUopPorts {
					t.Errorf("%s: µop %v", insn, x)
				}
				if j > 0 && u[j-1].Ports == x.Ports {
					t.Errorf("%s: repeated port set %v", insn, x.Ports)
				}
			}
		}
		if two := bench.RandomMapping(r, bench.TwoLevel, nports, bench.Instructions); !two.IsTwoLevel() || two.Len() != bench.Instructions {
			t.Errorf("two-level mapping is not two-level:\n%v", two)
		}
		for _, e := range bench.RandomExperiments(r, m, 7, 20) {
			if e.Len() != 7 {
				t.Errorf("experiment %v has length %d", e, e.Len())
			}
		}
	}
	a := bench.RandomCases(bench.ThreeLevel, 10, 5, 2, 4)
	b := bench.RandomCases(bench.ThreeLevel, 10, 5, 2, 4)
	c := bench.RandomCases(bench.ThreeLevel, 10, 6, 2, 4)
	for i := range a {
		if !a[i].Experiment.Equal(b[i].Experiment) || a[i].Mapping.String() != b[i].Mapping.String() {
			t.Fatalf("case %d differs between two draws", i)
		}
		if a[i].Mapping.String() != c[i].Mapping.String() {
			t.Fatalf("case %d: lengths 5 and 6 use different mappings", i)
		}
	}
	if a[0].Mapping.String() == a[4].Mapping.String() {
		t.Fatal("mappings 0 and 1 are equal")
	}
}

// TestSKLCases checks the realistic SKL cases, when the data are available.
func TestSKLCases(t *testing.T) {
	datasettest.Need(t)
	cases, err := bench.SKLCases(16)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 16 {
		t.Fatalf("%d SKL cases, want 16", len(cases))
	}
	for _, c := range cases {
		if c.Mapping.NumPorts() != 9 || c.Experiment.Len() != 5 {
			t.Fatalf("SKL case %v over %d ports", c.Experiment, c.Mapping.NumPorts())
		}
	}
	if _, err := bench.Measure(cases, 0.5, time.Millisecond); err != nil {
		t.Fatal(err)
	}
}
