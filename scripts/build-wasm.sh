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
  lean) features=(--no-default-features --features lazy-parts) ;;
  *) echo "build-wasm.sh: ENTRY must be full, core or lean, not '$entry'" >&2; exit 2 ;;
esac
[ -n "${4:-}" ] && features+=(--features "$4")
cd "$ROOT"
[ "$entry" != lean ] || [ "$target" = web ] \
  || { echo "build-wasm.sh: the lean module is the default web entry's: TARGET web, not '$target'" >&2; exit 2; }
cd "$ROOT"
# wasm-pack overwrites the files it emits but leaves the others: a snippet a source change removed
# would stay in the package (and in its measured size), and so would a part's module
rm -rf "$out/snippets" "$out"/split_*.wasm "$out"/chunk_*.wasm "$out/__wasm_split.js"
NIGHTLY_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zinline-mir=no -Zlocation-detail=none -Zcross-crate-inline-threshold=always"
# wasm-pack's own wasm-opt step is off (--no-opt): it runs below, once per distinct module.
if [ "$entry" = lean ]; then
  # The lean module is split after linking: each part of src/parts (its getter a #[wasm_split]
  # point, the `lazy-parts` feature) leaves the module for a .wasm of its own, fetched when the part
  # is first used. rustc's module keeps its relocations (--emit-relocs, on this crate only: `cargo
  # rustc`, so the dependencies and std the other entries built are reused); wasm-split-cli
  # (scripts/setup.sh pins it) moves what only a part reaches into split_<part>.wasm (and what
  # several parts, not the module, reach into a chunk_<n>.wasm each of them loads first) and writes
  # __wasm_split.js, the loader the module imports; then wasm-bindgen makes the glue of what is
  # left, keeping the exports the parts import (--keep-lld-exports: the function table). wasm-pack
  # runs no step between cargo and wasm-bindgen, so this calls both itself.
  [ "${RELEASE_STABLE:-0}" != 1 ] || { echo "build-wasm.sh: the lean build needs the release toolchain (no RELEASE_STABLE)" >&2; exit 2; }
  CARGO_TARGET_DIR="$ROOT/target/release-nightly" RUSTUP_TOOLCHAIN="$RELEASE_TOOLCHAIN" RUSTFLAGS="$NIGHTLY_RUSTFLAGS" \
    cargo rustc --lib --release --target wasm32-unknown-unknown \
    -Z build-std=std,panic_abort -Z build-std-features=optimize_for_size "${features[@]}" -- -Clink-arg=--emit-relocs
  split_dir="$(mktemp -d)"
  wasm-split-cli --target web --out-name mcp_wasm_client \
    "$ROOT/target/release-nightly/wasm32-unknown-unknown/release/mcp_wasm_client.wasm" "$split_dir"
  ls "$split_dir"/split_*.wasm >/dev/null 2>&1 \
    || { echo "build-wasm.sh: wasm-split-cli split no part off the lean module (src/parts)" >&2; exit 1; }
  mkdir -p "$out"
  wasm-bindgen --target web --keep-lld-exports --out-dir "$out" --out-name mcp_wasm_client "$split_dir/mcp_wasm_client.wasm"
  cp "$split_dir"/split_*.wasm "$split_dir/__wasm_split.js" "$out/"
  if ls "$split_dir"/chunk_*.wasm >/dev/null 2>&1; then cp "$split_dir"/chunk_*.wasm "$out/"; fi
  rm -rf "$split_dir"
  node "$ROOT/scripts/split-loader.mjs" "$out"
elif [ "${RELEASE_STABLE:-0}" = 1 ]; then
  wasm-pack build --mode no-install --release --no-opt --target "$target" --out-dir "$out" . -- "${features[@]}"
else
  # A separate target dir: std built by build-std must not mix with the stable artifacts.
  CARGO_TARGET_DIR="$ROOT/target/release-nightly" RUSTUP_TOOLCHAIN="$RELEASE_TOOLCHAIN" RUSTFLAGS="$NIGHTLY_RUSTFLAGS" \
    wasm-pack build --mode no-install --release --no-opt --target "$target" --out-dir "$out" . -- \
    -Z build-std=std,panic_abort -Z build-std-features=optimize_for_size "${features[@]}"
fi

# wasm-opt with the flags of Cargo.toml's [package.metadata.wasm-pack.profile.release] (where
# wasm-pack would read them), once per distinct module: the result is kept under
# target/wasm-opt-cache/, named by the SHA-256 of the module, the flags and wasm-opt's version, so
# the second target of an entry (nodejs after web: wasm-bindgen emits the same module for both)
# takes it instead of optimizing the same bytes again (about a minute each on 2 cores). A test
# build (FEATURES given: pkg/nodejs-panic) is not optimized: it never ships, and what it tests (a
# panic trapping) does not depend on binaryen. The lean build's parts (split_*.wasm) are optimized
# and their chunks (chunk_*.wasm) as the module is, each on its own.
optimize() { # optimize WASM: wasm-opt on it, or the cached result of the same module
  local wasm="$1" opt_flags opt_key opt_cache
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
  for module in "$out/mcp_wasm_client_bg.wasm" "$out"/split_*.wasm "$out"/chunk_*.wasm; do
    [ -f "$module" ] && optimize "$module"
  done
fi

# Short names for the glue's imports and the module's internal exports (see the script).
node "$ROOT/scripts/short-wasm-names.mjs" "$out"

# Snippets our JS imports only when used (client.js: `import("./tracing.js")` for a client with a
# tracer; group.js: `import("./group-calls.js")` when the first ClientGroup is made):
# src/js/api/lazy.rs and group.rs name them, so wasm-bindgen itself writes them beside their importer
# (in a plain `wasm-pack build` too) and its glue imports nothing of them. Checked here: a lazy
# snippet missing from wasm-bindgen's output would fail only the clients that use it.
LAZY_SNIPPETS=(src/js/api/tracing.js src/js/api/group-calls.js)
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
