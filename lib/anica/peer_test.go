package anica_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/anica"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/predict/llvmmca"
)

// TestPeerCrashAndTimeout runs a campaign of llvm-mca against a wrapper
// of the same llvm-mca that aborts, with an assertion message, on every
// input holding bswap and hangs on every input holding popcnt: both are
// found as crashes with their messages ("interesting: crash", thesis
// §8.1.1, as the thesis found an llvm-mca assertion, §8.3.2), the
// campaign runs to its budget, and nothing else is reported — the two
// agree everywhere else.
//
//	ANICA_PEER=1 go test -run TestPeerCrashAndTimeout ./lib/anica
func TestPeerCrashAndTimeout(t *testing.T) {
	real, err := llvmmca.Find()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	if os.Getenv("ANICA_PEER") == "" {
		// Every check of the hanging class costs two timeouts, and
		// llvm-mca starts slowly on a loaded machine: about two minutes.
		// The same failures in one batch are tested in package llvmmca
		// (TestPredictBlocksCrashAndTimeout), a failing predictor in a
		// campaign by TestCrashAndCache.
		t.Skip("set ANICA_PEER=1 to run a campaign against a crashing and hanging llvm-mca (about two minutes)")
	}
	wrapper := filepath.Join(t.TempDir(), "llvm-mca-fake")
	script := "#!/bin/sh\nin=$(cat)\ncase \"$in\" in\n" +
		"*bswap*) echo 'LLVM ERROR: fake assertion failed' >&2; kill -ABRT $$;;\n" +
		"*popcnt*) exec sleep 60;;\nesac\n" +
		"printf '%s\\n' \"$in\" | exec " + real + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	keep := []string{"add", "bswap", "popcnt"}
	var forms []isa.Form
	for _, f := range isa.X86Forms() {
		if slices.Contains(keep, f.Mnemonic) && !strings.Contains(f.Key(), "MEM") {
			forms = append(forms, f)
		}
	}
	d, err := anica.NewDomain(forms, anica.DefaultEditDistance)
	if err != nil {
		t.Fatal(err)
	}
	good := llvmmca.New("znver3")
	good.Binary = real
	bad := llvmmca.New("znver3")
	bad.Binary = wrapper
	bad.Timeout = 5 * time.Second
	c, err := anica.NewCampaign(d, []*anica.Cache{anica.NewCache(good), anica.NewCache(bad)},
		anica.Config{Seed: 2, Samples: 3, Generalisations: 1, BatchSize: 20, MinLength: 1, MaxLength: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background(), anica.Budget{Blocks: 20}); err != nil {
		t.Fatalf("the campaign ended: %v", err)
	}
	if c.Sampled != 20 {
		t.Errorf("sampled %d blocks, want 20", c.Sampled)
	}
	ds := c.Filter(c.Discoveries)
	found := map[string]bool{}
	for _, disc := range ds {
		text := disc.Block.Text()
		var msg string
		for _, p := range disc.Origin.Predictions {
			msg += p.Err
		}
		switch {
		case !math.IsInf(disc.Score, 1):
			t.Errorf("discovery with score %v, want +Inf (a crash):\n%s", disc.Score, text)
		case strings.Contains(text, "bswap") && strings.Contains(msg, "fake assertion failed"):
			found["crash"] = true
		case strings.Contains(text, "popcnt") && strings.Contains(msg, "timed out"):
			found["timeout"] = true
		default:
			t.Errorf("unexpected discovery (message %q):\n%s", msg, text)
		}
	}
	if !found["crash"] || !found["timeout"] {
		t.Errorf("found %v, want the crash and the timeout:\n%s", found, c.Report(ds))
	}
}
