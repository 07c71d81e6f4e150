#!/usr/bin/env bash
# Builds web/static/vendor/embedded-app-sdk.js and its licence file from the packages pinned in
# web/sdk/package-lock.json. The Activity page is served by the bot and must fetch nothing from
# another host at run time, so Discord's SDK is vendored as one file built here.
#
#   bash web/sdk/build.sh           rebuild the vendored files in place (then commit them)
#   bash web/sdk/build.sh --check   rebuild elsewhere and fail if the committed files differ
set -euo pipefail

usage() {
    echo "usage: bash web/sdk/build.sh            rebuild web/static/vendor/embedded-app-sdk.js in place"
    echo "       bash web/sdk/build.sh --check    fail if the committed files differ from a fresh build"
}

mode=build
case "$#:${1:-}" in
    0:) ;;
    1:--check) mode=check ;;
    1:-h | 1:--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
esac

sdk_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd "$sdk_dir/../.." && pwd)"
vendor_rel="web/static/vendor"
files=(embedded-app-sdk.js embedded-app-sdk.LICENSES.txt)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# esbuild records paths relative to its working directory: building from web/sdk keeps the
# checkout's location out of the metafile, and so out of the licence file.
cd "$sdk_dir"

# npm ci installs exactly the lockfile and fails if package.json has drifted from it.
# --prefer-offline: a warm npm cache is enough, so a rebuild needs no network once it has run.
# --ignore-scripts: no dependency runs code at install. esbuild's postinstall only swaps its JS
# launcher for the native binary; the launcher finds that binary in @esbuild/<platform> anyway.
npm ci --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error

sdk_version="$(node -p 'require("./node_modules/@discord/embedded-app-sdk/package.json").version')"

# --legal-comments=none because the licences ship beside the bundle in one file, which the
# banner names. No sourcemap: it would embed paths and double what the bot serves.
./node_modules/.bin/esbuild entry.mjs \
    --bundle --format=esm --platform=browser --target=es2020 --minify \
    --legal-comments=none \
    --banner:js="/*! @discord/embedded-app-sdk $sdk_version with its dependencies, bundled by web/sdk/build.sh. Licences: embedded-app-sdk.LICENSES.txt */" \
    --metafile="$work/meta.json" \
    --outfile="$work/out/embedded-app-sdk.js" \
    --log-level=warning

node licenses.mjs "$work/meta.json" embedded-app-sdk.js >"$work/out/embedded-app-sdk.LICENSES.txt"

if [ "$mode" = build ]; then
    mkdir -p "$repo_dir/$vendor_rel"
    for f in "${files[@]}"; do
        cp "$work/out/$f" "$repo_dir/$vendor_rel/$f"
    done
    for f in "${files[@]}"; do
        echo "built $vendor_rel/$f ($(wc -c <"$repo_dir/$vendor_rel/$f") bytes)"
    done
    exit 0
fi

stale=0
for f in "${files[@]}"; do
    if ! cmp -s "$work/out/$f" "$repo_dir/$vendor_rel/$f"; then
        echo "$vendor_rel/$f is not what web/sdk/build.sh makes from the pinned packages: run bash web/sdk/build.sh and commit the result" >&2
        stale=1
    fi
done
[ "$stale" -eq 0 ] || exit 1
echo "$vendor_rel/ matches what web/sdk/build.sh makes from the pinned packages"
