#!/usr/bin/env bash
# The layering of docs/architecture.md, checked over every #include line of every library and
# program: a file may include the public headers of its own library and of the libraries its layer
# sees, and internal headers ("name.h" without a path) of its own directory only; every public
# header sits under its library's one include root, include/layout/<library>/; the installed
# headers include <nlohmann/json_fwd.hpp>, never <nlohmann/json.hpp>. Exit 1 listing every
# violation. liblayout's front door, include/layout/layout.h, is the one header outside a module
# folder: it may include every liblayout module, and whoever sees all of liblayout may include it.
# usage: check_layers.sh SOURCE_DIR
set -u
root=${1:-.}
cd "$root" || exit 2

liblayout="core text target triton xegpu intel smem conversion report protocol"
runtime="codegen kernels opencl level_zero cuda"
# library or program -> what it may include (besides itself).
declare -A allowed=(
  [liblayout]="$liblayout" # the front door, layout/layout.h
  [core]=""
  [text]="core"
  [target]="core text"
  [triton]="core text"
  [xegpu]="core text target"
  [intel]="core text target triton"
  [smem]="core text target triton"
  [conversion]="core text target triton smem"
  [report]="core text target triton xegpu intel smem conversion"
  [protocol]="core text target triton xegpu intel smem conversion report"
  [codegen]="core text target triton intel smem"
  [kernels]="core text target triton intel smem codegen"
  [level_zero]="core text target triton intel smem codegen kernels"
  [opencl]="core text target triton intel smem codegen kernels"
  [cuda]="core text target triton intel smem codegen kernels"
  [views]="$liblayout liblayout"
  # Programs: layoutctl sees every library but the desktop app's; the app sees the views and
  # liblayout, not the kernel runners; the Python module, examples and benchmarks see the
  # installed libraries (and the benchmarks the views they time).
  [cli]="$liblayout liblayout $runtime views"
  [gui]="$liblayout liblayout views"
  [python]="$liblayout liblayout codegen kernels"
  [examples]="$liblayout liblayout codegen kernels"
  [benchmarks]="$liblayout liblayout codegen kernels views"
)

# The library or program of a source file, in REPLY, or "" for files the rule does not cover
# (tests). (REPLY rather than $(...): a subshell per include made the check take seconds.)
module_of() {
  case $1 in
  liblayout/include/layout/layout.h) REPLY=liblayout ;;
  liblayout/include/layout/*/* | liblayout/src/*/*)
    local rest=${1#liblayout/include/layout/}
    [[ $rest == "$1" ]] && rest=${1#liblayout/src/}
    REPLY=${rest%%/*}
    ;;
  codegen/*) REPLY=codegen ;;
  kernels/sim/*) REPLY=kernels ;;
  kernels/level_zero/*) REPLY=level_zero ;;
  kernels/opencl/*) REPLY=opencl ;;
  kernels/cuda/*) REPLY=cuda ;;
  explorer/views/*) REPLY=views ;;
  explorer/cli/*) REPLY=cli ;;
  explorer/gui/*) REPLY=gui ;;
  kernels/*/* | explorer/*/*) # a folder the table does not know
    local rest=${1#*/}
    REPLY="${1%%/*}/${rest%%/*}"
    ;;
  python/*) REPLY=python ;;
  examples/*) REPLY=examples ;;
  benchmarks/*) REPLY=benchmarks ;;
  *) REPLY="" ;;
  esac
}

# The library a quoted include names, in REPLY ("layout/triton/encoding.h" -> triton,
# "layout/level_zero/level_zero_runner.h" -> level_zero, "layout/layout.h" -> liblayout).
module_of_include() {
  case $1 in
  layout/layout.h) REPLY=liblayout ;;
  layout/*/*) local rest=${1#layout/} && REPLY="${rest%%/*}" ;;
  *) REPLY="" ;;
  esac
}

sources=(liblayout codegen kernels explorer python examples benchmarks)
violations=0
checked=0
while IFS= read -r file; do
  module_of "$file"
  mod=$REPLY
  [[ -z $mod ]] && continue
  [[ -v allowed[$mod] ]] || {
    echo "$file: '$mod' is not in the layer table of tests/architecture/check_layers.sh"
    violations=$((violations + 1))
    continue
  }
  checked=$((checked + 1))
  while IFS= read -r line; do
    inc=${line#*\"}
    inc=${inc%%\"*}
    if [[ $inc == ../* || $inc == */../* ]]; then
      echo "$file: '#include \"$inc\"' reaches into another directory (use a public header)"
      violations=$((violations + 1))
      continue
    fi
    if [[ $inc != */* ]]; then
      # An internal header: only from the including file's own directory.
      if [[ ! -f ${file%/*}/$inc ]]; then
        echo "$file: internal header \"$inc\" is not in its own directory"
        violations=$((violations + 1))
      fi
      continue
    fi
    module_of_include "$inc"
    target=$REPLY
    if [[ -z $target ]]; then
      echo "$file: '#include \"$inc\"' is neither a public header (layout/<library>/...) nor an internal one"
      violations=$((violations + 1))
      continue
    fi
    # internal/ headers are not installed: no installed header and no example may include one.
    if [[ $inc == layout/*/internal/* ]] && { [[ $file == */include/* && $file != */internal/* && $mod != views ]] || [[ $mod == examples ]]; }; then
      echo "$file: includes \"$inc\": an internal header, not installed (only sources and tools may use it)"
      violations=$((violations + 1))
      continue
    fi
    [[ $target == "$mod" ]] && continue
    if [[ " ${allowed[$mod]} " != *" $target "* ]]; then
      echo "$file: includes \"$inc\": '$mod' may include only its own headers${allowed[$mod]:+ and those of ${allowed[$mod]}}"
      violations=$((violations + 1))
    fi
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$file")
done < <(find "${sources[@]}" \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' \) | sort)

# One include root per library: every header under an include/ folder is
# <library dir>/include/layout/<that library>/NAME.h (or liblayout's include/layout/layout.h).
while IFS= read -r header; do
  module_of "$header"
  mod=$REPLY
  rel=${header#*include/}
  module_of_include "$rel"
  owner=$REPLY
  if [[ -z $owner || $owner != "$mod" ]]; then
    echo "$header: a public header of '$mod' belongs under include/layout/$mod/"
    violations=$((violations + 1))
  fi
  # The installed headers declare JSON functions over nlohmann/json_fwd.hpp: a program that
  # includes them does not compile the whole JSON library unless it uses it. (The views library
  # serves this project's programs only and is not installed.)
  if [[ $mod != views ]] && grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<nlohmann/json.hpp>' "$header"; then
    echo "$header: a public header includes <nlohmann/json.hpp> (use <nlohmann/json_fwd.hpp>)"
    violations=$((violations + 1))
  fi
done < <(find "${sources[@]}" -path '*/include/*' -name '*.h' | sort)

echo "layers: $checked files checked, $violations violations"
[[ $violations -eq 0 ]]
