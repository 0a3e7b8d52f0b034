package source

import (
	"fmt"
	"slices"
	"strings"

	"github.com/portlab/portlab/lib/design"
)

// designNames are the designs design.Build knows besides
// random:LENGTH:COUNT[:SEED] (design.Names lists them all).
var designNames = []string{"singletons", "pairs", "ratio", "pmevo", "latency"}

// ParseDesigns checks a comma-separated list of experiment designs, as
// design.Build names them (design.Names), and returns the names, trimmed.
func ParseDesigns(spec string) ([]string, error) {
	var out []string
	for _, d := range strings.Split(spec, ",") {
		d = strings.TrimSpace(d)
		switch {
		case slices.Contains(designNames, d):
		case prefixOf(d) == "random":
			if _, _, _, err := design.ParseRandom(d); err != nil {
				return nil, fmt.Errorf("designs %q: %q: want random:LENGTH:COUNT[:SEED], e.g. random:5:1000, with LENGTH, COUNT and SEED positive whole numbers", spec, d)
			}
		default:
			return nil, fmt.Errorf("designs %q: unknown design %q (want %s, or a comma-separated list)", spec, d, design.Names)
		}
		out = append(out, d)
	}
	return out, nil
}
