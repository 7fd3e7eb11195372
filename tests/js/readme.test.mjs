// The README's examples run as written (only the imports and the peer's port are adapted to this
// checkout): the library card, and the "Transports written in JavaScript" section.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PY } from "./peers.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "../..");

test("the README's elicitation example issues a library card", () => {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  const example = blocks.find((b) => b.includes("issue_card"));
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

const sdk = path.join(root, "tests/peers/node_modules/@modelcontextprotocol/sdk/dist/esm");
const everything = path.join(root, "tests/peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** The README's blocks of the "Transports written in JavaScript" section. */
function transportBlocks() {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const start = readme.indexOf("## Transports written in JavaScript");
  assert.ok(start >= 0, "README has the section");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
}

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
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const start = readme.indexOf("## Capabilities and extensions");
  assert.ok(start >= 0, "README has the section");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const [example] = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
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
