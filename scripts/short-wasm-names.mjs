// Shortens the names wasm-bindgen gives the wasm module's glue imports and internal exports
// (`__wbg_keys_105f5c0857898f84`, `wasm_bindgen_…___convert__closures_____invoke___…` up to 339
// characters) to `$a`, `$b`…, in the .wasm and in every JS and .d.ts file of the package, so
// neither the module nor the glue carries them. Names JS code outside the package can see stay:
// the snippets' imports (`portTransport`…), `memory`, and every export without an underscore
// (the public functions, `authorizeHeadless`…). A public name of the package changing fails the
// build. What it saves: docs/SIZE.md.
//
// The lean build's parts (split_*.wasm and chunk_*.wasm beside the module, scripts/build-wasm.sh) import what they
// share of the module (its function table, memory, globals) by its export names from
// `__wasm_split`: those imports take the new names too.
//
// Usage: node scripts/short-wasm-names.mjs PKG_DIR   (after wasm-pack, before minifying the JS)
import { readFileSync, writeFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
if (!dir) throw new Error("usage: node scripts/short-wasm-names.mjs PKG_DIR");
const wasmFile = readdirSync(dir).find((f) => f.endsWith("_bg.wasm"));
if (!wasmFile) throw new Error(`short-wasm-names: no *_bg.wasm in ${dir}`);
const glueModule = `./${wasmFile.replace(/\.wasm$/, ".js")}`;

const files = [];
(function walk(d) {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(js|d\.ts)$/.test(f)) files.push(p);
  }
})(dir);
const texts = new Map(files.map((p) => [p, readFileSync(p, "utf8")]));
const allText = [...texts.values()].join("\n");

// Short names: `$` and letters, skipping any already in the package's text.
let next = 0;
function shortName() {
  for (;;) {
    let n = next++;
    let s = "";
    do {
      s = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[n % 52] + s;
      n = Math.floor(n / 52);
    } while (n > 0);
    if (!new RegExp(`\\$${s}(?![\\w$])`).test(allText)) return `$${s}`;
  }
}

let bytes;
let pos = 0;
function leb() {
  let r = 0, shift = 0, b;
  do {
    b = bytes[pos++];
    r += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return r;
}
function encLeb(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return Buffer.from(out);
}
const encName = (s) => {
  const b = Buffer.from(s, "utf8");
  return Buffer.concat([encLeb(b.length), b]);
};
function readName() {
  const len = leb();
  const s = bytes.subarray(pos, pos + len).toString("utf8");
  pos += len;
  return s;
}

const mapping = new Map();
const rename = (name) => {
  if (!mapping.has(name)) mapping.set(name, shortName());
  return mapping.get(name);
};

// `module`'s bytes with its import and export names passed through `importName(module, field)`
// and `exportName(name)`.
function withNames(module, importName, exportName) {
  bytes = module;
  const out = [bytes.subarray(0, 8)];
  pos = 8;
  while (pos < bytes.length) {
    const id = bytes[pos++];
    const size = leb();
    const end = pos + size;
    if (id === 2 || id === 7) {
      const parts = [];
      const count = leb();
      parts.push(encLeb(count));
      for (let i = 0; i < count; i++) {
        if (id === 2) {
          const module = readName();
          const field = readName();
          const start = pos;
          const kind = bytes[pos++];
          if (kind === 0) leb();
          else if (kind === 1) {
            pos++;
            const flags = leb();
            leb();
            if (flags & 1) leb();
          } else if (kind === 2) {
            const flags = leb();
            leb();
            if (flags & 1) leb();
          } else if (kind === 3) pos += 2;
          else if (kind === 4) {
            pos++;
            leb();
          } else throw new Error(`short-wasm-names: unknown import kind ${kind}`);
          parts.push(encName(module), encName(importName(module, field)), bytes.subarray(start, pos));
        } else {
          const name = readName();
          const start = pos;
          pos++;
          leb();
          parts.push(encName(exportName(name)), bytes.subarray(start, pos));
        }
      }
      if (pos !== end) throw new Error(`short-wasm-names: section ${id} not read to its end`);
      const body = Buffer.concat(parts);
      out.push(Buffer.from([id]), encLeb(body.length), body);
    } else {
      out.push(bytes.subarray(pos - 1 - encLeb(size).length, end));
    }
    pos = end;
  }
  return Buffer.concat(out);
}

const main = withNames(
  readFileSync(join(dir, wasmFile)),
  (module, field) => (module === glueModule && /^__wb(g|indgen)_/.test(field) ? rename(field) : field),
  (name) => (name.includes("_") ? rename(name) : name),
);
const parts = new Map(
  readdirSync(dir)
    .filter((f) => /^(split|chunk)_.*\.wasm$/.test(f))
    .map((f) => [
      f,
      withNames(
        readFileSync(join(dir, f)),
        (module, field) => (module === "__wasm_split" && mapping.has(field) ? mapping.get(field) : field),
        (name) => name,
      ),
    ]),
);

// The package's public names (what its files export, other than the glue functions renamed
// here) must not change.
const publicNames = (text) =>
  [...text.matchAll(/export (?:declare )?(?:function|class|const|type|interface|enum) ([\w$]+)/g)]
    .map((m) => m[1])
    .filter((n) => !mapping.has(n) && !n.startsWith("$"))
    .sort()
    .join(",");
const before = new Map([...texts].map(([p, t]) => [p, publicNames(t)]));

const names = [...mapping.keys()].sort((a, b) => b.length - a.length);
const pattern = new RegExp(`(?<![\\w$])(${names.map((n) => n.replace(/\$/g, "\\$")).join("|")})(?![\\w$])`, "g");
for (const [p, t] of texts) {
  const renamed = t.replace(pattern, (n) => mapping.get(n));
  const changed = publicNames(renamed) !== before.get(p);
  if (changed) throw new Error(`short-wasm-names: a public name of ${p} would change`);
  if (renamed !== t) writeFileSync(p, renamed);
}
writeFileSync(join(dir, wasmFile), main);
for (const [f, part] of parts) writeFileSync(join(dir, f), part);
