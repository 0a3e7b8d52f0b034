// Command blockcorpus builds the host block corpus of bench/blocks: basic
// blocks and loop bodies of code compiled on this machine, plus generated
// ones, each block as a line of a BHive-style CSV file ("hex," with the
// cycles column left empty, to be filled in by measuring the blocks).
//
// Usage:
//
//	go run ./bench/cmd/blockcorpus [-out bench/blocks] [-src bench/blocks/src]
//	    [-seed N] [-exclude a.csv,b.csv] [-all-heldout]
//
// A later corpus that is to evaluate a description tuned on an earlier one
// takes new sources, another -seed for its generated blocks, -exclude with
// the earlier corpus's CSV files (a block with the same bytes as one of
// them is rejected) and -all-heldout (every block goes to heldout.csv).
//
// Sources of blocks, in this order:
//
//   - the C files of -src (*.c), each compiled with gcc -c under every flag
//     set of CFlags;
//   - the Go program of -src/go, when there is one, built with go build
//     -trimpath, functions of package main only;
//   - generated blocks (Generate): latency-bound chains, independent
//     port-bound mixes, mixes with memory operands and chains with
//     independent work beside them, from a fixed seed (-seed, default
//     Seed), assembled with GNU as.
//
// Every object is disassembled with binutils' objdump -d -M intel. A
// function is split into basic blocks at branch targets and after jumps,
// calls and returns; the jump, call or return ending a block is left out,
// as BHive does (Chen et al., "BHive: A Benchmark Suite and Measurement
// Framework for Validating x86-64 Basic Block Performance Models", IISWC
// 2019): the block is run back to back. A block whose jump went back to
// its own start is a loop body (kind "loop"). Every candidate is decoded
// and matched with lib/block (block.ReadBHiveCSV); one that does not
// decode or match, one of fewer than MinInsns instructions, a block of
// alignment padding and a block with the same bytes as an earlier one are
// rejected, each listed with its reason in rejects.tsv.
//
// The blocks are split deterministically by the FNV-1a hash of their hex:
// a hash divisible by 5 puts a block into the held-out part
// (heldout.csv), the others into the tuning part (tune.csv); the
// held-out part is for evaluation only. sources.tsv names, per CSV line,
// where the block came from (program, compiler and flags, function and
// offset, kind) and summary.txt the counts and the tool versions.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/block"
)

// CFlags are the gcc flag sets every C file is compiled with.
var CFlags = []string{
	"-O2",
	"-O3",
	"-O2 -march=x86-64-v3",
	"-O3 -march=x86-64-v2",
	"-O3 -march=x86-64-v3",
	"-Os",
}

// MinInsns is the fewest instructions a block of compiled code must have
// (after its jump is left out).
const MinInsns = 2

// candidate is a block before it is checked.
type candidate struct {
	program, compiler, flags, function string
	offset                             int64
	kind                               string // loop, block, chain, mix, mem, chain+mix
	hex                                string
	insns                              int
	note                               string
}

func (c *candidate) origin() string {
	fn := c.function
	if c.offset >= 0 {
		fn = fmt.Sprintf("%s+0x%x", c.function, c.offset)
	}
	return strings.Join([]string{c.program, c.compiler, c.flags, fn, c.kind}, "\t")
}

type reject struct {
	c      *candidate
	reason string
}

func main() {
	out := flag.String("out", "bench/blocks", "directory to write the corpus to")
	src := flag.String("src", "bench/blocks/src", "directory of the C and Go sources")
	seed := flag.Uint64("seed", Seed, "seed of the generated blocks")
	exclude := flag.String("exclude", "", "comma-separated BHive CSV files of an earlier corpus: blocks with their bytes are rejected")
	allHeld := flag.Bool("all-heldout", false, "put every block into heldout.csv (a corpus for evaluation only)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "blockcorpus: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	earlier, err := readExcluded(*exclude)
	if err != nil {
		fmt.Fprintln(os.Stderr, "blockcorpus: -exclude:", err)
		os.Exit(2)
	}
	opts := options{seed: *seed, earlier: earlier, allHeldOut: *allHeld}
	if err := run(context.Background(), *src, *out, opts); err != nil {
		fmt.Fprintln(os.Stderr, "blockcorpus:", err)
		os.Exit(1)
	}
}

// options are the choices of a corpus beyond its sources.
type options struct {
	seed       uint64
	earlier    map[string]string // hex → the file of an earlier corpus holding it
	allHeldOut bool
}

// readExcluded reads the blocks of comma-separated BHive CSV files: hex →
// file.
func readExcluded(list string) (map[string]string, error) {
	m := map[string]string{}
	if list == "" {
		return m, nil
	}
	for _, f := range strings.Split(list, ",") {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			h, _, ok := strings.Cut(line, ",")
			if !ok || h == "" {
				return nil, fmt.Errorf("%s:%d: want hex,cycles", f, i+1)
			}
			if _, dup := m[h]; !dup {
				m[h] = f
			}
		}
	}
	return m, nil
}

func run(ctx context.Context, src, out string, opts options) error {
	for _, tool := range []string{"gcc", "go", "as", block.Objdump} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is needed: %w", tool, err)
		}
	}
	tmp, err := os.MkdirTemp("", "blockcorpus-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var cands []*candidate
	var rejects []reject
	add := func(cs []*candidate, rs []reject) {
		cands = append(cands, cs...)
		rejects = append(rejects, rs...)
	}
	cfiles, err := filepath.Glob(filepath.Join(src, "*.c"))
	if err != nil {
		return err
	}
	if len(cfiles) == 0 {
		return fmt.Errorf("no C files in %s", src)
	}
	sort.Strings(cfiles)
	gccVersion := firstLine(ctx, "gcc", "--version")
	for _, f := range cfiles {
		for _, flags := range CFlags {
			obj := filepath.Join(tmp, "c.o")
			args := append(strings.Fields(flags), "-fno-asynchronous-unwind-tables", "-c", "-o", obj, f)
			if out, err := exec.CommandContext(ctx, "gcc", args...).CombinedOutput(); err != nil {
				return fmt.Errorf("gcc %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			fns, err := disassemble(ctx, obj, nil)
			if err != nil {
				return err
			}
			add(split(fns, filepath.Base(f), "gcc", flags))
		}
	}
	goDir := filepath.Join(src, "go")
	goVersion := firstLine(ctx, "go", "version")
	if _, err := os.Stat(goDir); err == nil {
		bin := filepath.Join(tmp, "gokernels")
		build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", bin, ".")
		build.Dir = goDir
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build in %s: %v\n%s", goDir, err, out)
		}
		fns, err := disassemble(ctx, bin, func(name string) bool { return strings.HasPrefix(name, "main.") })
		if err != nil {
			return err
		}
		add(split(fns, "go/kernels.go", "go", "go build -trimpath"))
	} else {
		fmt.Fprintf(os.Stderr, "blockcorpus: no Go program in %s: none compiled\n", goDir)
	}
	gen := Generate(opts.seed)
	asm := filepath.Join(tmp, "gen.s")
	if err := os.WriteFile(asm, []byte(Assembly(gen)), 0o644); err != nil {
		return err
	}
	genObj := filepath.Join(tmp, "gen.o")
	if out, err := exec.CommandContext(ctx, "as", "--64", "-o", genObj, asm).CombinedOutput(); err != nil {
		return fmt.Errorf("as: %v\n%s", err, out)
	}
	fns, err := disassemble(ctx, genObj, nil)
	if err != nil {
		return err
	}
	byName := map[string]*function{}
	for _, f := range fns {
		byName[f.name] = f
	}
	for _, g := range gen {
		f := byName[g.Name]
		if f == nil || len(f.insns) == 0 {
			return fmt.Errorf("generated block %s not found in the assembled object", g.Name)
		}
		c := &candidate{program: "generated", compiler: "as", flags: fmt.Sprintf("seed %d", opts.seed), function: g.Name, offset: -1,
			kind: g.Kind, insns: len(f.insns), note: g.Note}
		for _, in := range f.insns {
			c.hex += hex(in.bytes)
		}
		cands = append(cands, c)
	}
	asVersion := firstLine(ctx, "as", "--version")
	objdumpVersion := firstLine(ctx, block.Objdump, "--version")

	// Duplicates: the first of equal bytes stays.
	seen := map[string]*candidate{}
	var uniq []*candidate
	for _, c := range cands {
		if f, ok := opts.earlier[c.hex]; ok {
			rejects = append(rejects, reject{c, "in an earlier corpus: " + f})
			continue
		}
		if first, ok := seen[c.hex]; ok {
			rejects = append(rejects, reject{c, "same bytes as " + first.program + " " + first.flags + " " + first.function})
			continue
		}
		seen[c.hex] = c
		uniq = append(uniq, c)
	}
	// Decode and match every block as portlab reads it.
	var csv strings.Builder
	for _, c := range uniq {
		csv.WriteString(c.hex + ",\n")
	}
	rows, err := block.ReadBHiveCSV(ctx, strings.NewReader(csv.String()))
	var pe *block.ParseError
	if err != nil && !errors.As(err, &pe) {
		return err
	}
	bad := map[int][]string{}
	if pe != nil {
		for _, l := range pe.Lines {
			bad[l.Line] = append(bad[l.Line], l.Msg)
		}
	}
	var good []*candidate
	for i, c := range uniq {
		if msgs, ok := bad[i+1]; ok {
			rejects = append(rejects, reject{c, "lib/block: " + strings.Join(msgs, "; ")})
			continue
		}
		good = append(good, c)
	}
	if len(rows) != len(good) {
		return fmt.Errorf("lib/block read %d blocks, expected %d", len(rows), len(good))
	}
	return write(out, good, rejects, []string{gccVersion, goVersion, asVersion, objdumpVersion}, opts.allHeldOut)
}

// HeldOut reports whether a block (by its hex) belongs to the held-out
// part: its 64-bit FNV-1a hash is divisible by 5.
func HeldOut(hexCode string) bool {
	h := fnv.New64a()
	h.Write([]byte(hexCode))
	return h.Sum64()%5 == 0
}

func write(dir string, good []*candidate, rejects []reject, versions []string, allHeldOut bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var tune, held, sources, rej, sum bytes.Buffer
	sources.WriteString("file\tline\tprogram\tcompiler\tflags\tfunction\tkind\tinsns\tnote\n")
	nTune, nHeld := 0, 0
	type key struct{ program, kind string }
	count := map[key][2]int{}
	for _, c := range good {
		file, line := "tune.csv", 0
		if allHeldOut || HeldOut(c.hex) {
			held.WriteString(c.hex + ",\n")
			nHeld++
			file, line = "heldout.csv", nHeld
		} else {
			tune.WriteString(c.hex + ",\n")
			nTune++
			line = nTune
		}
		fmt.Fprintf(&sources, "%s\t%d\t%s\t%d\t%s\n", file, line, c.origin(), c.insns, c.note)
		k := key{c.program, c.kind}
		n := count[k]
		if file == "heldout.csv" {
			n[1]++
		} else {
			n[0]++
		}
		count[k] = n
	}
	rej.WriteString("program\tcompiler\tflags\tfunction\tkind\treason\n")
	reasons := map[string]int{}
	for _, r := range rejects {
		fmt.Fprintf(&rej, "%s\t%s\n", r.c.origin(), r.reason)
		reasons[reasonClass(r.reason)]++
	}
	fmt.Fprintf(&sum, "%d blocks: %d for tuning (tune.csv), %d held out (heldout.csv); %d rejected (rejects.tsv)\n\n",
		len(good), nTune, nHeld, len(rejects))
	fmt.Fprintf(&sum, "%-22s %-10s %6s %8s\n", "program", "kind", "tune", "held out")
	keys := slices.Collect(func(yield func(key) bool) {
		for k := range count {
			if !yield(k) {
				return
			}
		}
	})
	slices.SortFunc(keys, func(a, b key) int {
		if c := strings.Compare(a.program, b.program); c != 0 {
			return c
		}
		return strings.Compare(a.kind, b.kind)
	})
	for _, k := range keys {
		fmt.Fprintf(&sum, "%-22s %-10s %6d %8d\n", k.program, k.kind, count[k][0], count[k][1])
	}
	sum.WriteString("\nrejected, by reason:\n")
	rk := slices.Sorted(func(yield func(string) bool) {
		for k := range reasons {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range rk {
		fmt.Fprintf(&sum, "%6d  %s\n", reasons[k], k)
	}
	sum.WriteString("\ntools:\n")
	for _, v := range versions {
		fmt.Fprintf(&sum, "  %s\n", v)
	}
	fmt.Fprintf(&sum, "gcc flag sets: %s (each with -fno-asynchronous-unwind-tables -c)\n", strings.Join(CFlags, " | "))
	for name, b := range map[string]*bytes.Buffer{"tune.csv": &tune, "heldout.csv": &held, "sources.tsv": &sources, "rejects.tsv": &rej, "summary.txt": &sum} {
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	os.Stdout.Write(sum.Bytes())
	return nil
}

// reasonClass groups reasons for the summary: the reason without the
// instruction's text and position.
func reasonClass(r string) string {
	switch {
	case strings.HasPrefix(r, "same bytes as"):
		return "duplicate (same bytes as an earlier block)"
	case strings.HasPrefix(r, "in an earlier corpus: "):
		return r
	case strings.HasPrefix(r, "lib/block: "):
		m := reInsnMsg.FindStringSubmatch(r)
		if m != nil {
			return "lib/block: " + m[2] + " (" + m[1] + ")"
		}
	}
	return r
}

var reInsnMsg = regexp.MustCompile(`^lib/block: instruction \d+ "([a-z0-9]+)[^"]*": ([^;]*)`)

func firstLine(ctx context.Context, name string, args ...string) string {
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return name + ": version unknown"
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}

func hex(b []byte) string {
	const digits = "0123456789abcdef"
	s := make([]byte, 0, 2*len(b))
	for _, x := range b {
		s = append(s, digits[x>>4], digits[x&15])
	}
	return string(s)
}

// insn is an instruction of objdump's listing.
type insn struct {
	addr   int64
	bytes  []byte
	text   string
	mnem   string
	target int64 // branch target, -1 when none
}

type function struct {
	name  string
	addr  int64
	insns []insn
}

var (
	reFunc   = regexp.MustCompile(`^([0-9a-f]+) <(.+)>:$`)
	reInsn   = regexp.MustCompile(`^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t?(.*)$`)
	reTarget = regexp.MustCompile(`^([0-9a-f]+) <`)
)

// disassemble runs objdump -d on path and returns its functions (those
// keep selects, all when nil).
func disassemble(ctx context.Context, path string, keep func(string) bool) ([]*function, error) {
	cmd := exec.CommandContext(ctx, block.Objdump, "-d", "-w", "-M", "intel", "--insn-width=16", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s -d %s: %v: %s", block.Objdump, path, err, stderr.String())
	}
	var fns []*function
	var cur *function
	for _, line := range strings.Split(string(out), "\n") {
		if m := reFunc.FindStringSubmatch(line); m != nil {
			cur = nil
			if keep == nil || keep(m[2]) {
				a, _ := strconv.ParseInt(m[1], 16, 64)
				cur = &function{name: m[2], addr: a}
				fns = append(fns, cur)
			}
			continue
		}
		if cur == nil {
			continue
		}
		m := reInsn.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		a, _ := strconv.ParseInt(m[1], 16, 64)
		var bs []byte
		for _, f := range strings.Fields(m[2]) {
			x, _ := strconv.ParseUint(f, 16, 8)
			bs = append(bs, byte(x))
		}
		text, _, _ := strings.Cut(m[3], "#")
		text = strings.TrimSpace(text)
		in := insn{addr: a, bytes: bs, text: text, target: -1}
		fields := strings.Fields(text)
		for len(fields) > 1 && prefixes[fields[0]] {
			fields = fields[1:]
		}
		if len(fields) > 0 {
			in.mnem = fields[0]
		}
		if isJump(in.mnem) && len(fields) > 1 {
			if t := reTarget.FindStringSubmatch(strings.Join(fields[1:], " ")); t != nil {
				in.target, _ = strconv.ParseInt(t[1], 16, 64)
			}
		}
		cur.insns = append(cur.insns, in)
	}
	return fns, nil
}

var prefixes = map[string]bool{"bnd": true, "notrack": true, "rep": true, "repz": true, "repe": true, "ds": true, "cs": true, "data16": true, "lock": true}

func isJump(m string) bool { return strings.HasPrefix(m, "j") || strings.HasPrefix(m, "loop") }

func ends(m string) bool {
	return isJump(m) || strings.HasPrefix(m, "call") || strings.HasPrefix(m, "ret") || m == "ud2" || m == "hlt" || m == "int3"
}

func padding(in insn) bool {
	return in.mnem == "nop" || in.mnem == "int3" || strings.HasPrefix(in.text, "xchg") && in.text == "xchg   ax,ax" || strings.Contains(in.text, " nop")
}

// split cuts functions into basic blocks: a block starts at a function's
// start, at a branch target inside the function, and after a jump, call
// or return; the jump, call or return that ends a block is left out.
func split(fns []*function, program, compiler, flags string) ([]*candidate, []reject) {
	var cands []*candidate
	var rejects []reject
	for _, f := range fns {
		if len(f.insns) == 0 {
			continue
		}
		leader := map[int64]bool{f.insns[0].addr: true}
		for i, in := range f.insns {
			if in.target >= 0 {
				leader[in.target] = true
			}
			if ends(in.mnem) && i+1 < len(f.insns) {
				leader[f.insns[i+1].addr] = true
			}
		}
		start := 0
		for i := range f.insns {
			if i+1 < len(f.insns) && !leader[f.insns[i+1].addr] {
				continue
			}
			body := f.insns[start : i+1]
			head := body[0].addr
			start = i + 1
			c := &candidate{program: program, compiler: compiler, flags: flags, function: f.name, offset: head - f.addr, kind: "block"}
			last := body[len(body)-1]
			if ends(last.mnem) {
				body = body[:len(body)-1]
				if isJump(last.mnem) && last.target == head {
					c.kind = "loop"
				}
				c.note = "ends with " + strings.Join(strings.Fields(last.text), " ")
			}
			c.insns = len(body)
			for _, in := range body {
				c.hex += hex(in.bytes)
			}
			var notes []string
			if c.note != "" {
				notes = append(notes, c.note)
			}
			for _, in := range body {
				if strings.Contains(in.text, "[rip") {
					notes = append(notes, "rip-relative")
					break
				}
			}
			c.note = strings.Join(notes, "; ")
			switch {
			case len(body) > 0 && all(body, padding):
				rejects = append(rejects, reject{c, "alignment padding (nop, int3)"})
			case len(body) < MinInsns:
				rejects = append(rejects, reject{c, fmt.Sprintf("fewer than %d instructions", MinInsns)})
			default:
				cands = append(cands, c)
			}
		}
	}
	return cands, rejects
}

func all(xs []insn, f func(insn) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
}
