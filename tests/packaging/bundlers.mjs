// Consumer builds with real bundlers (matrix.mjs runs them): each fixtures/bundlers/<name> is a
// consumer project as a user writes it, whose package.json scripts are the setup the package
// README's "Bundlers" section documents. Its src/main.js is app.js (browser) or node-app.js (Node):
// the default entry, connect + listTools + callTool("echo") against the python peer. The bundlers
// are this folder's pinned devDependencies (one `npm ci`, one lockfile), which the projects reach
// through <tmp>/bundlers/node_modules -> tests/packaging/node_modules, as a workspace's hoisted tools.
// Each browser bundle is served from its own dist/ alone (nothing else on that origin) and run in
// Chromium; the Node bundles run under this Node (node-bundles.mjs).
import { cp, mkdir, readdir, readFile, symlink } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "acorn";
import { nodeBundles } from "./node-bundles.mjs";
import { serveStatic } from "./serve.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(HERE, "fixtures", "bundlers");
// The .wasm a page's client without `auth` loads: the default entry's lean module.
const WASM = "mcp_wasm_client_lean_bg.wasm";

// The page builds (fixture folder, the npm package whose version the line names; control: also
// served without the .wasm). The Node builds (scripts of fixtures/bundlers/esbuild-node) are
// node-bundles.mjs's.
const BROWSER = [
  { name: "vite", tool: "vite", label: (v) => `vite ${v} build, its default target, no config` },
  { name: "webpack", tool: "webpack", label: (v) => `webpack ${v}, defaults + entry/output/mode, no experiments` },
  { name: "rollup", tool: "rollup", label: (v) => `rollup ${v} + node-resolve only, .wasm copied`, control: true },
  { name: "esbuild", tool: "esbuild", label: (v) => `esbuild ${v} --bundle --format=esm, .wasm copied` },
  { name: "esbuild-wasm-file", tool: "esbuild", label: (v) => `esbuild ${v} --bundle --format=esm --loader:.wasm=file, init from "mcp-wasm-client/wasm-lean"` },
];

/** Copies, installs and builds every bundler consumer, then runs each build; records one line each. */
export async function consumerBuilds({ tmp, tarball, pyUrl, pyDown, record, run, brief, lastJson, chromium }) {
  const started = Date.now();
  const root = path.join(tmp, "bundlers");
  await mkdir(root, { recursive: true });
  await symlink(path.join(HERE, "node_modules"), path.join(root, "node_modules"), "dir");
  const version = async (pkg) => JSON.parse(await readFile(path.join(HERE, "node_modules", pkg, "package.json"), "utf8")).version;
  const names = [...BROWSER.map((b) => b.name), "esbuild-node"];
  const installed = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await install(root, name, tarball, run, brief)])));

  if (!installed["esbuild-node"]) await readmeMatches(path.join(root, "esbuild-node", "node_modules", "mcp-wasm-client", "README.md"), version, record);

  const pages = [];
  for (const b of BROWSER) {
    const label = b.label(await version(b.tool));
    if (installed[b.name]) { record(label, "fail", installed[b.name]); continue; }
    const dir = path.join(root, b.name);
    const built = await run("npm", ["run", "--silent", "build"], { cwd: dir, timeoutMs: 180_000 });
    if (built.code !== 0) { record(label, "fail", `build: ${brief(built)}`); continue; }
    if (!existsSync(path.join(dir, "dist", "index.html"))) await cp(path.join(dir, "index.html"), path.join(dir, "dist", "index.html"));
    pages.push({ label, dir: path.join(dir, "dist"), awaits: await topLevelAwaits(path.join(dir, "dist")) });
    if (b.control) pages.push({ label: `${label.replace(/, \.wasm copied$/, "")}: without the copied .wasm the call fails (control)`, dir: path.join(dir, "dist"), hide: WASM });
  }
  if (pyDown) pages.forEach((p) => record(p.label, "fail", pyDown));
  else if (pages.length) await runPages(pages, pyUrl, record, chromium);

  await nodeBundles({
    dir: path.join(root, "esbuild-node"), tmp, esbuild: await version("esbuild"), installError: installed["esbuild-node"],
    pyUrl, pyDown, record, run, brief, lastJson,
  });
  console.log(`(consumer builds: ${Math.round((Date.now() - started) / 1000)} s)`);
}

// The package README's "Bundlers" section (as packed) shows every fixture's build command as a
// line of its sh block, and the bundler versions these builds use.
async function readmeMatches(readme, version, record) {
  const label = "package README \"Bundlers\": the commands and versions built here";
  const section = (await readFile(readme, "utf8")).split(/^## /m).find((s) => s.startsWith("Bundlers\n")) ?? "";
  const lines = new Set((section.match(/```sh\n([\s\S]*?)```/)?.[1] ?? "").split("\n").map((l) => l.trim()));
  const missing = [];
  for (const name of ["rollup", "esbuild", "esbuild-wasm-file", "esbuild-node"]) {
    const { scripts } = JSON.parse(await readFile(path.join(FIXTURES, name, "package.json"), "utf8"));
    for (const command of Object.values(scripts)) if (!lines.has(command)) missing.push(`${name}: ${command}`);
  }
  const wasmJs = (await readFile(path.join(FIXTURES, "esbuild-wasm-file", "src", "wasm.js"), "utf8")).replace(/^\/\/ .*\n/gm, "").trim();
  if (!section.includes(`\`\`\`js\n// wasm.js\n${wasmJs}\n\`\`\``)) missing.push("esbuild-wasm-file/src/wasm.js as the wasm.js block");
  for (const [tool, shown] of [["vite", "Vite"], ["webpack", "webpack"], ["rollup", "Rollup"], ["esbuild", "esbuild"]]) {
    const v = await version(tool);
    if (!section.includes(`${shown} ${v}`)) missing.push(`"${shown} ${v}"`);
  }
  if (missing.length) record(label, "fail", `not in the section: ${missing.join("; ")}`);
  else record(label, "pass", "rollup, esbuild (page, Node) commands; Vite, webpack, Rollup, esbuild versions");
}

// The emitted .js files of `dir` (recursively) that hold a top-level await, as "file:line": the
// default entry must not need one (the app has none), so no bundle of it may.
async function topLevelAwaits(dir) {
  const found = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.m?js$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const ast = parse(await readFile(file, "utf8"), { ecmaVersion: "latest", sourceType: "module", locations: true });
    const visit = (node) => {
      if (!node || typeof node.type !== "string" || /Function/.test(node.type)) return;
      if (node.type === "AwaitExpression" || (node.type === "ForOfStatement" && node.await)) {
        found.push(`${path.relative(dir, file)}:${node.loc.start.line}`);
      }
      for (const value of Object.values(node)) (Array.isArray(value) ? value : [value]).forEach((v) => v && typeof v === "object" && visit(v));
    };
    visit(ast);
  }
  return found;
}

// Copies fixture `name` (plus its app as src/main.js) and installs the tarball; null or why not.
async function install(root, name, tarball, run, brief) {
  const dir = path.join(root, name);
  await cp(path.join(FIXTURES, name), dir, { recursive: true });
  await mkdir(path.join(dir, "src"), { recursive: true });
  await cp(path.join(FIXTURES, name === "esbuild-node" ? "node-app.js" : "app.js"), path.join(dir, "src", "main.js"));
  const r = await run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: dir });
  return r.code === 0 ? null : `npm install of the tarball failed: ${brief(r)}`;
}

// Opens each built page in one headless Chromium and records its window.__result.
async function runPages(pages, pyUrl, record, chromium) {
  let browser;
  try {
    browser = await chromium();
  } catch (e) {
    pages.forEach((p) => record(p.label, "fail", `chromium did not start: ${String(e.message ?? e).split("\n")[0]}`));
    return;
  }
  const peerOrigin = new URL(pyUrl).origin;
  for (const p of pages) {
    const { server, base } = await serveStatic(p.dir, { hide: p.hide });
    const page = await browser.newPage();
    const problems = [];
    const missing = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("response", (r) => {
      if (r.status() < 400 || r.url().startsWith(peerOrigin)) return; // the peer's 4xx are protocol (the era probe)
      (r.url().endsWith(`/${WASM}`) ? missing : problems).push(`HTTP ${r.status()} ${r.url()}`);
    });
    let result = null;
    try {
      await page.goto(`${base}/index.html?mcp=${encodeURIComponent(pyUrl)}`, { waitUntil: "load", timeout: 20_000 });
      await page.waitForFunction(() => window.__result !== undefined, null, { timeout: p.hide ? 10_000 : 30_000 });
      result = await page.evaluate(() => window.__result);
    } catch (e) {
      problems.push(String(e.message ?? e).split("\n")[0]);
    }
    if (p.hide) { // the control: the .wasm was asked for next to the bundle, refused, and nothing worked
      if (missing.length && !result?.ok) record(p.label, "pass", `${missing[0].replace(base, "")}; ${(result?.error ?? problems[0] ?? "").split("\n")[0].slice(0, 160)}`);
      else record(p.label, "fail", `wasm requests refused: ${missing.length}; result ${JSON.stringify(result)?.slice(0, 200)}`);
    } else if (result?.ok && !problems.length && !missing.length) {
      const done = `era ${result.era}, ${result.tools.length} tools, "${result.text}"`;
      if (p.awaits.length) record(p.label, "fail", `the call worked (${done}) but the bundle holds top-level await: ${p.awaits.join(", ")}`);
      else record(p.label, "pass", `Chromium: ${done}; no top-level await in the bundle`);
    } else {
      record(p.label, "fail", [...missing, ...problems, result && JSON.stringify(result).slice(0, 300)].filter(Boolean).slice(0, 4).join(" | ") || "no result");
    }
    await page.close();
    server.close();
  }
  await browser.close();
}
