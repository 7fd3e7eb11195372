#!/usr/bin/env bash
# The one release build of the package's wasm: every place that makes a package (test.sh's build
# stage, package.sh, demo.sh) calls this, so the package the tests run is the package that ships.
#
# It builds with a pinned nightly (RELEASE_TOOLCHAIN in scripts/toolchain.env; scripts/setup.sh
# installs it with rust-src) so that std itself is rebuilt for size: -Z build-std with
# optimize_for_size, and -Cpanic=immediate-abort (a panic traps at once: no formatting machinery,
# no panic strings); -Zinline-mir=no leaves inlining to LLVM's size heuristics;
# -Zlocation-detail=none drops the file/line/column of panic locations, which a panic that aborts at
# once never shows; -Zcross-crate-inline-threshold=always makes every function of std and the
# dependencies instantiable in the crate that calls it (as `#[inline]` functions are), so LLVM
# optimizes it with its callers at opt-level z before LTO. What each is worth: docs/SIZE.md.
# RELEASE_STABLE=1 builds with the stable toolchain instead (for comparing; never shipped).
#
# Then every JS file of the package (wasm-bindgen's glue and our snippets; not the nodejs target's
# glue, see the loop) is minified in place by esbuild (tools/, pinned): whitespace, syntax and local
# names; module-level names (the exported classes Client, ClientGroup, McpError...) and the
# `@ts-self-types` line Deno reads stay. (wasm-bindgen's import object names one snippet module
# under the same key more than once, always the same namespace: esbuild's duplicate-key warning
# about it is silenced.)
#
# ENTRY says which package entry the build is for: `full` (the default; `mcp-wasm-client`) or
# `core` (`mcp-wasm-client/core`: the crate without its `auth` and `skills` features) or `lean` (the
# default web entry's lean module, scripts/package.sh: the core build without `js-transport` too,
# since that entry makes a client over a JS transport in its full module). All share one target
# dir: switching recompiles only this crate (its dependencies and std are built once), which a
# changed source recompiles anyway.
#
# FEATURES (optional) are more Cargo features, comma-separated: test builds only (scripts/test.sh
# builds pkg/nodejs-panic with `test-panic`); the package never has any.
#
# Usage: bash scripts/build-wasm.sh TARGET OUT_DIR [ENTRY] [FEATURES]
#        (TARGET: nodejs | web | bundler; ENTRY: full | core | lean, default full)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/toolchain.env
. "$ROOT/scripts/toolchain.env"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
target="$1" out="$2" entry="${3:-full}"
case "$entry" in
  full) features=() ;;
  core) features=(--no-default-features --features js-transport) ;;
  lean) features=(--no-default-features) ;;
  *) echo "build-wasm.sh: ENTRY must be full, core or lean, not '$entry'" >&2; exit 2 ;;
esac
[ -n "${4:-}" ] && features+=(--features "$4")
cd "$ROOT"
# wasm-pack overwrites the files it emits but leaves the others: a snippet a source change removed
# would stay in the package (and in its measured size)
rm -rf "$out/snippets"
# wasm-pack's own wasm-opt step is off (--no-opt): it runs below, once per distinct module.
if [ "${RELEASE_STABLE:-0}" = 1 ]; then
  wasm-pack build --mode no-install --release --no-opt --target "$target" --out-dir "$out" . -- "${features[@]}"
else
  # A separate target dir: std built by build-std must not mix with the stable artifacts.
  CARGO_TARGET_DIR="$ROOT/target/release-nightly" RUSTUP_TOOLCHAIN="$RELEASE_TOOLCHAIN" \
    RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zinline-mir=no -Zlocation-detail=none -Zcross-crate-inline-threshold=always" \
    wasm-pack build --mode no-install --release --no-opt --target "$target" --out-dir "$out" . -- \
    -Z build-std=std,panic_abort -Z build-std-features=optimize_for_size "${features[@]}"
fi

# wasm-opt with the flags of Cargo.toml's [package.metadata.wasm-pack.profile.release] (where
# wasm-pack would read them), once per distinct module: the result is kept under
# target/wasm-opt-cache/, named by the SHA-256 of the module, the flags and wasm-opt's version, so
# the second target of an entry (nodejs after web: wasm-bindgen emits the same module for both)
# takes it instead of optimizing the same bytes again (about a minute each on 2 cores). A test
# build (FEATURES given: pkg/nodejs-panic) is not optimized: it never ships, and what it tests (a
# panic trapping) does not depend on binaryen.
wasm="$out/mcp_wasm_client_bg.wasm"
optimize() { # wasm-opt on $wasm, or the cached result of the same module
  local opt_flags opt_key opt_cache
  mapfile -t opt_flags < <(cargo metadata --no-deps --format-version 1 --manifest-path "$ROOT/Cargo.toml" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const p = JSON.parse(s).packages.find((p) => p.name === "mcp-wasm-client");
      const flags = p?.metadata?.["wasm-pack"]?.profile?.release?.["wasm-opt"];
      if (!Array.isArray(flags) || !flags.length) { console.error("Cargo.toml has no wasm-pack release wasm-opt flags"); process.exit(1); }
      console.log(flags.join("\n"));
    });')
  [ "${#opt_flags[@]}" -gt 0 ] || { echo "build-wasm.sh: no wasm-opt flags read from Cargo.toml" >&2; exit 1; }
  opt_key="$( { sha256sum <"$wasm"; printf '%s\n' "${opt_flags[@]}"; wasm-opt --version; } | sha256sum | cut -c1-64)"
  opt_cache="$ROOT/target/wasm-opt-cache/$opt_key.wasm"
  if [ -f "$opt_cache" ]; then
    echo "wasm-opt: the same module as an earlier build's (target/wasm-opt-cache/$opt_key.wasm)"
    cp "$opt_cache" "$wasm"
  else
    wasm-opt "${opt_flags[@]}" "$wasm" -o "$wasm.opt"
    mv "$wasm.opt" "$wasm"
    mkdir -p "$(dirname "$opt_cache")"
    cp "$wasm" "$opt_cache.tmp" && mv "$opt_cache.tmp" "$opt_cache"
  fi
}
if [ -n "${4:-}" ]; then
  echo "wasm-opt: skipped for a test build (features $4)"
else
  optimize
fi

# Short names for the glue's imports and the module's internal exports (see the script).
node "$ROOT/scripts/short-wasm-names.mjs" "$out"

# Snippets our JS imports only when used (client.js: `import("./tracing.js")` for a client with a
# tracer): src/js/api/lazy.rs names them, so wasm-bindgen itself writes them beside their importer
# (in a plain `wasm-pack build` too) and its glue imports nothing of them. Checked here: a lazy
# snippet missing from wasm-bindgen's output would fail only the clients that use it.
LAZY_SNIPPETS=(src/js/api/tracing.js)
snippet_dirs=("$out"/snippets/*/)
[ "${#snippet_dirs[@]}" = 1 ] && [ -d "${snippet_dirs[0]}" ] \
  || { echo "build-wasm.sh: expected one snippets directory in $out" >&2; exit 1; }
for f in "${LAZY_SNIPPETS[@]}"; do
  [ -f "${snippet_dirs[0]}$f" ] \
    || { echo "build-wasm.sh: wasm-bindgen did not write the lazy snippet $f (src/js/api/lazy.rs must name it)" >&2; exit 1; }
  if grep -qF "$f" "$out/mcp_wasm_client.js"; then
    echo "build-wasm.sh: the glue names the lazy snippet $f: every page would fetch it" >&2; exit 1
  fi
done

# Minify the package's JS in place (see the top of this file).
out_abs="$(cd "$out" && pwd)"
while IFS= read -r -d '' js; do
  # The nodejs glue stays as wasm-bindgen wrote it: Node prints the source line an uncaught error
  # was thrown from, and a minified glue is one 18 KB line (it ships in the package, never in a
  # page: pkg/web, the measured package, is minified as before).
  [ "$target" = nodejs ] && [ "$js" = "$out_abs/mcp_wasm_client.js" ] && continue
  keep=()   # the glue's first line, `/* @ts-self-types="…" */`, goes back on top as a banner
  head_line="$(head -n 1 "$js")"
  case "$head_line" in "/* @ts-self-types="*) keep=(--banner:js="$head_line") ;; esac
  esbuild "$js" --minify "${keep[@]}" --log-level=warning \
    --log-override:duplicate-object-key=silent --outfile="$js" --allow-overwrite
done < <(find "$out_abs" -name '*.js' -print0)

# The snippets are ES modules (our .js files as written). Say so for Node: the nodejs glue
# require()s them (require(esm)), and one snippet imports another (client.js imports error.js),
# which Node would otherwise parse twice with a MODULE_TYPELESS_PACKAGE_JSON warning on every load,
# wasm-pack's package.json having no "type". The same file in every target keeps the snippets of
# the nodejs and web builds identical (scripts/package.sh compares them).
if [ -d "$out/snippets" ]; then
  printf '{ "type": "module" }\n' >"$out/snippets/package.json"
fi
