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

// Packages returns the import paths that patterns (go list patterns such
// as "github.com/portlab/portlab/lib/..." or single import paths) stand
// for, in the order go list gives them, without the packages that cannot
// or should not be exported (see Exported).
func Packages(patterns []string) ([]string, error) {
	args := append([]string{"list", "-f", "{{.ImportPath}} {{.Name}}"}, patterns...)
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
	return pkgs, nil
}

// Exported reports whether the package path with package name name is
// exported to the interpreter: commands, internal packages and test
// helpers (packages whose name ends in "test") are not.
func Exported(path, name string) bool {
	return name != "main" && !strings.HasSuffix(name, "test") && !strings.Contains(path, "/internal/") && !strings.HasSuffix(path, "/internal")
}

// docsFile is the name of the generated documentation table.
const docsFile = "docs_generated.go"

func main() {
	dir := flag.String("dir", ".", "folder to write the generated files to")
	pkg := flag.String("pkg", "symbols", "package `name` of the generated files")
	check := flag.Bool("check", false, "compare with the files in -dir instead of writing them")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: symgen [-check] [-dir DIR] [-pkg NAME] PATTERN...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	files, err := Generate(*pkg, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "symgen:", err)
		os.Exit(1)
	}
	if *check {
		if diffs := Compare(*dir, files); len(diffs) > 0 {
			fmt.Fprintln(os.Stderr, "symgen: stale generated files (run go generate in "+*dir+"):", strings.Join(diffs, ", "))
			os.Exit(1)
		}
		return
	}
	if err := Write(*dir, files); err != nil {
		fmt.Fprintln(os.Stderr, "symgen:", err)
		os.Exit(1)
	}
}

// Generate returns the contents of every generated file, keyed by file
// name, for the packages of patterns: the files are of package pkg.
func Generate(pkg string, patterns []string) (map[string][]byte, error) {
	files := map[string][]byte{}
	ext := extract.Extractor{Dest: pkg}
	packages, err := Packages(patterns)
	if err != nil {
		return nil, err
	}
	for _, path := range packages {
		var buf bytes.Buffer
		importPath, err := ext.Extract(path, "", &buf)
		if err != nil {
			return nil, fmt.Errorf("extract %s: %w", path, err)
		}
		files[FileName(importPath)] = buf.Bytes()
	}
	docs, err := Docs(pkg, packages)
	if err != nil {
		return nil, err
	}
	files[docsFile] = docs
	return files, nil
}

// FileName returns the name of the generated symbol table of the package
// importPath, as yaegi extract names it.
func FileName(importPath string) string {
	return strings.NewReplacer("/", "-", ".", "_", "~", "_").Replace(importPath) + ".go"
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

// Docs returns the Go source, in package pkg, of the documentation table of
// the packages paths: for each exported package-level symbol and method,
// its declaration (without function bodies) and its doc comment.
func Docs(pkg string, paths []string) ([]byte, error) {
	entries := map[string]string{}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for _, path := range paths {
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
	b.WriteString("// Code generated by kernel/internal/symgen. DO NOT EDIT.\n\npackage " + pkg + "\n\n")
	b.WriteString("// docs holds the declaration and doc comment of every extracted symbol.\nvar docs = map[string]string{\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "\t%s: %s,\n", strconv.Quote(k), strconv.Quote(entries[k]))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
