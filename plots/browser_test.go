package plots

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/portmap"
)

// browserReport is what testdata/browser/check.mjs prints.
type browserReport struct {
	Images []struct {
		Alt          string `json:"alt"`
		Complete     bool   `json:"complete"`
		NaturalWidth int    `json:"naturalWidth"`
	} `json:"images"`
	Charts []struct {
		ID       string  `json:"id"`
		Type     string  `json:"type"`
		Drawn    bool    `json:"drawn"`
		Canvases int     `json:"canvases"`
		Inked    int     `json:"inked"`
		Fraction float64 `json:"fraction"`
		Tooltip  string  `json:"tooltip"`
		MsToDraw float64 `json:"msToDraw"`
	} `json:"charts"`
	Errors            []string `json:"errors"`
	Blocked           []string `json:"blocked"`
	MsToUnpackECharts float64  `json:"msToUnpackECharts"`
	OK                bool     `json:"ok"`
}

// browserTools returns node and chromium and the folder of the Node
// driver, or skips t when one is missing (fails it when the environment
// variable CI is set: .ci/plots.sh installs them).
func browserTools(t *testing.T) (node, chromium, dir string) {
	t.Helper()
	need := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...) + " (run .ci/plots.sh to install the browser test's tools)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		need("node not found")
	}
	chromium = os.Getenv("CHROMIUM")
	if chromium == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				chromium = p
				break
			}
		}
	}
	if chromium == "" {
		need("chromium not found (set CHROMIUM)")
	}
	dir, err = filepath.Abs(filepath.Join("testdata", "browser"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core")); err != nil {
		need("playwright-core is not installed in %s (npm ci there)", dir)
	}
	return node, chromium, dir
}

// notebookPage mimics the HTML export of an executed notebook: output
// areas holding a PNG as a data URI and several chart fragments, and an
// AMD loader (RequireJS in the classic notebook) that would swallow a
// library which registers itself with define().
func notebookPage(t *testing.T) string {
	meas, pred := synthetic(40000)
	ev := evalOf(meas, pred)
	for i := range meas {
		e, err := portmap.ExperimentOfItems(portmap.Item{Insn: fmt.Sprintf("exp%d", i), Count: 1}, portmap.Item{Insn: "add", Count: i%5 + 1})
		if err != nil {
			t.Fatal(err)
		}
		ev.Experiments = append(ev.Experiments, e)
	}
	heat := NewHeatmap(ev).Titled("40,000 experiments")
	png, err := heat.PNG()
	if err != nil {
		t.Fatal(err)
	}
	m2, p2 := synthetic(3000)
	second := NewHeatmap(evalOf(p2, m2)).Titled("a second heat map")
	second.Bins = 20
	pressure := PortPressureOf(fig31(), mustExperiment(t, map[string]int{"add": 2, "mul": 1, "store": 1}))
	scatter := NewScatter(ev).Titled("40,000 dots")
	matrix := NewMappingMatrix(fig33()).Titled("a mapping")

	var b strings.Builder
	b.WriteString(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Notebook</title>
<script>
  // Like RequireJS: an anonymous define() outside a require() call fails.
  window.define = function () { throw new Error("Mismatched anonymous define() module"); };
  window.define.amd = {};
</script>
</head><body class="jp-Notebook">
`)
	cell := func(n int, mime, content string) {
		fmt.Fprintf(&b, "<div class=\"jp-Cell jp-CodeCell\"><div class=\"jp-InputArea\"><pre>In [%d]</pre></div>\n", n)
		fmt.Fprintf(&b, "<div class=\"jp-OutputArea-output\" data-mime-type=%q>\n%s\n</div></div>\n", mime, content)
	}
	cell(1, "image/png", `<img alt="heat map PNG" src="data:image/png;base64,`+base64.StdEncoding.EncodeToString(png)+`">`)
	cell(2, "text/html", heat.HTML())
	cell(3, "text/html", second.HTML())
	cell(4, "text/html", pressure.HTML())
	cell(5, "text/html", scatter.HTML())
	cell(6, "text/html", matrix.HTML())
	cell(7, "text/html", "<p>"+html.EscapeString("the end")+"</p>")
	b.WriteString("</body></html>\n")
	return b.String()
}

func mustExperiment(t *testing.T, counts map[string]int) portmap.Experiment {
	t.Helper()
	e, err := portmap.ExperimentOf(counts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestBrowser opens a page like an executed notebook's HTML export in
// headless Chromium with the network disabled and checks that the PNG is
// shown, that every chart has drawn pixels on its canvas, and that hovering
// shows tooltips. Set PORTLAB_BROWSER_OUT to a folder to keep the page and a
// screenshot.
func TestBrowser(t *testing.T) {
	node, chromium, dir := browserTools(t)
	out := os.Getenv("PORTLAB_BROWSER_OUT")
	if out == "" {
		out = t.TempDir()
	}
	page := filepath.Join(out, "notebook.html")
	if err := os.WriteFile(page, []byte(notebookPage(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "check.mjs", page, "--screenshot", filepath.Join(out, "notebook.png"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := cmd.Run()
	var r browserReport
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("browser check: %v (exit %v)\nstdout:\n%s\nstderr:\n%s", err, runErr, stdout.String(), stderr.String())
	}
	t.Logf("browser check took %v; ECharts unpacked in %.0f ms", time.Since(start).Round(time.Millisecond), r.MsToUnpackECharts)
	for _, e := range r.Errors {
		t.Errorf("browser: %s", e)
	}
	if len(r.Blocked) > 0 {
		t.Errorf("the page requested %v", r.Blocked)
	}
	if len(r.Images) != 1 || !r.Images[0].Complete || r.Images[0].NaturalWidth == 0 {
		t.Errorf("images: %+v; want the PNG loaded", r.Images)
	}
	wantTypes := []string{"heatmap", "heatmap", "bar", "scatter", "heatmap"}
	wantTips := []string{"experiments", "experiment", "port p1", "measured", "µops per execution"}
	if len(r.Charts) != len(wantTypes) {
		t.Fatalf("%d charts, want %d", len(r.Charts), len(wantTypes))
	}
	for i, c := range r.Charts {
		t.Logf("chart %d (%s): drawn in %.0f ms, %d canvas(es), %.1f %% of pixels inked, tooltip %.60q",
			i+1, c.Type, c.MsToDraw, c.Canvases, 100*c.Fraction, c.Tooltip)
		if !c.Drawn || c.Canvases == 0 || c.Fraction < 0.01 {
			t.Errorf("chart %d not drawn: %+v", i+1, c)
		}
		if c.Type != wantTypes[i] {
			t.Errorf("chart %d is a %s, want %s", i+1, c.Type, wantTypes[i])
		}
		if !strings.Contains(c.Tooltip, wantTips[i]) {
			t.Errorf("chart %d tooltip %q lacks %q", i+1, c.Tooltip, wantTips[i])
		}
	}
	if !r.OK && !t.Failed() {
		t.Errorf("browser check failed:\n%s\n%s", stdout.String(), stderr.String())
	}
}
