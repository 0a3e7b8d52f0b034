#!/bin/sh
# host-pipeline.sh — the host pipeline, end to end and timed:
# measure PMEvo's training design and a held-out set on this machine,
# infer a port mapping with PMEvo, and score it on the held-out set beside
# llvm-mca with the closest CPU model it has for this host.
#
#   bench/host-pipeline.sh OUTDIR [FORMS [CPUS [PORTS]]]
#
# FORMS defaults to notebooks/data/host-forms.txt (120 forms), CPUS to
# "0,1" (both vCPUs, timed at once; see portlab measure -cpu), PORTS to 10.
# The held-out set is 2,000 random length-5 experiments (seed 1); on hosts
# that penalise mixing legacy-SSE and VEX code, the mixed ones are refused
# and the rest are scored. Every step appends to its file in OUTDIR, so a
# rerun resumes. Needs bin/portlab (go build -o bin/portlab ./cmd/portlab).
set -eu
out=${1:?usage: host-pipeline.sh OUTDIR [FORMS [CPUS [PORTS]]]}
forms=${2:-notebooks/data/host-forms.txt}
cpus=${3:-0,1}
ports=${4:-10}
portlab=${PORTLAB:-bin/portlab}
mkdir -p "$out"
log="$out/pipeline.log"
step() {
	name=$1
	shift
	start=$(date +%s)
	echo "== $name: $*" | tee -a "$log"
	"$@" 2>>"$out/$name.err" | tee -a "$log"
	echo "== $name: $(($(date +%s) - start)) s" | tee -a "$log"
}
begin=$(date +%s)
date -u +"start %F %T UTC" | tee -a "$log"
step train "$portlab" measure -insns "$forms" -design pmevo -cpu "$cpus" -out "$out/train.jsonl"
step heldout "$portlab" measure -insns "$forms" -design random:5:2000:1 -cpu "$cpus" -out "$out/heldout.jsonl"
step infer "$portlab" infer pmevo -experiments "$out/train.jsonl" -ports "$ports" -eval "$out/heldout.jsonl" -out "$out/pmevo"
step peer "$portlab" predict -mapping "$out/pmevo.json" -peer llvm-mca -mcpu host -experiments "$out/heldout.jsonl"
echo "== total: $(($(date +%s) - begin)) s" | tee -a "$log"
