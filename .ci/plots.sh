#!/usr/bin/env bash
# The real-browser test of plots/ (plots/browser_test.go): a page like an
# executed notebook's HTML export — a PNG and several interactive ECharts
# fragments — opened in headless Chromium with the network blocked; it checks
# that the image is shown, every chart's canvas has drawn pixels and hovering
# shows tooltips. Runs as root on Debian 12 (.ci/run calls it); it installs
#   - chromium from Debian (apt), and Node.js + npm if missing,
#   - playwright-core, pinned in plots/testdata/browser/package-lock.json,
#     into plots/testdata/browser/node_modules (npm ci; not committed),
# then runs the test with CI=1 so that it fails instead of skipping.
# Needs the network for apt and npm only; the test itself runs offline.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

pkgs=()
command -v chromium >/dev/null || pkgs+=(chromium)
command -v node >/dev/null || pkgs+=(nodejs)
command -v npm >/dev/null || pkgs+=(npm)
if [ ${#pkgs[@]} -gt 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	apt-get install -y --no-install-recommends "${pkgs[@]}"
fi
chromium --version
echo "node $(node --version)"

(cd plots/testdata/browser && npm ci --no-audit --no-fund)

CI=1 CHROMIUM="$(command -v chromium)" go test -count=1 -v -run '^TestBrowser$' ./plots/
