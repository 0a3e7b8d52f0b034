package cegis

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/solver/z3"
)

// needZ3 skips the test when z3 is missing, except in CI, which installs it.
func needZ3(t testing.TB) {
	t.Helper()
	s, err := z3.Start(t.Context(), z3.Options{})
	if errors.Is(err, z3.ErrNotInstalled) && os.Getenv("CI") == "" {
		t.Skip("z3 is not installed (apt-get install z3); CI installs it")
	}
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// randomTwoLevel returns a two-level mapping of n instructions i0, i1, …
// on the given number of ports, each on 1 to 4 distinct random ports
// (thesis §4.5.1).
func randomTwoLevel(ports, n int, seed uint64) *portmap.Mapping {
	r := rand.New(rand.NewPCG(seed, 7))
	names := make([]string, ports)
	for k := range names {
		names[k] = fmt.Sprint(k)
	}
	m := portmap.MustMapping(fmt.Sprintf("random-%dx%d-%d", ports, n, seed), names...)
	for i := 0; i < n; i++ {
		w := 1 + r.IntN(min(4, ports))
		perm := r.Perm(ports)[:w]
		if err := m.Set(fmt.Sprintf("i%d", i), portmap.Uop{Ports: portmap.Ports(perm...), Count: 1}); err != nil {
			panic(err)
		}
	}
	return m
}

// multisets calls f with every experiment of 1 to maxSize instructions
// over insns.
func multisets(insns []string, maxSize int, f func(portmap.Experiment)) {
	counts := make([]int, len(insns))
	var walk func(i, left int)
	walk = func(i, left int) {
		if i == len(insns) {
			if left < maxSize {
				var items []portmap.Item
				for j, c := range counts {
					if c > 0 {
						items = append(items, portmap.Item{Insn: insns[j], Count: c})
					}
				}
				e, _ := portmap.ExperimentOfItems(items...)
				f(e)
			}
			return
		}
		for c := 0; c <= left; c++ {
			counts[i] = c
			walk(i+1, left-c)
		}
		counts[i] = 0
	}
	walk(0, maxSize)
}
