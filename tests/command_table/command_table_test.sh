#!/usr/bin/env bash
# layoutctl's command table (explorer/cli/commands.h): the subcommands README.md's tour documents
# (an independent list) are the ones `layoutctl --list-commands` lists, each bound through the
# table, and the first spellings of options (aliases) behave as the canonical ones.
# usage: command_table_test.sh /path/to/layoutctl /path/to/README.md
set -u
ctl=$1
readme=$2
failures=0
passes=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # NAME CONDITION-STATUS WHAT-DIFFERED
  if [[ $2 -eq 0 ]]; then
    passes=$((passes + 1))
  else
    echo "FAIL $1: $3"
    failures=$((failures + 1))
  fi
}

# 1. The table lists exactly the subcommands of README.md's "A tour of layoutctl" (one
#    `layoutctl NAME ...` line at least for each) and of the overview.
documented=$(awk '/^## A tour of layoutctl/ {on = 1; next} /^## / {on = 0}
                  on && /^layoutctl [a-z]/ {print $2}' "$readme" | sort -u)
listed=$("$ctl" --list-commands | awk '{print $1}' | sort)
overview=$("$ctl" --help | awk '/^subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}
                                /^$/ && on {on = 0}' | sort)
[[ $(wc -l <<<"$documented") -ge 19 ]]
check readme-tour $? "README.md's tour documents only: $(echo $documented)"
[[ $listed == "$documented" ]]
check listed-is-documented $? "--list-commands: $(echo $listed); README.md: $(echo $documented)"
[[ $overview == "$listed" ]]
check overview-is-listed $? "--help: $(echo $overview); --list-commands: $(echo $listed)"

# 2. Each is bound through the table: op (exactly one op) or op-calls (its twin ops), every op one
#    `batch --list-ops` knows; only the subcommands with no twin op (batch, gemm, targets) are cli
#    (none). And the aliases below are declared.
"$ctl" --list-commands --format json >"$tmp/table.json"
"$ctl" batch --list-ops | awk '{print $1}' >"$tmp/ops.txt"
python3 - "$tmp/table.json" "$tmp/ops.txt" >"$tmp/bound.txt" 2>&1 <<'EOF'
import json, sys
table = json.load(open(sys.argv[1]))
ops = set(open(sys.argv[2]).read().split())
# Canonical option -> its aliases, per subcommand (README.md, "One spelling per concept").
aliases = {
    "convert": {"element-bits": ["elem-bits"]},
    "blockload": {"element-bits": ["elem-bits"]},
    "banks": {"element-bits": ["elem-bits"]},
    "swizzle": {"element-bits": ["elem-bits"]},
    "propagate": {"source-element-bits": ["source-bits"], "result-element-bits": ["result-bits"],
                  "element-bits": [], "element-type": []},
    "gemm": {"element-type": ["dtype"], "runner": ["target"]},
    "show": {"layout": ["l"]},
    "xegpu": {"layout": ["l"]},
}
# The subcommands with no twin op: every other one runs registered ops.
no_twin = {"batch", "gemm", "targets"}
bad = []
for c in table:
    name, binding, its_ops = c["name"], c["binding"], c["ops"]
    if binding not in ("op", "op-calls", "cli"):
        bad.append(f"{name}: binding {binding!r}")
    if binding == "cli" and name not in no_twin:
        bad.append(f"{name}: cli, yet only {sorted(no_twin)} have no twin op")
    if binding == "op" and len(its_ops) != 1:
        bad.append(f"{name}: bound to one op, lists {its_ops}")
    if binding == "op-calls" and not its_ops:
        bad.append(f"{name}: {binding} without twin ops")
    if binding == "cli" and its_ops:
        bad.append(f"{name}: cli, yet lists ops {its_ops}")
    bad += [f"{name}: unknown op {op}" for op in its_ops if op not in ops]
    declared = {o["name"]: o["aliases"] for o in c["options"]}
    spellings = [o["name"] for o in c["options"]] + [a for o in c["options"] for a in o["aliases"]]
    if len(spellings) != len(set(spellings)):
        bad.append(f"{name}: an option spelled twice in {spellings}")
    for option, want in aliases.get(name, {}).items():
        if declared.get(option) != want:
            bad.append(f"{name}: --{option} has aliases {declared.get(option)}, want {want}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
check bound-through-table $? "$(cat "$tmp/bound.txt")"
# Subcommands README.md names as bound to ops (interchange §2) are.
for sub in convert blockload banks swizzle propagate; do
  grep -qE "^$sub +op " <("$ctl" --list-commands)
  check "binding-$sub" $? "$("$ctl" --list-commands | grep "^$sub ")"
done
# show and xegpu read their own argument forms (alias files, query words) and run their twin ops.
for sub in show xegpu; do
  grep -qE "^$sub +op-calls " <("$ctl" --list-commands)
  check "binding-$sub" $? "$("$ctl" --list-commands | grep "^$sub ")"
done

# 3. Old spellings: the same command line with the alias and with the canonical spelling gives the
#    same output and exit status; an error names the option as it was typed.
# Times ("in 0.00073 s") differ from run to run.
untimed() { sed -E 's/ in [0-9.e+-]+ s$/ in T s/'; }
same() { # NAME "OLD ARGS" "NEW ARGS" (word-split; no quoting inside)
  local name=$1 old new
  shift
  old=$("$ctl" $1 2>&1 | untimed; exit "${PIPESTATUS[0]}")
  local old_status=$?
  new=$("$ctl" $2 2>&1 | untimed; exit "${PIPESTATUS[0]}")
  local new_status=$?
  [[ $old_status -eq $new_status && $old == "$new" && -n $old ]]
  check "alias-$name" $? "'$1' (exit $old_status) vs '$2' (exit $new_status): ${old:0:200} /// ${new:0:200}"
}
# as_typed NAME WANT_STATUS WANT_STDERR_SUBSTRING ARGS...
as_typed() {
  local name=$1 want_status=$2 want=$3
  shift 3
  "$ctl" "$@" >/dev/null 2>"$tmp/err"
  local status=$?
  [[ $status -eq $want_status && $(cat "$tmp/err") == *"$want"* ]]
  check "named-$name" $? "exit $status (want $want_status), stderr: $(head -c 300 "$tmp/err")"
}

blocked_a='#ttg.blocked<{sizePerThread=[1,4],threadsPerWarp=[8,4],warpsPerCTA=[4,1],order=[1,0]}>'
blocked_b='#ttg.blocked<{sizePerThread=[2,2],threadsPerWarp=[4,8],warpsPerCTA=[4,1],order=[1,0]}>'
dpas_b='#ttg.dot_op<{opIdx=1,parent=#ttig.dpas<{repeatCount=8,systolicDepth=8,executionSize=16,opsPerChan=2,threadsPerWarp=16,warpsPerCTA=[8,4],repCluster=[4,2]}>,kWidth=2}>'
sg_map='#xegpu.sg_map<wi_layout=[1,16],wi_data=[1,2]>'
convert="convert --src $blocked_a --dst $blocked_b --shape 32x32"
same convert "$convert --elem-bits 16" "$convert --element-bits 16"
same convert-json "$convert --elem-bits 16 --format json" "$convert --element-bits 16 --format json"
same convert-single-dash "$convert -elem-bits 16" "$convert --element-bits 16"
same blockload "blockload --encoding $dpas_b --shape 32x256 --elem-bits 16" \
  "blockload --encoding $dpas_b --shape 32x256 --element-bits 16"
same banks "banks --elem-bits 32" "banks --element-bits 32"
same swizzle "swizzle --elem-bits=16" "swizzle --element-bits=16"
same propagate-bitcast "propagate bitcast --result $sg_map --source-bits 16 --result-bits 8" \
  "propagate bitcast --result $sg_map --source-element-bits 16 --result-element-bits 8"
same gemm "gemm --m 64 --n 64 --k 32 --sg-layout 2x2 --sg-data 32x32 --dtype f16 --target sim --quiet" \
  "gemm --m 64 --n 64 --k 32 --sg-layout 2x2 --sg-data 32x32 --element-type f16 --runner sim --quiet"
same gemm-mixed "gemm --m 64 --n 64 --k 32 --sg-layout 2x2 --sg-data 32x32 --dtype f16 --quiet" \
  "gemm --m 64 --n 64 --k 32 --sg-layout 2x2 --sg-data 32x32 --element-type f16 --quiet"
same xegpu "xegpu distributed-shape -l $sg_map --shape 16x16" \
  "xegpu distributed-shape --layout $sg_map --shape 16x16"
as_typed elem-bits 2 "error: --elem-bits: 12 is not 8, 16, 32 or 64" $convert --elem-bits 12
as_typed element-bits 2 "error: --element-bits: 12 is not 8, 16, 32 or 64" $convert --element-bits 12
as_typed element-bits-missing 2 "error: --element-bits: missing" $convert
as_typed dtype 2 "error: --dtype 'fp8': expected one of f16, bf16, int8, tf32" gemm --dtype fp8
as_typed element-type 2 "error: --element-type 'fp8': expected one of" gemm --element-type fp8
as_typed target 2 "error: --target 'sycl': expected sim, opencl, level-zero or cuda" \
  gemm --target sycl
as_typed runner 2 "error: --runner 'sycl': expected sim, opencl, level-zero or cuda" \
  gemm --runner sycl
as_typed runner-cuda-only 2 "error: --warps: only with --runner cuda" gemm --runner sim --warps 2x2

# 4. --help shows the canonical spelling and lists the aliases.
help_has() { # NAME SUBCOMMAND WANT...
  local name=$1 sub=$2 out
  shift 2
  out=$("$ctl" "$sub" --help)
  local want missing=""
  for want in "$@"; do [[ $out == *"$want"* ]] || missing+=" '$want'"; done
  [[ -z $missing ]]
  check "help-$name" $? "$sub --help lacks$missing"
}
help_has convert convert "--element-bits 8|16|32|64" "  --element-bits: --elem-bits"
help_has propagate propagate "--source-element-bits N" "  --source-element-bits: --source-bits"
help_has gemm gemm "[--element-type f16|bf16|int8|tf32] [--runner sim|opencl|level-zero|cuda]" \
  "  --element-type: --dtype" "  --runner: --target"
help_has show show "  --layout: -l" "  --shape: --type, -t"

echo "$passes passed, $failures failed"
[[ $failures -eq 0 ]]
