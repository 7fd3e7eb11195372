// The README's library-card example runs as written (only the import and the peer's port are
// adapted to this checkout).
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
