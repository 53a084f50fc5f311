#!/usr/bin/env bash
# Frame times of layout-explorer on a 256x256 tensor (4 warps x 32 lanes x 512 registers) under
# Xvfb with Mesa's software OpenGL, for the issue 8 target (<= 16 ms per frame). Each scenario
# runs a scripted interaction RUNS times (default 5); a frame is timed from input polling to
# glFinish (all rendering done), the first three frames of a run are skipped, and the table
# gives the median over runs of each run's median and 95th percentile.
#
#   bash benchmarks/explorer_frame_times.sh [path/to/layout-explorer]
set -euo pipefail
explorer=${1:-build/explorer/gui/layout-explorer}
runs=${RUNS:-5}
layout='#ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name|view|script (\n-separated commands; the mouse starts over the canvas)
scenarios=(
  "tensor, start zoom (labels)|tensor|wait 60"
  "tensor, pan (right drag)|tensor|drag 900 450 600 250\ndrag 600 250 900 450\ndrag 900 450 600 250\ndrag 600 250 900 450\ndrag 900 450 600 250\ndrag 600 250 900 450"
  "tensor, wheel zoom out and in|tensor|scroll 900 450 -1\nscroll 900 450 -1\nscroll 900 450 -1\nscroll 900 450 -1\nscroll 900 450 -1\nscroll 900 450 1\nscroll 900 450 1\nscroll 900 450 1\nscroll 900 450 1\nscroll 900 450 1"
  "tensor, whole tensor (F)|tensor|key F\nwait 60"
  "tensor, lane selected + pan|tensor|click-cell tensor 100 100\ndrag 900 450 600 250\ndrag 600 250 900 450\ndrag 900 450 600 250"
  "hw, start zoom (labels)|hw|wait 60"
  "hw, pan|hw|drag 900 450 600 250\ndrag 600 250 900 450\ndrag 900 450 600 250\ndrag 600 250 900 450"
  "matrix|matrix|wait 60"
)
printf '| scenario | median frame (ms) | p95 frame (ms) |\n| --- | --- | --- |\n'
for s in "${scenarios[@]}"; do
  IFS='|' read -r name view script <<<"$s"
  printf 'move 900 450\n%b\nreport %s/r.json\n' "$script" "$work" >"$work/script.txt"
  meds=() p95s=()
  for ((i = 0; i < runs; ++i)); do
    xvfb-run -a -s "-screen 0 1600x1000x24" "$explorer" --layout "$layout" --shape 256x256 \
      --view "$view" --script "$work/script.txt" >/dev/null
    meds+=("$(grep -A6 '"frameMs"' "$work/r.json" | grep '"median"' | grep -o '[0-9.]*')")
    p95s+=("$(grep -A6 '"frameMs"' "$work/r.json" | grep '"p95"' | grep -o '[0-9.]*')")
  done
  median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]}'; }
  printf '| %s | %s | %s |\n' "$name" "$(median "${meds[@]}")" "$(median "${p95s[@]}")"
done

# Selecting a thread on a 1024x1024 tensor (a million cells): the frame of the click, which
# updates the selection in place (markSelection), is the run's slowest frame.
printf 'wait 3\nclick-cell tensor 100 100\nwait 3\nreport %s/r.json\n' "$work" >"$work/script.txt"
maxes=()
for ((i = 0; i < runs; ++i)); do
  xvfb-run -a -s "-screen 0 1600x1000x24" "$explorer" --layout "$layout" --shape 1024x1024 \
    --script "$work/script.txt" >/dev/null
  maxes+=("$(grep -A6 '"frameMs"' "$work/r.json" | grep '"max"' | grep -o '[0-9.]*')")
done
printf '\n| 1024x1024 tensor, select a thread | slowest frame (ms) |\n| --- | --- |\n'
printf '| click-cell (the frame that updates the selection) | %s |\n' \
  "$(printf '%s\n' "${maxes[@]}" | sort -g | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]}')"

