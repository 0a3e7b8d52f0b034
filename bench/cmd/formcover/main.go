// Command formcover chooses instruction forms for a machine description by
// the blocks they let it predict: given a machine (its mapping's forms) and
// BHive-style CSV files of measured blocks, it prints how many of the
// measured blocks the machine covers (every form of the block mapped), then
// adds forms greedily — next the form that completes the most blocks, ties
// broken by the number of blocks the form occurs in, then by name — and
// prints one line per form: step, blocks it completes, blocks it occurs in,
// blocks covered after it, form.
//
// Usage:
//
//	go run ./bench/cmd/formcover -machine M [-extra FILE] [-exclude FILE] [-n N] CSV…
//
// -extra names forms (one a line) taken as covered from the start (forms
// to be added without measurement, such as a nop spelled another way);
// -exclude names forms never chosen (forms the benchmark cannot measure).
// Blocks whose cycles column is empty are not counted: only measured
// blocks are. The forms are chosen by the blocks' forms alone, not their
// cycles.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/sim"
)

func main() {
	mach := flag.String("machine", "", "machine description or mapping whose forms are covered")
	extra := flag.String("extra", "", "file of forms taken as covered")
	exclude := flag.String("exclude", "", "file of forms never chosen")
	n := flag.Int("n", 200, "forms to choose at most")
	flag.Parse()
	if err := run(context.Background(), *mach, *extra, *exclude, *n, flag.Args(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "formcover:", err)
		os.Exit(1)
	}
}

func readForms(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var forms []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			forms = append(forms, l)
		}
	}
	return forms, nil
}

func run(ctx context.Context, mach, extra, exclude string, n int, files []string, w io.Writer) error {
	if mach == "" || len(files) == 0 {
		return fmt.Errorf("need -machine and at least one CSV file")
	}
	if n < 0 {
		return fmt.Errorf("-n %d: want ≥ 0", n)
	}
	m, err := machine.Lookup(mach)
	if err != nil {
		return err
	}
	covered := map[string]bool{}
	for _, f := range m.Mapping.Instructions() {
		covered[f] = true
	}
	more, err := readForms(extra)
	if err != nil {
		return err
	}
	for _, f := range more {
		covered[f] = true
	}
	never := map[string]bool{}
	less, err := readForms(exclude)
	if err != nil {
		return err
	}
	for _, f := range less {
		never[f] = true
	}
	var blocks [][]string // the distinct forms of each measured block
	for _, file := range files {
		r, err := os.Open(file)
		if err != nil {
			return err
		}
		set, err := sim.ReadBHive(ctx, r, file, 1)
		r.Close()
		if err != nil {
			return err
		}
		for i, b := range set.Blocks {
			if set.Cycles[i] != set.Cycles[i] { // not measured
				continue
			}
			seen := map[string]bool{}
			var forms []string
			for _, in := range b.Insns {
				if k := in.Form.Key(); !seen[k] {
					seen[k] = true
					forms = append(forms, k)
				}
			}
			blocks = append(blocks, forms)
		}
	}
	count := func() int {
		c := 0
		for _, b := range blocks {
			ok := true
			for _, f := range b {
				ok = ok && covered[f]
			}
			if ok {
				c++
			}
		}
		return c
	}
	fmt.Fprintf(w, "# %d of %d measured blocks covered by %s\n", count(), len(blocks), mach)
	fmt.Fprintf(w, "# step\tcompletes\toccurs in\tcovered\tform\n")
	for step := 1; step <= n; step++ {
		completes, occurs := map[string]int{}, map[string]int{}
		for _, b := range blocks {
			var missing []string
			for _, f := range b {
				if !covered[f] {
					missing = append(missing, f)
				}
			}
			for _, f := range missing {
				occurs[f]++
			}
			if len(missing) == 1 {
				completes[missing[0]]++
			}
		}
		var cands []string
		for f := range occurs {
			if !never[f] {
				cands = append(cands, f)
			}
		}
		if len(cands) == 0 {
			break
		}
		sort.Slice(cands, func(i, j int) bool {
			a, b := cands[i], cands[j]
			if completes[a] != completes[b] {
				return completes[a] > completes[b]
			}
			if occurs[a] != occurs[b] {
				return occurs[a] > occurs[b]
			}
			return a < b
		})
		best := cands[0]
		covered[best] = true
		fmt.Fprintf(w, "%d\t%d\t%d\t%d\t%s\n", step, completes[best], occurs[best], count(), best)
	}
	return nil
}
