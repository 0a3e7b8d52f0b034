package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/dataset/datasettest"
)

// A function is cut at branch targets and after jumps; the jump ending a
// block is left out, a block jumping to its own start is a loop, padding
// and one-instruction blocks are rejected with their reasons.
func TestSplit(t *testing.T) {
	f := &function{name: "f", addr: 0x100, insns: []insn{
		{addr: 0x100, bytes: []byte{0x31, 0xc0}, text: "xor eax,eax", mnem: "xor", target: -1},
		{addr: 0x102, bytes: []byte{0x48, 0x01, 0xd8}, text: "add rax,rbx", mnem: "add", target: -1},
		{addr: 0x105, bytes: []byte{0x48, 0xff, 0xc9}, text: "dec rcx", mnem: "dec", target: -1},
		{addr: 0x108, bytes: []byte{0x75, 0xf8}, text: "jne 102 <f+0x2>", mnem: "jne", target: 0x102},
		{addr: 0x10a, bytes: []byte{0xc3}, text: "ret", mnem: "ret", target: -1},
		{addr: 0x10b, bytes: []byte{0x90}, text: "nop", mnem: "nop", target: -1},
	}}
	cands, rejects := split([]*function{f}, "p.c", "gcc", "-O2")
	var got []string
	for _, c := range cands {
		got = append(got, c.origin()+" "+c.hex)
	}
	want := []string{"p.c\tgcc\t-O2\tf+0x2\tloop 4801d848ffc9"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("blocks %q, want %q", got, want)
	}
	var reasons []string
	for _, r := range rejects {
		reasons = append(reasons, r.c.function+" "+r.reason)
	}
	want = []string{"f fewer than 2 instructions", "f fewer than 2 instructions", "f alignment padding (nop, int3)"}
	if !reflect.DeepEqual(reasons, want) {
		t.Errorf("rejects %q, want %q", reasons, want)
	}
}

// The held-out part depends on the bytes alone, and takes about a fifth.
func TestHeldOut(t *testing.T) {
	n := 0
	for i := range 1000 {
		h := hex([]byte{byte(i), byte(i >> 8), 0x90})
		if HeldOut(h) != HeldOut(strings.Clone(h)) {
			t.Fatal("not deterministic")
		}
		if HeldOut(h) {
			n++
		}
	}
	if n < 150 || n > 250 {
		t.Errorf("%d of 1000 held out, want about 200", n)
	}
}

// The generated blocks are the same for the same seed, and every one
// parses and matches its forms in lib/block.
func TestGenerate(t *testing.T) {
	datasettest.Need(t)
	a, b := Generate(Seed), Generate(Seed)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("Generate is not deterministic")
	}
	if len(a) < 500 {
		t.Errorf("%d generated blocks, want at least 500", len(a))
	}
	kinds := map[string]int{}
	for _, g := range a {
		kinds[g.Kind]++
		if _, err := block.Parse(strings.Join(g.Lines, "\n"), block.Intel); err != nil {
			t.Errorf("%s (%s): %v", g.Name, g.Note, err)
		}
	}
	for _, k := range []string{"chain", "chain+mix", "mix", "mem"} {
		if kinds[k] == 0 {
			t.Errorf("no %s blocks", k)
		}
	}
}
