#!/usr/bin/env bash
# The notebook main job: builds bin/portlab, installs the portlab Jupyter
# kernelspec into build/jupyter, and executes notebooks/00-quickstart.ipynb
# headless, writing build/00-quickstart.html. Needs Jupyter's nbconvert; as
# root on Debian it installs it (jupyter-nbconvert, jupyter-client,
# python3-nbclient) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

# Debian's python3 first: a python3 on PATH may be a shim without Jupyter.
python=""
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import nbconvert, nbclient' 2>/dev/null; then
		python=$p
		break
	fi
done
if [ -z "$python" ]; then
	if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
		echo "Jupyter's nbconvert is missing: apt-get install jupyter-nbconvert jupyter-client python3-nbclient" >&2
		exit 1
	fi
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		jupyter-core jupyter-client jupyter-nbconvert python3-nbclient >/dev/null
	python=/usr/bin/python3
fi

go build -o bin/portlab ./cmd/portlab
bin/portlab install --prefix build/jupyter
export JUPYTER_PATH="$PWD/build/jupyter/share/jupyter"
export PYDEVD_DISABLE_FILE_VALIDATION=1
"$python" -m nbconvert --to html --execute --ExecutePreprocessor.kernel_name=portlab \
	--output-dir build notebooks/00-quickstart.ipynb
echo "wrote build/00-quickstart.html"
