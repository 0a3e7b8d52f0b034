package dataset

// manifest.go is rewritten from the local data directory (PORTLAB_DATA):
//go:generate go test -run TestManifestLocal -update

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Upstream repositories and the commits the manifest is pinned to.
const (
	PMEvoRepo   = "cdl-saarland/pmevo-artifact"
	PMEvoCommit = "b54d74b56e5326d22b65557afe811384c21da4ed"
	IwhoRepo    = "cdl-saarland/iwho"
	IwhoCommit  = "b73c436b5a3d59f47ed6657b02d5f621ce5a6086"
)

// Environment variables read by the package.
const (
	// EnvData names a local data directory that takes precedence over
	// everything else.
	EnvData = "PORTLAB_DATA"
	// EnvCache overrides the download cache directory (default
	// os.UserCacheDir()/portlab/data).
	EnvCache = "PORTLAB_CACHE"
)

// BaseURL is where files are downloaded from: BaseURL/OWNER/REPO/COMMIT/PATH.
var BaseURL = "https://raw.githubusercontent.com"

// httpClient is used for every download.
var httpClient = &http.Client{Timeout: 5 * time.Minute}

// ErrNotFound is wrapped by the errors of Dir when no data directory exists.
var ErrNotFound = errors.New("dataset: no data directory found")

// File is one manifest entry: a data file under the data directory, where it
// comes from upstream and what it must contain.
type File struct {
	Rel      string // path under the data directory, slash-separated, e.g. "pmevo-artifact/SKL/exps_singletons.json"
	Repo     string // upstream GitHub repository, "owner/name"
	Commit   string // pinned commit
	RepoPath string // path inside the repository
	Size     int64  // bytes
	SHA256   string // lower-case hex
}

// URL returns the download address of f under BaseURL.
func (f File) URL() string {
	return strings.TrimRight(BaseURL, "/") + "/" + f.Repo + "/" + f.Commit + "/" + f.RepoPath
}

// Files returns a copy of the manifest: every file of the data sets.
func Files() []File { return append([]File(nil), manifest...) }

func lookup(rel string) (File, error) {
	clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel)))
	for _, f := range manifest {
		if f.Rel == clean {
			return f, nil
		}
	}
	example := ""
	if len(manifest) > 0 {
		example = fmt.Sprintf(", e.g. %q", manifest[len(manifest)-1].Rel)
	}
	return File{}, fmt.Errorf("dataset: unknown data file %q (dataset.Files() lists the %d valid names%s)", rel, len(manifest), example)
}

// Dir returns the local data directory: PORTLAB_DATA if set (an error naming
// it if it is not an existing directory); else the first shared/data
// directory holding pmevo-artifact or iwho found by walking up from the
// working directory; else the download cache directory if it holds a
// file (a failed download leaves none, nor any directory). When
// none exists the error wraps ErrNotFound.
func Dir() (string, error) {
	d, err := localDir()
	if err == nil || !errors.Is(err, ErrNotFound) {
		return d, err
	}
	c, cerr := cacheDir()
	if cerr != nil {
		return "", fmt.Errorf("%w (%v; %v)", ErrNotFound, err, cerr)
	}
	if holdsFiles(c) {
		return c, nil
	}
	return "", fmt.Errorf("%w: no %s, no shared/data beside the working directory or its ancestors, no cache %s (set %s, or call dataset.Download)", ErrNotFound, EnvData, c, EnvData)
}

// localDir is Dir without the cache.
func localDir() (string, error) {
	if env := os.Getenv(EnvData); env != "" {
		abs, err := filepath.Abs(env)
		if err != nil {
			return "", fmt.Errorf("dataset: %s=%q: %v", EnvData, env, err)
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return "", fmt.Errorf("dataset: %s=%q: data directory does not exist: %v", EnvData, env, err)
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("dataset: %s=%q is not a directory", EnvData, env)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("%w: working directory: %v", ErrNotFound, err)
	}
	// Trying A/shared/data for every ancestor A also tries
	// A/../shared/data, a "shared" folder beside A.
	for a := wd; ; {
		if d := filepath.Join(a, "shared", "data"); looksLikeData(d) {
			return d, nil
		}
		parent := filepath.Dir(a)
		if parent == a {
			break
		}
		a = parent
	}
	return "", fmt.Errorf("%w: %s not set and no shared/data above %s", ErrNotFound, EnvData, wd)
}

func looksLikeData(d string) bool {
	return isDir(filepath.Join(d, "pmevo-artifact")) || isDir(filepath.Join(d, "iwho"))
}

func isDir(d string) bool {
	fi, err := os.Stat(d)
	return err == nil && fi.IsDir()
}

// holdsFiles reports whether the tree at dir holds a regular file.
func holdsFiles(dir string) bool {
	found := errors.New("found")
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			return found
		}
		return nil
	})
	return err == found
}

// removeEmptyDirs removes dir and its ancestors below stop while they are
// empty (os.Remove refuses a directory that is not).
func removeEmptyDirs(dir, stop string) {
	for d := dir; d != stop && len(d) > len(stop); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			return
		}
	}
}

// cacheDir returns PORTLAB_CACHE, or os.UserCacheDir()/portlab/data.
func cacheDir() (string, error) {
	if env := os.Getenv(EnvCache); env != "" {
		return filepath.Abs(env)
	}
	uc, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("dataset: no cache directory (set %s or %s): %v", EnvData, EnvCache, err)
	}
	return filepath.Join(uc, "portlab", "data"), nil
}

// Path returns the absolute path of the manifest file rel (see Files),
// downloading it into the cache if it is not in the local data directory.
func Path(rel string) (string, error) { return PathContext(context.Background(), rel) }

// PathContext is Path with a context for the download.
func PathContext(ctx context.Context, rel string) (string, error) {
	f, err := lookup(rel)
	if err != nil {
		return "", err
	}
	d, err := localDir()
	switch {
	case err == nil:
		p := filepath.Join(d, filepath.FromSlash(f.Rel))
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	case !errors.Is(err, ErrNotFound):
		return "", err
	}
	p, err := fetch(ctx, f, nil)
	if err != nil && d != "" {
		return "", fmt.Errorf("%w (and %s is not in the data directory %s)", err, f.Rel, d)
	}
	return p, err
}

// Download fetches every manifest file into the cache directory, skipping
// files already there and valid. progress, if not nil, is called with the
// file's name and the bytes done of its total as a download proceeds, and
// with done == total when a file is complete or was already valid.
func Download(ctx context.Context, progress func(file string, done, total int64)) error {
	var errs []error
	for _, f := range manifest {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := fetch(ctx, f, progress); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

var (
	fileLocks sync.Map // cache path → *sync.Mutex
	verified  sync.Map // cache path → fileStamp of a verified file
)

type fileStamp struct {
	size    int64
	modTime time.Time
}

// fetch returns the cache path of f, downloading and verifying it first if
// it is missing or invalid.
func fetch(ctx context.Context, f File, progress func(string, int64, int64)) (string, error) {
	c, err := cacheDir()
	if err != nil {
		return "", err
	}
	p := filepath.Join(c, filepath.FromSlash(f.Rel))
	mu, _ := fileLocks.LoadOrStore(p, new(sync.Mutex))
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()

	if cachedValid(p, f) {
		if progress != nil {
			progress(f.Rel, f.Size, f.Size)
		}
		return p, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("dataset: %s: %v", f.Rel, err)
	}
	if err := download(ctx, f, p, progress); err != nil {
		removeEmptyDirs(filepath.Dir(p), filepath.Dir(c)) // no empty cache left that Dir would report
		return "", err
	}
	if fi, err := os.Stat(p); err == nil {
		verified.Store(p, fileStamp{fi.Size(), fi.ModTime()})
	}
	return p, nil
}

// cachedValid reports whether p holds f's content; the hash is computed once
// per process and file version.
func cachedValid(p string, f File) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != f.Size {
		return false
	}
	st := fileStamp{fi.Size(), fi.ModTime()}
	if v, ok := verified.Load(p); ok && v.(fileStamp) == st {
		return true
	}
	sum, _, err := hashFile(p)
	if err != nil || sum != f.SHA256 {
		return false
	}
	verified.Store(p, st)
	return true
}

func hashFile(p string) (string, int64, error) {
	fh, err := os.Open(p)
	if err != nil {
		return "", 0, err
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.Copy(h, fh)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// download fetches f into a temporary file beside p, verifies size and
// SHA-256 and renames it to p. On any failure the temporary file is removed.
func download(ctx context.Context, f File, p string, progress func(string, int64, int64)) (err error) {
	url := f.URL()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("dataset: %s: %v", f.Rel, err)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return fmt.Errorf("dataset: downloading %s: %w", f.Rel, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("dataset: downloading %s from %s: %s", f.Rel, url, resp.Status)
	}

	tmp, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*.tmp")
	if err != nil {
		return fmt.Errorf("dataset: %s: %v", f.Rel, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	h := sha256.New()
	w := io.MultiWriter(tmp, h)
	if progress != nil {
		w = &progressWriter{w: w, file: f.Rel, total: f.Size, fn: progress}
	}
	// Read at most one byte more than expected: enough to tell it is too long.
	n, err := io.Copy(w, io.LimitReader(resp.Body, f.Size+1))
	if err != nil {
		return fmt.Errorf("dataset: downloading %s from %s: %w", f.Rel, url, err)
	}
	if n != f.Size {
		more := ""
		if n > f.Size {
			more = " or more"
		}
		return fmt.Errorf("dataset: downloaded %s from %s: size mismatch: expected %d bytes, got %d%s", f.Rel, url, f.Size, n, more)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != f.SHA256 {
		return fmt.Errorf("dataset: downloaded %s from %s: SHA-256 mismatch: expected %s, got %s", f.Rel, url, f.SHA256, got)
	}
	if err = tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("dataset: %s: %v", f.Rel, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("dataset: %s: %v", f.Rel, err)
	}
	if err = os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("dataset: %s: %v", f.Rel, err)
	}
	return nil
}

type progressWriter struct {
	w     io.Writer
	file  string
	done  int64
	total int64
	fn    func(string, int64, int64)
}

func (pw *progressWriter) Write(b []byte) (int, error) {
	n, err := pw.w.Write(b)
	pw.done += int64(n)
	pw.fn(pw.file, min(pw.done, pw.total), pw.total)
	return n, err
}
