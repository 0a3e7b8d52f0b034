package conformance

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A merged rerun is named in results.md, and a later merge finds the names.
func TestRerunNamedInMarkdown(t *testing.T) {
	rs := []Result{{Name: "a.go", Class: Same}, {Name: "b.go", Class: Wrong, Reason: "x"}}
	sum := Summary{GoVersion: "go1", Dir: "d", Wall: time.Minute, Header: "go1, the `// run` programs of `d`, …; the run took 20m.",
		Rerun: []string{"a.go", "b.go"}, RerunConfig: Config{Timeout: time.Second, Workers: 2}, RerunWall: time.Second}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, sum, rs); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if !strings.Contains(md, sum.Header) {
		t.Errorf("header of the full run lost:\n%s", md)
	}
	if got := PreviousRerun(md); !reflect.DeepEqual(got, sum.Rerun) {
		t.Errorf("PreviousRerun = %q, want %q", got, sum.Rerun)
	}
	if HeaderOf(md) != sum.Header {
		t.Errorf("HeaderOf = %q", HeaderOf(md))
	}
}

// TestSlowProgramsAreInTheTable checks that the programs Slow explains are
// rows of results.tsv, so that a renamed program does not leave its
// explanation behind.
func TestSlowProgramsAreInTheTable(t *testing.T) {
	f, err := os.Open("results.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := ReadTSV(f)
	if err != nil {
		t.Fatal(err)
	}
	for name := range Slow {
		if _, ok := rows[name]; !ok {
			t.Errorf("Slow explains %s, which results.tsv lacks", name)
		}
	}
}

// A goroutine's os.Exit(0) ends a compiled program: in a session it is a
// panic of the goroutine, during a cell or after the cells returned, and
// counts as the exit when the output before it is Go's; other output, or
// another exit code, does not.
func TestCompareGoroutineExit(t *testing.T) {
	notice := goExit0 + " (recovered by the kernel; in compiled Go it would end the program)\n"
	for _, c := range []struct {
		out, want string
		st        status
		class     Class
	}{
		{notice, "", status{}, Same},
		{"a\n" + notice, "a\n", status{}, Same},
		{"a\n" + notice, "b\n", status{}, Wrong},
		{"a\n", "", status{}, Wrong},
		{"", "", status{ErrName: "Panic", ErrValue: goExit0 + " (in compiled Go it would end the program; the kernel stopped the cell and keeps its state)", Cell: "main"}, Same},
		{"", "", status{ErrName: "Panic", ErrValue: "panic in a goroutine: os.Exit(1) (…)", Cell: "main"}, Wrong},
	} {
		st := c.st
		if got, why := compare(proc{out: []byte(c.out), status: &st}, []byte(c.want)); got != c.class {
			t.Errorf("out %q, want %q, status %+v: %s (%s), want %s", c.out, c.want, c.st, got, why, c.class)
		}
	}
}
