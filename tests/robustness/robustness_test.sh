#!/usr/bin/env bash
# Issue 31 end to end: inputs that crashed, hung or exhausted layoutctl on main (each reproduced
# under a 4 GiB address-space cap and a 20 s limit). Every command runs under `prlimit --as` and
# `timeout`; it must end with exit 0 or 1 (never a signal: 124 timeout, 134 abort, 136 SIGFPE,
# 139 SIGSEGV), print an error that names the limit or rule it hit (on standard error, or in the
# batch error line), and in batch mode answer every request line with exactly one line, in
# order, with the request's id, then go on.
#
# usage: robustness_test.sh /path/to/layoutctl GROUP
#   GROUP: nesting | partitioned | invert-compose | dim-names | amplification | gemm |
#          edge-integers | all
# One ctest entry per group (tests/robustness/CMakeLists.txt). Large inputs come from
# gen_inputs.py (Python 3 standard library) into a temporary directory removed on exit.
set -u
if [[ $# -ne 2 ]]; then
  echo "usage: $0 /path/to/layoutctl nesting|partitioned|invert-compose|dim-names|amplification|gemm|all" >&2
  exit 2
fi
ctl=$1
group=$2
here=$(cd "$(dirname "$0")" && pwd)
gen=$here/gen_inputs.py

# Address-space caps and RSS bounds mean nothing under AddressSanitizer (terabytes of shadow
# memory); the sanitizer build skips these cases, but for the edge integers: there UBSan sees
# every signed overflow, wrapped or not, so they run uncapped.
sanitized=0
if [[ ${LAYOUT_SANITIZED:-0} == 1 ]]; then
  if [[ $group != edge-integers ]]; then
    echo "SKIP: the issue 31 cases need address-space caps, which the sanitizer build cannot run under"
    exit 77
  fi
  sanitized=1
fi
for tool in prlimit timeout python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    case $tool in
    prlimit) echo "FAIL: prlimit is not installed (Debian: util-linux); every case runs under prlimit --as" ;;
    timeout) echo "FAIL: timeout is not installed (Debian: coreutils)" ;;
    python3) echo "FAIL: python3 is not installed; it generates the large inputs" ;;
    esac
    exit 1
  fi
done
if [[ ! -x $ctl ]]; then
  echo "FAIL: '$ctl' is not an executable layoutctl"
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/layoutctl-issue31.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
passes=0
cap4g=4294967296
((sanitized)) && cap4g=unlimited
mib=1048576

# Peak RSS comes from GNU time (/usr/bin/time -v); without it the RSS sub-checks are skipped or
# replaced by a tighter address-space cap (said where it happens).
timecmd=()
if [[ -x /usr/bin/time ]] && /usr/bin/time -v -o "$tmp/probe" true 2>/dev/null &&
  grep -q 'Maximum resident set size' "$tmp/probe"; then
  timecmd=(/usr/bin/time -v -o "$tmp/time")
fi

pass() {
  passes=$((passes + 1))
  echo "ok   $1"
}
fail() {
  failures=$((failures + 1))
  echo "FAIL $1: $2"
}

# run AS_BYTES TIMEOUT_S STDIN -- command...
# Runs the command under prlimit --as=AS_BYTES and timeout TIMEOUT_S with STDIN (a path; a
# process substitution works) as standard input. Sets status, elapsed_ms, rss_kb (empty without
# GNU time); standard output and error land in $tmp/out and $tmp/err.
run() {
  local as=$1 limit=$2 in=$3
  shift 4
  rm -f "$tmp/time"
  local start
  start=$(date +%s%N)
  timeout -k 5 "$limit" "${timecmd[@]}" prlimit --as="$as" "$@" <"$in" >"$tmp/out" 2>"$tmp/err"
  status=$?
  elapsed_ms=$((($(date +%s%N) - start) / 1000000))
  rss_kb=
  if [[ -f $tmp/time ]]; then
    rss_kb=$(awk -F: '/Maximum resident set size/ {gsub(/[^0-9]/, "", $2); print $2}' "$tmp/time")
    # GNU time reports a child killed by a signal in its file and exits with its own status.
    local sig
    sig=$(sed -n 's/.*Command terminated by signal \([0-9]*\).*/\1/p' "$tmp/time")
    if [[ -n $sig && $status -ne 124 ]]; then status=$((128 + sig)); fi
  fi
  run_limit=$limit
}

# How an exit status reads: the signals issue 31 saw have names.
describe() {
  case $1 in
  0 | 1) echo "exit $1" ;;
  124) echo "exit 124 (timed out after ${run_limit} s)" ;;
  134) echo "exit 134 (SIGABRT)" ;;
  136) echo "exit 136 (SIGFPE)" ;;
  137) echo "exit 137 (SIGKILL)" ;;
  139) echo "exit 139 (SIGSEGV)" ;;
  *) if (($1 > 128)); then echo "exit $1 (signal $(($1 - 128)))"; else echo "exit $1"; fi ;;
  esac
}

stderr_head() { head -c 400 "$tmp/err" | tr '\n' ' '; }

# expect_cli NAME WANT_STATUS REGEX [FORBID_REGEX]: after run; status WANT_STATUS, standard error
# starts with "error:" and matches REGEX (extended, case-insensitive), and not FORBID_REGEX.
expect_cli() {
  local name=$1 want=$2 regex=$3 forbid=${4:-}
  if [[ $status -ne $want ]]; then
    fail "$name" "$(describe "$status"), want exit $want; stderr: $(stderr_head)"
  elif [[ $(head -c 6 "$tmp/err") != "error:" ]]; then
    fail "$name" "standard error does not start with 'error:': $(stderr_head)"
  elif ! grep -Eiq -- "$regex" "$tmp/err"; then
    fail "$name" "the message does not match /$regex/: $(stderr_head)"
  elif [[ -n $forbid ]] && grep -Eiq -- "$forbid" "$tmp/err"; then
    fail "$name" "the message matches the forbidden /$forbid/: $(stderr_head)"
  else
    pass "$name"
  fi
}

# expect_batch NAME SPEC...: after run of `layoutctl batch`; exit 0 and one response per SPEC
# (gen_inputs.py check-batch describes SPEC).
expect_batch() {
  local name=$1
  shift
  if [[ $status -ne 0 ]]; then
    fail "$name" "$(describe "$status"), want exit 0; $(wc -l <"$tmp/out") response line(s) for $# request(s); stderr: $(stderr_head)"
    return
  fi
  local problems
  if problems=$(python3 "$gen" check-batch "$tmp/out" "$@" 2>&1); then
    pass "$name"
  else
    fail "$name" "$(echo "$problems" | head -c 1200)"
  fi
}

# expect_rss NAME MAX_KB: after run; peak RSS at most MAX_KB (skipped without GNU time).
expect_rss() {
  local name=$1 max_kb=$2
  if [[ ${#timecmd[@]} -eq 0 ]]; then
    echo "skip $name: /usr/bin/time (GNU time) is not available to measure peak RSS"
  elif [[ -z $rss_kb ]]; then
    fail "$name" "no peak RSS measured ($(describe "$status"))"
  elif ((rss_kb > max_kb)); then
    fail "$name" "peak RSS $((rss_kb / 1024)) MiB, more than the $((max_kb / 1024)) MiB allowed ($(describe "$status"))"
  else
    pass "$name (peak RSS $((rss_kb / 1024)) MiB <= $((max_kb / 1024)) MiB)"
  fi
}

after_result='{"inDims":[{"name":"lane","bases":[[1],[2]]}],"outDims":[{"name":"dim0","size":4}],"surjective":true}'
# The valid request gen_inputs.py puts after each hostile one, and its exact response.
after_spec() { echo "{\"id\":\"$1\",\"result\":$after_result}"; }
oom='out of memory'
negative='(^|[^[:alnum:]_.])-[0-9]'

# 1. Deep JSON nesting: about 70,000 levels of [ (140 KB) in a batch request's id or in an
#    argument of the ops with declared arguments overflowed the stack (SIGSEGV); the CLI's
#    --config and --instruction @FILE with 200,000 levels did too.
group_nesting() {
  local depth=70000 cases=(id banks.analyze-access banks.analyze-instruction banks.swizzle
    blockLoad.plan convert.plan xegpu.propagate inputs)
  local c id session_specs=()
  : >"$tmp/session"
  for c in "${cases[@]}"; do
    python3 "$gen" deep-batch "$c" "$depth" >"$tmp/in"
    cat "$tmp/in" >>"$tmp/session"
    # A request whose id cannot be read is answered with id null (interchange §2.1).
    if [[ $c == id ]]; then id=null; else id="\"deep-$c\""; fi
    local spec="{\"id\":$id,\"error\":\"nest\",\"forbid\":\"$oom\"}"
    session_specs+=("$spec" "$(after_spec "after-$c")")
    run $cap4g 20 "$tmp/in" -- "$ctl" batch
    expect_batch "nesting-batch-$c" "$spec" "$(after_spec "after-$c")"
  done
  # All of them in one session: every line answered, in order.
  run $cap4g 20 "$tmp/session" -- "$ctl" batch
  expect_batch "nesting-batch-session" "${session_specs[@]}"
  rm -f "$tmp/in" "$tmp/session"

  python3 "$gen" deep-config 200000 >"$tmp/deep-config.json"
  run $cap4g 20 /dev/null -- "$ctl" gemm --config "$tmp/deep-config.json"
  expect_cli nesting-gemm-config 1 nest "$oom"
  python3 "$gen" deep-model 200000 >"$tmp/deep-model.json"
  run $cap4g 20 /dev/null -- "$ctl" banks --instruction @"$tmp/deep-model.json"
  expect_cli nesting-banks-instruction 1 nest "$oom"
  rm -f "$tmp/deep-config.json" "$tmp/deep-model.json"
}

# 2. #ttg.partitioned_shared whose numPartitions * numGroups is 2^64 or more wrapped to 0 (SIGFPE
#    in a division), and 2 * 2^62 wrapped to -2^63 (printed in the message).
partitioned() {
  echo "#ttg.partitioned_shared<{numPartitions = $1, numGroups = $2, partitionDim = 0, partitionLayout = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}>"
}
group_partitioned() {
  local combos=("4294967296 4294967296" "4 4611686018427387904" "2 4611686018427387904"
    "4611686018427387904 4611686018427387904")
  local combo np ng op view specs rid
  for combo in "${combos[@]}"; do
    read -r np ng <<<"$combo"
    run $cap4g 20 /dev/null -- "$ctl" show "$(partitioned "$np" "$ng")" --shape 64x64
    expect_cli "partitioned-show-${np}x${ng}" 1 'partition|group' "$negative|$oom"
    # One batch session per combination: verify, toLinearLayout, layoutStr, then a valid request.
    : >"$tmp/in"
    specs=()
    for op in verify toLinearLayout layoutStr; do
      view=
      if [[ $op == layoutStr ]]; then view=',"view":"hw"'; fi
      rid="$op-${np}x${ng}"
      printf '{"id":"%s","op":"%s","args":{"encoding":"%s","shape":[64,64]%s}}\n' \
        "$rid" "$op" "$(partitioned "$np" "$ng")" "$view" >>"$tmp/in"
      specs+=("{\"id\":\"$rid\",\"error\":\"partition|group\",\"forbid\":\"(?<![\\\\w.])-\\\\d|$oom\"}")
    done
    echo '{"id":"after-partitioned","op":"identity1D","args":{"size":4,"inDim":"lane","outDim":"dim0"}}' >>"$tmp/in"
    specs+=("$(after_spec after-partitioned)")
    run $cap4g 20 "$tmp/in" -- "$ctl" batch
    expect_batch "partitioned-batch-${np}x${ng}" "${specs[@]}"
  done
  # A legitimate partitioned_shared still verifies and converts.
  printf '{"id":"valid-verify","op":"verify","args":{"encoding":"%s","shape":[128,32]}}\n' \
    "$(partitioned 2 4)" >"$tmp/in"
  run $cap4g 20 "$tmp/in" -- "$ctl" batch
  expect_batch partitioned-batch-valid '{"id":"valid-verify","result":{"ok":true}}'
  rm -f "$tmp/in"
}

# 3. invertAndCompose of two layouts of 2,000 (and 1,000) in-dims x 63 bits (a 5.6 MB request)
#    aborted or ran out of time; it must answer (an error naming a limit, or the result) within
#    20 s and the batch must go on.
group_invert_compose() {
  local n
  for n in 2000 1000; do
    python3 "$gen" wide-batch "$n" >"$tmp/in"
    run $cap4g 20 "$tmp/in" -- "$ctl" batch
    expect_batch "invert-compose-batch-$n-dims" \
      "{\"id\":\"wide-$n\",\"error\":\"limit\",\"forbid\":\"$oom\",\"resultOk\":true}" \
      "$(after_spec after-wide)"
  done
  rm -f "$tmp/in"
  python3 "$gen" wide-layout 2000 1 >"$tmp/a.json"
  python3 "$gen" wide-layout 2000 2 >"$tmp/b.json"
  run $cap4g 20 /dev/null -- "$ctl" invert-compose @"$tmp/a.json" @"$tmp/b.json"
  if [[ $status -eq 0 ]]; then
    pass "invert-compose-cli-2000-dims (answered in $elapsed_ms ms)"
  else
    expect_cli invert-compose-cli-2000-dims 1 limit "$oom"
  fi
  rm -f "$tmp/a.json" "$tmp/b.json" "$tmp/out"
}

# 4. Dim names were interned for the life of the process: 304 requests with distinct 4 MiB names
#    exhausted 1 GiB; 1,000,000 distinct names made the resident set grow without bound.
group_dim_names() {
  # 1.2 GiB of request text has to go through the JSON parser: this one case gets more than 20 s
  # (it is about memory, and takes about 20-40 s on a loaded 2-core machine).
  run 1073741824 120 <(python3 "$gen" big-names 304 4194304) -- "$ctl" batch
  if [[ $status -ne 0 ]]; then
    fail dim-names-304x4MiB "$(describe "$status"), want exit 0; $(wc -l <"$tmp/out") response line(s) for 304 requests; stderr: $(stderr_head)"
  else
    local summary
    if summary=$(python3 "$gen" check-names 304 2 <"$tmp/out"); then
      pass "dim-names-304x4MiB ($summary, $elapsed_ms ms)"
    else
      fail dim-names-304x4MiB "$(echo "$summary" | tr '\n' ' ')"
    fi
  fi

  # 1,000 requests of 1,000 distinct 64-byte names (1,000,000 names, 64 MB of them; main kept
  # them all: 187 MiB at the end), against 20 such requests: the peak resident set must stay flat
  # (within 64 MiB of the 20-request run) and under 128 MiB (one request is about 80 KB).
  local small_kb='' nreq
  for nreq in 20 1000; do
    run $cap4g 20 <(python3 "$gen" many-names "$nreq" 1000 64) -- "$ctl" batch
    if [[ $status -ne 0 ]]; then
      fail "dim-names-${nreq}x1000" "$(describe "$status"), want exit 0; stderr: $(stderr_head)"
      continue
    fi
    local summary
    if summary=$(python3 "$gen" check-names "$nreq" 0 <"$tmp/out"); then
      pass "dim-names-${nreq}x1000 ($summary, $elapsed_ms ms)"
    else
      fail "dim-names-${nreq}x1000" "$(echo "$summary" | tr '\n' ' ')"
      continue
    fi
    if [[ $nreq -eq 20 ]]; then
      small_kb=$rss_kb
    else
      expect_rss dim-names-1000x1000-rss-bound $((128 * 1024))
      if [[ -n $small_kb && -n $rss_kb ]]; then
        expect_rss "dim-names-1000x1000-rss-flat (20 requests: $((small_kb / 1024)) MiB)" \
          $((small_kb + 64 * 1024))
      fi
    fi
  done
}

# 5. Memory amplification: 64 MiB of layout JSON made of tiny values (and a 16 MiB batch line)
#    used 1.6-2.3 GB (0.47 GB) of memory. Peak RSS must stay within 10x the input (plus what the
#    program uses with no input) and the command must stop with an error naming a limit.
group_amplification() {
  local base_kb=0
  if [[ ${#timecmd[@]} -gt 0 ]]; then
    run $cap4g 20 /dev/null -- "$ctl" show
    base_kb=${rss_kb:-0}
    echo "     (peak RSS of 'layoutctl show' with no input: $((base_kb / 1024)) MiB)"
  else
    echo "     (no GNU time: each case runs under prlimit --as of 10x its input + 300 MiB instead of an RSS bound)"
  fi
  # amp_cap BYTES: the address-space cap for an input of BYTES.
  amp_cap() { if [[ ${#timecmd[@]} -gt 0 ]]; then echo $cap4g; else echo $((10 * $1 + 300 * mib)); fi; }
  local size=$((64 * mib)) kind
  for kind in lists objects; do
    python3 "$gen" amp-$kind $size >"$tmp/amp.json"
    run "$(amp_cap $size)" 20 /dev/null -- "$ctl" show @"$tmp/amp.json"
    expect_cli "amplification-show-64MiB-$kind" 1 limit "$oom"
    expect_rss "amplification-show-64MiB-$kind-rss" $((10 * size / 1024 + base_kb))
    rm -f "$tmp/amp.json"
  done
  python3 "$gen" amp-config $size >"$tmp/amp.json"
  run "$(amp_cap $size)" 20 /dev/null -- "$ctl" gemm --config "$tmp/amp.json"
  expect_cli amplification-gemm-config-64MiB 1 limit "$oom"
  expect_rss amplification-gemm-config-64MiB-rss $((10 * size / 1024 + base_kb))
  rm -f "$tmp/amp.json"

  size=$((16 * mib))
  python3 "$gen" amp-batch $size >"$tmp/in"
  run "$(amp_cap $size)" 20 "$tmp/in" -- "$ctl" batch
  expect_batch amplification-batch-16MiB-line "{\"id\":\"amp\",\"error\":\"limit\",\"forbid\":\"$oom\"}" \
    "$(after_spec after-amp)"
  expect_rss amplification-batch-16MiB-line-rss $((10 * size / 1024 + base_kb))
  rm -f "$tmp/in"
}

# 6. gemm --m 8192 --n 8192 --k 8192 passed the 8 GiB host-memory check and then simulated for
#    hours; the work must be refused up front (exit 1, a limit named) within a few seconds.
group_gemm() {
  run $cap4g 20 /dev/null -- "$ctl" gemm --m 8192 --n 8192 --k 8192
  expect_cli gemm-8192-cubed 1 limit "$oom"
  if [[ $status -eq 1 ]] && ((elapsed_ms > 10000)); then
    fail gemm-8192-cubed-time "refused only after $elapsed_ms ms (want at most 10 s)"
  elif [[ $status -eq 1 ]]; then
    pass "gemm-8192-cubed-time ($elapsed_ms ms)"
  fi
}

# 7. Attribute integers at the edges of 64 bits: 2^32 x 2^32 numPartitions x numGroups and a
#    dot_op kWidth of 2^62 (4 x kWidth wrapped to 0) divided by zero. 8,100 verify /
#    toLinearLayout / layoutStr requests over 18 encodings: every one answered in order, none an
#    internal error, and no message printing a wrapped product.
group_edge_integers() {
  python3 "$gen" edge-integers 31 150 >"$tmp/in"
  local lines
  lines=$(wc -l <"$tmp/in")
  run $cap4g 60 "$tmp/in" -- "$ctl" batch
  if [[ $status -ne 0 ]]; then
    fail edge-integers "$(describe $status); stderr: $(head -c 300 "$tmp/err")"
    return
  fi
  if ! python3 - "$tmp/out" "$lines" <<'PY'; then
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
want = int(sys.argv[2])
if len(lines) != want:
    sys.exit(print(f"{len(lines)} answers to {want} requests") or 1)
for i, line in enumerate(lines):
    r = json.loads(line)
    if r.get("id") != i:
        sys.exit(print(f"line {i}: id {r.get('id')}") or 1)
    err = r.get("error", "")
    if "internal error" in err or re.search(r"= -9223372036854775808 pieces|-2\^63", err):
        sys.exit(print(f"line {i}: {err[:300]}") or 1)
PY
    fail edge-integers "the answers break the rule printed above"
  else
    pass "edge-integers ($lines requests, $elapsed_ms ms)"
  fi
  rm -f "$tmp/in"
}

case $group in
nesting) group_nesting ;;
partitioned) group_partitioned ;;
invert-compose) group_invert_compose ;;
dim-names) group_dim_names ;;
amplification) group_amplification ;;
gemm) group_gemm ;;
edge-integers) group_edge_integers ;;
all)
  group_nesting
  group_partitioned
  group_invert_compose
  group_dim_names
  group_amplification
  group_gemm
  group_edge_integers
  ;;
*)
  echo "unknown group '$group'" >&2
  exit 2
  ;;
esac

echo "$passes passed, $failures failed"
[[ $failures -eq 0 ]]
