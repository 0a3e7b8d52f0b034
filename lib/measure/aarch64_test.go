package measure

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/operands"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestAArch64Golden pins the generated AArch64 benchmark code (it cannot run
// on this host): a few thesis-style experiments, unrolled twice, and the
// kernel frame around them.
func TestAArch64Golden(t *testing.T) {
	schemes := [][]string{
		{"add W:GPR:64, R:GPR:64, R:GPR:64", "mul W:GPR:64, R:GPR:64, R:GPR:64"},
		{"ldr W:GPR:64, R:MEM(64)", "str R:GPR:64, W:MEM(64)"},
		{"fadd W:VEC.4s, R:VEC.4s, R:VEC.4s", "fmla RW:VEC.4s, R:VEC.4s, R:VEC.4s"},
	}
	var kernels []Kernel
	for _, ss := range schemes {
		var forms []isa.Form
		for _, s := range ss {
			f, err := isa.ParseSchemeISA(isa.AArch64, s)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			forms = append(forms, f)
		}
		body, err := operands.InstantiateAArch64(append(append([]isa.Form{}, forms...), forms...))
		if err != nil {
			t.Fatal(err)
		}
		kernels = append(kernels, Kernel{Name: strings.Join(ss, " + "), Body: body})
	}
	src, err := AArch64Source(kernels)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "aarch64_kernels.golden.s")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run AArch64Golden -update to create it)", err)
	}
	if src != string(want) {
		t.Errorf("generated AArch64 code differs from %s; if intended, rerun with -update", golden)
	}
	// Write-only destinations, read-only sources: no dependencies at all;
	// read-write operands rotate through the pool.
	if !strings.Contains(src, "add x23, x24, x25\n  mul x23, x24, x25\n  add x23, x24, x25") ||
		!strings.Contains(src, "fmla v0.4s, v30.4s, v31.4s\n  fadd v29.4s, v30.4s, v31.4s\n  fmla v1.4s, v30.4s, v31.4s") {
		t.Errorf("unexpected allocation:\n%s", src[:min(len(src), 2000)])
	}
	assembleAArch64(t, src)
}

// TestAArch64CuratedForms instantiates every curated AArch64 form and, when
// the cross assembler is installed, assembles them.
func TestAArch64CuratedForms(t *testing.T) {
	var kernels []Kernel
	for _, f := range isa.AArch64Forms() {
		body, err := operands.InstantiateAArch64([]isa.Form{f, f})
		if err != nil {
			t.Errorf("%s: %v", f.Scheme(), err)
			continue
		}
		kernels = append(kernels, Kernel{Name: f.Scheme(), Body: body})
	}
	src, err := AArch64Source(kernels)
	if err != nil {
		t.Fatal(err)
	}
	assembleAArch64(t, src)
}

func assembleAArch64(t *testing.T, src string) {
	t.Helper()
	as, err := exec.LookPath("aarch64-linux-gnu-as")
	if err != nil {
		t.Log("aarch64-linux-gnu-as not installed (Debian: binutils-aarch64-linux-gnu); not assembling")
		return
	}
	dir := t.TempDir()
	s := filepath.Join(dir, "k.s")
	os.WriteFile(s, []byte(src), 0o644)
	out, err := exec.Command(as, "-march=armv8.4-a+crypto+crc", "-o", filepath.Join(dir, "k.o"), s).CombinedOutput()
	if err != nil {
		t.Fatalf("aarch64 as: %v\n%s", err, out)
	}
}
