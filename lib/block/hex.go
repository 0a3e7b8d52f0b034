package block

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
)

// Objdump is the binutils objdump that DecodeHex and ReadBHiveCSV run.
var Objdump = "objdump"

// DecodeHex decodes x86-64 machine code written in hex ("4801d8", spaces
// allowed) into a block, by running binutils' objdump -D -b binary -m
// i386:x86-64 -M intel on the bytes as a subprocess, and matches every
// instruction to its form. An instruction's Line is its 1-based position,
// Addr its byte offset. Bytes that do not decode, and instructions that
// match no form, are reported together in a *ParseError.
func DecodeHex(ctx context.Context, code string) (*Block, error) {
	t, err := DefaultForms()
	if err != nil {
		return nil, err
	}
	raw, lerr := decodeHexString(code)
	if lerr != nil {
		lerr.Line, lerr.Text = 1, code
		return nil, &ParseError{Source: "hex", Lines: []LineError{*lerr}}
	}
	blocks, errs, err := t.decode(ctx, [][]byte{raw})
	if err != nil {
		return nil, err
	}
	if errs[0] != nil {
		return blocks[0], &ParseError{Source: "hex", Lines: errs[0]}
	}
	return blocks[0], nil
}

func decodeHexString(s string) ([]byte, *LineError) {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == ' ' || r == '\t':
		case strings.ContainsRune("0123456789abcdefABCDEF", r):
			b.WriteRune(r)
		default:
			return nil, &LineError{Column: i + 1, Msg: fmt.Sprintf("%q is not a hex digit", r)}
		}
	}
	if b.Len() == 0 {
		return nil, &LineError{Msg: "no bytes"}
	}
	if b.Len()%2 != 0 {
		return nil, &LineError{Msg: "odd number of hex digits"}
	}
	raw, err := hex.DecodeString(b.String())
	if err != nil {
		return nil, &LineError{Msg: err.Error()}
	}
	return raw, nil
}

// BHiveBlock is one line of a BHive CSV file (Chen et al., "BHive: A
// Benchmark Suite and Measurement Framework for Validating x86-64 Basic
// Block Performance Models", IISWC 2019): the block's code in hex and its
// measured throughput as given in the file (BHive's data give cycles per
// 100 iterations), NaN when the column is empty: a block not measured yet.
type BHiveBlock struct {
	Line   int     // the line in the CSV file, 1-based
	Hex    string  // the code as written
	Cycles float64 // the second column; NaN when empty
	Block  *Block  // the decoded instructions
}

// ReadBHiveCSV reads lines "hex,cycles" (blank lines skipped) and decodes
// all blocks with one objdump run. An empty cycles column ("4801d8,")
// marks a block without a measurement (Cycles NaN): a list of blocks to be
// measured or predicted; a line without the comma is an error. It returns the blocks that decoded and
// matched, and, when some did not, a *ParseError naming each bad CSV line
// and, for an instruction, its position in the block.
func ReadBHiveCSV(ctx context.Context, r io.Reader) ([]BHiveBlock, error) {
	t, err := DefaultForms()
	if err != nil {
		return nil, err
	}
	var (
		rows []BHiveBlock
		raws [][]byte
		bad  []LineError
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		h, c, ok := strings.Cut(line, ",")
		if !ok {
			bad = append(bad, LineError{Line: n, Text: line, Msg: "want hex,cycles"})
			continue
		}
		cycles, err := math.NaN(), error(nil)
		if c = strings.TrimSpace(c); c != "" {
			cycles, err = strconv.ParseFloat(c, 64)
		}
		if err == nil && (math.IsInf(cycles, 0) || cycles < 0) {
			err = fmt.Errorf("%s is not a number of cycles ≥ 0", c)
		}
		if err != nil {
			bad = append(bad, LineError{Line: n, Column: len(h) + 2, Text: line, Msg: "cycles: " + err.Error()})
			continue
		}
		raw, lerr := decodeHexString(h)
		if lerr != nil {
			lerr.Line, lerr.Text = n, line
			bad = append(bad, *lerr)
			continue
		}
		rows = append(rows, BHiveBlock{Line: n, Hex: strings.TrimSpace(h), Cycles: cycles})
		raws = append(raws, raw)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("block: reading BHive CSV: %w", err)
	}
	var good []BHiveBlock
	if len(raws) > 0 {
		blocks, errs, err := t.decode(ctx, raws)
		if err != nil {
			return nil, err
		}
		for i := range rows {
			if errs[i] != nil {
				for _, e := range errs[i] {
					bad = append(bad, LineError{Line: rows[i].Line, Text: rows[i].Hex,
						Msg: fmt.Sprintf("instruction %d %q: %s", e.Line, e.Text, e.Msg)})
				}
				continue
			}
			rows[i].Block = blocks[i]
			rows[i].Block.Source = fmt.Sprintf("BHive CSV line %d", rows[i].Line)
			good = append(good, rows[i])
		}
	}
	if len(bad) > 0 {
		sort.SliceStable(bad, func(i, j int) bool { return bad[i].Line < bad[j].Line })
		return good, &ParseError{Source: "BHive CSV", Lines: bad}
	}
	return good, nil
}

// decoded is one instruction of objdump's output.
type decoded struct {
	addr int64
	size int
	text string
}

// decode disassembles the concatenated blocks with objdump and matches
// every instruction. It returns one block and one error list per input;
// err is set when objdump cannot be run.
func (t *Forms) decode(ctx context.Context, raws [][]byte) ([]*Block, [][]LineError, error) {
	var all []byte
	starts := make([]int64, len(raws)+1)
	for i, r := range raws {
		starts[i] = int64(len(all))
		all = append(all, r...)
	}
	starts[len(raws)] = int64(len(all))
	f, err := os.CreateTemp("", "portlab-block-*.bin")
	if err != nil {
		return nil, nil, fmt.Errorf("block: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(all); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("block: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, nil, fmt.Errorf("block: %w", err)
	}
	blocks := make([]*Block, len(raws))
	errs := make([][]LineError, len(raws))
	for i := range blocks {
		blocks[i] = &Block{Source: "hex"}
	}
	for k := 0; k < len(raws); {
		insns, err := objdump(ctx, f.Name(), starts[k])
		if err != nil {
			return nil, nil, err
		}
		restart := len(raws)
		for _, d := range insns {
			for k < len(raws) && d.addr >= starts[k+1] {
				k++
			}
			if k >= len(raws) {
				break
			}
			if d.addr+int64(d.size) > starts[k+1] {
				errs[k] = append(errs[k], LineError{Line: len(blocks[k].Insns) + 1, Text: d.text,
					Msg: fmt.Sprintf("decodes across the end of the block (%d bytes at offset %d of %d)", d.size, d.addr-starts[k], starts[k+1]-starts[k])})
				restart = k + 1
				break
			}
			n := len(blocks[k].Insns) + 1
			if strings.Contains(d.text, "(bad)") {
				errs[k] = append(errs[k], LineError{Line: n, Text: d.text, Msg: "objdump cannot decode the bytes"})
				continue
			}
			in, lerr := t.insn(d.text, 1, Intel, all[d.addr:d.addr+int64(d.size)])
			if lerr != nil {
				lerr.Line, lerr.Text = n, d.text
				errs[k] = append(errs[k], *lerr)
				continue
			}
			in.Line, in.Addr = n, d.addr-starts[k]
			blocks[k].Insns = append(blocks[k].Insns, in)
		}
		k = restart
	}
	return blocks, errs, nil
}

// objdump runs objdump on the raw x86-64 bytes in path from byte offset
// start and returns the instructions with their sizes.
func objdump(ctx context.Context, path string, start int64) ([]decoded, error) {
	if _, err := exec.LookPath(Objdump); err != nil {
		return nil, fmt.Errorf("block: decoding hex needs binutils' objdump: %w", err)
	}
	cmd := exec.CommandContext(ctx, Objdump, "-D", "-z", "-b", "binary", "-m", "i386:x86-64", "-M", "intel",
		"--start-address="+strconv.FormatInt(start, 10), path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("block: %s: %v: %s", Objdump, err, strings.TrimSpace(stderr.String()))
	}
	var insns []decoded
	for _, line := range strings.Split(string(out), "\n") {
		m := objdumpLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		addr, err := strconv.ParseInt(m[1], 16, 64)
		if err != nil {
			continue
		}
		bm := objdumpBytesRE.FindStringSubmatch(m[2])
		if bm == nil {
			return nil, fmt.Errorf("block: unexpected %s output %q", Objdump, line)
		}
		size := len(strings.Fields(bm[1]))
		text, _ := stripComments(bm[2], false)
		text = strings.TrimSpace(text)
		if text == "" {
			if len(insns) > 0 {
				insns[len(insns)-1].size += size // continuation of the encoding
			}
			continue
		}
		insns = append(insns, decoded{addr, size, text})
	}
	return insns, nil
}
