// Every module the npm package ships for pages, bundlers and workers (wasm and JS), its gzip -9 size
// and what loads it: which entry imports it on import (statically, through the import graph from
// that entry's file), or which `import()` of which module fetches it on first use; a .wasm is
// loaded by the module that locates it (`new URL("…wasm", import.meta.url)`).
//
//   node scripts/module-map.mjs [PACKAGE_DIR | TARBALL.tgz] [--budgets FILE]
//
// PACKAGE_DIR defaults to pkg/npm (scripts/package.sh). With --budgets (a JSON object: package path
// → gzip bytes; `{{snippets}}/src/js/…` for a snippet of the full build), exits 1 when a listed
// module is over its budget or missing, and prints
// `module-budgets: N passed, M failed`. The import graph is read from the shipped files with
// regular expressions over `import … from "…"`, `export … from "…"`, `import("…")` and
// `new URL("…", import.meta.url)` (the files are esbuild's output: one form each); a specifier
// that is not a relative path (a package name: "react", "ai") is not followed.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const budgetsAt = args.indexOf("--budgets");
const budgetsFile = budgetsAt >= 0 ? args.splice(budgetsAt, 2)[1] : null;
const source = path.resolve(args[0] ?? path.join(ROOT, "pkg/npm"));
let dir = source;
let unpacked = null;
if (source.endsWith(".tgz")) {
  unpacked = mkdtempSync(path.join(tmpdir(), "module-map-"));
  execFileSync("tar", ["xzf", source, "-C", unpacked, "--strip-components=1"]);
  dir = unpacked;
}

/** The browser-side entries (package.json "exports", default conditions) and what each is. */
const ENTRIES = {
  "index.js": "mcp-wasm-client (pages, bundlers, workers)",
  "core/index.js": "mcp-wasm-client/core",
  "manual.js": "mcp-wasm-client/manual",
  "middleware/index.js": "mcp-wasm-client/middleware",
  "cache/index.js": "mcp-wasm-client/cache",
  "react/index.js": "mcp-wasm-client/react",
  "ai/index.js": "mcp-wasm-client/ai",
};

const size = (file) => gzipSync(readFileSync(path.join(dir, file)), { level: 9 }).length;

/** The relative specifiers `file` imports: { static: [...], lazy: [...], wasm: [...] } as package paths. */
function importsOf(file) {
  const text = readFileSync(path.join(dir, file), "utf8");
  const resolve = (spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  const found = { static: new Set(), lazy: new Set(), wasm: new Set() };
  const relative = (spec) => spec.startsWith("./") || spec.startsWith("../");
  for (const m of text.matchAll(/(?:\bimport|\bexport)\s*(?:[\w${},*\s]+?\s*from\s*)?["']([^"']+)["']/g))
    if (relative(m[1])) found.static.add(resolve(m[1]));
  for (const m of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) if (relative(m[1])) found.lazy.add(resolve(m[1]));
  for (const m of text.matchAll(/new URL\(\s*["']([^"']+\.wasm)["']\s*,\s*import\.meta\.url\s*\)/g)) found.wasm.add(resolve(m[1]));
  return found;
}

// How a .wasm located by `locator` is fetched: a module's by its init; a part of the lean module
// (located by the part loader, dist/*_parts.js: src/parts) when the part is first used.
const wasmHow = (name, locator, otherwise) =>
  /_parts\.js$/.test(locator) ? `${name}: on first use of its part (fetched by ${locator})` : otherwise;

// Each entry's static closure loads on import; each import() in it adds what its own closure holds
// beyond that, on first use. A .wasm is listed once per way it is reached.
const loadedBy = new Map(); // package path → Set of "how" strings
const note = (file, how) => {
  if (!loadedBy.has(file)) loadedBy.set(file, new Set());
  loadedBy.get(file).add(how);
};
/** The files `start` loads statically, its .wasm files (each → the file that locates it), and its
 * import()s as [importer, target]. */
function closure(start) {
  const files = new Set();
  const wasm = new Map();
  const lazy = [];
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    if (files.has(file) || !existsSync(path.join(dir, file))) continue;
    files.add(file);
    const found = importsOf(file);
    queue.push(...found.static);
    for (const w of found.wasm) if (!wasm.has(w)) wasm.set(w, file);
    for (const l of found.lazy) lazy.push([file, l]);
  }
  return { files, wasm, lazy };
}
for (const [entry, name] of Object.entries(ENTRIES)) {
  if (!existsSync(path.join(dir, entry))) continue;
  const first = closure(entry);
  for (const f of first.files) note(f, `${name}: on import`);
  for (const [w, locator] of first.wasm) note(w, wasmHow(name, locator, `${name}: on import (fetched by its init: the first client, or init())`));
  const seen = new Set([...first.files, ...first.wasm.keys()]);
  const pending = [...first.lazy];
  const followed = new Set(); // each import() once: a lazy module may import its importer back (helpers.js, builders.js)
  while (pending.length) {
    const [from, target] = pending.shift();
    if (followed.has(`${from} -> ${target}`)) continue;
    followed.add(`${from} -> ${target}`);
    const more = closure(target);
    const how = `${name}: on first use (import() in ${from})`;
    for (const f of more.files) {
      if (seen.has(f)) continue;
      seen.add(f);
      note(f, how);
    }
    for (const [w, locator] of more.wasm) {
      if (seen.has(w)) continue;
      seen.add(w);
      note(w, wasmHow(name, locator, how));
    }
    pending.push(...more.lazy);
  }
}

const rows = [...loadedBy.keys()].filter((f) => existsSync(path.join(dir, f))).sort();
console.log("== the package's modules for pages (gzip -9 B) and what loads them ==");
for (const file of rows) {
  const hows = [...loadedBy.get(file)];
  console.log(`${String(size(file)).padStart(9)}  ${file}`);
  for (const how of hows) console.log(`           ${how}`);
}

let failed = 0;
if (budgetsFile) {
  const budgets = JSON.parse(readFileSync(budgetsFile, "utf8"));
  let passed = 0;
  // `{{snippets}}/…` names a snippet of the full build (its folder's name has a hash)
  const snippets = existsSync(path.join(dir, "dist/snippets")) ? readdirSync(path.join(dir, "dist/snippets"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : [];
  for (const [key, budget] of Object.entries(budgets)) {
    if (key.startsWith("//")) continue;
    const file = key.replace("{{snippets}}", `dist/snippets/${snippets.length === 1 ? snippets[0] : "(not one snippets folder)"}`);
    const ok = existsSync(path.join(dir, file)) && size(file) <= budget;
    ok ? passed++ : failed++;
    const got = existsSync(path.join(dir, file)) ? `${size(file)} B` : "missing";
    console.log(`${ok ? "pass" : "FAIL"}  ${file}: ${got} (budget ${budget} B)`);
  }
  console.log(`module-budgets: ${passed} passed, ${failed} failed`);
}
if (unpacked) rmSync(unpacked, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
