#!/usr/bin/env bash
# The layering of docs/architecture.md, checked over every #include line: a file may include the
# public headers of its own module and of the modules below it, and internal headers ("name.h"
# without a path) of its own directory only, and the library's public headers include
# <nlohmann/json_fwd.hpp>, never <nlohmann/json.hpp>. Exit 1 listing every violation.
# usage: check_layers.sh SOURCE_DIR
set -u
root=${1:-.}
cd "$root" || exit 2

# module -> the modules it may include (besides itself).
declare -A allowed=(
  [core]=""
  [text]="core"
  [target]="core text"
  [triton]="core text"
  [xegpu]="core text target"
  [intel]="core text target triton"
  [smem]="core text target triton"
  [conversion]="core text target triton smem"
  [protocol]="core text target triton xegpu intel smem conversion"
  [codegen]="core text target triton intel smem"
  [kernels]="core text target triton intel codegen"
  [level_zero]="core text target triton intel codegen kernels"
  [opencl]="core text target triton intel codegen kernels"
  [cuda]="core text target triton intel smem codegen kernels"
  [views]="core text target triton xegpu intel smem conversion protocol"
)

# The module of a source file, or "" for files the rule does not cover (tools, tests, examples).
module_of() {
  case $1 in
  liblayout/include/layout/*/* | liblayout/src/*/*)
    local rest=${1#liblayout/include/layout/}
    [[ $rest == "$1" ]] && rest=${1#liblayout/src/}
    echo "${rest%%/*}"
    ;;
  codegen/*) echo codegen ;;
  kernels/*) echo kernels ;;
  level_zero/*) echo level_zero ;;
  opencl/*) echo opencl ;;
  cuda/*) echo cuda ;;
  explorer/gui/include/* | explorer/gui/src/*) echo views ;;
  *) echo "" ;;
  esac
}

# The module a quoted include names ("layout/triton/encoding.h" -> triton,
# "layout/level_zero/level_zero_runner.h" -> level_zero).
module_of_include() {
  case $1 in
  layout/*/*) local rest=${1#layout/} && echo "${rest%%/*}" ;;
  codegen/*) echo codegen ;;
  kernels/*) echo kernels ;;
  explorer/*) echo views ;;
  *) echo "" ;;
  esac
}

violations=0
checked=0
while IFS= read -r file; do
  mod=$(module_of "$file")
  [[ -z $mod ]] && continue
  [[ -v allowed[$mod] ]] || {
    echo "$file: module '$mod' is not in the layer table of tests/architecture/check_layers.sh"
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
      if [[ ! -f $(dirname "$file")/$inc ]]; then
        echo "$file: internal header \"$inc\" is not in its own directory"
        violations=$((violations + 1))
      fi
      continue
    fi
    target=$(module_of_include "$inc")
    [[ -z $target || $target == "$mod" ]] && continue
    if [[ " ${allowed[$mod]} " != *" $target "* ]]; then
      echo "$file: includes \"$inc\": module '$mod' may include only its own headers${allowed[$mod]:+ and those of ${allowed[$mod]}}"
      violations=$((violations + 1))
    fi
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$file")
done < <(find liblayout codegen kernels level_zero opencl cuda explorer/gui/include explorer/gui/src -name '*.h' -o -name '*.cpp' | sort)

# The library's public headers declare JSON functions over nlohmann/json_fwd.hpp: a program that
# includes them does not compile the whole JSON library unless it uses it.
while IFS= read -r header; do
  if grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<nlohmann/json.hpp>' "$header"; then
    echo "$header: a public header includes <nlohmann/json.hpp> (use <nlohmann/json_fwd.hpp>)"
    violations=$((violations + 1))
  fi
done < <(find liblayout/include codegen/include kernels/include level_zero/include opencl/include cuda/include -name '*.h' | sort)

echo "layers: $checked files checked, $violations violations"
[[ $violations -eq 0 ]]
