// Package echarts carries Apache ECharts (the minified browser build
// echarts.min.js of the npm package echarts, Apache-2.0, see LICENSE and
// NOTICE in this folder) inside the Go build, so that the interactive charts
// of package plots draw in a notebook, an nbconvert export or a saved HTML
// file with no network access. README.md says how the file was fetched;
// fetch.sh re-fetches it and checks its pinned checksums.
//
// Fragment turns an ECharts option (JSON, possibly with JavaScript
// functions spliced in by Option) into an HTML fragment — a <div> and two
// <script> elements, never a full page — that is self-contained: it carries
// the library gzip-compressed and base64-encoded (about 450 kB instead of
// 1 MB), unpacks it at most once per page with the browser's
// DecompressionStream, and installs it as window.echarts even where an AMD
// loader (RequireJS in the classic Jupyter Notebook) is present. Every
// fragment has its own random element id and keeps its state inside a
// function scope, so any number of fragments, and repeated runs of the same
// cell, coexist in one page.
package echarts
