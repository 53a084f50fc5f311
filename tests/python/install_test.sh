#!/usr/bin/env bash
# The README's install command, `cmake --install BUILD --component python`, staged under a
# temporary DESTDIR: the package lands in the interpreter's site-packages directory and imports
# from there, with its type stubs.
# Usage: install_test.sh PYTHON BUILD_DIR SITE_PACKAGES_DIR
set -u
python=$1 build=$2 site=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! DESTDIR=$tmp cmake --install "$build" --component python >"$tmp/log" 2>&1; then
  echo "FAIL: cmake --install --component python"
  cat "$tmp/log"
  exit 1
fi
staged=$tmp$site
for f in __init__.py __init__.pyi py.typed; do
  [[ -f $staged/gf2layout/$f ]] || { echo "FAIL: $f not installed in $site/gf2layout"; exit 1; }
done
out=$(cd "$tmp" && PYTHONPATH=$staged "$python" -c '
import gf2layout
l = gf2layout.LinearLayout.identity_1d(8, "lane", "dim0")
print(gf2layout.__file__.startswith("'"$staged"'"), l.apply({"lane": 5}))' 2>&1)
if [[ $out != "True {'dim0': 5}" ]]; then
  echo "FAIL: the installed package does not import: $out"
  exit 1
fi
echo "ok: installed into $site/gf2layout and imported"
