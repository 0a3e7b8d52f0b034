package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// experimentForms and machineForms are the valid forms of the two kinds
// of names, for error messages.
const (
	experimentForms = "want a file (portlab or PMEvo JSON, campaign .jsonl or .jsonl.gz), pmevo:ARCH/SET (e.g. pmevo:SKL/eval_small) or random:LENGTH:COUNT[:SEED]"
	machineForms    = "want a mapping file, pmevo:ARCH/WHICH (e.g. pmevo:SKL/uops_info), uops.info:UARCH (e.g. uops.info:SKL) or portlab:zenplus-like"
)

// prefixOf returns the data-set prefix of name ("pmevo" of
// "pmevo:SKL/eval_small"), or "" when name has none and is a path: a
// prefix is at least two letters, digits or ".+_-" before the first colon.
func prefixOf(name string) string {
	p, _, ok := strings.Cut(name, ":")
	if !ok || len(p) < 2 {
		return ""
	}
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".+_-", r)) {
			return ""
		}
	}
	return p
}

// checkFile returns nil when path is a file that exists, and otherwise an
// error naming what (e.g. `experiments "x.json"`), the path and the valid
// forms.
func checkFile(what, path, forms string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %q: no such file (%s)", what, path, forms)
	case err != nil:
		return fmt.Errorf("%s %q: %w", what, path, err)
	case st.IsDir():
		return fmt.Errorf("%s %q: a directory, not a file (%s)", what, path, forms)
	}
	return nil
}

// isFile reports whether path names an existing file.
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
