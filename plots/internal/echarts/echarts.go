package echarts

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Version is the version of the embedded ECharts build.
const Version = "5.6.0"

//go:embed echarts.min.js
var library []byte

// Library returns the embedded echarts.min.js. The caller must not modify
// it.
func Library() []byte { return library }

var (
	packedOnce sync.Once
	packed     string
)

// Packed returns the library gzip-compressed (best compression) and
// base64-encoded, as carried by every fragment. It is computed once per
// process, in about 50 ms.
func Packed() string {
	packedOnce.Do(func() {
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			panic(err) // only for an invalid level
		}
		zw.Write(library) // a bytes.Buffer does not fail
		zw.Close()
		packed = base64.StdEncoding.EncodeToString(buf.Bytes())
	})
	return packed
}

// Func is JavaScript source, such as a tooltip formatter
// "function (p) { return p.name; }", that Marshal splices into an option as
// code rather than as a string. It may span lines, but line comments (//)
// are not allowed, since go-echarts' functions (opts.FuncOpts) have their
// line breaks removed.
type Func string

// marker delimits code inside JSON strings; go-echarts' opts.FuncOpts uses
// the same marker, so its functions are spliced in as well.
const marker = "__f__"

// MarshalJSON encodes f as a marked string for Marshal to splice in.
func (f Func) MarshalJSON() ([]byte, error) {
	return json.Marshal(marker + string(f) + marker)
}

var funcPat = regexp.MustCompile(`"` + marker + `(?:[^"\\]|\\.)*?` + marker + `"`)

// Marshal returns option as a JavaScript object literal: its JSON encoding
// with every Func (and go-echarts function string) replaced by its source,
// and "</" written as "<\/" so that the result can stand inside a <script>
// element.
func Marshal(option any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(option); err != nil {
		return "", fmt.Errorf("echarts: option: %w", err)
	}
	var firstErr error
	out := funcPat.ReplaceAllFunc(bytes.TrimSpace(buf.Bytes()), func(q []byte) []byte {
		var s string
		if err := json.Unmarshal(q, &s); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return q
		}
		return []byte(strings.TrimSuffix(strings.TrimPrefix(s, marker), marker))
	})
	if firstErr != nil {
		return "", fmt.Errorf("echarts: function in option: %w", firstErr)
	}
	return strings.ReplaceAll(string(out), "</", `<\/`), nil
}

// NewID returns a fresh element id, "portlab-chart-" and 16 random hex
// digits.
func NewID() string {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return "portlab-chart-" + hex.EncodeToString(b[:])
}

// loader unpacks the library once per page into window.echarts. It leaves
// a promise in window.__portlabECharts that the chart scripts wait for. The
// library is evaluated with define, exports and module shadowed, so that
// its UMD header takes the browser-global branch even under RequireJS.
const loader = `(function (w) {
  if (w.echarts || w.__portlabECharts) return;
  var packed = "%s";
  w.__portlabECharts = (function () {
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser lacks DecompressionStream"));
    }
    var t0 = performance.now(), s = atob(packed), a = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) a[i] = s.charCodeAt(i);
    var stream = new Blob([a]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(function (code) {
      if (!w.echarts) (new Function("define", "exports", "module", code)).call(w);
      w.__portlabEChartsMs = performance.now() - t0;
      return w.echarts;
    });
  })();
})(window);`

// chartScript draws the option into the element with the given id, after
// the library has loaded, and marks the element with data-portlab-drawn
// once ECharts has finished rendering, and with data-portlab-ms, the
// milliseconds from init to the first finished rendering. The loader
// leaves the time to unpack the library in window.__portlabEChartsMs.
const chartScript = `(function () {
  var el = document.getElementById("%s");
  if (!el) return;
  function fail(e) { el.textContent = "portlab: cannot draw this chart: " + e; }
  function draw(ec) {
    var old = ec.getInstanceByDom(el);
    if (old) old.dispose();
    var t0 = performance.now(), chart = ec.init(el, null, { renderer: "canvas" });
    chart.on("finished", function () {
      if (!el.hasAttribute("data-portlab-drawn")) el.setAttribute("data-portlab-ms", (performance.now() - t0).toFixed(1));
      el.setAttribute("data-portlab-drawn", "1");
    });
    chart.setOption(%s);
  }
  var w = window;
  if (w.echarts) { try { draw(w.echarts); } catch (e) { fail(e); } }
  else if (w.__portlabECharts) w.__portlabECharts.then(draw).catch(fail);
  else fail("ECharts is not loaded");
})();`

// Fragment returns a self-contained HTML fragment that draws option (a
// JavaScript object literal, as from Marshal) in a width × height pixel
// box: a <div> with a fresh id, a <script> carrying the packed library
// (marked data-portlab-echarts="VERSION"; it does nothing if ECharts is
// already on the page) and a <script> that draws the chart. title, if not
// empty, becomes the div's aria-label.
func Fragment(option string, width, height int, title string) string {
	id := NewID()
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="portlab-chart" id="%s" style="width:%dpx;height:%dpx"`, id, width, height)
	if title != "" {
		fmt.Fprintf(&b, ` role="img" aria-label="%s"`, htmlAttr(title))
	}
	b.WriteString("></div>\n")
	fmt.Fprintf(&b, "<script data-portlab-echarts=%q>\n", Version)
	fmt.Fprintf(&b, loader, Packed())
	b.WriteString("\n</script>\n<script>\n")
	fmt.Fprintf(&b, chartScript, id, option)
	b.WriteString("\n</script>\n")
	return b.String()
}

var attrEscaper = strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", `<`, "&lt;", `>`, "&gt;")

func htmlAttr(s string) string { return attrEscaper.Replace(s) }
