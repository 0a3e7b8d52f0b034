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
