// The sizes README.md, pkg-template/README.md and docs/ quote, against the ones this run measured.
// A quoted figure carries a marker right after it naming what it is, e.g.
//   **275,256 B**<!-- size: web.total -->     3.01–3.13×<!-- size: web.total/ts -->
// and must equal the measurement (bytes exactly, KiB to its decimals, a ratio range to 0.01). A
// figure of 100,000 B or more without a marker fails too, so a new one cannot drift unseen;
// `<!-- size: history -->` marks a figure that is history on purpose (in docs/SIZE.md, whose
// tables are history, only the marked figures are checked).
//
//   node tests/packaging/doc-sizes.mjs [TARBALL.tgz | PACKAGE_DIR]
//
// The measurements: pkg/sizes.json (the build stage: web.* and core.*, each wasm, glue, snippets,
// total), pkg/first-download.json (first.total, first.files, first.elements: the elements/ files
// among them, first.wrappers: index.js (with the lean module's exports) + manual.js), pkg/first-download-signed-in.json
// (signed.total, signed.files: a returning signed-in user's page), and from the package (default pkg/npm):
// elements (elements/*.js), react (react/index.js), sandbox (mcp-app-sandbox.html), each `gzip -9`
// as the build measures; ts.v1 and
// ts.v2 are the TypeScript client's bundle (bench/RESULTS.md, "browser (web)" row, KiB), for
// ratios KEY/ts (KEY over both). Prints one line per file and "doc-sizes: N passed, M failed".
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const source = path.resolve(process.argv[2] ?? path.join(ROOT, "pkg/npm"));
let passed = 0;
let failed = 0;
const report = (ok, label, detail) => {
  ok ? passed++ : failed++;
  console.log(`${ok ? "PASS" : "FAIL"}  ${label}${detail ? `  ${detail}` : ""}`);
};
const gz = (file) => execFileSync("gzip", ["-9c", file], { maxBuffer: 64 << 20 }).length;

function measurements() {
  const m = {};
  const read = (file) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8"));
  for (const [entry, figures] of Object.entries(read("pkg/sizes.json"))) {
    for (const [part, value] of Object.entries(figures)) m[`${entry}.${part}`] = value;
  }
  const first = read("pkg/first-download.json");
  m["first.total"] = first.total;
  m["first.files"] = first.files.length;
  const sum = (files) => files.reduce((s, f) => s + f.gzip, 0);
  m["first.elements"] = sum(first.files.filter((f) => f.name.startsWith("elements/")));
  m["first.wrappers"] = sum(first.files.filter((f) => ["index.js", "manual.js"].includes(f.name)));
  const signed = read("pkg/first-download-signed-in.json");
  m["signed.total"] = signed.total;
  m["signed.files"] = signed.files.length;
  let dir = source;
  let tmp;
  if (source.endsWith(".tgz")) {
    tmp = dir = mkdtempSync(path.join(tmpdir(), "doc-sizes-"));
    execFileSync("tar", ["xzf", source, "-C", dir, "--strip-components=1"]);
  }
  try {
    const elements = readdirSync(path.join(dir, "elements")).filter((f) => f.endsWith(".js"));
    m.elements = elements.reduce((s, f) => s + gz(path.join(dir, "elements", f)), 0);
    m.react = gz(path.join(dir, "react/index.js"));
    m.sandbox = gz(path.join(dir, "mcp-app-sandbox.html"));
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
  const row = readFileSync(path.join(ROOT, "bench/RESULTS.md"), "utf8").split("\n").find((l) => l.startsWith("| browser (web) |"));
  const kib = row?.split("|").map((c) => c.trim()).filter((c) => /^\d+(\.\d+)? KiB$/.test(c)).map((c) => parseFloat(c));
  if (!kib || kib.length < 3) throw new Error('bench/RESULTS.md has no "| browser (web) |" row with the TypeScript clients\' KiB');
  [m["ts.v1"], m["ts.v2"]] = kib.slice(-2); // the row: ours, its parts, TS 1.x, TS 2.x
  return m;
}

/** Whether the quoted text says the measured value (to the precision it is written with). */
function agrees(text, key, m) {
  const number = (s) => parseFloat(s.replace(/,/g, ""));
  const ratio = key.match(/^(.+)\/ts$/);
  if (ratio) {
    const [lo, hi] = text.split(/[–-]/).map(number);
    const value = m[ratio[1]] / 1024;
    const want = [value / m["ts.v1"], value / m["ts.v2"]].sort((a, b) => a - b);
    return [Math.abs(lo - want[0]) <= 0.011 && Math.abs(hi - want[1]) <= 0.011, `${want[0].toFixed(2)}–${want[1].toFixed(2)}×`];
  }
  if (!(key in m)) return [false, `no measurement named ${key}`];
  const value = m[key];
  if (/KiB$/.test(text)) {
    const decimals = (text.match(/\.(\d+)/)?.[1] ?? "").length;
    return [Math.abs(number(text) - value / 1024) <= 0.5 * 10 ** -decimals + 1e-9, `${(value / 1024).toFixed(decimals)} KiB`];
  }
  return [number(text) === value, `${value.toLocaleString("en-US")}${/B$/.test(text) ? " B" : ""}`];
}

const FIGURE = /(\d[\d,]*(?:\.\d+)?(?:[–-]\d+(?:\.\d+)?×| ?KiB| B|×)?)(\**)(<!-- size: ([\w./-]+) -->)?/g;

function check(file, m, { unmarked = true } = {}) {
  const rel = path.relative(ROOT, file);
  const text = readFileSync(file, "utf8");
  const problems = [];
  let marked = 0;
  for (const match of text.matchAll(FIGURE)) {
    const [, figure, , marker, key] = match;
    const line = text.slice(0, match.index).split("\n").length;
    if (marker) {
      marked++;
      if (key === "history") continue;
      const [ok, want] = agrees(figure, key, m);
      if (!ok) problems.push(`${rel}:${line}: ${figure} (${key}) is ${want} in this build`);
    } else if (unmarked && /^\d{3},\d{3}(,\d{3})* B$/.test(figure)) {
      problems.push(`${rel}:${line}: ${figure} has no <!-- size: … --> marker (a measured size, or history)`);
    }
  }
  report(problems.length === 0, `${rel}: ${marked} marked sizes agree with this build`, problems.join("; "));
}

let m;
try {
  m = measurements();
} catch (e) {
  report(false, "the measurements (pkg/sizes.json, pkg/first-download.json, the package)", e.message);
}
if (m) {
  const docs = readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => path.join(ROOT, "docs", f));
  for (const file of [path.join(ROOT, "README.md"), path.join(ROOT, "pkg-template/README.md"), ...docs]) {
    check(file, m, { unmarked: path.basename(file) !== "SIZE.md" });
  }
}
console.log(`doc-sizes: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
