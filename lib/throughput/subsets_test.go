//go:build amd64

package throughput

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/cpu"

	"github.com/portlab/portlab/lib/portmap"
)

// subsetVariant is a kernel of subsets_amd64.s with its layout.
type subsetVariant struct {
	name     string
	w        int
	unrolled bool
	ok       bool // the CPU runs it
}

func subsetVariants() []subsetVariant {
	avx512 := cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW
	return []subsetVariant{
		{"AVX2 loop", 32, false, cpu.X86.HasAVX2},
		{"AVX2 unrolled", 32, true, cpu.X86.HasAVX2},
		{"AVX-512 loop", 64, false, avx512},
		{"AVX-512 unrolled", 64, true, avx512},
	}
}

// checkSubsetBound compares the subset tables' bound of e with the brute
// force over all port sets and returns whether the tables took it.
func checkSubsetBound(t *testing.T, what string, m *portmap.Mapping, st *subsetTables, e portmap.Experiment) bool {
	t.Helper()
	md := NewModel(m)
	x, err := md.Index(e)
	if err != nil {
		t.Fatal(err)
	}
	num, den, bp, ninsn, nuops, ok := st.bound(md, x.Terms)
	masks, mass := massLists(t, m, e)
	var total int64
	for _, w := range mass {
		total += w
	}
	if !ok {
		if total <= maxSubsetMass && e.Len() <= maxSubsetTerms {
			t.Fatalf("%s: %v (%d µops, %d instructions) not taken", what, e, total, e.Len())
		}
		return false
	}
	bn, bd, bb := bruteForce(masks, mass, m.NumPorts())
	if bn*int64(den) != num*int64(bd) || bb != bp || (num > 0 && den != bp.Len()) {
		t.Fatalf("%s: %v: subset tables %d/%d on %v, brute force %d/%d on %v\n%v", what, e, num, den, bp, bn, bd, bb, m)
	}
	if ninsn != int64(e.Len()) || nuops != total {
		t.Fatalf("%s: %v: %d instructions and %d µops, want %d and %d", what, e, ninsn, nuops, e.Len(), total)
	}
	return true
}

// TestSubsetKernels checks every kernel the CPU runs, on every port count
// it takes, against the brute force over all port sets: random three-level
// mappings and experiments, a mapping where every port set ties, µop-less
// instructions, and experiments too large for bytes (which must be left to
// the other methods).
func TestSubsetKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	perPorts := 300
	if testing.Short() {
		perPorts = 60
	}
	ran := 0
	for _, v := range subsetVariants() {
		if !v.ok {
			t.Logf("%s: not supported by this CPU", v.name)
			continue
		}
		ran++
		for n := 1; n <= maxSubsetPorts; n++ {
			if v.unrolled && n > maxUnrolled {
				continue
			}
			l := newSubsetLayoutOf(n, v.w, v.unrolled)
			taken := 0
			for c := 0; c < perPorts; c++ {
				m, _ := randomCase(r, n, 1+r.IntN(20), 1)
				e := randomExperiment(t, r, m, 12)
				if checkSubsetBound(t, v.name, m, newSubsetTablesFor(NewModel(m), l), e) {
					taken++
				}
			}
			if taken < perPorts/2 {
				t.Fatalf("%s, %d ports: only %d of %d experiments on the subset tables", v.name, n, taken, perPorts)
			}

			// Every port set ties: one µop on each port.
			ports := make([]string, n)
			uops := make([]portmap.Uop, n)
			for k := range ports {
				ports[k] = string(rune('a' + k))
				uops[k] = portmap.Uop{Ports: portmap.PortSet(1) << k, Count: 1}
			}
			tie := portmap.MustMapping("tie", ports...)
			if err := tie.Set("spread", uops...); err != nil {
				t.Fatal(err)
			}
			if err := tie.Set("nop"); err != nil {
				t.Fatal(err)
			}
			if err := tie.Set("huge", portmap.Uop{Ports: 1, Count: 200}); err != nil {
				t.Fatal(err)
			}
			st := newSubsetTablesFor(NewModel(tie), l)
			for _, e := range []portmap.Experiment{
				portmap.NewExperiment("spread"),
				portmap.NewExperiment("spread", "spread", "nop"),
				portmap.NewExperiment("nop"),
				portmap.NewExperiment("huge"),
			} {
				if !checkSubsetBound(t, v.name, tie, st, e) {
					t.Fatalf("%s: %v not taken", v.name, e)
				}
			}
			if checkSubsetBound(t, v.name, tie, st, portmap.NewExperiment("huge", "huge")) {
				t.Fatalf("%s: 400 µops taken in bytes", v.name)
			}
		}
	}
	if ran == 0 {
		t.Skip("no subset kernel runs on this CPU")
	}
}

// TestSubsetHighSums checks every kernel with sums of 128 and more in every
// set size (µops of 10 to 69 copies on port sets of one random size), where
// a signed byte comparison would go wrong.
func TestSubsetHighSums(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, v := range subsetVariants() {
		if !v.ok {
			continue
		}
		for n := 1; n <= maxSubsetPorts; n++ {
			if v.unrolled && n > maxUnrolled {
				continue
			}
			l := newSubsetLayoutOf(n, v.w, v.unrolled)
			ports := make([]string, n)
			for k := range ports {
				ports[k] = string(rune('a' + k))
			}
			for c := 0; c < 100; c++ {
				m := portmap.MustMapping("high", ports...)
				k := 1 + r.IntN(n)
				for i := range 4 {
					var uops []portmap.Uop
					for range 1 + r.IntN(2) {
						var s portmap.PortSet
						for s.Len() < k {
							s |= portmap.PortSet(1) << r.IntN(n)
						}
						if len(uops) == 1 && uops[0].Ports == s {
							continue
						}
						uops = append(uops, portmap.Uop{Ports: s, Count: 10 + r.IntN(60)})
					}
					if err := m.Set(fmt.Sprint("i", i), uops...); err != nil {
						t.Fatal(err)
					}
				}
				counts := map[string]int{}
				for range 1 + r.IntN(4) {
					counts[fmt.Sprint("i", r.IntN(4))]++
				}
				e, err := portmap.ExperimentOf(counts)
				if err != nil {
					t.Fatal(err)
				}
				checkSubsetBound(t, fmt.Sprintf("%s, %d ports", v.name, n), m, newSubsetTablesFor(NewModel(m), l), e)
			}
		}
	}
}

// TestSubsetLimits checks the limits of the subset tables: 255 µops and 32
// instructions are taken, 256 µops or 33 instructions are left to the other
// methods (checkSubsetBound fails on anything else).
func TestSubsetLimits(t *testing.T) {
	if subsetWidth == 0 {
		t.Skip("no subset kernels on this CPU")
	}
	m := portmap.MustMapping("limits", "0", "1", "2")
	m.MustSetUsage("one", "1*p01")
	m.MustSetUsage("big", "7*p0+1*p12")
	st := newSubsetTablesFor(NewModel(m), newSubsetLayout(3, subsetWidth))
	for _, c := range []struct {
		counts map[string]int
		taken  bool
	}{
		{map[string]int{"one": 32}, true},
		{map[string]int{"one": 33}, false},
		{map[string]int{"big": 31, "one": 1}, true},  // 8·31 + 1 = 249 µops in 32
		{map[string]int{"big": 31, "one": 7}, false}, // 255 µops in 38
		{map[string]int{"big": 31, "one": 8}, false}, // 256 µops
	} {
		e, err := portmap.ExperimentOf(c.counts)
		if err != nil {
			t.Fatal(err)
		}
		if got := checkSubsetBound(t, "limits", m, st, e); got != c.taken {
			t.Errorf("%v: taken %v, want %v", e, got, c.taken)
		}
	}
	// Exactly 255 µops in at most 32 instructions.
	m.MustSetUsage("wide", "15*p0+2*p12") // 17 µops
	st = newSubsetTablesFor(NewModel(m), newSubsetLayout(3, subsetWidth))
	e, err := portmap.ExperimentOf(map[string]int{"wide": 15})
	if err != nil {
		t.Fatal(err)
	}
	if !checkSubsetBound(t, "limits", m, st, e) {
		t.Errorf("%v (255 µops) not taken", e)
	}
}

// TestSubsetKernelsGenerated checks that subsets_amd64.s and
// subsets_kernels_amd64.go are what internal/gensubsets writes.
func TestSubsetKernelsGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	dir := t.TempDir()
	out, err := exec.Command("go", "run", "./internal/gensubsets", "-dir", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("gensubsets: %v\n%s", err, out)
	}
	for _, f := range []string{"subsets_amd64.s", "subsets_kernels_amd64.go"} {
		want, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate in lib/throughput", f)
		}
	}
}

// FuzzSubsetBound checks Model.InvThroughput, which takes the subset tables
// for most experiments on at most 11 ports, against the brute force on
// mappings and experiments decoded from the fuzzer's bytes: the first byte
// gives the number of ports, then every three bytes a µop (port set, count,
// and whether it starts a new instruction), and the last bytes the
// experiment's instructions.
func FuzzSubsetBound(f *testing.F) {
	f.Add([]byte{10, 0x03, 1, 1, 0x0c, 2, 0, 0x30, 1, 1, 0xc1, 3, 1, 0, 1, 1, 2, 2})
	f.Add([]byte{4, 0x01, 1, 1, 0x02, 1, 0, 0x04, 1, 0, 0x08, 1, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{11, 0xff, 7, 1, 0x0f, 9, 1, 0xf0, 9, 1, 0, 1, 2, 1, 2, 0, 0, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		n := 1 + int(data[0])%maxSubsetPorts
		data = data[1:]
		nu := min(len(data)/3, 24)
		ports := make([]string, n)
		for k := range ports {
			ports[k] = string(rune('a' + k))
		}
		m := portmap.MustMapping("fuzz", ports...)
		var uops []portmap.Uop
		var names []string
		flush := func() {
			name := string(rune('A' + len(names)))
			if err := m.Set(name, uops...); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
			uops = nil
		}
		all := uint64(1)<<n - 1
		for j := 0; j < nu; j++ {
			b := data[3*j : 3*j+3]
			if b[2]&1 == 1 && j > 0 {
				flush()
			}
			s := (uint64(b[0]) | uint64(b[1]&0x70)<<4) & all
			if s == 0 {
				continue // an instruction may have no µops
			}
			uops = append(uops, portmap.Uop{Ports: portmap.PortSet(s), Count: 1 + int(b[1]&15)})
		}
		flush()
		var list []string
		for _, b := range data[3*nu:] {
			list = append(list, names[int(b)%len(names)])
		}
		if len(list) == 0 {
			list = names
		}
		e := portmap.NewExperiment(list...)
		md := NewModel(m)
		for _, v := range subsetVariants() {
			if v.ok && (!v.unrolled || n <= maxUnrolled) {
				checkSubsetBound(t, v.name, m, newSubsetTablesFor(md, newSubsetLayoutOf(n, v.w, v.unrolled)), e)
			}
		}
		res, err := md.InvThroughput(e)
		if err != nil {
			t.Fatal(err)
		}
		masks, mass := massLists(t, m, e)
		bn, bd, bp := bruteForce(masks, mass, n)
		if bn*int64(res.Den) != res.Num*int64(bd) || bp != res.Bottleneck {
			t.Fatalf("%v: got %d/%d on %v, brute force %d/%d on %v\n%v", e, res.Num, res.Den, res.Bottleneck, bn, bd, bp, m)
		}
	})
}
