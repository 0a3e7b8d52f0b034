#!/usr/bin/env bash
# Re-fetches the vendored Apache ECharts build from the npm registry and
# checks it against the pinned checksums. Run from this directory:
#
#	./fetch.sh
#
# To upgrade, change VERSION, run it, update the checksums below and in
# echarts.go (Version), and re-run go test ./plots/... (the browser test
# draws real charts with the new build).
set -euo pipefail
cd "$(dirname "$0")"

VERSION=5.6.0
TGZ_SHA256=e1b82487dd7f8d9f0438eec1f1433051148e0095ac7a15d4db890afda45cf610
JS_SHA256=bf4a223524e40b77c304bec67e1222cf551f14880cf42c69dc046558e11c07b1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "echarts@$VERSION" >/dev/null)
echo "$TGZ_SHA256  $tmp/echarts-$VERSION.tgz" | sha256sum -c -
tar -xzf "$tmp/echarts-$VERSION.tgz" -C "$tmp"
echo "$JS_SHA256  $tmp/package/dist/echarts.min.js" | sha256sum -c -
cp "$tmp/package/dist/echarts.min.js" "$tmp/package/LICENSE" "$tmp/package/NOTICE" .
mkdir -p licenses
cp "$tmp/package/licenses/LICENSE-d3" licenses/
echo "echarts $VERSION vendored"
