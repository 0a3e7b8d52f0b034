package dataset

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

var update = flag.Bool("update", false, "regenerate manifest.go from the local data directory")

// upstream gives the repository, commit and path of a data file from its
// name under the data directory.
func upstream(rel string) (repo, commit, repoPath string, ok bool) {
	switch {
	case rel == "pmevo-artifact/LICENSE":
		return PMEvoRepo, PMEvoCommit, "LICENSE", true
	case strings.HasPrefix(rel, "pmevo-artifact/"):
		return PMEvoRepo, PMEvoCommit, "vm_setup/data/" + strings.TrimPrefix(rel, "pmevo-artifact/"), true
	case rel == "iwho/LICENSE":
		return IwhoRepo, IwhoCommit, "LICENSE", true
	case rel == "iwho/x86_uops_info_features.json":
		return IwhoRepo, IwhoCommit, "iwho/inputfiles/schemes/x86_uops_info_features.json", true
	}
	return "", "", "", false
}

// noNetwork points BaseURL at a server that fails the test on any request,
// so tests never download from the internet.
func noNetwork(t *testing.T) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected download of %s", r.URL.Path)
		http.Error(w, "no downloads in this test", http.StatusForbidden)
	}))
	t.Cleanup(srv.Close)
	old := BaseURL
	BaseURL = srv.URL
	t.Cleanup(func() { BaseURL = old })
}

// needData returns the local data directory (PORTLAB_DATA, or shared/data
// found by walking up from the package directory). Without one the test is
// skipped, or fails when the environment variable CI is set. The cache is
// pointed at an empty directory and downloads are forbidden.
func needData(t *testing.T) string {
	t.Helper()
	t.Setenv(EnvCache, filepath.Join(t.TempDir(), "no-cache"))
	noNetwork(t)
	d, err := Dir()
	if errors.Is(err, ErrNotFound) {
		if os.Getenv("CI") != "" {
			t.Fatalf("data not found in CI: %v", err)
		}
		t.Skipf("data not found: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func sha256File(t *testing.T, p string) (string, int64) {
	t.Helper()
	sum, n, err := hashFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sum, n
}

func TestManifestWellFormed(t *testing.T) {
	if len(manifest) == 0 {
		t.Fatal("empty manifest")
	}
	seen := map[string]bool{}
	for _, f := range Files() {
		if seen[f.Rel] {
			t.Errorf("%s: listed twice", f.Rel)
		}
		seen[f.Rel] = true
		repo, commit, rp, ok := upstream(f.Rel)
		if !ok {
			t.Errorf("%s: not in a known data set", f.Rel)
			continue
		}
		if f.Repo != repo || f.Commit != commit || f.RepoPath != rp {
			t.Errorf("%s: upstream %s@%s:%s, want %s@%s:%s", f.Rel, f.Repo, f.Commit, f.RepoPath, repo, commit, rp)
		}
		if f.Size <= 0 {
			t.Errorf("%s: size %d", f.Rel, f.Size)
		}
		if b, err := hex.DecodeString(f.SHA256); err != nil || len(b) != sha256.Size || strings.ToLower(f.SHA256) != f.SHA256 {
			t.Errorf("%s: SHA-256 %q is not 64 lower-case hex digits", f.Rel, f.SHA256)
		}
	}
	for _, want := range []string{
		"pmevo-artifact/LICENSE", "iwho/LICENSE", UopsInfoFile,
		"pmevo-artifact/SKL/exps_singletons.json", "pmevo-artifact/ZEN/exps_eval.json",
		"pmevo-artifact/A72/mapping_pmevo.json", "pmevo-artifact/SKL/varying_length/len_15.json",
	} {
		if !seen[want] {
			t.Errorf("manifest lacks %s", want)
		}
	}
	if got, want := len(manifest), 35; got != want {
		t.Errorf("manifest has %d files, want %d", got, want)
	}
	f, _ := lookup("pmevo-artifact/SKL/exps_singletons.json")
	if got, want := f.URL(), "https://raw.githubusercontent.com/cdl-saarland/pmevo-artifact/b54d74b56e5326d22b65557afe811384c21da4ed/vm_setup/data/SKL/exps_singletons.json"; got != want {
		t.Errorf("URL = %s, want %s", got, want)
	}
}

// TestManifestLocal checks every manifest entry against the local copy
// (size and SHA-256) and that every local data file is in the manifest.
// With -update it first rewrites manifest.go from the local copy.
func TestManifestLocal(t *testing.T) {
	dir := needData(t)
	var local []string
	// The data directory may be a symbolic link, which WalkDir would not
	// enter.
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if _, _, _, ok := upstream(rel); ok {
			local = append(local, rel)
		} else if rel != "README.md" {
			t.Errorf("local file %s belongs to no known data set", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		writeManifest(t, dir, local)
	}
	inManifest := map[string]bool{}
	for _, f := range manifest {
		inManifest[f.Rel] = true
		p := filepath.Join(dir, filepath.FromSlash(f.Rel))
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: not in the local copy: %v", f.Rel, err)
			continue
		}
		sum, n := sha256File(t, p)
		if n != f.Size {
			t.Errorf("%s: local size %d, manifest %d", f.Rel, n, f.Size)
		}
		if sum != f.SHA256 {
			t.Errorf("%s: local SHA-256 %s, manifest %s", f.Rel, sum, f.SHA256)
		}
		got, err := Path(f.Rel)
		if err != nil || got != p {
			t.Errorf("Path(%q) = %q, %v; want %q", f.Rel, got, err, p)
		}
	}
	for _, rel := range local {
		if !inManifest[rel] {
			t.Errorf("local file %s is not in the manifest (go test -run TestManifestLocal -update)", rel)
		}
	}
}

func writeManifest(t *testing.T, dir string, rels []string) {
	slices.Sort(rels)
	var b bytes.Buffer
	b.WriteString("// Code generated by \"go test -run TestManifestLocal -update\" from the local data directory; DO NOT EDIT.\n\n")
	b.WriteString("package dataset\n\n")
	b.WriteString("// manifest lists every data file with its upstream location, size and\n// SHA-256. TestManifestLocal checks it against the local copy.\n")
	b.WriteString("var manifest = []File{\n")
	consts := map[string]string{PMEvoRepo: "PMEvoRepo", PMEvoCommit: "PMEvoCommit", IwhoRepo: "IwhoRepo", IwhoCommit: "IwhoCommit"}
	for _, rel := range rels {
		repo, commit, rp, _ := upstream(rel)
		sum, n := sha256File(t, filepath.Join(dir, filepath.FromSlash(rel)))
		fmt.Fprintf(&b, "{%q, %s, %s, %q, %d, %q},\n", rel, consts[repo], consts[commit], rp, n, sum)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("manifest.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("wrote manifest.go with %d files; run the tests again without -update", len(rels))
}

func TestLoaders(t *testing.T) {
	needData(t)

	exps := func(arch, set string, n, length int) {
		t.Helper()
		s, err := PMEvoExperiments(arch, set)
		if err != nil {
			t.Fatalf("PMEvoExperiments(%q, %q): %v", arch, set, err)
		}
		if s.Len() != n {
			t.Errorf("%s %s: %d experiments, want %d", arch, set, s.Len(), n)
		}
		for i, m := range s.Measurements {
			if m.Experiment.Len() != length {
				t.Errorf("%s %s: experiment %d has %d instructions, want %d", arch, set, i, m.Experiment.Len(), length)
				break
			}
		}
		if err := s.Validate(); err != nil {
			t.Errorf("%s %s: %v", arch, set, err)
		}
	}
	exps("SKL", "singletons", 310, 1)
	exps("ZEN", "singletons", 310, 1)
	exps("A72", "singletons", 390, 1)
	exps("SKL", "eval_small", 2000, 5)
	exps("A72", "eval_small", 2000, 5)
	exps("SKL", "eval_tiny", 20, 5)
	exps("ZEN", "eval", 1000, 5)
	exps("skl", "singletons", 310, 1) // architecture names are case-insensitive

	for _, arch := range []string{"SKL", "ZEN", "A72"} {
		s, err := PMEvoExperiments(arch, "eval_small_annotated")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := s.OtherIDs(), []string{"IACA", "Ithemal", "llvm-mca"}; arch == "SKL" && !slices.Equal(got, want) {
			t.Errorf("%s eval_small_annotated: other ids %v, want %v", arch, got, want)
		}
		if s.Len() != 2000 {
			t.Errorf("%s eval_small_annotated: %d experiments", arch, s.Len())
		}
	}

	m, err := PMEvoMapping("SKL", "uops_info")
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != 310 || m.NumPorts() != 9 {
		t.Errorf("SKL uops_info mapping: %d instructions on %d ports, want 310 on 9", m.Len(), m.NumPorts())
	}
	m, err = PMEvoMapping("A72", "pmevo")
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != 390 || m.NumPorts() != 7 {
		t.Errorf("A72 pmevo mapping: %d instructions on %d ports, want 390 on 7", m.Len(), m.NumPorts())
	}
	for _, arch := range []string{"SKL", "ZEN"} {
		m, err := PMEvoMapping(arch, "pmevo")
		if err != nil {
			t.Fatal(err)
		}
		if m.Len() != 310 {
			t.Errorf("%s pmevo mapping: %d instructions, want 310", arch, m.Len())
		}
	}

	for _, n := range []int{1, 2, 15} {
		s, err := VaryingLength(n)
		if err != nil {
			t.Fatal(err)
		}
		want := 2000
		if n == 1 {
			want = 310
		}
		if s.Len() != want {
			t.Errorf("VaryingLength(%d): %d experiments, want %d", n, s.Len(), want)
		}
		if l := s.Measurements[0].Experiment.Len(); l != n {
			t.Errorf("VaryingLength(%d): first experiment has %d instructions", n, l)
		}
		if got, want := s.OtherIDs(), []string{"iaca", "uops.info"}; !slices.Equal(got, want) {
			t.Errorf("VaryingLength(%d): other ids %v, want %v", n, got, want)
		}
	}
}

func TestUopsInfo(t *testing.T) {
	needData(t)
	schemes, err := UopsInfoSchemes()
	if err != nil {
		t.Fatal(err)
	}
	if len(schemes) != 3501 {
		t.Errorf("%d schemes, want 3501", len(schemes))
	}
	again, err := UopsInfoSchemes()
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(schemes) || &again[0] == &schemes[0] || &again[0].Variants[0] != &schemes[0].Variants[0] {
		t.Error("UopsInfoSchemes: want a fresh slice over the same cached schemes")
	}
	archs, err := UopsInfoArchitectures()
	if err != nil {
		t.Fatal(err)
	}
	if len(archs) != 20 || !slices.Contains(archs, "ICL") || !slices.Contains(archs, "ZEN+") {
		t.Errorf("architectures %v, want 20 including ICL and ZEN+", archs)
	}

	icl, err := UopsInfo("ICL")
	if err != nil {
		t.Fatal(err)
	}
	// 3,284 schemes have an ICL measurement (3,439 variants do; the data
	// README's "coverage" counts variants).
	if icl.Len() < 3280 {
		t.Errorf("ICL maps %d schemes, want at least 3280", icl.Len())
	}
	if got := icl.Usage("add RW:GPR:64, R:GPR:64"); got != "1*p0156" {
		t.Errorf("ICL add: usage %q, want 1*p0156", got)
	}
	if got, want := icl.Ports(), []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}; !slices.Equal(got, want) {
		t.Errorf("ICL ports %v, want %v", got, want)
	}
	zen, err := UopsInfo("ZEN+")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := zen.Ports(), []string{"FP0", "FP1", "FP2", "FP3"}; !slices.Equal(got, want) {
		t.Errorf("ZEN+ ports %v, want %v", got, want)
	}
	if zen.Len() < 900 {
		t.Errorf("ZEN+ maps %d schemes", zen.Len())
	}
	if _, err := UopsInfo("ADL-P"); err == nil || !strings.Contains(err.Error(), "ICL") || !strings.Contains(err.Error(), "ADL-P") {
		t.Errorf("UopsInfo(ADL-P): error %v, want one naming it and listing ICL", err)
	}
}

func TestInvalidNames(t *testing.T) {
	noNetwork(t)
	cases := []struct {
		name string
		err  error
		want []string
	}{}
	add := func(name string, err error, want ...string) {
		cases = append(cases, struct {
			name string
			err  error
			want []string
		}{name, err, want})
	}
	_, err := PMEvoExperiments("HSW", "singletons")
	add("arch", err, `"HSW"`, "SKL, ZEN, A72")
	_, err = PMEvoExperiments("SKL", "pairs")
	add("set", err, `"pairs"`, "singletons", "eval_small_annotated")
	_, err = PMEvoExperiments("SKL", "eval")
	add("eval on SKL", err, "only for ZEN")
	_, err = PMEvoMapping("ZEN", "uops_info")
	add("uops_info on ZEN", err, "only for SKL")
	_, err = PMEvoMapping("A72", "llvm")
	add("mapping", err, `"llvm"`, "pmevo, uops_info")
	_, err = PMEvoMapping("x", "pmevo")
	add("mapping arch", err, `"x"`, "SKL, ZEN, A72")
	_, err = VaryingLength(16)
	add("length", err, "16", "1..15")
	_, err = Path("pmevo-artifact/SKL/exps_pairs.json")
	add("path", err, "exps_pairs.json", "Files()")
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, c.err, w)
			}
		}
	}
}

// fakeServer replaces the manifest by a fake file set served by an
// httptest.Server at BaseURL. bad maps a file name to the content served
// instead of the real one. It isolates the test from any local data: the
// working directory is an empty temporary directory, PORTLAB_DATA is unset
// and PORTLAB_CACHE is a fresh directory, which it returns.
type fakeServer struct {
	files map[string][]byte // by Rel
	bad   map[string][]byte // by Rel: served instead
	hits  atomic.Int64
	cache string
}

func newFake(t *testing.T) *fakeServer {
	t.Helper()
	fk := &fakeServer{
		files: map[string][]byte{
			"fake/a.json":     []byte(`{"kind":"ExperimentList","exps":[]}` + "\n"),
			"fake/sub/b.json": bytes.Repeat([]byte("portlab "), 10000),
			"fake/LICENSE":    []byte("MIT License\n"),
		},
		bad: map[string][]byte{},
	}
	var files []File
	byPath := map[string]string{}
	for _, rel := range []string{"fake/a.json", "fake/sub/b.json", "fake/LICENSE"} {
		data := fk.files[rel]
		sum := sha256.Sum256(data)
		f := File{Rel: rel, Repo: "acme/data", Commit: "0123456789abcdef0123456789abcdef01234567",
			RepoPath: "files/" + strings.TrimPrefix(rel, "fake/"), Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
		files = append(files, f)
		byPath["/"+f.Repo+"/"+f.Commit+"/"+f.RepoPath] = rel
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fk.hits.Add(1)
		rel, ok := byPath[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if b, ok := fk.bad[rel]; ok {
			w.Write(b)
			return
		}
		w.Write(fk.files[rel])
	}))
	t.Cleanup(srv.Close)
	oldURL, oldManifest := BaseURL, manifest
	BaseURL, manifest = srv.URL, files
	t.Cleanup(func() { BaseURL, manifest = oldURL, oldManifest })

	t.Chdir(t.TempDir())
	t.Setenv(EnvData, "")
	fk.cache = filepath.Join(t.TempDir(), "cache")
	t.Setenv(EnvCache, fk.cache)
	return fk
}

// cacheFiles lists every file under the cache directory, temporary ones
// included.
func (fk *fakeServer) cacheFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(fk.cache, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(fk.cache, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

func TestDownload(t *testing.T) {
	fk := newFake(t)
	if _, err := Dir(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Dir() before any download: %v, want ErrNotFound", err)
	}
	p, err := Path("fake/sub/b.json")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(fk.cache, "fake", "sub", "b.json"); p != want {
		t.Errorf("Path = %s, want %s", p, want)
	}
	got, err := os.ReadFile(p)
	if err != nil || !bytes.Equal(got, fk.files["fake/sub/b.json"]) {
		t.Errorf("downloaded content differs (%v)", err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("downloaded file mode: %v %v", fi.Mode(), err)
	}
	if n := fk.hits.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	// Cached now: no second request.
	if p2, err := Path("fake/sub/b.json"); err != nil || p2 != p {
		t.Errorf("second Path = %q, %v", p2, err)
	}
	if n := fk.hits.Load(); n != 1 {
		t.Errorf("%d requests after a cached Path, want 1", n)
	}
	if d, err := Dir(); err != nil || d != fk.cache {
		t.Errorf("Dir() = %q, %v; want the cache %s", d, err, fk.cache)
	}
	if got := fk.cacheFiles(t); !slices.Equal(got, []string{"fake/sub/b.json"}) {
		t.Errorf("cache holds %v", got)
	}
}

func TestDownloadConcurrent(t *testing.T) {
	fk := newFake(t)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Path("fake/a.json")
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if n := fk.hits.Load(); n != 1 {
		t.Errorf("%d requests for 8 concurrent Path calls, want 1", n)
	}
}

func TestDownloadCorrupt(t *testing.T) {
	fk := newFake(t)
	good := fk.files["fake/sub/b.json"]
	f, _ := lookup("fake/sub/b.json")

	// Same size, different content: hash mismatch.
	bad := bytes.Clone(good)
	bad[100] ^= 1
	fk.bad["fake/sub/b.json"] = bad
	sum := sha256.Sum256(bad)
	_, err := Path("fake/sub/b.json")
	if err == nil {
		t.Fatal("corrupted download accepted")
	}
	for _, w := range []string{"fake/sub/b.json", "SHA-256 mismatch", f.SHA256, hex.EncodeToString(sum[:])} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	if got := fk.cacheFiles(t); len(got) != 0 {
		t.Errorf("corrupted download left %v in the cache", got)
	}

	// Truncated and too long: size mismatch.
	for _, b := range [][]byte{good[:len(good)-1], append(bytes.Clone(good), 'x')} {
		fk.bad["fake/sub/b.json"] = b
		_, err = Path("fake/sub/b.json")
		if err == nil || !strings.Contains(err.Error(), "size mismatch") || !strings.Contains(err.Error(), fmt.Sprint(len(good))) {
			t.Errorf("download of %d bytes: error %v, want a size mismatch naming %d", len(b), err, len(good))
		}
	}
	if got := fk.cacheFiles(t); len(got) != 0 {
		t.Errorf("bad downloads left %v in the cache", got)
	}

	// A cached file that was corrupted later is fetched again.
	delete(fk.bad, "fake/sub/b.json")
	p, err := Path("fake/sub/b.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	hits := fk.hits.Load()
	if _, err := Path("fake/sub/b.json"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, good) || fk.hits.Load() != hits+1 {
		t.Error("a corrupted cached file was not downloaded again")
	}
}

func TestDownloadHTTPError(t *testing.T) {
	fk := newFake(t)
	manifest[0].RepoPath = "files/missing.json"
	_, err := Path(manifest[0].Rel)
	if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), manifest[0].Rel) {
		t.Errorf("error %v, want a 404 naming the file", err)
	}
	if got := fk.cacheFiles(t); len(got) != 0 {
		t.Errorf("failed download left %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := PathContext(ctx, "fake/LICENSE"); !errors.Is(err, context.Canceled) {
		t.Errorf("PathContext with a cancelled context: %v", err)
	}
	if err := Download(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Download with a cancelled context: %v", err)
	}
}

func TestDownloadAll(t *testing.T) {
	fk := newFake(t)
	fk.bad["fake/LICENSE"] = []byte("GPL\n")
	final := map[string][2]int64{}
	progress := func(file string, done, total int64) {
		if done > total {
			t.Errorf("%s: progress %d of %d", file, done, total)
		}
		final[file] = [2]int64{done, total}
	}
	err := Download(context.Background(), progress)
	if err == nil || !strings.Contains(err.Error(), "fake/LICENSE") {
		t.Fatalf("Download with a corrupted file: %v", err)
	}
	if got := fk.cacheFiles(t); !slices.Equal(got, []string{"fake/a.json", "fake/sub/b.json"}) {
		t.Errorf("cache holds %v, want the two valid files", got)
	}
	delete(fk.bad, "fake/LICENSE")
	clear(final)
	hits := fk.hits.Load()
	if err := Download(context.Background(), progress); err != nil {
		t.Fatal(err)
	}
	if n := fk.hits.Load() - hits; n != 1 {
		t.Errorf("second Download made %d requests, want 1 (valid files are skipped)", n)
	}
	for _, f := range Files() {
		if p := final[f.Rel]; p[0] != f.Size || p[1] != f.Size {
			t.Errorf("%s: last progress %v, want %d of %d", f.Rel, p, f.Size, f.Size)
		}
	}
}

func TestDataEnvPrecedence(t *testing.T) {
	fk := newFake(t)
	// Fill the cache first.
	if err := Download(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	local := t.TempDir()
	if err := os.MkdirAll(filepath.Join(local, "fake"), 0o755); err != nil {
		t.Fatal(err)
	}
	lp := filepath.Join(local, "fake", "a.json")
	if err := os.WriteFile(lp, []byte("local copy"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvData, local)
	hits := fk.hits.Load()
	if d, err := Dir(); err != nil || d != local {
		t.Errorf("Dir() = %q, %v; want %s", d, err, local)
	}
	if p, err := Path("fake/a.json"); err != nil || p != lp {
		t.Errorf("Path = %q, %v; want the PORTLAB_DATA copy %s", p, err, lp)
	}
	// A file missing from PORTLAB_DATA comes from the cache.
	if p, err := Path("fake/LICENSE"); err != nil || p != filepath.Join(fk.cache, "fake", "LICENSE") {
		t.Errorf("Path(fake/LICENSE) = %q, %v; want the cached copy", p, err)
	}
	if n := fk.hits.Load() - hits; n != 0 {
		t.Errorf("%d requests, want none", n)
	}
}

func TestDataEnvMissing(t *testing.T) {
	noNetwork(t)
	missing := filepath.Join(t.TempDir(), "no-such-data")
	t.Setenv(EnvData, missing)
	_, err := Dir()
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), EnvData) {
		t.Errorf("Dir() with %s=%s: error %v, want one naming it", EnvData, missing, err)
	}
	if errors.Is(err, ErrNotFound) {
		t.Errorf("Dir() error %v wraps ErrNotFound; a missing %s is a configuration error", err, EnvData)
	}
	_, err = Path(UopsInfoFile)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("Path with %s=%s: error %v, want one naming it", EnvData, missing, err)
	}
	_, err = UopsInfo("ICL")
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("UopsInfo with %s=%s: error %v, want one naming it", EnvData, missing, err)
	}
}

func TestDirUpwardSearch(t *testing.T) {
	noNetwork(t)
	t.Setenv(EnvData, "")
	t.Setenv(EnvCache, filepath.Join(t.TempDir(), "no-cache"))
	// root/shared/data beside root/clone/lib/dataset.
	root := t.TempDir()
	data := filepath.Join(root, "shared", "data")
	deep := filepath.Join(root, "clone", "lib", "dataset")
	for _, d := range []string{filepath.Join(data, "iwho"), deep, filepath.Join(root, "clone", "shared", "data")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(deep)
	// clone/shared/data exists but holds no data set: skipped.
	got, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(data); evalOr(got) != want {
		t.Errorf("Dir() = %s, want %s", got, data)
	}
}

func evalOr(p string) string {
	if e, err := filepath.EvalSymlinks(p); err == nil {
		return e
	}
	return p
}

// TestFailedDownloadLeavesNoCache: a download that fails leaves no
// directories in the cache, and an empty cache is not reported as the
// data directory.
func TestFailedDownloadLeavesNoCache(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	t.Setenv(EnvCache, cache)
	t.Setenv(EnvData, "")
	t.Chdir(t.TempDir()) // no shared/data above
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "gone", http.StatusNotFound)
	}))
	defer srv.Close()
	old := BaseURL
	BaseURL = srv.URL
	defer func() { BaseURL = old }()
	if err := Download(t.Context(), nil); err == nil {
		t.Fatal("download from a server that has nothing succeeded")
	}
	if entries, err := os.ReadDir(cache); err == nil && len(entries) > 0 {
		t.Errorf("the failed download left %d entries in %s", len(entries), cache)
	}
	os.MkdirAll(filepath.Join(cache, "pmevo-artifact-partial"), 0o755) // an empty cache directory
	if d, err := Dir(); !errors.Is(err, ErrNotFound) {
		t.Errorf("Dir with an empty cache: %q, %v; want ErrNotFound", d, err)
	}
}
