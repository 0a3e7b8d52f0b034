package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/source"
)

// readBlocks reads the blocks of -blocks: a BHive CSV file (hex,cycles;
// .csv), an assembly file (one block), or a directory of assembly files
// (*.s, *.asm, one block each, in name order). Every line that cannot be
// read or matched is an error naming file and line, before anything is
// measured. For a CSV file, hexes holds each block's code as written
// (nil otherwise).
func readBlocks(ctx context.Context, path string) (blocks []*block.Block, hexes []string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("-blocks: %w", err)
	}
	var files []string
	switch {
	case st.IsDir():
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, nil, fmt.Errorf("-blocks: %w", err)
		}
		for _, e := range entries {
			if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".s" || ext == ".asm" || ext == ".S") {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
		slices.Sort(files)
		if len(files) == 0 {
			return nil, nil, fmt.Errorf("-blocks %s: a directory without assembly files (*.s, *.asm)", path)
		}
	case strings.HasSuffix(path, ".csv"):
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, fmt.Errorf("-blocks: %w", err)
		}
		defer f.Close()
		rows, err := block.ReadBHiveCSV(ctx, f)
		var pe *block.ParseError
		if errors.As(err, &pe) {
			pe.Source = path
			return nil, nil, pe
		}
		if err != nil {
			return nil, nil, fmt.Errorf("-blocks %s: %w", path, err)
		}
		var out []*block.Block
		for _, r := range rows {
			r.Block.Source = fmt.Sprintf("%s:%d", path, r.Line)
			out = append(out, r.Block)
			hexes = append(hexes, r.Hex)
		}
		return out, hexes, nil
	default:
		files = []string{path}
	}
	var out []*block.Block
	var bad []error
	for _, f := range files {
		b, err := block.ParseFile(f)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		if len(b.Insns) == 0 {
			bad = append(bad, fmt.Errorf("%s: no instructions", f))
			continue
		}
		out = append(out, b)
	}
	if len(bad) > 0 {
		return nil, nil, errors.Join(bad...)
	}
	return out, nil, nil
}

// measureBlocks times the blocks of path on this machine, journalled in
// out, and prints each block's cycles per iteration or why it is not
// measurable. With csvOut, the measured blocks of a CSV file are also
// written there as hex,cycles lines, cycles per iteration, in the file's
// order.
func measureBlocks(ctx context.Context, path, out, csvOut string, cpus []int, stdout, stderr io.Writer) error {
	blocks, hexes, err := readBlocks(ctx, path)
	if err != nil {
		return err
	}
	if csvOut != "" && hexes == nil {
		return fmt.Errorf("-csv: %s is not a CSV file of blocks; -csv writes the measured lines of one", path)
	}
	hw, err := source.OpenHardware(ctx, cpus, stderr)
	if err != nil {
		return err
	}
	defer hw.Close()
	camp, err := openHostCampaign(ctx, out, hw, nil)
	if err != nil {
		return err
	}
	defer camp.Close()
	host := measure.NewHostBlocks(hw, camp)
	values, err := host.PredictBlocks(ctx, blocks)
	var ue *oracle.UnsupportedError
	if err != nil && !errors.As(err, &ue) {
		return measureError(ctx, camp, err)
	}
	why := map[int]string{}
	if ue != nil {
		for _, f := range ue.Failures {
			why[f.Index] = f.Reason
		}
	}
	measured := 0
	var csv strings.Builder
	for i, b := range blocks {
		name := b.Source
		if name == "" {
			name = fmt.Sprintf("block %d", i+1)
		}
		if math.IsNaN(values[i]) {
			fmt.Fprintf(stdout, "%s: not measurable: %s\n", name, why[i])
			continue
		}
		measured++
		fmt.Fprintf(stdout, "%s: %.3f cycles per iteration\n", name, values[i])
		if hexes != nil {
			fmt.Fprintf(&csv, "%s,%.3f\n", hexes[i], values[i])
		}
	}
	if csvOut != "" && measured > 0 {
		if err := os.WriteFile(csvOut, []byte(csv.String()), 0o644); err != nil {
			return fmt.Errorf("-csv: %w", err)
		}
		fmt.Fprintf(stdout, "measured blocks: %s (hex,cycles per iteration)\n", csvOut)
	}
	fmt.Fprintf(stdout, "blocks: %d measured (%d from earlier runs), %d not measurable; journal %s\n", measured, camp.Resumed(), len(blocks)-measured, out)
	if measured == 0 {
		return fmt.Errorf("measure: no block of %s could be measured", path)
	}
	return nil
}
