// mcp-wasm-client/react for require() (react/index.cjs, which scripts/react-cjs.mjs writes from
// pkg-template/react/index.js, as scripts/package.sh does), in Node without a DOM as a CommonJS
// server render meets it: the entry requires react and nothing else, renderToString of a component
// using useMcp / useMcpGroup renders the idle state and opens no connection; a hook's function
// called before mounting loads the package with require() (the nodejs build, never import()) for
// its McpError. ssr.mjs's checks for the ESM entry, mirrored. Run by run.mjs (a fresh process);
// prints "ok …" / "FAIL …" lines.
//
// Module._resolveFilename maps "mcp-wasm-client/react" to the generated index.cjs, "mcp-wasm-client"
// to the built Node package (pkg/nodejs), resolves what index.cjs requires besides (react) from
// tests/react, and records it.
"use strict";
const { execFileSync } = require("node:child_process");
const { mkdtempSync, rmSync } = require("node:fs");
const Module = require("node:module");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "react-cjs-"));
const ENTRY = path.join(tmp, "index.cjs");
const NODE_PACKAGE = path.join(ROOT, "pkg/nodejs/mcp_wasm_client.js");
const required = []; // [request, resolved file] of every require() made by index.cjs
const realResolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  let file;
  if (request === "mcp-wasm-client/react") file = ENTRY;
  else if (request === "mcp-wasm-client") file = NODE_PACKAGE;
  else file = realResolve.call(this, request, parent?.filename === ENTRY ? module : parent, ...rest); // react: from here
  if (parent?.filename === ENTRY) required.push([request, file]);
  return file;
};

const { step, expect, renderIdle, finish } = require("./ssr-steps.cjs");

(async () => {
  let hooks, rendered;
  await step("ssr (CommonJS): require(\"mcp-wasm-client/react\") without a DOM requires react only", async () => {
    execFileSync(process.execPath, [path.join(ROOT, "scripts/react-cjs.mjs"), path.join(ROOT, "pkg-template/react/index.js"), ENTRY]);
    expect(typeof globalThis.window === "undefined" && typeof globalThis.document === "undefined", "this Node has a DOM");
    hooks = require("mcp-wasm-client/react");
    expect(typeof hooks.useMcp === "function" && typeof hooks.useMcpGroup === "function", `exports: ${Object.keys(hooks)}`);
    expect(required.map(([r]) => r).join() === "react", `index.cjs required at import: ${required.map(([r]) => r)}`);
    expect(typeof globalThis.window === "undefined", "the require defined window");
  });

  await step("ssr (CommonJS): renderToString of useMcp / useMcpGroup renders idle, connects nothing, loads no wasm", async () => {
    const React = require("react");
    const { renderToString } = require("react-dom/server");
    rendered = await renderIdle(React, renderToString, hooks);
    expect(!required.some(([r]) => r === "mcp-wasm-client"), "the server render loaded the package");
  });

  await step("ssr (CommonJS): callTool before mount requires the package (the nodejs build) and rejects with its McpError \"closed\"", async () => {
    expect(rendered, "nothing rendered");
    const error = await rendered.callTool("echo", {}).then(() => null, (e) => e);
    const pkg = required.find(([r]) => r === "mcp-wasm-client");
    expect(pkg && pkg[1] === NODE_PACKAGE, `index.cjs loaded the package as ${pkg ? pkg[1] : "nothing (not with require)"}`);
    const { McpError } = require(NODE_PACKAGE);
    expect(error instanceof McpError, `rejected with ${error}`);
    expect(error.data?.kind === "closed" && error.data?.local === true, `data ${JSON.stringify(error.data)}`);
  });
  rmSync(tmp, { recursive: true, force: true });
  finish();
})();
