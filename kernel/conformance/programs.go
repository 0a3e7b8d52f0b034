package conformance

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/portlab/portlab/kernel/internal/displaysym"
	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// Program is one `// run` test program of the Go distribution.
type Program struct {
	// Name is the path below the test directory, "fixedbugs/issue1234.go".
	Name string
	// Path is the file's absolute path.
	Path string
	// Golden is the content of the .out file beside it, nil if none.
	Golden []byte
	// Skip is the rule that keeps the program from running, "" if none.
	Skip string
	// Missing lists the imports a session does not have.
	Missing []string
}

// Programs returns the `// run` programs of dir (the Go distribution's test
// directory and its immediate subdirectories), sorted by name, with the
// skip rule and missing imports of each.
func Programs(dir string) ([]Program, error) {
	var files []string
	for _, pat := range []string{"*.go", "*/*.go"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	have := Importable()
	var progs []Program
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		action, args, cons := header(src)
		if action != "run" {
			continue
		}
		name, _ := filepath.Rel(dir, f)
		p := Program{Name: filepath.ToSlash(name), Path: f}
		if g, err := os.ReadFile(strings.TrimSuffix(f, ".go") + ".out"); err == nil {
			p.Golden = g
		}
		p.Skip, p.Missing = rules(src, args, cons, have)
		progs = append(progs, p)
	}
	return progs, nil
}

// header returns the test action of a program (its first line after build
// constraints, "// run"), the action's arguments and the build constraint.
func header(src []byte) (action string, args []string, cons string) {
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "//go:build"):
			cons = line
			continue
		case strings.HasPrefix(line, "// +build"):
			continue
		}
		if !strings.HasPrefix(line, "//") {
			return "", nil, cons
		}
		f := strings.Fields(strings.TrimPrefix(line, "//"))
		if len(f) == 0 {
			return "", nil, cons
		}
		return f[0], f[1:], cons
	}
	return "", nil, cons
}

// platformTags are the build tags a program on this harness's platform
// satisfies (the kernel runs on linux/amd64; cgo is off).
func satisfied(tag string) bool {
	switch tag {
	case "linux", "amd64", "unix", "gc":
		return true
	}
	if v, ok := strings.CutPrefix(tag, "go1."); ok {
		n, err := strconv.Atoi(v)
		return err == nil && n <= 26
	}
	return false
}

// rules applies the skip rules to a program; when none applies it returns
// the imports the session does not have.
func rules(src []byte, args []string, cons string, have map[string]bool) (skip string, missing []string) {
	if len(args) > 0 {
		return "run with arguments: " + strings.Join(args, " "), nil
	}
	if cons != "" {
		e, err := constraint.Parse(cons)
		if err != nil {
			return "unparsable build constraint: " + cons, nil
		}
		if strings.Contains(cons, "cgo") || strings.Contains(cons, "goexperiment") {
			return "build constraint needs a build setting: " + strings.TrimPrefix(cons, "//go:build "), nil
		}
		if !e.Eval(satisfied) {
			return "build constraint excludes linux/amd64: " + strings.TrimPrefix(cons, "//go:build "), nil
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return "does not parse: " + err.Error(), nil
	}
	if f.Name.Name != "main" {
		return "package " + f.Name.Name + " is not main", nil
	}
	for _, is := range f.Imports {
		path, _ := strconv.Unquote(is.Path.Value)
		switch path {
		case "C":
			return "cgo (imports \"C\")", nil
		case "unsafe":
			return "unsafe (imports \"unsafe\")", nil
		}
	}
	for _, d := range []string{"//go:linkname", "//go:embed", "//go:cgo_"} {
		if bytes.Contains(src, []byte("\n"+d)) {
			return "compiler directive " + d, nil
		}
	}
	for _, is := range f.Imports {
		path, _ := strconv.Unquote(is.Path.Value)
		if !have[path] {
			missing = append(missing, path)
		}
	}
	return "", missing
}

// Importable returns the packages a session without a host can import:
// yaegi's standard library (with portlab's additions to its packages) and
// the kernel's display package.
func Importable() map[string]bool {
	have := map[string]bool{}
	for _, t := range []interp.Exports{stdlib.Symbols, displaysym.Symbols} {
		for k := range t {
			if i := strings.LastIndex(k, "/"); i > 0 {
				have[k[:i]] = true
			}
		}
	}
	return have
}

// Source returns the cell that defines a program and the cell that runs
// it: the source with the package clause blanked (line numbers stay those
// of the file) and func main renamed, then a call of the renamed main. A
// session runs a cell's func main after every later cell (yaegi runs
// main.main after each evaluation), so the program's own name cannot stay.
func Source(src []byte) (define, run string, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		return "", "", err
	}
	name := "main_"
	for bytes.Contains(src, []byte(name)) {
		name += "_"
	}
	type edit struct {
		off, end int
		text     string
	}
	edits := []edit{{int(f.Package) - 1, int(f.Name.End()) - 1, strings.Repeat(" ", int(f.Name.End()-f.Package))}}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "main" && id != f.Name {
			off := int(id.Pos()) - 1
			edits = append(edits, edit{off, off + len("main"), name})
		}
		return true
	})
	sort.Slice(edits, func(i, j int) bool { return edits[i].off < edits[j].off })
	var b bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.off < last || e.end > len(src) {
			return "", "", fmt.Errorf("overlapping edit at %d", e.off)
		}
		b.Write(src[last:e.off])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(src[last:])
	return b.String(), name + "()", nil
}
