// The README's examples run as written (only the imports and the peer's port are adapted to this
// checkout): the quick start against the demo server, the library card, and the "Transports
// written in JavaScript" section.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { execFile, execFileSync, spawn } from "node:child_process";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PY } from "./peers.mjs";
import { docJsBlocks } from "../support/docs.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The ```js blocks of the README and its docs/ guides, or of the section under `heading`. */
const readmeBlocks = (heading) => docJsBlocks(heading);

test("the README's elicitation example issues a library card", () => {
  const example = readmeBlocks().find((b) => b.includes("issue_card"));
  assert.ok(example, "README has the issue_card example");
  const pkgPath = path.join(root, "pkg/nodejs/mcp_wasm_client.js");
  const code = example
    .replace('from "mcp-wasm-client"', `from ${JSON.stringify(pkgPath)}`)
    .replace("http://127.0.0.1:18101/mcp", PY);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "readme-")), "example.mjs");
  writeFileSync(file, code);
  const out = execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 30_000 });
  assert.match(out, /Card issued to Ada Lovelace\./);
});

test("the README's quick start runs as written against the demo server (demo/server.py)", async () => {
  const [quick] = readmeBlocks("## A first example");
  assert.ok(quick?.includes("http://127.0.0.1:8081/mcp"), "the quick start names demo.sh's server");
  const port = await freePort();
  const demo = spawn("python3", [path.join(root, "demo/server.py"), String(port)], { stdio: "ignore" });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/connect`);
    const code = quick
      .replace('from "mcp-wasm-client"', `from ${JSON.stringify(path.join(root, "pkg/nodejs/mcp_wasm_client.js"))}`)
      .replace("http://127.0.0.1:8081/mcp", `http://127.0.0.1:${port}/mcp`);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "readme-")), "quick.mjs");
    writeFileSync(file, code);
    const out = await new Promise((resolve, reject) => {
      execFile(process.execPath, [file], { encoding: "utf8", timeout: 30_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout));
    });
    assert.match(out, /^modern 2026-07-28 \{ name: 'mcp-wasm-demo-server'/m);
    assert.match(out, /'show_chart'/);
    assert.match(out, /\{ sum: 42 \}/);
  } finally {
    demo.kill("SIGTERM");
  }
});

/** A free 127.0.0.1 port, as the OS hands one out. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers 200 (15 s at most). */
async function waitForHttp(url) {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within 15 s`);
}

const sdk = path.join(root, "tests/peers/node_modules/@modelcontextprotocol/sdk/dist/esm");
const everything = path.join(root, "tests/peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** The README's blocks of the "Transports written in JavaScript" section. */
const transportBlocks = () => readmeBlocks("## Transports written in JavaScript");

function runModule(code) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "readme-")), "example.mjs");
  writeFileSync(file, code);
  return execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 30_000 });
}

const pkgPath = JSON.stringify(path.join(root, "pkg/nodejs/mcp_wasm_client.js"));

test("the README's transport lines run as written (with the names they assume defined)", () => {
  const [lines] = transportBlocks();
  assert.match(lines, /messagePortTransport\(port\)/);
  // What the lines assume: a port, an iframe, a command and the TS SDK's stdio transport. Node has
  // no window: an EventTarget stands in for the page's global addEventListener.
  const prelude = `
import { MessageChannel } from "node:worker_threads";
import { StdioClientTransport } from ${JSON.stringify(path.join(sdk, "client/stdio.js"))};
const { port1: port } = new MessageChannel();
const page = new EventTarget();
globalThis.addEventListener = page.addEventListener.bind(page);
globalThis.removeEventListener = page.removeEventListener.bind(page);
const iframe = { contentWindow: { postMessage() {} } };
const command = process.execPath;
const args = [${JSON.stringify(everything)}, "stdio"];
`;
  const code = prelude + lines.replace('from "mcp-wasm-client"', `from ${pkgPath}`) + `
console.log(typeof clientSide.send, typeof serverSide.send, "constructed");
port.close();
`;
  assert.match(runModule(code), /function function constructed/);
});

test("the README's same-page server example runs as written", () => {
  const [, example] = transportBlocks();
  const code = example
    .replace('from "mcp-wasm-client"', `from ${pkgPath}`)
    .replace('from "@modelcontextprotocol/sdk/server/mcp.js"', `from ${JSON.stringify(path.join(sdk, "server/mcp.js"))}`);
  const out = runModule(code);
  assert.match(out, /legacy javascript/);
  assert.match(out, /Hello from the same page!/);
});

test("the README's capabilities and extensions example runs as written", () => {
  const [example] = readmeBlocks("## Capabilities and extensions");
  const prelude = `import { Client } from ${pkgPath};
const url = ${JSON.stringify(PY)};
const localStorage = {};
`;
  const out = runModule(prelude + example + `
console.log(JSON.stringify(client.serverCapabilities.extensions), JSON.parse(localStorage.discover).supportedVersions.join());
const again = new Client(url, { discoverResult: JSON.parse(localStorage.discover) });
await again.connect();
console.log(again.era, (await again.callTool("client_capabilities", {})).structuredContent.apps);
await client.close();
await again.close();
`);
  assert.match(out, /\{"io\.example\/thing":\{"level":2\}\} 2026-07-28/);
  assert.match(out, /modern false/);
});
