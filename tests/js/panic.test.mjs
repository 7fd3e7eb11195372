// A Rust panic (issue 26, Errors): release builds trap (`-Cpanic=immediate-abort`), and the JS
// caller must get an McpError of kind "internal" naming the operation, never a bare
// WebAssembly.RuntimeError nor a promise that never settles; after it the instance is poisoned:
// the calls in flight and every later call reject at once saying the client cannot be used any
// more. The trigger is `testPanic(mode)`, which only pkg/nodejs-panic (the `test-panic` Cargo
// feature, built by scripts/test.sh, never packaged) has. Each scenario loads its own copy of the
// package: a poisoned instance stays poisoned.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PY, text } from "./peers.mjs";

const here = fileURLToPath(import.meta.url);
const file = path.basename(here);
const require = createRequire(import.meta.url);
const built = process.env.MCP_PKG_NODE_PANIC ?? path.join(path.dirname(here), "../../pkg/nodejs-panic");
const copies = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-panic-"));
after(() => fs.rmSync(copies, { recursive: true, force: true }));

/** A fresh instance of the test build: a copy in its own directory, so its own wasm and snippets. */
function fresh() {
  const dir = fs.mkdtempSync(path.join(copies, "pkg-"));
  fs.cpSync(built, dir, { recursive: true });
  return require(dir);
}

// What escapes the package (a trap out of a queued future would): none may.
const uncaught = [];
process.on("uncaughtException", (e) => uncaught.push(e));
process.on("unhandledRejection", (e) => uncaught.push(e));

const FAILED = /^testPanic failed inside the client \(a bug: WebAssembly trap 'unreachable'\)$/;
const unusable = (op) =>
  new RegExp(
    `^${op} failed: the client's WebAssembly instance stopped at a bug \\(WebAssembly trap 'unreachable'\\) ` +
      "and cannot be used any more; create the clients again in a new instance of the package",
  );

/** An internal McpError of `mod` with `message`, its cause the trap, its stack at this file's caller. */
function assertInternal(mod, e, message) {
  assert.ok(e instanceof mod.McpError, `an McpError, not ${e}`);
  assert.equal(e.code, -32603);
  assert.deepEqual(e.data, { local: true, kind: "internal" });
  assert.match(e.message, message);
  assert.ok(e.cause instanceof WebAssembly.RuntimeError, `cause is the trap: ${e.cause}`);
  assert.deepEqual(Object.keys(JSON.parse(JSON.stringify(e))).sort(), ["code", "data", "message"]);
  const frames = e.stack.split("\n").filter((l) => /^\s+at /.test(l));
  assert.ok(frames[0]?.includes(file), `first frame is the caller's:\n${e.stack}`);
}

/** The rejection of `p` (failing if it resolves) and how long it took. */
async function rejectionOf(p) {
  const start = performance.now();
  const r = await p.then(
    (v) => assert.fail(`expected a rejection, got ${JSON.stringify(v)}`),
    (e) => e,
  );
  return [r, performance.now() - start];
}

describe("a Rust panic becomes an McpError; the instance is poisoned after it", () => {
  test("inside a method's future: that call, a pending call on another Client and every later call reject", async () => {
    const mod = fresh();
    const a = new mod.Client(PY);
    const b = new mod.Client(PY);
    await a.connect();
    await b.connect();
    assert.equal(await mod.testPanic("ok"), "ok", "the trigger works without panicking");
    assert.equal(text(await b.callTool("echo", { text: "before" })), "before");
    const pending = a.callTool("sleep", { ms: 4000 });

    const [e] = await rejectionOf(mod.testPanic("async"));
    assertInternal(mod, e, FAILED);

    // the call in flight on the other Client settles now, not when the server answers (4 s)
    const [p, waited] = await rejectionOf(pending);
    assertInternal(mod, p, unusable("callTool"));
    assert.ok(waited < 1000, `the pending call settled after ${waited} ms`);

    // later calls, async and sync, on any Client: at once, the same kind, never a second trap
    for (const [op, call] of [
      ["listTools", () => b.listTools()],
      ["callTool", () => a.callTool("echo", { text: "after" })],
      ["testPanic", () => mod.testPanic("ok")],
      ["close", () => b.close()],
    ]) {
      const [later, took] = await rejectionOf(call());
      assertInternal(mod, later, unusable(op));
      assert.ok(took < 500, `${op} rejected after ${took} ms`);
    }
    assert.throws(() => mod.testPanic("sync"), (t) => (assertInternal(mod, t, unusable("testPanic")), true));
    assert.deepEqual(uncaught, [], "nothing escaped as an uncaught error");
  });

  test("in a Client method's synchronous part: its promise rejects naming it; the instance is poisoned", async () => {
    const mod = fresh();
    const a = new mod.Client(PY);
    const b = new mod.Client(PY);
    await a.connect();
    await b.connect();
    const pending = b.callTool("sleep", { ms: 4000 });

    let p;
    assert.doesNotThrow(() => (p = a.testPanicSync()), "a method returning a promise rejects, never throws");
    const [e] = await rejectionOf(p);
    assertInternal(mod, e, /^testPanicSync failed inside the client \(a bug: WebAssembly trap 'unreachable'\)$/);

    // the call in flight on the other Client settles now, not when the server answers (4 s)
    const [q, waited] = await rejectionOf(pending);
    assertInternal(mod, q, unusable("callTool"));
    assert.ok(waited < 1000, `the pending call settled after ${waited} ms`);

    // later calls on any Client, the trigger itself and the Rust exports refuse at once
    for (const [op, call] of [
      ["testPanicSync", () => a.testPanicSync()],
      ["listTools", () => b.listTools()],
      ["close", () => a.close()],
      ["testPanic", () => mod.testPanic("ok")],
    ]) {
      const [later, took] = await rejectionOf(call());
      assertInternal(mod, later, unusable(op));
      assert.ok(took < 500, `${op} rejected after ${took} ms`);
    }
    // getters never enter the wasm: state and error say so, the others throw
    assert.equal(a.state, "failed");
    assertInternal(mod, b.error, unusable("error"));
    assert.throws(() => a.tools, (t) => (assertInternal(mod, t, unusable("tools")), true));
    assert.throws(() => new mod.Client(PY), (t) => (assertInternal(mod, t, unusable("Client")), true));
    assert.deepEqual(uncaught, [], "nothing escaped as an uncaught error");
  });

  test("an McpError thrown or rejected synchronously for bad input passes unchanged and poisons nothing", async () => {
    const mod = fresh();
    assert.throws(
      () => new mod.Client(42),
      (e) => e instanceof mod.McpError && e.code === -32602 && e.data.kind === "input" && /needs a URL/.test(e.message),
    );
    const c = new mod.Client(PY);
    await c.connect();
    const [bad] = await rejectionOf(c.callTool(42));
    assert.ok(bad instanceof mod.McpError, `an McpError, not ${bad}`);
    assert.notEqual(bad.data?.kind, "internal");
    assert.equal(c.state, "connected");
    assert.equal(text(await c.callTool("echo", { text: "still" })), "still");
    assert.equal(await mod.testPanic("ok"), "ok");
    await c.close();
    assert.deepEqual(uncaught, []);
  });

  test("in a synchronous export: it throws the McpError; later calls refuse", async () => {
    const mod = fresh();
    let thrown;
    try {
      mod.testPanic("sync");
    } catch (t) {
      thrown = t;
    }
    assertInternal(mod, thrown, FAILED);
    const [later] = await rejectionOf(mod.testPanic("ok"));
    assertInternal(mod, later, unusable("testPanic"));
    assert.throws(() => new mod.Client(PY), (t) => (assertInternal(mod, t, unusable("Client")), true));
    assert.deepEqual(uncaught, []);
  });
});
