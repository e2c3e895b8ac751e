#!/bin/bash
# compute-sanitizer's reports on tests/programs/cuda/planted_bugs.cu, for the
# side-by-side table of docs/runtime.md: run on a machine with an NVIDIA GPU
# and the CUDA toolkit.  Usage: scripts/compute_sanitizer_reports.sh [OUTDIR]
# (default build/compute-sanitizer); prints one line per mode: the mode, the
# tool, and compute-sanitizer's first finding or "no report".
set -euo pipefail
source=$(dirname "$0")/../tests/programs/cuda/planted_bugs.cu
out=${1:-build/compute-sanitizer}
mkdir -p "$out"
nvcc -lineinfo -o "$out/planted_bugs" "$source"
# The modes, from the program's header: "//   MODE  what it does".
modes=$(sed -n 's#^//   \([a-z][a-z-]*\) .*#\1#p' "$source")
tool_of() {
  case $1 in
    barrier-* | loop-* | mask-*) echo synccheck ;;
    warp-* | block-*) echo racecheck ;;
    *-unwritten | *-written) echo initcheck ;;
    *) echo memcheck ;;
  esac
}
for mode in $modes; do
  tool=$(tool_of "$mode")
  log="$out/$mode.$tool.txt"
  timeout 60 compute-sanitizer --tool "$tool" "$out/planted_bugs" "$mode" >"$log" 2>&1 || echo "(exit status $?)" >>"$log"
  finding=$(grep -m1 -E '^========= +(Invalid|Malloc|Barrier|Uninitialized|Error|Warning|Race)' "$log" || true)
  printf '%-26s %-10s %s\n' "$mode" "$tool" "${finding:-no report}"
done
