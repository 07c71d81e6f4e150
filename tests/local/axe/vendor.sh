#!/usr/bin/env bash
# Vendors axe-core, the accessibility checker the browser tests run in each page, from the
# version pinned in tests/local/axe/package-lock.json: its built file and its licence, into
# tests/local/vendor/. The tests fetch nothing at run time.
#
#   bash tests/local/axe/vendor.sh           copy the pinned files in place (then commit them)
#   bash tests/local/axe/vendor.sh --check   fail if the committed files differ from the pinned ones
set -euo pipefail

mode=copy
case "$#:${1:-}" in
    0:) ;;
    1:--check) mode=check ;;
    *) echo "usage: bash tests/local/axe/vendor.sh [--check]" >&2; exit 2 ;;
esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
vendor="$here/../vendor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/package.json" "$here/package-lock.json" "$work/"
cd "$work"
# Exactly the lockfile, running nothing at install; a warm npm cache needs no network.
npm ci --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error
version="$(node -p 'require("./node_modules/axe-core/package.json").version')"
mkdir -p out
cp node_modules/axe-core/axe.min.js out/axe.min.js
{
    echo "axe-core $version (https://github.com/dequelabs/axe-core), as vendored by"
    echo "tests/local/axe/vendor.sh for the browser tests. Its licence follows."
    echo
    cat node_modules/axe-core/LICENSE
} >out/axe.LICENSE.txt

if [ "$mode" = copy ]; then
    mkdir -p "$vendor"
    cp out/axe.min.js out/axe.LICENSE.txt "$vendor/"
    echo "vendored axe-core $version into tests/local/vendor/"
    exit 0
fi
for f in axe.min.js axe.LICENSE.txt; do
    if ! cmp -s "out/$f" "$vendor/$f"; then
        echo "tests/local/vendor/$f is not the pinned axe-core's: run bash tests/local/axe/vendor.sh and commit it" >&2
        exit 1
    fi
done
echo "tests/local/vendor/ matches the pinned axe-core $version"
