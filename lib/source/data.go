package source

import (
	"fmt"
	"os"
	"path/filepath"
)

// DataDir returns the directory of the notebooks' data files,
// notebooks/data of the repository, found from the working directory: it
// is "data" where the notebooks run (notebooks/), "notebooks/data" at the
// repository's root, and else the first ancestor's notebooks/data.
func DataDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for _, dir := range []string{"data", "notebooks/data"} {
		if isNotebookData(dir) {
			return dir, nil
		}
	}
	for d := wd; ; {
		if dir := filepath.Join(d, "notebooks", "data"); isNotebookData(dir) {
			return dir, nil
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return "", fmt.Errorf("source: no notebooks/data directory in %s or above", wd)
}

// isNotebookData reports whether dir is notebooks/data: a directory beside
// notebooks (its parent holds .ipynb files).
func isNotebookData(dir string) bool {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return false
	}
	nb, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "*.ipynb"))
	return len(nb) > 0
}

// DataFile returns the path of the file name of notebooks/data (see
// DataDir); an error when there is no such file.
func DataFile(name string) (string, error) {
	dir, err := DataDir()
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, name)
	if !isFile(p) {
		return "", fmt.Errorf("source: notebooks/data/%s: no such file (in %s)", name, dir)
	}
	return p, nil
}
