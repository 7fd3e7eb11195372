// The Node bundles of the esbuild-node consumer (bundlers.mjs calls nodeBundles): the app
// (fixtures/bundlers/node-app.js) built by the scripts of fixtures/bundlers/esbuild-node/package.json
// (the commands of the package README's "Bundlers" section) and run under this Node, each
// connecting to the python peer and calling its echo tool:
//   - the package kept external (ESM and CommonJS output), run in the project;
//   - one file with the package inside (ESM and CommonJS), run in the project as a user does
//     (`node out/esm/main.mjs` there: the .wasm found in node_modules/mcp-wasm-client);
//   - that file copied alone where no node_modules can be found: it must fail with the package's
//     ERR_MCP_WASM_NOT_FOUND naming the file and what to do (never a bare ENOENT or ReferenceError);
//   - that file and the .wasm the README's `cp` line puts beside it, copied there: it runs;
//   - beside it a .wasm of another build (the core entry's, under the full one's name): passed over
//     and named in the error.
import { cp, mkdir, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const WASM = "mcp_wasm_client_bg.wasm";
const EXTERNAL = [
  { script: "build:esm", out: "dist/main.mjs", label: (v) => `esbuild ${v} --platform=node --format=esm --external:mcp-wasm-client` },
  { script: "build:cjs", out: "dist/main.cjs", label: (v) => `esbuild ${v} --platform=node --format=cjs --external:mcp-wasm-client` },
];
const ONE_FILE = [
  { script: "build:one-esm", out: "out/esm/main.mjs", format: "esm" },
  { script: "build:one-cjs", out: "out/cjs/main.cjs", format: "cjs" },
];

/** Builds and runs every Node bundle of the installed esbuild-node project `dir`; one line each. */
export async function nodeBundles({ dir, tmp, esbuild, installError, pyUrl, pyDown, record, run, brief, lastJson }) {
  const lines = [
    ...EXTERNAL.map((e) => e.label(esbuild)),
    ...ONE_FILE.flatMap(({ format }) => oneFileLabels(esbuild, format)),
  ];
  const why = installError ?? pyDown;
  if (why) return lines.forEach((label) => record(label, "fail", why));

  const call = async (file, cwd) => {
    const r = await run(process.execPath, [file], { cwd, env: { MCP_URL: pyUrl }, timeoutMs: 30_000 });
    return { r, res: lastJson(r.stdout) };
  };
  const expectCall = (label, { r, res }, where) => {
    if (r.code === 0 && res?.ok) record(label, "pass", `${process.version}, ${where}: era ${res.era}, ${res.tools.length} tools, "${res.text}"`);
    else record(label, "fail", res ? JSON.stringify(res).slice(0, 400) : brief(r));
  };

  for (const e of EXTERNAL) {
    const label = e.label(esbuild);
    const built = await run("npm", ["run", "--silent", e.script], { cwd: dir, timeoutMs: 120_000 });
    if (built.code !== 0) { record(label, "fail", `build: ${brief(built)}`); continue; }
    expectCall(label, await call(path.join(dir, e.out), dir), "in the project");
  }

  const coreWasm = path.join(dir, "node_modules", "mcp-wasm-client", "dist", "core", WASM);
  for (const { script, out, format } of ONE_FILE) {
    const [inProject, alone, withWasm, otherBuild] = oneFileLabels(esbuild, format);
    const built = await run("npm", ["run", "--silent", script], { cwd: dir, timeoutMs: 120_000 });
    if (built.code !== 0) { [inProject, alone, withWasm, otherBuild].forEach((l) => record(l, "fail", `build: ${brief(built)}`)); continue; }
    const file = path.join(dir, out);
    const inside = (await readdir(path.dirname(file))).filter((f) => f !== path.basename(file) && !f.endsWith(".map"));
    if (inside.length) { // the build alone must write nothing else: the in-project run finds the .wasm in node_modules
      [inProject, alone, withWasm, otherBuild].forEach((l) => record(l, "fail", `the build wrote more than one file: ${inside.join(", ")}`));
      continue;
    }
    expectCall(inProject, await call(path.relative(dir, file), dir), `\`node ${out}\` in the project`);

    // The same file where no node_modules is found (each away dir under tmp, whose parents hold none).
    const away = async (name, extra) => {
      const where = path.join(tmp, `esbuild-node-${format}-${name}`);
      await mkdir(where, { recursive: true });
      await cp(file, path.join(where, path.basename(file)));
      if (extra) await cp(extra, path.join(where, WASM));
      try {
        createRequire(path.join(where, "noop.js")).resolve("mcp-wasm-client/package.json");
        return { where, setup: `the package is reachable from ${where}: this check cannot tell` };
      } catch {
        return { where };
      }
    };
    const expectNotFound = async (label, name, extra, detail) => {
      const { where, setup } = await away(name, extra);
      if (setup) return record(label, "fail", setup);
      // The bundle loads the package before the app's code runs: the error is uncaught, on stderr.
      const { r } = await call(path.basename(file), where);
      const message = r.stderr.match(/^Error: (mcp-wasm-client: .*)$/m)?.[1] ?? "";
      const ok = r.code !== 0 && /code: 'ERR_MCP_WASM_NOT_FOUND'/.test(r.stderr)
        && message.includes(path.join(where, WASM)) && message.includes(`node_modules/mcp-wasm-client/dist/${WASM}`)
        && (!detail || message.includes(detail));
      if (ok) record(label, "pass", `exit ${r.code}, ERR_MCP_WASM_NOT_FOUND: ${message.slice(0, 200)}…`);
      else record(label, "fail", brief(r));
    };
    await expectNotFound(alone, "alone");
    const shipped = await run("npm", ["run", "--silent", `ship:${format}`], { cwd: dir, timeoutMs: 30_000 });
    if (shipped.code !== 0) record(withWasm, "fail", `ship: ${brief(shipped)}`);
    else {
      const { where, setup } = await away("with-wasm", path.join(path.dirname(file), WASM));
      if (setup) record(withWasm, "fail", setup);
      else expectCall(withWasm, await call(path.basename(file), where), `${path.basename(file)} + ${WASM} alone in a folder`);
    }
    await expectNotFound(otherBuild, "other-build", coreWasm, "another version's");
  }
}

function oneFileLabels(esbuild, format) {
  const base = `esbuild ${esbuild} --platform=node --format=${format}, one file`;
  return [
    `${base}, run in the project`,
    `${base}, moved away alone: ERR_MCP_WASM_NOT_FOUND`,
    `${base} + the .wasm copied beside it, moved away`,
    `${base}, another build's .wasm beside it: passed over`,
  ];
}
