package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/traefik/yaegi/extract"
)

// Own are the patterns of portlab's packages exported to the kernel's
// interpreter: every library package, the figures and the display. Found
// with go list, so a new package reaches notebooks without editing a list;
// internal packages, commands and test helpers (packages named …test) are
// left out.
var Own = []string{
	"github.com/portlab/portlab/lib/...",
	"github.com/portlab/portlab/plots",
	"github.com/portlab/portlab/kernel/display",
}

// External are the other packages exported to the interpreter.
var External = []string{
	"gonum.org/v1/gonum/floats",
	"gonum.org/v1/gonum/mat",
	"gonum.org/v1/gonum/stat",
	"gonum.org/v1/plot",
	"gonum.org/v1/plot/plotter",
	"gonum.org/v1/plot/plotutil",
	"gonum.org/v1/plot/vg",
	"gonum.org/v1/plot/vg/draw",
}

// Packages returns the import paths exported to the interpreter: Own's
// packages as go list finds them, then External.
func Packages() ([]string, error) {
	args := append([]string{"list", "-f", "{{.ImportPath}} {{.Name}}"}, Own...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%w: %s", err, ee.Stderr)
		}
		return nil, fmt.Errorf("go list: %w", err)
	}
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, name, _ := strings.Cut(line, " ")
		if Exported(path, name) {
			pkgs = append(pkgs, path)
		}
	}
	return append(pkgs, External...), nil
}

// Exported reports whether the portlab package path with package name name
// is exported to the interpreter.
func Exported(path, name string) bool {
	return name != "main" && !strings.HasSuffix(name, "test") && !strings.Contains(path, "/internal/") && !strings.HasSuffix(path, "/internal")
}

// destPackage is the package name of the generated files.
const destPackage = "symbols"

// docsFile is the name of the generated documentation table.
const docsFile = "docs_generated.go"

func main() {
	dir := flag.String("dir", ".", "folder to write the generated files to")
	check := flag.Bool("check", false, "compare with the files in -dir instead of writing them")
	flag.Parse()
	files, err := Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if *check {
		if diffs := Compare(*dir, files); len(diffs) > 0 {
			fmt.Fprintln(os.Stderr, "gen: stale generated files (run go generate ./kernel/symbols):", strings.Join(diffs, ", "))
			os.Exit(1)
		}
		return
	}
	if err := Write(*dir, files); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// Generate returns the contents of every generated file keyed by file name.
func Generate() (map[string][]byte, error) {
	files := map[string][]byte{}
	ext := extract.Extractor{Dest: destPackage}
	names := strings.NewReplacer("/", "-", ".", "_", "~", "_")
	packages, err := Packages()
	if err != nil {
		return nil, err
	}
	for _, pkg := range packages {
		var buf bytes.Buffer
		importPath, err := ext.Extract(pkg, "", &buf)
		if err != nil {
			return nil, fmt.Errorf("extract %s: %w", pkg, err)
		}
		files[names.Replace(importPath)+".go"] = buf.Bytes()
	}
	docs, err := Docs(packages)
	if err != nil {
		return nil, err
	}
	files[docsFile] = docs
	return files, nil
}

// isGenerated reports whether a file in the destination folder was written
// by this command.
func isGenerated(name string) bool {
	return name == docsFile || strings.Contains(name, "-") && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// Write replaces the generated files in dir by files.
func Write(dir string, files map[string][]byte) error {
	old, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range old {
		if isGenerated(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Compare returns the names of the files that differ between dir and files,
// including generated files in dir that would no longer be generated.
func Compare(dir string, files map[string][]byte) []string {
	var diffs []string
	for name, data := range files {
		old, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(old, data) {
			diffs = append(diffs, name)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if _, ok := files[e.Name()]; !ok && isGenerated(e.Name()) {
			diffs = append(diffs, e.Name()+" (obsolete)")
		}
	}
	sort.Strings(diffs)
	return diffs
}

// Docs returns the Go source of the documentation table of pkgs: for each
// exported package-level symbol and method, its declaration (without
// function bodies) and its doc comment.
func Docs(pkgs []string) ([]byte, error) {
	entries := map[string]string{}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for _, path := range pkgs {
		// The files of the default build context only: packages such as
		// gonum/mat declare some methods in files for different build tags.
		bp, err := build.Import(path, wd, 0)
		if err != nil {
			return nil, fmt.Errorf("docs of %s: %w", path, err)
		}
		fset := token.NewFileSet()
		var files []*ast.File
		names := append([]string(nil), bp.GoFiles...)
		sort.Strings(names)
		for _, name := range names {
			f, err := parser.ParseFile(fset, filepath.Join(bp.Dir, name), nil, parser.ParseComments)
			if err != nil {
				return nil, fmt.Errorf("docs of %s: %w", path, err)
			}
			files = append(files, f)
		}
		d, err := doc.NewFromFiles(fset, files, path)
		if err != nil {
			return nil, fmt.Errorf("docs of %s: %w", path, err)
		}
		entries[path] = "package " + d.Name + " // import \"" + path + "\"\n\n" + strings.TrimSpace(d.Doc)
		decl := func(n ast.Node) string {
			var b bytes.Buffer
			cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
			_ = cfg.Fprint(&b, fset, n)
			return b.String()
		}
		add := func(key string, n ast.Node, text string) {
			entries[path+"."+key] = strings.TrimSpace(decl(n) + "\n\n" + strings.TrimSpace(text))
		}
		for _, v := range append(append([]*doc.Value{}, d.Consts...), d.Vars...) {
			for _, n := range v.Names {
				if ast.IsExported(n) {
					add(n, v.Decl, v.Doc)
				}
			}
		}
		funcDecl := func(f *doc.Func) ast.Node {
			fd := *f.Decl
			fd.Body = nil
			fd.Doc = nil
			return &fd
		}
		for _, f := range d.Funcs {
			add(f.Name, funcDecl(f), f.Doc)
		}
		for _, t := range d.Types {
			if !ast.IsExported(t.Name) {
				continue
			}
			td := *t.Decl
			td.Doc = nil
			add(t.Name, &td, t.Doc)
			for _, v := range append(append([]*doc.Value{}, t.Consts...), t.Vars...) {
				for _, n := range v.Names {
					if ast.IsExported(n) {
						add(n, v.Decl, v.Doc)
					}
				}
			}
			for _, f := range t.Funcs {
				add(f.Name, funcDecl(f), f.Doc)
			}
			for _, f := range t.Methods {
				if ast.IsExported(f.Name) {
					add(t.Name+"."+f.Name, funcDecl(f), f.Doc)
				}
			}
		}
	}
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("// Code generated by kernel/symbols/gen. DO NOT EDIT.\n\npackage " + destPackage + "\n\n")
	b.WriteString("// docs holds the declaration and doc comment of every extracted symbol.\nvar docs = map[string]string{\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "\t%s: %s,\n", strconv.Quote(k), strconv.Quote(entries[k]))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
