// mcp-wasm-client/react in Node without a DOM, as a server render meets it: importing the entry
// loads nothing else of the package and touches no window; renderToString of a component using
// useMcp renders the idle state and opens no connection. Run by run.mjs (a fresh process); prints
// "ok …" / "FAIL …" lines.
//
// A module hook maps "mcp-wasm-client/react" to pkg-template/react/index.js, "mcp-wasm-client" to
// the built Node package (pkg/nodejs) and React to tests/react/node_modules, and records which of
// them were loaded.
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect, finish, renderIdle, settle, step } from "./ssr-steps.cjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const { port1, port2 } = new MessageChannel();
const loaded = [];
port1.on("message", (m) => loaded.push(m));
port1.unref();
register(pathToFileURL(path.join(HERE, "ssr-hooks.mjs")), {
  parentURL: import.meta.url,
  data: { port: port2, root: ROOT, here: HERE },
  transferList: [port2],
});

let hooks;
await step("ssr: import(\"mcp-wasm-client/react\") without a DOM loads nothing of the package", async () => {
  expect(typeof globalThis.window === "undefined" && typeof globalThis.document === "undefined", "this Node has a DOM");
  hooks = await import("mcp-wasm-client/react");
  await settle();
  expect(typeof hooks.useMcp === "function" && typeof hooks.useMcpGroup === "function", `exports: ${Object.keys(hooks)}`);
  expect(loaded.includes("mcp-wasm-client/react"), `the entry was not resolved through the mapping: ${loaded}`);
  expect(!loaded.includes("mcp-wasm-client"), `importing the entry loaded the package: ${loaded}`);
  expect(typeof globalThis.window === "undefined", "the import defined window");
});

await step("ssr: renderToString of useMcp / useMcpGroup renders idle, connects nothing, loads no wasm", async () => {
  const React = await import("react");
  const { renderToString } = await import("react-dom/server");
  await renderIdle(React, renderToString, hooks);
  expect(!loaded.includes("mcp-wasm-client"), `the server render loaded the package: ${loaded}`);
});
finish();
