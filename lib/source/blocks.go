package source

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/sim"
)

const blockForms = "a BHive-style CSV file of hex,cycles lines (.csv; the cycles may be empty), or an assembly file of one block (Intel or AT&T syntax, or an objdump -d listing)"

// Blocks is a checked file of basic blocks or loop bodies.
type Blocks struct {
	// Path is the file: a BHive-style CSV file (.csv), one block a line
	// "hex,cycles" (cycles empty when not measured), or an assembly file
	// holding one block.
	Path string
	// Per is the number of iterations the CSV file's cycles are for:
	// BHive's files give cycles per 100 iterations, portlab's per 1.
	Per float64
}

// CSV reports whether the file is read as BHive-style CSV.
func (b *Blocks) CSV() bool { return strings.EqualFold(filepath.Ext(b.Path), ".csv") }

// ParseBlocks checks a block file without reading it: it must exist, and
// per, the iterations the file's cycles are for, must be positive.
func ParseBlocks(path string, per float64) (*Blocks, error) {
	if path == "" {
		return nil, fmt.Errorf("blocks: no file given (%s)", blockForms)
	}
	if !(per > 0) || math.IsInf(per, 0) {
		return nil, fmt.Errorf("blocks %q: iterations per measurement %v: want a number > 0 (1, or 100 for BHive's files)", path, per)
	}
	if err := checkFile("blocks", path, blockForms); err != nil {
		return nil, err
	}
	return &Blocks{Path: path, Per: per}, nil
}

// Load reads the blocks into a set named by the file. A CSV file's cycles
// are divided by Per; blocks without cycles have NaN. Lines of a CSV file
// that do not decode or match are left out and reported on notes (when
// not nil), each with its line and reason, and counted in the returned
// number; an assembly file with a line not understood is an error. A file
// with no block at all is an error.
func (b *Blocks) Load(ctx context.Context, notes func(string)) (*sim.BlockSet, int, error) {
	if !b.CSV() {
		blk, err := block.ParseFile(b.Path)
		if err != nil {
			return nil, 0, err
		}
		if len(blk.Insns) == 0 {
			return nil, 0, fmt.Errorf("blocks %q: no instructions", b.Path)
		}
		set := &sim.BlockSet{Name: b.Path}
		set.Add(blk, math.NaN())
		return set, 0, nil
	}
	f, err := os.Open(b.Path)
	if err != nil {
		return nil, 0, fmt.Errorf("blocks: %w", err)
	}
	defer f.Close()
	set, err := sim.ReadBHive(ctx, f, b.Path, b.Per)
	var pe *block.ParseError
	bad := 0
	if errors.As(err, &pe) {
		lines := map[int]bool{}
		for _, l := range pe.Lines {
			lines[l.Line] = true
			if notes != nil {
				notes(fmt.Sprintf("%s:%s", b.Path, l))
			}
		}
		bad = len(lines)
	} else if err != nil {
		return nil, 0, err
	}
	if set.Len() == 0 {
		return nil, bad, fmt.Errorf("blocks %q: no block could be read (%d lines not understood)", b.Path, bad)
	}
	return set, bad, nil
}

// BlockCorpus returns the path of a part of the project's host block
// corpus, bench/blocks/PART.csv ("tune" or "heldout"; see its README),
// looked for as BenchFile does.
func BlockCorpus(part string) (string, error) {
	if part != "tune" && part != "heldout" {
		return "", fmt.Errorf("source: block corpus part %q: want tune or heldout", part)
	}
	return BenchFile(filepath.Join("blocks", part+".csv"))
}

// BenchFile returns the path of a file of the checkout's bench directory,
// bench/REL (e.g. a committed result:
// "results/host-blocks-zen5-20261127/heldout-measured.csv"), looked for in
// the working directory and the directories above it, so that notebooks
// find it wherever the kernel runs in the checkout. REL must be a
// relative path that stays inside bench.
func BenchFile(rel string) (string, error) {
	if rel == "" || filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("source: bench file %q: want a relative path inside bench/", rel)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; {
		p := filepath.Join(d, "bench", rel)
		if isFile(p) {
			return p, nil
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return "", fmt.Errorf("source: no bench/%s in %s or above (bench/ is part of the portlab checkout)", filepath.ToSlash(rel), wd)
}
