package main

import (
	"strings"
	"testing"
)

// Bad -forms and -cpu values are refused before anything is measured.
func TestRunRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		forms int
		cpu   string
		want  string
	}{
		{0, "0", `-forms 0: forms "curated:0": want curated, curated:N with N ≥ 1`},
		{5, "4096", "-cpu: CPUs \"4096\": CPU 4096 is not one this machine lets portlab run on"},
		{5, "0,0", `-cpu: CPUs "0,0": CPU 0 listed twice`},
	} {
		err := run(t.Context(), c.forms, 10, 5, 0, "", c.cpu, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-forms %d -cpu %s: %v, want %q", c.forms, c.cpu, err, c.want)
		}
	}
}
