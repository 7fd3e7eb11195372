// McpError as JavaScript code meets it (issue 26, Errors): a real Error subclass with own `code`,
// `message` and `data` (JSON.stringify, util.inspect, structured clone + McpError.from), a stack
// that starts at the caller, no wasm pointer; and an uncaught one printed readably by Node.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import util from "node:util";
import path from "node:path";
import { pkg, PKG_PATH, PY, rejection } from "./peers.mjs";

const { Client, McpError } = pkg;
const here = fileURLToPath(import.meta.url);
const file = path.basename(here);

/** Checks what every McpError, wherever made, must be. */
function assertPlainError(e, { code, message }) {
  assert.ok(e instanceof McpError, "instanceof McpError");
  assert.ok(e instanceof Error, "instanceof Error");
  assert.equal(e.name, "McpError");
  assert.equal(e.constructor.name, "McpError");
  for (const key of ["code", "message", "data"])
    assert.ok(Object.hasOwn(e, key), `${key} is an own property`);
  assert.equal(e.code, code);
  if (message) assert.match(e.message, message);
  assert.equal("free" in e, false, "no free()");
  assert.equal("__wbg_ptr" in e, false, "no wasm pointer");
  assert.equal(typeof McpError.prototype.free, "undefined");
  const json = JSON.parse(JSON.stringify(e));
  assert.deepEqual(Object.keys(json).sort(), e.data === undefined ? ["code", "message"] : ["code", "data", "message"]);
  assert.equal(json.code, code);
  assert.equal(json.message, e.message);
  assert.deepEqual(json.data, e.data);
  const shown = util.inspect(e);
  assert.match(shown, /McpError: /);
  assert.match(shown, new RegExp(`code: ${code}`));
  if (e.data !== undefined) assert.match(shown, /data: /);
}

/** The stack's first frame: it must be a line of this file, not of the glue or the wasm. */
function assertStackHere(e) {
  const frames = e.stack.split("\n").filter((l) => /^\s+at /.test(l));
  assert.ok(frames.length > 0, e.stack);
  assert.ok(frames[0].includes(file), `first frame is the caller's:\n${e.stack}`);
  assert.ok(!e.stack.includes("wasm://"), `no wasm frames:\n${e.stack}`);
}

describe("McpError is a real Error", () => {
  test("made from JS: own code, message, data; JSON.stringify and util.inspect show them", () => {
    const e = new McpError(-32602, "bad thing", { field: "x" });
    assertPlainError(e, { code: -32602, message: /^bad thing$/ });
    assert.equal(String(e), "McpError: bad thing");
    assertStackHere(e);
    assert.equal(Object.getPrototypeOf(Object.getPrototypeOf(e)), Error.prototype);
  });

  test("coerces like Error: code by Number (-32603 when NaN), message by String", () => {
    assert.equal(new McpError("7", 12).code, 7);
    assert.equal(new McpError("7", 12).message, "12");
    assert.equal(new McpError(Symbol("x")).code, -32603);
    assert.equal(new McpError({ valueOf() { throw new Error("no"); } }, undefined).code, -32603);
    assert.equal(new McpError(1).message, "");
    assert.equal(new McpError(1, { toString() { throw new Error("no"); } }).message, "[unprintable]");
  });

  test("a rejection from a real server call: own properties, stack at the caller", async () => {
    const c = new Client(PY);
    try {
      await c.connect();
      const e = await rejection(c.readResource("nosuch://nothing-here"));
      assertPlainError(e, { code: e.code });
      assert.equal(typeof e.code, "number");
      assertStackHere(e);
    } finally {
      await c.close();
    }
  });

  test("a local rejection (network) and a synchronous throw: stack at the caller", async () => {
    const e = await rejection(new Client("http://127.0.0.1:1/mcp").connect());
    assertPlainError(e, { code: -32000, message: /Could not reach/ });
    assert.equal(e.data.kind, "network");
    assertStackHere(e);
    let thrown;
    try {
      new Client(42);
    } catch (err) {
      thrown = err;
    }
    assertPlainError(thrown, { code: -32602, message: /needs a URL/ });
    assert.equal(thrown.data.kind, "input");
    assertStackHere(thrown);
  });

  test("a deep caller: the stack starts at the caller and keeps Error.stackTraceLimit frames", async () => {
    // a call site holds the package's own frames and the caller's (not 30 more, which cost per frame)
    const deep = (n, f) => (n === 0 ? f() : deep(n - 1, f));
    const e = await rejection(deep(40, () => new Client("http://127.0.0.1:1/mcp").connect()));
    assertStackHere(e);
    const frames = e.stack.split("\n").filter((l) => /^\s+at /.test(l));
    assert.equal(frames.length, Error.stackTraceLimit, e.stack);
  });

  test("structuredClone keeps message; McpError.from rebuilds it (and code, data from a plain copy)", () => {
    const e = new McpError(-32001, "timed out", { local: true, kind: "timeout" });
    const cloned = structuredClone(e);
    assert.equal(cloned.message, "timed out");
    const back = McpError.from(cloned);
    assert.ok(back instanceof McpError && back instanceof Error);
    assert.equal(back.message, "timed out");
    assert.equal(back.code, -32603, "a cloned Error carries no code");
    const full = McpError.from(structuredClone({ ...e }));
    assertPlainError(full, { code: -32001, message: /^timed out$/ });
    assert.deepEqual(full.data, { local: true, kind: "timeout" });
    assert.equal(McpError.from(e), e);
    assert.equal(McpError.from("just text").message, "just text");
    assert.equal(McpError.from(JSON.parse(JSON.stringify(e))).code, -32001);
  });

  test("postMessage keeps message, and code/data through McpError.from({ ...e })", async () => {
    const { port1, port2 } = new MessageChannel();
    const got = new Promise((resolve) => port2.once("message", resolve));
    const e = new McpError(-32602, "bad", { field: "x" });
    port1.postMessage({ error: e, plain: { ...e } });
    const msg = await got;
    port1.close();
    port2.close();
    assert.equal(msg.error.message, "bad");
    const back = McpError.from(msg.plain);
    assertPlainError(back, { code: -32602, message: /^bad$/ });
    assert.deepEqual(back.data, { field: "x" });
  });
});

describe("an uncaught McpError in Node", () => {
  const glue = PKG_PATH;
  function run(source) {
    const r = spawnSync(process.execPath, ["-e", source], { encoding: "utf8", timeout: 30_000 });
    assert.notEqual(r.status, 0, "the process fails");
    return r.stderr;
  }
  function assertReadable(stderr, message) {
    assert.match(stderr, message);
    const long = stderr.split("\n").filter((l) => l.length > 300);
    assert.deepEqual(long, [], `no line over 300 characters:\n${stderr.slice(0, 2000)}`);
    assert.match(stderr, /\[eval\]/, `the stack names the caller:\n${stderr}`);
  }
  test("thrown synchronously: a readable stack, no minified line", () => {
    const stderr = run(`const { Client } = require(${JSON.stringify(glue)}); new Client(42);`);
    assertReadable(stderr, /McpError: Client needs a URL/);
  });
  test("an unhandled rejection: a readable stack, no minified line", () => {
    const stderr = run(`const { Client } = require(${JSON.stringify(glue)}); new Client("http://127.0.0.1:1/mcp").connect();`);
    assertReadable(stderr, /McpError: Could not reach/);
  });
});

