package conformance

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

var (
	full     = flag.Bool("full", false, "run every `// run` program and rewrite results.tsv, results.md and the README's conformance section")
	workers  = flag.Int("workers", 2, "programs run at once")
	progTime = flag.Duration("progtimeout", 10*time.Second, "timeout of each run of a program")
	slowTime = flag.Duration("slowtimeout", 0, "timeout of a second run in the session of a program that timed out (0: none)")
	only     = flag.String("only", "", "with -full: run only programs whose name contains this, print, write nothing")
	names    = flag.String("names", "", "with -full: run only the programs a file names (one a line, as in results.tsv), print, write nothing")
	update   = flag.Bool("update", false, "with -full -names: replace the rows of those programs in results.tsv, results.md and the README's counts, saying which were rerun")
)

func TestMain(m *testing.M) {
	if Child() {
		os.Exit(0)
	}
	flag.Parse()
	os.Exit(m.Run())
}

// setup returns the configuration and the programs of the Go that runs
// the test.
func setup(t *testing.T) (Config, []Program, string) {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go env GOROOT:", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "test")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no test directory in GOROOT:", err)
	}
	progs, err := Programs(dir)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Timeout:     *progTime,
		SlowTimeout: *slowTime,
		MemLimit:    2 << 30,
		Workers:     *workers,
		Child:       exe,
		Go:          goCmd,
		TmpDir:      t.TempDir(),
	}
	return cfg, progs, dir
}

func goVersion(goCmd string) string {
	out, err := exec.Command(goCmd, "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}

// TestFull is the full run (-full): every program, the tables rewritten.
func TestFull(t *testing.T) {
	if !*full {
		t.Skip("the full run needs -full (about 20 minutes)")
	}
	cfg, progs, dir := setup(t)
	partial := *only != "" || *names != ""
	if partial {
		want := map[string]bool{}
		if *names != "" {
			b, err := os.ReadFile(*names)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Fields(string(b)) {
				want[l] = true
			}
		}
		var sel []Program
		for _, p := range progs {
			if *only != "" && strings.Contains(p.Name, *only) || want[p.Name] {
				sel = append(sel, p)
			}
		}
		progs = sel
	}
	start := time.Now()
	rs := Run(context.Background(), cfg, progs, func(done int, r Result) {
		t.Logf("%4d/%d %-40s %-14s %s", done, len(progs), r.Name, r.Class, r.Reason)
	})
	wall := time.Since(start)
	sum := Summary{GoVersion: goVersion(cfg.Go), Dir: "$GOROOT/test", Wall: wall, Config: cfg}
	t.Logf("%d programs in %s: %v", len(rs), wall.Round(time.Second), Counts(rs))
	_ = dir
	if *update && *names != "" && *only == "" {
		rs, sum = merge(t, rs, sum)
	} else if partial {
		return
	}
	write := func(name string, f func(*os.File) error) {
		fh, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := f(fh); err != nil {
			t.Fatal(err)
		}
		if err := fh.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write("results.tsv", func(f *os.File) error { return WriteTSV(f, rs) })
	write("results.md", func(f *os.File) error { return WriteMarkdown(f, sum, rs) })
	if err := UpdateReadme("../README.md", sum, rs); err != nil {
		t.Fatal(err)
	}
}

// merge puts the rerun results rs into the committed table: every other
// program keeps its row, and the summary names the rerun.
func merge(t *testing.T, rs []Result, sum Summary) ([]Result, Summary) {
	t.Helper()
	f, err := os.Open("results.tsv")
	if err != nil {
		t.Fatal(err)
	}
	old, err := ReadTSV(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile("results.md")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("results.tsv")
	if err != nil {
		t.Fatal(err)
	}
	rerun := map[string]Result{}
	for _, r := range rs {
		rerun[r.Name] = r
	}
	// Programs an earlier merge reran stay named.
	for _, name := range PreviousRerun(string(md)) {
		if _, ok := rerun[name]; !ok {
			sum.Rerun = append(sum.Rerun, name)
		}
	}
	for _, r := range rs {
		sum.Rerun = append(sum.Rerun, r.Name)
	}
	sort.Strings(sum.Rerun)
	var all []Result
	for i, line := range strings.Split(string(b), "\n") {
		name, _, _ := strings.Cut(line, "\t")
		if i == 0 || name == "" {
			continue
		}
		if r, ok := rerun[name]; ok {
			all = append(all, r)
		} else {
			all = append(all, old[name])
		}
	}
	sum.Header = HeaderOf(string(md))
	sum.RerunConfig, sum.RerunWall = sum.Config, sum.Wall
	return all, sum
}

// TestSample runs the fixed sample and fails when a program's class is
// worse than results.tsv says: not the same output where the table says
// same, a wrong output, death or hang where it says same or refusal.
func TestSample(t *testing.T) {
	if *full {
		t.Skip("-full runs every program")
	}
	f, err := os.Open("results.tsv")
	if err != nil {
		t.Fatal(err)
	}
	table, err := ReadTSV(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	cfg, progs, _ := setup(t)
	byName := map[string]Program{}
	for _, p := range progs {
		byName[p.Name] = p
	}
	var sel []Program
	for _, name := range Sample {
		p, ok := byName[name]
		if !ok {
			t.Logf("%s: not in this Go's test directory", name)
			continue
		}
		sel = append(sel, p)
	}
	rs := Run(context.Background(), cfg, sel, nil)
	for _, r := range rs {
		want, ok := table[r.Name]
		switch {
		case !ok:
			t.Errorf("%s: not in results.tsv", r.Name)
		case want.Class == Hang || want.Class == Death || want.Class == Wrong:
			// Known bad; any class is no worse, but say when it changed.
			if r.Class != want.Class {
				t.Logf("%s: %s, table says %s (%s): regenerate the table", r.Name, r.Class, want.Class, r.Reason)
			}
		case rank(r.Class) > rank(want.Class) || r.Class != want.Class && (r.Class == NotImportable || r.Class == Skipped) != (want.Class == NotImportable || want.Class == Skipped):
			t.Errorf("%s: %s (%s), table says %s (%s)", r.Name, r.Class, r.Reason, want.Class, want.Reason)
		case r.Class != want.Class:
			t.Logf("%s: %s, table says %s: better; regenerate the table", r.Name, r.Class, want.Class)
		}
	}
}
