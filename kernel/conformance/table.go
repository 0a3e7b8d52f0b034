package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// WriteTSV writes the results, one program a line: name, class, reason
// and the session's time in milliseconds.
func WriteTSV(w io.Writer, rs []Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "program\tclass\tms\treason")
	for _, r := range rs {
		reason := strings.NewReplacer("\t", " ", "\n", " ").Replace(r.Reason)
		fmt.Fprintf(bw, "%s\t%s\t%d\t%s\n", r.Name, r.Class, r.Time.Milliseconds(), reason)
	}
	return bw.Flush()
}

// ReadTSV reads what WriteTSV wrote, by program name.
func ReadTSV(r io.Reader) (map[string]Result, error) {
	out := map[string]Result{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for first := true; sc.Scan(); first = false {
		if first {
			continue
		}
		f := strings.SplitN(sc.Text(), "\t", 4)
		if len(f) != 4 {
			return nil, fmt.Errorf("bad line %q", sc.Text())
		}
		var ms int64
		fmt.Sscan(f[2], &ms)
		out[f[0]] = Result{Name: f[0], Class: Class(f[1]), Time: time.Duration(ms) * time.Millisecond, Reason: f[3]}
	}
	return out, sc.Err()
}

// Counts returns the number of programs per class.
func Counts(rs []Result) map[Class]int {
	c := map[Class]int{}
	for _, r := range rs {
		c[r.Class]++
	}
	return c
}

// Summary is the header of a run: what ran where and how long it took.
type Summary struct {
	GoVersion string
	Dir       string
	Wall      time.Duration
	Config    Config
	// Header, when not empty, replaces the line about the run: that of
	// the full run a partial rerun (Rerun) was merged into.
	Header string
	// Rerun names the programs run again after the full run, with the
	// kernel as it is now, and RerunConfig and RerunWall say how.
	Rerun       []string
	RerunConfig Config
	RerunWall   time.Duration
}

// runLine is the line of results.md about the run.
func runLine(sum Summary) string {
	return fmt.Sprintf("%s, the `// run` programs of `%s`, each compiled and in a session (timeout %s%s, memory guard %d MiB, %d at once); the run took %s.",
		sum.GoVersion, sum.Dir, sum.Config.Timeout, slowLine(sum.Config), sum.Config.MemLimit>>20, sum.Config.Workers, sum.Wall.Round(time.Second))
}

// slowLine says how a program that timed out was run again, if it was.
func slowLine(c Config) string {
	if c.SlowTimeout <= c.Timeout {
		return ""
	}
	return fmt.Sprintf("; a program that timed out in the session ran there again with a timeout of %s", c.SlowTimeout)
}

// rerunIntro and rerunEnd frame the programs of a rerun in results.md.
const (
	rerunIntro = "programs were run again"
	rerunEnd   = ". Their rows are the rerun's"
)

// PreviousRerun returns the programs a results.md says were run again.
func PreviousRerun(md string) []string {
	for _, l := range strings.Split(md, "\n") {
		if !strings.Contains(l, rerunIntro) {
			continue
		}
		const start = "Programs rerun (sorted): "
		i := strings.Index(l, start)
		j := strings.Index(l, rerunEnd)
		if i < 0 || j < i {
			return nil
		}
		return strings.Split(l[i+len(start):j], ", ")
	}
	return nil
}

// HeaderOf returns the line about the run of a results.md (for a partial
// rerun to keep), or "".
func HeaderOf(md string) string {
	for _, l := range strings.Split(md, "\n") {
		if strings.Contains(l, "the `// run` programs of") {
			return l
		}
	}
	return ""
}

var classText = map[Class]string{
	Same:          "same output as the compiled program (or its .out file)",
	Refusal:       "clear refusal: a compile or syntax error before any output",
	Stopped:       "stopped: the session ended the program with an InterpreterError (the interpreter's failure, named as such) after output that matched Go's so far",
	Wrong:         "wrong output: ran, printed something else, or panicked where Go does not",
	Death:         "kernel death: the session's process died (crash, signal, os.Exit ≠ 0, memory guard)",
	Hang:          "hang: no result within the timeout (the second run's, where there was one)",
	NotImportable: "not importable: imports a package a session without a host lacks",
	Skipped:       "skipped by a rule (arguments, build constraint, cgo, unsafe, directives, or a compiled run that fails here)",
}

// CountTable returns the Markdown table of counts per class.
func CountTable(rs []Result) string {
	c := Counts(rs)
	var b strings.Builder
	fmt.Fprintf(&b, "| class | programs | meaning |\n|---|---:|---|\n")
	for _, k := range Classes {
		fmt.Fprintf(&b, "| %s | %d | %s |\n", k, c[k], classText[k])
	}
	fmt.Fprintf(&b, "| total | %d | `// run` programs |\n", len(rs))
	ran := c[Same] + c[Refusal] + c[Stopped] + c[Wrong] + c[Death] + c[Hang]
	if ran > 0 {
		fmt.Fprintf(&b, "\nOf the %d programs whose imports a session has, %d (%.0f%%) print the same as Go, %d are refused, %d stop with an interpreter error, %d print something wrong, %d kill the session's process and %d hang.\n",
			ran, c[Same], 100*float64(c[Same])/float64(ran), c[Refusal], c[Stopped], c[Wrong], c[Death], c[Hang])
	}
	return b.String()
}

func md(s string) string {
	return strings.NewReplacer("|", `\|`, "`", "'", "<", "&lt;", ">", "&gt;").Replace(s)
}

// WriteMarkdown writes the results as results.md: the counts, the skip
// rules and missing packages by frequency, then one line per program.
func WriteMarkdown(w io.Writer, sum Summary, rs []Result) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Conformance of a kernel session with the Go toolchain\n\n")
	fmt.Fprintf(&b, "Generated by `go test ./kernel/conformance -run TestFull -full` (see doc.go); do not edit.\n")
	header := sum.Header
	if header == "" {
		header = runLine(sum)
	}
	fmt.Fprintf(&b, "%s\n", header)
	if len(sum.Rerun) > 0 {
		fmt.Fprintf(&b, "After that run, the kernel changed and %d %s (`-update -names FILE`; the last rerun: timeout %s%s, %d at once, %s). Programs rerun (sorted): %s%s; the other rows are the full run's.\n",
			len(sum.Rerun), rerunIntro, sum.RerunConfig.Timeout, slowLine(sum.RerunConfig), sum.RerunConfig.Workers, sum.RerunWall.Round(time.Second), strings.Join(sum.Rerun, ", "), rerunEnd)
	}
	b.WriteString("\n")
	b.WriteString(CountTable(rs))
	rule := map[string]int{}
	pkgs := map[string]int{}
	for _, r := range rs {
		switch r.Class {
		case Skipped:
			k := r.Reason
			if i := strings.IndexByte(k, ':'); i >= 0 {
				k = k[:i]
			}
			rule[k]++
		case NotImportable:
			for _, p := range strings.Fields(r.Reason) {
				pkgs[p]++
			}
		}
	}
	fmt.Fprintf(&b, "\n## Skip rules\n\n| rule | programs |\n|---|---:|\n")
	for _, k := range byCount(rule) {
		fmt.Fprintf(&b, "| %s | %d |\n", md(k), rule[k])
	}
	fmt.Fprintf(&b, "\n## Packages a session lacks\n\n| package | programs importing it |\n|---|---:|\n")
	for _, k := range byCount(pkgs) {
		fmt.Fprintf(&b, "| `%s` | %d |\n", k, pkgs[k])
	}
	fmt.Fprintf(&b, "\n## Programs\n\n| program | class | session ms | reason |\n|---|---|---:|---|\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "| %s | %s | %d | %s |\n", r.Name, r.Class, r.Time.Milliseconds(), md(r.Reason))
	}
	_, err := w.Write(b.Bytes())
	return err
}

func byCount(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if m[ks[i]] != m[ks[j]] {
			return m[ks[i]] > m[ks[j]]
		}
		return ks[i] < ks[j]
	})
	return ks
}

// Markers delimit the generated section of kernel/README.md.
const (
	BeginMarker = "<!-- conformance:begin (generated by kernel/conformance, do not edit) -->"
	EndMarker   = "<!-- conformance:end -->"
)

// UpdateReadme replaces the marker region of the README at path with the
// counts of the results.
func UpdateReadme(path string, sum Summary, rs []Result) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	i := strings.Index(s, BeginMarker)
	j := strings.Index(s, EndMarker)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no conformance markers", path)
	}
	rerun := ""
	if len(sum.Rerun) > 0 {
		rerun = fmt.Sprintf(", which names the %d programs whose rows come from reruns after the full run", len(sum.Rerun))
	}
	region := BeginMarker + "\n\n" + fmt.Sprintf("%s, the Go distribution's `// run` test programs run as cells of a session without a host (declarations, then `main()`) and compared with the compiled programs; per program in [`conformance/results.md`](conformance/results.md)%s.\n\n", sum.GoVersion, rerun) +
		CountTable(rs) + "\n" + EndMarker
	s = s[:i] + region + s[j+len(EndMarker):]
	return os.WriteFile(path, []byte(s), 0o644)
}
