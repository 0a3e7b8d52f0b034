#!/usr/bin/env bash
# Kernel checks for CI (called from .ci/run): installs Debian's Jupyter
# tooling, installs the portlab kernelspec into a temporary prefix, runs the
# Jupyter conformance suite (jupyter_kernel_test) against the kernel, and
# executes every notebook in notebooks/ headless with nbconvert. The Go
# tests of kernel/ and cmd/ (protocol, session, REPL in tmux) run with the
# other Go tests; tmux is installed here for them.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

# Debian packages (not PyPI): the python3 on PATH may be a pyenv shim that
# cannot see them, so the Python tools run with /usr/bin/python3.
packages=(jupyter-core jupyter-client jupyter-nbconvert python3-nbclient python3-nbformat
	python3-ipykernel python3-jupyter-kernel-test tmux)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

go build -o bin/portlab ./cmd/portlab

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin/portlab install --prefix "$tmp/prefix"
export JUPYTER_PATH="$tmp/prefix/share/jupyter"
export JUPYTER_DATA_DIR="$tmp/data" JUPYTER_CONFIG_DIR="$tmp/config" JUPYTER_RUNTIME_DIR="$tmp/runtime"
export PYDEVD_DISABLE_FILE_VALIDATION=1 PYTHONDONTWRITEBYTECODE=1
jupyter kernelspec list

echo "== Jupyter conformance suite (jupyter_kernel_test) against the portlab kernel"
(cd kernel/testdata && timeout 300 /usr/bin/python3 -m unittest -v test_kernel)

echo "== notebooks executed with the portlab kernel"
n=0
for nb in notebooks/*.ipynb; do
	timeout 900 /usr/bin/python3 -m nbconvert --to html --execute \
		--ExecutePreprocessor.kernel_name=portlab --ExecutePreprocessor.timeout=600 \
		--output-dir "$tmp/html" "$nb"
	n=$((n + 1))
done
echo "kernel: $n notebooks executed, 0 failed"

echo "== exported notebooks in headless Chromium, network off: images shown, charts drawn"
if [ -d plots/testdata/browser/node_modules ]; then
	for h in "$tmp"/html/*.html; do
		if ! node plots/testdata/browser/check.mjs "$h" --allow-missing file:///usr/share/javascript/mathjax/ >"$tmp/check.json"; then
			cat "$tmp/check.json"
			exit 1
		fi
		echo "ok $(basename "$h")"
	done
elif [ -n "${CI:-}" ]; then
	echo "plots/testdata/browser/node_modules is missing: run .ci/plots.sh first" >&2
	exit 1
else
	echo "skipped: run .ci/plots.sh first to install playwright-core"
fi
