#!/usr/bin/env bash
# Assembles ONE npm package, mcp-wasm-client, in pkg/npm/ and packs it into pkg/.
#
# The wasm-pack targets (nodejs and web, of the full and the core entry) are built into a staging
# directory (never into pkg/nodejs, pkg/web, …, which scripts/test.sh owns), or taken from
# PACKAGE_FROM. The package ships:
#   dist/mcp_wasm_client.js     the `web` target glue (ESM; init()/initSync())
#   dist/mcp_wasm_client.cjs    the `nodejs` target glue (CommonJS; instantiates synchronously)
#   dist/mcp_wasm_client_bg.wasm   one .wasm, shared: both targets emit the same bytes (checked)
#   dist/snippets/              the inline JS snippets (identical in both targets, checked)
#   dist/*.d.ts                 wasm-bindgen's declarations, as the build emits them
#   index.js                    browsers, bundlers, workers, Deno-web: the lean module (the lean build,
#                               dist/mcp_wasm_client_lean*.js/.wasm) for clients without `auth`, the full one (full.js, through
#                               manual.js) loaded for the first client with it, or for the skills of
#                               a lean client (client.js's CompanionSkills); starts the lean init()
#                               on import, no top-level await; Client and ClientGroup usable at once
#   dist/mcp_wasm_client_lean.js, _lean_bg.wasm, wasm-url-lean.js  the lean web
#                               glue (the core build without JS transports) reading the full build's snippets, its .wasm; manual.js's
#                               exports over it, with the real `auth` builders, are bundled into
#                               index.js, which re-exports them
#   full.js                     not an entry: what index.js imports for the full module
#   auth-part.js                not an entry: what index.js imports for a client with `auth` (a
#                               returning user's stored token sent from the lean module)
#   manual.js                   the same exports without auto-initialisation: call init() first
#   workerd.js                  Cloudflare Workers / workerd ("workerd" condition): initSync from the
#                               .wasm imported as a module (no fetch by URL, no code generation)
#   node.cjs / node.mjs         Node require / import: the nodejs glue (one instance for both)
#   index.d.ts                  re-exports dist/mcp_wasm_client.d.ts (+ `init` as a named export)
#                               and elements/index.d.ts
#   index.d.cts                 the same for require() under TypeScript's node16/nodenext CommonJS
#                               resolution, over dist/mcp_wasm_client.d.cts (the nodejs build's)
#   elements/                   the custom elements <mcp-app-frame> and <mcp-elicitation-form>,
#                               plain JS outside the wasm; every entry (both, all hosts) exports
#                               AppFrame and ElicitationForm, and defines the tags where the host
#                               has customElements (a page)
#   react/                      mcp-wasm-client/react: useMcp and useMcpGroup (plain JS, React >= 18 an
#                               optional peer dependency), loading the package by name when first used;
#                               index.cjs (written from index.js by scripts/react-cjs.mjs) and
#                               index.d.cts for require()
#   middleware/, cache/         mcp-wasm-client/middleware (fetch middleware: withLogging, withRetry,
#                               createMiddleware, applyMiddlewares) and mcp-wasm-client/cache
#                               (memoryCacheStore, indexedDbCacheStore): plain ESM, no entry imports them
#   mcp-app-sandbox.html        the MCP Apps sandbox proxy page, served by the app from another origin
#   dist/core/, core/           the `mcp-wasm-client/core` entry: the crate built without its `auth`
#                               feature (scripts/build-wasm.sh ENTRY core), its glue beside its own
#                               .wasm in dist/core/ and the same wrappers in core/ (index.js,
#                               workerd.js, node.cjs, node.mjs, manual.js, index.d.ts). The full
#                               entry's exports that the core build lacks (the authorization
#                               helpers) are stand-ins there (core/absent.js) that throw an McpError
#                               naming the full entry.
# Everything outside dist/ (the wrappers, index.d.ts, package.json, README.md) is a file in
# pkg-template/, copied with the substitutions of step 3 (README.md: its include lines, see
# scripts/package-readme.mjs): the crate's export names, and Cargo.toml's
# version, description, license and repository. core/'s wrappers (manual.js, node.cjs, node.mjs,
# workerd.js) are written from the full entry's, reading the core glue (core_wrapper); core/index.js
# (one module where the default entry has two), core/absent.js and core/'s declarations are files
# of their own in pkg-template/core/.
# wasm-pack's `bundler` target is not built: it needs the bundler to implement WebAssembly ESM
# integration (webpack `experiments.asyncWebAssembly`, vite-plugin-wasm), a browser cannot load it
# at all, and its .wasm is the web target's byte for byte; the web glue with
# `new URL(…, import.meta.url)` works unchanged in Vite, webpack 5, Rollup, esbuild, plain browsers
# and module workers.
#
# Usage: bash scripts/package.sh        (prints the tarball path last)
# Env:   PACKAGE_FROM=DIR takes the five builds from DIR/{nodejs,web,core-nodejs,core-web,lean-web}
#        instead of building them (scripts/test.sh passes pkg/, which its build stage just built
#        with the same scripts/build-wasm.sh; DIR is only read);
#        PACKAGE_SKIP_BUILD=1 reuses the staging dir of the previous run (pkg/.stage).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"

NAME=mcp-wasm-client
STEM=mcp_wasm_client
STAGE="${PACKAGE_FROM:+$(cd "$PACKAGE_FROM" && pwd)}"
STAGE="${STAGE:-$ROOT/pkg/.stage}"
OUT="$ROOT/pkg/npm"
TEMPLATE="$ROOT/pkg-template"
log() { printf '[package] %s\n' "$*" >&2; }
die() { printf '[package] error: %s\n' "$*" >&2; exit 1; }

command -v wasm-pack >/dev/null || die "wasm-pack not on PATH (run scripts/setup.sh)"
command -v wasm-opt >/dev/null || die "wasm-opt not on PATH (npm binaryen in tools/; run scripts/setup.sh)"

# name/version/description/license/repository of the crate, as cargo reads Cargo.toml
read_meta() {
  cargo metadata --no-deps --format-version 1 --manifest-path "$ROOT/Cargo.toml" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const p = JSON.parse(s).packages.find((p) => p.name === process.argv[1]);
      if (!p) process.exit(1);
      console.log(p[process.argv[2]] ?? "");
    });' "$NAME" "$1"
}
VERSION="$(read_meta version)"
DESCRIPTION="$(read_meta description)"
LICENSE="$(read_meta license)"
REPOSITORY="$(read_meta repository)"
[ -n "$VERSION" ] || die "no version in Cargo.toml"

# 1. build the five targets into the staging dir ------------------------------------------------
if [ -n "${PACKAGE_FROM:-}" ]; then
  log "the builds of $STAGE (PACKAGE_FROM), not rebuilt"
elif [ "${PACKAGE_SKIP_BUILD:-0}" != 1 ] || [ ! -f "$STAGE/web/$STEM.js" ]; then
  rm -rf "$STAGE"
  mkdir -p "$STAGE"
  # DIR:TARGET:ENTRY
  for build in nodejs:nodejs:full web:web:full core-nodejs:nodejs:core core-web:web:core lean-web:web:lean; do
    IFS=: read -r dir target entry <<<"$build"
    log "wasm-pack build --target $target ($entry entry)"
    if ! bash "$ROOT/scripts/build-wasm.sh" "$target" "$STAGE/$dir" "$entry" \
        >"$STAGE/build-$dir.log" 2>&1; then
      cat "$STAGE/build-$dir.log" >&2
      die "wasm-pack build --target $target ($entry entry) failed"
    fi
  done
fi
for prefix in "" core-; do
  for f in nodejs/$STEM.js web/$STEM.js web/$STEM.d.ts web/${STEM}_bg.wasm nodejs/${STEM}_bg.wasm; do
    [ -f "$STAGE/$prefix$f" ] || die "wasm-pack did not emit $prefix$f"
  done
  cmp -s "$STAGE/${prefix}nodejs/${STEM}_bg.wasm" "$STAGE/${prefix}web/${STEM}_bg.wasm" \
    || die "the ${prefix}nodejs and ${prefix}web targets emitted different .wasm files; the shared-wasm layout needs them identical"
  if [ -d "$STAGE/${prefix}web/snippets" ] || [ -d "$STAGE/${prefix}nodejs/snippets" ]; then
    diff -r "$STAGE/${prefix}nodejs/snippets" "$STAGE/${prefix}web/snippets" >/dev/null \
      || die "the ${prefix}nodejs and ${prefix}web targets emitted different snippets/"
  fi
done
# (The glue is minified by build-wasm.sh: either quote, optional space.)
grep -Eq "new URL\\([\"']${STEM}_bg\\.wasm[\"'], ?import\\.meta\\.url\\)" "$STAGE/web/$STEM.js" \
  || die "web glue no longer locates its wasm with new URL('${STEM}_bg.wasm', import.meta.url)"

# 2. the export names (the same in both glues) ---------------------------------------------------
# ClientCore (the Rust client behind the exported Client, client.js's facade) is the glue's but
# not the package's: no entry exports it, and it has no declaration (skip_typescript).
web_export_names() { # web_export_names BUILD: the names the web glue of $STAGE/BUILD exports
  node --input-type=module -e '
    const m = await import(process.argv[1]);
    console.log(Object.keys(m).filter((k) => k !== "default" && k !== "initSync" && !k.startsWith("__") && k !== "ClientCore").sort().join(" "));
  ' "file://$STAGE/$1/$STEM.js"
}
export_names() { # export_names STAGE_PREFIX: the names both glues of one entry export
  local names_node names_web
  names_node="$(node -e '
    const m = require(process.argv[1]);
    console.log(Object.keys(m).filter((k) => !k.startsWith("__") && k !== "ClientCore").sort().join(" "));
  ' "$STAGE/${1}nodejs/$STEM.js")"
  names_web="$(web_export_names "${1}web")"
  [ "$names_node" = "$names_web" ] || die "export names differ: ${1}nodejs [$names_node] ${1}web [$names_web]"
  echo "$names_node"
}
# INTERNAL: what the glue exports for the project's own tests and benchmarks (which import the raw
# glue, pkg/nodejs or pkg/web), never an export of the package: `start` (the #[wasm_bindgen(start)]
# function, which wasm-bindgen exports too), `wasmMemoryBytes` (memory checks, bench), `Tasks`
# (the class of `client.tasks`, a type only). Their declarations are skipped in the Rust
# (skip_typescript); step 4 checks that no entry exports them.
INTERNAL=(start wasmMemoryBytes Tasks)
# public_names NAME...: the names without INTERNAL's; an INTERNAL name the glue no longer
# exports is an error (the list must not rot).
public_names() {
  local n out=()
  for n in "${INTERNAL[@]}"; do
    case " $* " in *" $n "*) ;; *) die "INTERNAL lists '$n', which the glue does not export";; esac
  done
  for n in "$@"; do
    case " ${INTERNAL[*]} " in *" $n "*) ;; *) out+=("$n") ;; esac
  done
  echo "${out[*]}"
}
read -r -a NAMES <<<"$(public_names $(export_names ""))"
[ "${#NAMES[@]}" -gt 0 ] || die "no exports found"
for reserved in init initSync default; do
  case " ${NAMES[*]} " in *" $reserved "*) die "the crate exports '$reserved', which the package reserves";; esac
done
log "exports: ${NAMES[*]} (+ init, initSync)"
# The core entry: its own exports, and ABSENT, the full entry's that it lacks (the authorization
# helpers), which core/ stands in for. It may not export a name the full entry does not.
read -r -a CORE_NAMES <<<"$(public_names $(export_names core-))"
# AUTH_BUILDERS: the `auth` option's builders, plain JS (src/js/auth/builders.js, a snippet of
# the full build; the glue has shims of them too, js/auth/exports.rs, which need the module): the
# full family's wrappers export them from the snippet, unguarded (the `// {{builders}}` line), so
# they work right after the import; core/ stands in for them.
AUTH_BUILDERS=(authorizeHeadless authorizeWithPopup authorizeWithRedirect completeAuthorizationPopup idJagAssertion indexedDbStorage memoryStorage webStorage)
for n in "${AUTH_BUILDERS[@]}"; do
  case " ${NAMES[*]} " in *" $n "*) ;; *) die "the full glue does not export the builder '$n'";; esac
done
read -r -a NAMES <<<"$(for n in "${NAMES[@]}"; do case " ${AUTH_BUILDERS[*]} " in *" $n "*) ;; *) printf '%s ' "$n";; esac; done)"
ABSENT=("${AUTH_BUILDERS[@]}")
for n in "${NAMES[@]}"; do
  case " ${CORE_NAMES[*]} " in *" $n "*) ;; *) ABSENT+=("$n") ;; esac
done
for n in "${CORE_NAMES[@]}"; do
  case " ${NAMES[*]} " in *" $n "*) ;; *) die "the core entry exports '$n', which the full entry does not (or a builder: was it built without the auth feature?)";; esac
done
compgen -G "$STAGE/web/snippets/*/src/js/auth/builders.js" >/dev/null || die "the full build has no snippet src/js/auth/builders.js"
log "core exports: ${CORE_NAMES[*]}; stand-ins for: ${ABSENT[*]}"

# 3. assemble pkg/npm ----------------------------------------------------------------------------
rm -rf "$OUT"
mkdir -p "$OUT/dist"
cp "$STAGE/web/$STEM.js" "$STAGE/web/$STEM.d.ts" "$STAGE/web/${STEM}_bg.wasm" "$OUT/dist/"
# The web glue's declarations type init()'s result, InitOutput, as the raw wasm exports (memory,
# start, wasmMemoryBytes, the glue's minified functions) and name the default export __wbg_init.
# manual.js's init() and initSync() give nothing back, so InitOutput becomes `void` (the name kept
# for code that wrote it) and the default export is named init.
public_init_types() { # public_init_types FILE.d.ts
  node -e '
    const fs = require("fs");
    const file = process.argv[1];
    let text = fs.readFileSync(file, "utf8");
    const fail = (what) => { console.error(`${file}: ${what}`); process.exit(1); };
    const output = /^export interface InitOutput \{\n(?: {4}.*\n)*\}\n/m;
    const init = /^export default function __wbg_init ?\(/m;
    if (!output.test(text)) fail("no `export interface InitOutput { … }` block");
    if (!init.test(text)) fail("no `export default function __wbg_init(`");
    text = text
      .replace(output, "/** What init() and initSync() give back: nothing (the raw wasm exports are not the package'"'"'s API). */\nexport type InitOutput = void;\n")
      .replace(init, "export default function init(");
    fs.writeFileSync(file, text);
  ' "$1" || die "the glue's declarations are not as public_init_types expects (above)"
}
public_init_types "$OUT/dist/$STEM.d.ts"
# wasm-url.js: where manual.js's init() fetches the .wasm from, written beside the glue so that
# new URL(…, import.meta.url) resolves as the glue's own does: from dist/ unbundled, beside the
# bundle when a bundler inlines it without an asset plugin, the emitted asset when it has one.
# A function, called by init() only: where import.meta.url is no URL (workerd) nothing computes it.
wasm_url_module() { # wasm_url_module DIR
  printf '%s\n' "// Written by scripts/package.sh: the .wasm beside this file, located as the glue locates it." \
    "export const wasmUrl = () => new URL('${STEM}_bg.wasm', import.meta.url);" >"$1/wasm-url.js"
}
wasm_url_module "$OUT/dist"
[ -d "$STAGE/web/snippets" ] && cp -r "$STAGE/web/snippets" "$OUT/dist/"
# the nodejs glue as .cjs beside the web glue: it require()s the ESM snippets (require(esm): Node
# >= 20.19 / 22.12, Deno 2) and reads its .wasm (the shared file) synchronously. wasm-bindgen
# writes some snippets as require(String.raw`./snippets/…`), which bundlers leave to run time
# (esbuild --platform=node: "Cannot find module './snippets/…'" in a one-file bundle): node_glue
# makes them require("./snippets/…"), which they bundle. It reads the .wasm with
# require('fs').readFileSync(`${__dirname}/…`), which an esbuild --platform=node bundle breaks (ESM:
# no __dirname, no require; CommonJS: __dirname is the bundle's folder): node_glue makes that
# dist/node-wasm.cjs's readWasm (pkg-template/node-wasm.cjs: the glue's folder, else beside the
# entry script, else the installed package; a clear error naming the file when none has it), given
# the .wasm's path in the package and its size (a file of another size is another build's).
cp "$TEMPLATE/node-wasm.cjs" "$OUT/dist/node-wasm.cjs"
node_glue() { # node_glue SRC DEST
  local dest_dir wasm_size
  dest_dir="$(dirname "$2")"
  wasm_size="$(stat -c %s "$(dirname "$1")/${STEM}_bg.wasm")"
  sed -E 's#require\(String\.raw`(\./snippets/[^`"\\$]*)`\)#require("\1")#g' "$1" >"$2"
  ! grep -q 'require(String\.raw' "$2" || die "$2 still requires a String.raw path, which bundlers cannot follow"
  node -e '
    const fs = require("fs");
    const [file, locator, wasm, size] = process.argv.slice(1);
    const name = wasm.split("/").pop();
    const read = `const wasmPath = \`\${__dirname}/${name}\`;\nconst wasmBytes = require(\x27fs\x27).readFileSync(wasmPath);\n`;
    const text = fs.readFileSync(file, "utf8");
    if (text.split(read).length !== 2) { console.error(`${file}: expected once:\n${read}`); process.exit(1); }
    fs.writeFileSync(file, text.replace(read, () =>
      `const wasmBytes = require(${JSON.stringify(locator)}).readWasm(typeof __dirname === \x27string\x27 ? __dirname : undefined, ${JSON.stringify(wasm)}, ${size});\n`));
  ' "$2" "$(realpath --relative-to="$dest_dir" "$OUT/dist/node-wasm.cjs" | sed 's#^[^.]#./&#')" \
    "${dest_dir#"$OUT"/}/${STEM}_bg.wasm" "$wasm_size" \
    || die "the nodejs glue no longer reads its .wasm as node_glue expects (above)"
  ! grep -qE '__dirname\}/|require\(.fs.\)' "$2" || die "$2 still reads its .wasm from \${__dirname} with require('fs')"
}
node_glue "$STAGE/nodejs/$STEM.js" "$OUT/dist/$STEM.cjs"

# The wrappers are pkg-template/ files, copied as they are except for one thing: the line
# `// {{exports}}` in node.cjs, node.mjs and manual.js becomes one line per export of the crate
# (NAMES, read from the glue in step 2), written as the file needs it ({} = the export's name);
# in core/, `// {{absent}}` becomes one line per name of ABSENT the same way.
# `// {{builders}}` becomes one line per AUTH_BUILDERS name in BUILDERS_LINE's form (nothing with
# CORE=1: there they are ABSENT's).
# fill_exports FILE OUT_FILE LINE [ABSENT_LINE]: with CORE=1 the exports are CORE_NAMES'.
fill_exports() {
  local file="$1" out_file="$2" line_format="$3" absent_format="${4:-}" line n names=("${NAMES[@]}")
  [ "${CORE:-0}" = 1 ] && names=("${CORE_NAMES[@]}")
  [ "$(grep -cxF '// {{builders}}' "$file")" = 1 ] || die "$file must have exactly one line '// {{builders}}'"
  [ "$(grep -cxF '// {{exports}}' "$file")" = 1 ] || die "$file must have exactly one line '// {{exports}}'"
  if [ -n "$absent_format" ]; then
    [ "$(grep -cxF '// {{absent}}' "$file")" = 1 ] || die "$file must have exactly one line '// {{absent}}'"
  fi
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "$line" = '// {{exports}}' ]; then
      for n in "${names[@]}"; do printf '%s\n' "${line_format//'{}'/$n}"; done
    elif [ "$line" = '// {{builders}}' ]; then
      [ "${CORE:-0}" = 1 ] || for n in "${AUTH_BUILDERS[@]}"; do printf '%s\n' "${BUILDERS_LINE//'{}'/$n}"; done
    elif [ "$line" = '// {{absent}}' ] && [ -n "$absent_format" ]; then
      for n in "${ABSENT[@]}"; do printf '%s\n' "${absent_format//'{}'/$n}"; done
    else
      printf '%s\n' "$line"
    fi
  done <"$file" >"$out_file"
}
SNIPPETS_NAME="$(basename "$(echo "$OUT"/dist/snippets/*/)")"
BUILDERS_LINE="exports.{} = require('./dist/snippets/$SNIPPETS_NAME/src/js/auth/builders.js').{};" \
  fill_exports "$TEMPLATE/node.cjs" "$OUT/node.cjs" 'exports.{} = glue.{};'
BUILDERS_LINE='  {},' fill_exports "$TEMPLATE/node.mjs" "$OUT/node.mjs" '  {},'
BUILDERS_LINE="export { {} } from '{{snippets}}/src/js/auth/builders.js';" \
  fill_exports "$TEMPLATE/manual.js" "$OUT/manual.template.js" "export const {} = guard(glue.{}, '{}');"
cp "$TEMPLATE/workerd.js" "$TEMPLATE/index.d.ts" "$TEMPLATE/wasm.d.ts" "$OUT/"
# README.md: the template with its `<!-- include: docs/… ## Section -->` lines replaced by those
# sections of the guides (one source for what the package README shares with docs/)
node "$ROOT/scripts/package-readme.mjs" "$TEMPLATE/README.md" "$OUT/README.md" \
  || die "the package README's includes (above)"
# index.js imports the facade classes (client.js, group.js) and McpError (error.js) from the snippets
# directory, whose name has a hash: `{{snippets}}` becomes its path.
fill_snippets() { # fill_snippets FILE OUT_FILE DIST (under $OUT) DIST_AS_FILE_SEES_IT
  local dirs
  dirs=("$OUT/$3"/snippets/*/)
  [ "${#dirs[@]}" = 1 ] && [ -f "${dirs[0]}src/js/api/client.js" ] || die "expected one snippets directory with src/js/api/client.js in $3"
  [ "$(grep -c '{{snippets}}' "$1")" -ge 1 ] || die "$1 has no {{snippets}}"
  sed "s#{{snippets}}#$4/snippets/$(basename "${dirs[0]}")#g" "$1" >"$2"
}
fill_snippets "$TEMPLATE/index.js" "$OUT/index.js" dist ./dist
fill_snippets "$OUT/manual.template.js" "$OUT/manual.js" dist ./dist && rm "$OUT/manual.template.js"
# the custom elements (plain JS, shared by both entries) and the MCP Apps sandbox proxy page, which
# an app serves as a static file from another origin
elements_import="import { defineElements } from './elements/index.js';"
[ "$(grep -cxF "$elements_import" "$TEMPLATE/manual.js")" = 1 ] || die "pkg-template/manual.js must have exactly one line $elements_import"
cp -r "$TEMPLATE/elements" "$OUT/"
# elements/index.js with the two element classes it imports (app-frame.js, elicitation-form.js) as
# one module: every entry imports it, so every page fetches the three (one file is 0.5 KB less gzip
# -9 than three, and two requests fewer). What they import on first use (view-session.js,
# elicitation-view.js, and what those import) stays in files of their own, located from the same
# folder as before. (Minified below with the rest.)
ELEMENTS_LAZY=(view-session.js elicitation-view.js)
esbuild "$TEMPLATE/elements/index.js" --bundle --format=esm --log-level=warning \
  "${ELEMENTS_LAZY[@]/#/--external:./}" --outfile="$OUT/elements/index.js" --allow-overwrite \
  || die "esbuild could not bundle elements/index.js"
# (esbuild would inline a module imported on first use that ELEMENTS_LAZY does not name)
[ "$(cat "$TEMPLATE/elements/app-frame.js" "$TEMPLATE/elements/elicitation-form.js" | grep -o 'import(' | wc -l)" \
  = "$(grep -o 'import(' "$OUT/elements/index.js" | wc -l)" ] \
  || die "elements/index.js inlines a module the element classes import on first use: name it in ELEMENTS_LAZY"
rm "$OUT/elements/app-frame.js" "$OUT/elements/elicitation-form.js"
! grep -qE "from ?['\"]\./(app-frame|elicitation-form)\.js" "$OUT"/elements/*.js \
  || die "a file of elements/ still imports app-frame.js or elicitation-form.js, which elements/index.js bundles"
# the React hooks (mcp-wasm-client/react): plain JS that imports "react" and, when first used, the
# package itself by name. For require() (Node CommonJS, TypeScript's node16 CommonJS), react/index.cjs
# is written from index.js by scripts/react-cjs.mjs (esbuild; it loads the package with require, so Node
# gives it node.cjs), and react/index.d.cts is index.d.ts reading the CommonJS declarations.
cp -r "$TEMPLATE/react" "$OUT/"
node "$ROOT/scripts/react-cjs.mjs" "$TEMPLATE/react/index.js" "$OUT/react/index.cjs" \
  || die "react/index.cjs from pkg-template/react/index.js failed (above)"
[ "$(grep -c 'from "../index.js"' "$OUT/react/index.d.ts")" = 1 ] \
  || die 'react/index.d.ts must import its types from exactly one "../index.js"'
sed 's#from "../index.js"#from "../index.cjs"#' "$OUT/react/index.d.ts" >"$OUT/react/index.d.cts"
cp "$TEMPLATE/mcp-app-sandbox.html" "$OUT/"
# mcp-wasm-client/middleware (withLogging, withRetry, createMiddleware, applyMiddlewares) and
# mcp-wasm-client/cache (memoryCacheStore, indexedDbCacheStore): plain ESM beside the wasm, each one
# index.js and index.d.ts; no entry imports them (a plain page's first download stays the same), and
# require() loads the same file (require(esm), Node >= 20.19). Their types import the package's.
for sub in middleware cache; do
  cp -r "$TEMPLATE/$sub" "$OUT/"
  ! grep -Eq "^import .* from ['\"](\.\./|mcp-wasm-client)" "$OUT/$sub/index.js" \
    || die "$sub/index.js imports the package: it must stay standalone"
done
# mcp-wasm-client/ai (toAiSdkTools, toolsFor, toModelContent): plain ESM modules beside the wasm
# (ai/*.js, index.d.ts); it imports "ai" (an optional peer dependency) and the package by name only
# when used, and no other file of the package imports it (a page that does not use it downloads
# nothing of it).
cp -r "$TEMPLATE/ai" "$OUT/"
ai_users="$(grep -rlE "['\"](\.{1,2}/)+ai/|mcp-wasm-client/ai" "$OUT" --include='*.js' --include='*.cjs' --include='*.mjs' | grep -v "^$OUT/ai/" || true)"
[ -z "$ai_users" ] || die "these files import the ai entry, which only its users may load: ${ai_users//$OUT\//}"
node --input-type=module -e '
  const m = await import(process.argv[1]);
  for (const name of ["toAiSdkTools", "toolsFor", "toModelContent"]) if (typeof m[name] !== "function") { console.error(`no ${name}`); process.exit(1); }' \
  "file://$OUT/ai/index.js" || die "ai/index.js does not load, or lacks an export (above)"
# The CommonJS entry's types (TypeScript's node16/nodenext resolution reads .d.cts for require, and
# a CommonJS file may not import an ESM .d.ts): the nodejs build's declarations as .d.cts, the
# elements' declarations pointing at them, and index.d.cts / core/index.d.cts from the template.
cp "$STAGE/nodejs/$STEM.d.ts" "$OUT/dist/$STEM.d.cts"
[ "$(grep -c "from \"../dist/$STEM.js\"" "$OUT/elements/index.d.ts")" = 1 ] \
  || die "elements/index.d.ts must import its types from exactly one \"../dist/$STEM.js\""
sed "s#from \"../dist/$STEM.js\"#from \"../dist/$STEM.cjs\"#" "$OUT/elements/index.d.ts" >"$OUT/elements/index.d.cts"
cp "$TEMPLATE/index.d.cts" "$OUT/"

# the core entry: its glue and .wasm in dist/core/, its wrappers in core/
mkdir -p "$OUT/dist/core" "$OUT/core"
cp "$STAGE/core-web/$STEM.js" "$STAGE/core-web/$STEM.d.ts" "$STAGE/core-web/${STEM}_bg.wasm" "$OUT/dist/core/"
public_init_types "$OUT/dist/core/$STEM.d.ts"
wasm_url_module "$OUT/dist/core"
[ -d "$STAGE/core-web/snippets" ] && cp -r "$STAGE/core-web/snippets" "$OUT/dist/core/"
node_glue "$STAGE/core-nodejs/$STEM.js" "$OUT/dist/core/$STEM.cjs"
# core/node.cjs, node.mjs, workerd.js (and manual.js below): the full entry's wrapper
# reading the core glue and .wasm (dist/core/) and the shared elements (../elements/); a wrapper
# with `// {{exports}}` gets `// {{absent}}` after it, the stand-ins' line (core/absent.js,
# required beside the glue). core_wrapper NAME writes $OUT/core/NAME.template.
core_wrapper() {
  local name="$1" file="$TEMPLATE/$1"
  {
    echo "// mcp-wasm-client/core's $name: the full entry's (below, written from pkg-template/$name by"
    echo "// scripts/package.sh), reading the core glue and .wasm in dist/core/."
    sed -e "s#'\./dist/$STEM\.js'#'../dist/core/$STEM.js'#g" \
      -e "s#'\./dist/$STEM\.cjs')#'../dist/core/$STEM.cjs');\nconst { absent } = require('./absent.js')#" \
      -e "s#'\./dist/${STEM}_bg\.wasm'#'../dist/core/${STEM}_bg.wasm'#g" \
      -e "s#'\./elements/#'../elements/#g" \
      -e 's#^// {{exports}}$#// {{exports}}\n// {{absent}}#' \
      "$file"
  } >"$OUT/core/$name.template"
  ! grep -qE "'\./(dist|elements)/" "$OUT/core/$name.template" || die "core/$name still names a ./dist/ or ./elements/ path"
}
for name in node.cjs node.mjs workerd.js; do core_wrapper "$name"; done
CORE=1 fill_exports "$OUT/core/node.cjs.template" "$OUT/core/node.cjs" 'exports.{} = glue.{};' "exports.{} = absent(glue.McpError, '{}');"
CORE=1 fill_exports "$OUT/core/node.mjs.template" "$OUT/core/node.mjs" '  {},' '  {},'
mv "$OUT/core/workerd.js.template" "$OUT/core/workerd.js"
# core/manual.js: pkg-template/manual.js reading the core glue, with the stand-ins (guarded too:
# before init they say so, like every other export)
glue_import="import * as glue from './dist/$STEM.js';"
[ "$(grep -cxF "$glue_import" "$TEMPLATE/manual.js")" = 1 ] || die "pkg-template/manual.js must have exactly one line $glue_import"
url_import="import { wasmUrl as defaultWasmUrl } from './dist/wasm-url.js';"
[ "$(grep -cxF "$url_import" "$TEMPLATE/manual.js")" = 1 ] || die "pkg-template/manual.js must have exactly one line $url_import"
# manual_over GLUE URL_MODULE: pkg-template/manual.js as a file one folder down (core/) sees
# it: reading GLUE and URL_MODULE (paths from that folder), the elements from ../elements/.
manual_over() {
  sed -e "s#^import \* as glue from './dist/$STEM.js';\$#import * as glue from '$1';#" \
    -e "s#^import { defineElements } from './elements/index.js';\$#import { defineElements } from '../elements/index.js';#" \
    -e "s#^import { wasmUrl as defaultWasmUrl } from './dist/wasm-url.js';\$#import { wasmUrl as defaultWasmUrl } from '$2';#" \
    "$TEMPLATE/manual.js"
}
{
  echo "// mcp-wasm-client/core's manual.js: the full entry's (below), reading the core glue; the"
  echo "// authorization helpers are stand-ins (absent.js) that throw. Not an entry of its own."
  manual_over "../dist/core/$STEM.js" ../dist/core/wasm-url.js \
    | sed "s#^import \* as glue from .*\$#&\nimport { absent } from './absent.js';#"
  echo '// {{absent}}'
} >"$OUT/core/manual.template.js"
CORE=1 fill_exports "$OUT/core/manual.template.js" "$OUT/core/manual.js" \
  "export const {} = guard(glue.{}, '{}');" "export const {} = guard(absent(glue.McpError, '{}'), '{}');"
fill_snippets "$OUT/core/manual.js" "$OUT/core/manual.filled.js" dist/core ../dist/core && mv "$OUT/core/manual.filled.js" "$OUT/core/manual.js"
rm "$OUT/core/manual.template.js"
# core/index.js: a template of its own (the default entry's index.js has two modules; the core, one)
fill_snippets "$TEMPLATE/core/index.js" "$OUT/core/index.js" dist/core ../dist/core
rm "$OUT/core/"*.template
cp "$TEMPLATE/core/index.d.ts" "$TEMPLATE/core/index.d.cts" "$TEMPLATE/core/absent.js" "$OUT/core/"
# the default entry's lean module is the lean build (the core build without `js-transport`:
# index.js makes a client over a JS transport in the full module): dist/mcp_wasm_client_lean.js, a
# copy of its web glue that reads the full build's snippets (the same files, checked, so that both modules of
# the default entry share one client.js and one McpError), and its .wasm beside the full one under
# a name of its own, dist/mcp_wasm_client_lean_bg.wasm (a bundler that emits no assets, Rollup or
# esbuild, copies dist/*.wasm into one folder); pkg-template/manual.js over that glue, with the
# real `auth` builders, is bundled into index.js, which re-exports it (below). The core entry keeps its own
# snippets: a process that loads both entries keeps their clients apart.
LEAN_NAMES="$(public_names $(web_export_names lean-web))"
[ "$LEAN_NAMES" = "${NAMES[*]}" ] \
  || die "the lean build exports [$LEAN_NAMES], the full one [${NAMES[*]}] (less the builders): the lean module must have every export"
lean_snippets="$(basename "$(echo "$STAGE"/lean-web/snippets/*/)")"
( cd "$STAGE/lean-web/snippets/$lean_snippets" && find . -type f ) | while IFS= read -r f; do
  cmp -s "$STAGE/lean-web/snippets/$lean_snippets/$f" "$OUT/dist/snippets/$SNIPPETS_NAME/$f" \
    || die "the lean build's snippet $f differs from the full build's (or the full build has none)"
done
# (only the import statements: the import object's keys are the wasm's import module names)
sed -E -e "s#from ?([\"'])\./snippets/$lean_snippets/#from\1./snippets/$SNIPPETS_NAME/#g" \
  -e "s#new URL\(([\"'])${STEM}_bg\.wasm([\"']), ?import\.meta\.url\)#new URL(\1${STEM}_lean_bg.wasm\2,import.meta.url)#g" \
  -e "s#from ?([\"'])\./__wasm_split\.js([\"'])#from\1./${STEM}_lean_parts.js\2#g" \
  "$STAGE/lean-web/$STEM.js" >"$OUT/dist/${STEM}_lean.js"
grep -q "new URL(.${STEM}_lean_bg\.wasm" "$OUT/dist/${STEM}_lean.js" || die "dist/${STEM}_lean.js does not locate ${STEM}_lean_bg.wasm"
! grep -qE "from ?[\"']\./__wasm_split\.js" "$OUT/dist/${STEM}_lean.js" || die "dist/${STEM}_lean.js still imports __wasm_split.js"
cp "$STAGE/lean-web/${STEM}_bg.wasm" "$OUT/dist/${STEM}_lean_bg.wasm"
# The lean module's parts (src/parts; scripts/build-wasm.sh splits them off): each split_PART.wasm
# as dist/mcp_wasm_client_lean_PART.wasm (a chunk_N.wasm, what several parts share, as
# dist/mcp_wasm_client_lean_chunk_N.wasm), and their loader (the module's __wasm_split.js) as
# dist/mcp_wasm_client_lean_parts.js, importing the lean glue and locating each part as the glue
# locates its .wasm (new URL(…, import.meta.url): a bundler's asset).
[ -f "$STAGE/lean-web/__wasm_split.js" ] || die "the lean build has no part loader (__wasm_split.js)"
ls "$STAGE"/lean-web/split_*.wasm >/dev/null 2>&1 || die "the lean build has no part (split_*.wasm)"
lean_modules=()
for f in "$STAGE"/lean-web/split_*.wasm "$STAGE"/lean-web/chunk_*.wasm; do
  [ -f "$f" ] || continue
  module="${f##*/}"; module="${module#split_}"; module="${module%.wasm}"
  lean_modules+=("$module")
  cp "$f" "$OUT/dist/${STEM}_lean_$module.wasm"
done
sed -E -e "s#from ?([\"'])\./${STEM}\.js([\"'])#from\1./${STEM}_lean.js\2#g" \
  -e "s#new URL\(([\"'])\./(split_)?([a-z_0-9]+)\.wasm([\"'])#new URL(\1./${STEM}_lean_\3.wasm\4#g" \
  "$STAGE/lean-web/__wasm_split.js" >"$OUT/dist/${STEM}_lean_parts.js"
grep -qE "from ?[\"']\./${STEM}_lean\.js" "$OUT/dist/${STEM}_lean_parts.js" || die "dist/${STEM}_lean_parts.js does not import the lean glue"
for module in "${lean_modules[@]}"; do
  grep -q "new URL(.\./${STEM}_lean_$module\.wasm" "$OUT/dist/${STEM}_lean_parts.js" \
    || die "dist/${STEM}_lean_parts.js does not locate ${STEM}_lean_$module.wasm"
done
[ "$(grep -o "new URL(" "$OUT/dist/${STEM}_lean_parts.js" | wc -l)" = "${#lean_modules[@]}" ] \
  || die "dist/${STEM}_lean_parts.js locates other modules than the lean build's ${lean_modules[*]}"
printf '%s\n' "// Written by scripts/package.sh: the lean module's .wasm (the lean build's), located as its glue does." \
  "export const wasmUrl = () => new URL('${STEM}_lean_bg.wasm', import.meta.url);" >"$OUT/dist/wasm-url-lean.js"
# The lean module's exports (pkg-template/manual.js over the lean glue, with the real `auth`
# builders), which index.js re-exports, go into index.js itself: written beside it as
# lean-manual.tmp.js (the template's paths, which are index.js's too), then bundled into it by
# esbuild, every other module it imports left as it is (what it imports on first use, full.js and
# auth-part.js, included): one module fewer, and one step less in the chain of imports, on every page.
sed -e "s#^import \* as glue from './dist/$STEM.js';\$#import * as glue from './dist/${STEM}_lean.js';#" \
  -e "s#^import { wasmUrl as defaultWasmUrl } from './dist/wasm-url.js';\$#import { wasmUrl as defaultWasmUrl } from './dist/wasm-url-lean.js';#" \
  "$TEMPLATE/manual.js" >"$OUT/lean-manual.template.js"
CORE=0 BUILDERS_LINE="export { {} } from '{{snippets}}/src/js/auth/builders.js';" \
  fill_exports "$OUT/lean-manual.template.js" "$OUT/lean-manual.filled.js" "export const {} = guard(glue.{}, '{}');"
fill_snippets "$OUT/lean-manual.filled.js" "$OUT/lean-manual.tmp.js" dist ./dist
rm "$OUT/lean-manual.template.js" "$OUT/lean-manual.filled.js"
grep -q "from '\./dist/${STEM}_lean\.js'" "$OUT/lean-manual.tmp.js" && grep -q "from '\./dist/wasm-url-lean\.js'" "$OUT/lean-manual.tmp.js" \
  || die "the lean module's exports do not read the lean glue and dist/wasm-url-lean.js"
lean_import="'./lean/manual.js'"
[ "$(grep -cF "$lean_import" "$OUT/index.js")" -ge 1 ] || die "index.js does not import $lean_import"
sed -i "s#'\./lean/manual\.js'#'./lean-manual.tmp.js'#g" "$OUT/index.js"
esbuild "$OUT/index.js" --bundle --format=esm --log-level=warning --external:./dist/* --external:./elements/* \
  --external:./full.js --external:./auth-part.js --outfile="$OUT/index.js" --allow-overwrite \
  || die "esbuild could not bundle index.js with the lean module's exports"
rm "$OUT/lean-manual.tmp.js"
! grep -qE "(from|import) ?['\"][^'\"]*(lean-manual|lean/manual)" "$OUT/index.js" || die "index.js still imports the lean module's exports"
[ "$(grep -o 'import(' "$OUT/index.js" | wc -l)" = "$(grep -o 'import(' "$TEMPLATE/index.js" | wc -l)" ] \
  || die "the bundled index.js has other imports on first use than pkg-template/index.js (a module inlined?)"
cp "$TEMPLATE/full.js" "$TEMPLATE/auth-part.js" "$OUT/"
for f in "$ROOT"/LICENSE*; do [ -f "$f" ] && cp "$f" "$OUT/"; done
# The JS a page loads from outside dist/ (the entries' wrappers and the custom elements), minified
# in place by esbuild as build-wasm.sh minifies dist/'s: whitespace, comments, syntax, local names;
# the exported names stay. (node.cjs, node.mjs and node-wasm.cjs stay as written: Node prints the
# source line of an uncaught error; react/ and ai/ are entries of their own, as written.)
minify=(index.js manual.js full.js auth-part.js core/index.js core/manual.js core/absent.js)
for f in "$OUT"/elements/*.js; do minify+=("elements/${f##*/}"); done
for f in "${minify[@]}"; do
  esbuild "$OUT/$f" --minify --log-level=warning --outfile="$OUT/$f" --allow-overwrite \
    || die "esbuild could not minify $f"
done

# package.json: pkg-template/package.json with the "{{version}}", "{{description}}", "{{license}}"
# and "{{repository}}" placeholders replaced by Cargo.toml's values (no repository: no field).
VERSION="$VERSION" DESCRIPTION="$DESCRIPTION" LICENSE="$LICENSE" REPOSITORY="$REPOSITORY" NAME="$NAME" \
  node -e '
const fs = require("fs");
const [template, out] = process.argv.slice(1);
const env = process.env;
const pkg = JSON.parse(fs.readFileSync(template, "utf8"));
const fill = (value, key) => {
  if (value !== `{{${key}}}`) throw new Error(`${template}: expected "{{${key}}}", found ${JSON.stringify(value)}`);
  return env[key.toUpperCase()];
};
if (pkg.name !== env.NAME) throw new Error(`${template}: name is ${pkg.name}, not ${env.NAME}`);
pkg.version = fill(pkg.version, "version");
pkg.description = fill(pkg.description, "description");
pkg.license = fill(pkg.license, "license");
if (env.REPOSITORY) pkg.repository.url = fill(pkg.repository.url, "repository");
else delete pkg.repository;
const text = JSON.stringify(pkg, null, 2) + "\n";
if (text.includes("{{")) throw new Error(`${template}: a placeholder is left: ${text.match(/{{.*?}}/)[0]}`);
fs.writeFileSync(out, text);
' "$TEMPLATE/package.json" "$OUT/package.json" || die "package.json from pkg-template/package.json failed"

# 4. sanity: every entry loads where it should ---------------------------------------------------
node -e 'const m = require(process.argv[1]); if (typeof m.Client !== "function") process.exit(1);' "$OUT/node.cjs" \
  || die "node.cjs does not load"
node --input-type=module -e 'const m = await import(process.argv[1]); if (typeof m.Client !== "function") process.exit(1);' "file://$OUT/node.mjs" \
  || die "node.mjs does not load"
for f in core/node.cjs core/node.mjs; do
  node --input-type=module -e '
    const m = await import(process.argv[1]);
    if (typeof m.Client !== "function") process.exit(1);
    for (const name of process.argv.slice(2)) {
      try { m[name](); process.exit(2); } catch (e) { if (!(e instanceof m.McpError)) process.exit(3); }
    }' "file://$OUT/$f" "${ABSENT[@]}" || die "$f does not load, or a stand-in does not throw an McpError"
done

# no entry exports an INTERNAL name, and the glue's declarations (which index.d.ts re-exports) do not
# declare one (the .wasm's own _bg.wasm.d.ts, which lists every raw export, is not shipped: no
# entry refers to it, and mcp-wasm-client/wasm has its own wasm.d.ts)
for f in node.cjs node.mjs core/node.cjs core/node.mjs; do
  node --input-type=module -e '
    const m = await import(process.argv[1]);
    const leaked = process.argv.slice(2).filter((n) => n in m);
    if (leaked.length) { console.error(leaked.join(", ")); process.exit(1); }' "file://$OUT/$f" "${INTERNAL[@]}" \
    || die "$f exports internal names (above)"
done
for n in "${INTERNAL[@]}"; do
  if grep -Eq "^export (declare )?(function|class|const) $n\b" "$OUT/dist/$STEM.d.ts" "$OUT/dist/$STEM.d.cts" "$OUT/dist/core/$STEM.d.ts"; then
    die "the glue's declarations declare the internal '$n' (skip_typescript it in the Rust)"
  fi
done
# ... nor does any declaration file the entries reach mention the glue's internals: ClientCore,
# wasm-bindgen's __wbg_* names, wasmMemoryBytes, or InitOutput's raw exports (start, memory).
leaks="$(find "$OUT" \( -name '*.d.ts' -o -name '*.d.cts' \) -print0 \
  | xargs -0 grep -EnH 'ClientCore|__wbg|wasmMemoryBytes|interface InitOutput|readonly (start|memory)\b' || true)"
[ -z "$leaks" ] || die "declarations mention the glue's internals: ${leaks//$OUT\//}"

# 5. pack ----------------------------------------------------------------------------------------
rm -f "$ROOT/pkg/$NAME"-*.tgz
( cd "$OUT" && npm pack --silent --pack-destination "$ROOT/pkg" >/dev/null )
TARBALL="$ROOT/pkg/$NAME-$VERSION.tgz"
[ -f "$TARBALL" ] || die "npm pack did not write $TARBALL"

# 6. sizes ---------------------------------------------------------------------------------------
gz() { gzip -9c "$1" | wc -c; }
{
  echo "sizes (gzip -9; raw in parentheses):"
  for target in nodejs web core-nodejs core-web lean-web; do
    wasm="$STAGE/$target/${STEM}_bg.wasm"; js="$STAGE/$target/$STEM.js"
    line="  $target target: wasm $(gz "$wasm") B ($(stat -c %s "$wasm") B), JS glue $(gz "$js") B ($(stat -c %s "$js") B)"
    [ -f "$STAGE/$target/${STEM}_bg.js" ] && line+=", _bg.js $(gz "$STAGE/$target/${STEM}_bg.js") B"
    echo "$line"
  done
  wrappers=0
  for f in index.js manual.js node.cjs node.mjs; do wrappers=$((wrappers + $(gz "$OUT/$f"))); done
  echo "  package wrappers (index.js, manual.js, node.cjs, node.mjs): $wrappers B"
  elements=0
  for f in "$OUT"/elements/*.js; do elements=$((elements + $(gz "$f"))); done
  echo "  custom elements (elements/*.js, outside the wasm): $elements B; mcp-app-sandbox.html $(gz "$OUT/mcp-app-sandbox.html") B"
  echo "  React hooks (react/index.js, outside the wasm): $(gz "$OUT/react/index.js") B; react/index.cjs (require) $(gz "$OUT/react/index.cjs") B"
  echo "  middleware/index.js $(gz "$OUT/middleware/index.js") B, cache/index.js $(gz "$OUT/cache/index.js") B (outside the wasm, imported only by name)"
  echo "  tarball: $(stat -c %s "$TARBALL") B ($(tar -tzf "$TARBALL" | wc -l) files)"
} >&2
echo "$TARBALL"
