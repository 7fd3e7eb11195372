// The `tracer` option (docs/client.md "Tracing") of the built package (pkg/nodejs) with the
// OpenTelemetry SDK (@opentelemetry/sdk-trace-base's BasicTracerProvider, InMemorySpanExporter,
// SimpleSpanProcessor; AsyncLocalStorageContextManager registered globally, as an app would) against
// real peers: the Python peer on both eras (spans per call, their names, kinds, attributes and
// parents; the request's _meta.traceparent and tracestate, read back through its
// `client_capabilities` tool, and the handshake's, read by a middleware; an error; input_required
// rounds), the misbehaving server's faults
// (a resumed SSE stream: `reconnect`; a 2026 stream that drops: `retry reissue`), and the OAuth
// world of oauth_world.mjs (a 401 recovered: `authorization`); and the package a plain
// `wasm-pack build` of the crate makes (no scripts/build-wasm.sh), whose client with a tracer works. The peers are tests/peers/peers.sh's
// (the js stage starts them); the OAuth world runs in this process.
import { after, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { context, createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { fault, MISBEHAVE, pkg, PY, rejection, text } from "./peers.mjs";
import { startWorld } from "./oauth_world.mjs";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const { Client } = pkg;
const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer("tracing.test.mjs");
after(() => {
  context.disable();
  return provider.shutdown();
});

beforeEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const named = (name) => spans().filter((s) => s.name === name);
/** The one finished span called `name`. */
function only(name) {
  const found = named(name);
  assert.equal(found.length, 1, `one span "${name}" in ${JSON.stringify(spans().map((s) => s.name))}`);
  return found[0];
}
const parentId = (span) => span.parentSpanContext?.spanId;
const childrenOf = (span) => spans().filter((s) => parentId(s) === span.spanContext().spanId);
/** The W3C traceparent of `span`. */
const traceparentOf = (span) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;
/** The `_meta` the Python peer received with this client_capabilities call. */
const metaOf = (result) => result.structuredContent?.meta ?? JSON.parse(text(result)).meta;

const opened = [];
async function connected(url, options = {}) {
  const c = new Client(url, options);
  opened.push(c);
  const events = [];
  c.addEventListener("trace", (e) => events.push(e.detail));
  await c.connect();
  c.events = events;
  return c;
}
after(async () => {
  for (const c of opened) await c.close().catch(() => {});
});

const accept = async () => ({ action: "accept", content: { name: "Ada" } });

for (const [era, mode, version] of [["modern", "auto", "2026-07-28"], ["legacy", "legacy", "2025-11-25"]]) {
  describe(`tracer against the Python peer (${era})`, () => {
    test("one CLIENT span per call, named and attributed by the MCP conventions; connect's is named after its method", async () => {
      const c = await connected(PY, { mode, tracer });
      assert.equal(c.era, era);
      const connect = only(era === "modern" ? "server/discover" : "initialize");
      assert.equal(connect.kind, SpanKind.CLIENT);
      exporter.reset();

      await c.listTools();
      assert.equal(text(await c.callTool("echo", { text: "traced" })), "traced");
      await c.getPrompt("greet", { name: "Ada" });
      await c.readResource("demo://hello");
      assert.deepEqual(spans().map((s) => s.name), ["tools/list", "tools/call echo", "prompts/get greet", "resources/read demo://hello"]);
      const session = era === "legacy" ? { "mcp.session.id": c.sessionId } : {};
      if (era === "legacy") assert.match(c.sessionId, /^[0-9a-f]{32}$/);
      const common = { "mcp.protocol.version": version, ...session };
      assert.deepEqual(only("tools/list").attributes, { "mcp.method.name": "tools/list", ...common });
      assert.deepEqual(only("tools/call echo").attributes, {
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "echo",
        "gen_ai.operation.name": "execute_tool",
        ...common,
      });
      assert.deepEqual(only("prompts/get greet").attributes, { "mcp.method.name": "prompts/get", "gen_ai.prompt.name": "greet", ...common });
      assert.equal(only("resources/read demo://hello").attributes["mcp.resource.uri"], "demo://hello");
      for (const s of spans()) {
        assert.equal(s.kind, SpanKind.CLIENT, s.name);
        assert.equal(s.status.code, SpanStatusCode.UNSET, s.name);
        assert.equal(parentId(s), undefined, `${s.name}: no active span, no parent`);
        assert.ok(s.ended);
      }
      assert.equal(new Set(spans().map((s) => s.spanContext().traceId)).size, 4, "four root spans, four traces");
    });

    test("the request carries the span's traceparent in _meta (and the parent's tracestate)", async () => {
      const c = await connected(PY, { mode, tracer });
      exporter.reset();
      const meta = metaOf(await c.callTool("client_capabilities", {}));
      const span = only("tools/call client_capabilities");
      assert.equal(meta.traceparent, traceparentOf(span));
      assert.equal(meta.tracestate, undefined, "no tracestate when the span has none");

      // a remote parent with a trace state: the call's span continues its trace and carries its state
      const remote = {
        traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
        spanId: "00f067aa0ba902b7",
        traceFlags: TraceFlags.SAMPLED,
        isRemote: true,
        traceState: createTraceState("vendor=abc,other=1"),
      };
      const call = context.with(trace.setSpanContext(ROOT_CONTEXT, remote), () => c.callTool("client_capabilities", {}));
      const inner = metaOf(await call);
      const child = named("tools/call client_capabilities")[1];
      assert.equal(child.spanContext().traceId, remote.traceId);
      assert.equal(parentId(child), remote.spanId);
      assert.equal(inner.traceparent, traceparentOf(child));
      assert.equal(inner.tracestate, "vendor=abc,other=1");
    });

    test("the caller's own _meta.traceparent wins (its other keys pass too)", async () => {
      const c = await connected(PY, { mode, tracer });
      const mine = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
      const meta = metaOf(await c.callTool("client_capabilities", {}, { _meta: { traceparent: mine, "example.com/tag": "x" } }));
      assert.equal(meta.traceparent, mine);
      assert.equal(meta["example.com/tag"], "x");
      assert.equal(named("tools/call client_capabilities").length, 1, "the call still has its span");
    });

    test("the parent is the span active when the call was made (startActiveSpan)", async () => {
      const c = await connected(PY, { mode, tracer });
      exporter.reset();
      let outerSpan;
      await tracer.startActiveSpan("outer", async (outer) => {
        outerSpan = outer;
        // made inside the outer span, settled after it may have moved on: still its children
        const [echoed] = await Promise.all([c.callTool("echo", { text: "in" }), c.listTools()]);
        assert.equal(text(echoed), "in");
        outer.end();
      });
      await c.callTool("echo", { text: "out" });
      const outer = only("outer");
      assert.equal(outer, outerSpan);
      const [inside, outside] = named("tools/call echo");
      for (const s of [inside, only("tools/list")]) {
        assert.equal(parentId(s), outer.spanContext().spanId, s.name);
        assert.equal(s.spanContext().traceId, outer.spanContext().traceId);
      }
      assert.equal(parentId(outside), undefined, "a call made after the outer span ended has no parent");
    });

    test("a call the server refuses: rpc.jsonrpc.error_code, error.type and status ERROR", async () => {
      const c = await connected(PY, { mode, tracer });
      const e = await rejection(c.readResource("demo://nope"));
      assert.equal(e.code, -32602);
      const span = only("resources/read demo://nope");
      assert.equal(span.status.code, SpanStatusCode.ERROR);
      assert.match(span.status.message, /Unknown resource: demo:\/\/nope/);
      assert.equal(span.attributes["rpc.jsonrpc.error_code"], -32602);
      assert.equal(span.attributes["error.type"], e.data?.kind ?? "-32602");
      assert.equal(span.attributes["mcp.method.name"], "resources/read");
      assert.ok(span.events.some((ev) => ev.name === "exception"), "the exception is recorded");
      // the client goes on; the next span is fine
      await c.listTools();
      assert.equal(only("tools/list").status.code, SpanStatusCode.UNSET);
    });

    test("a tool that answers isError: error.type tool_error and status ERROR, no exception", async () => {
      const c = await connected(PY, { mode, tracer });
      exporter.reset();
      const result = await c.callTool("no_such_tool", {});
      assert.equal(result.isError, true);
      const span = only("tools/call no_such_tool");
      assert.equal(span.status.code, SpanStatusCode.ERROR);
      assert.equal(span.attributes["error.type"], "tool_error");
      assert.equal(span.attributes["gen_ai.tool.name"], "no_such_tool");
      assert.ok(!span.events.some((ev) => ev.name === "exception"), "a result, not an exception");
      await c.close();
    });

    test(era === "modern" ? "an elicitation on 2026: an INTERNAL child span per input_required round" : "an elicitation on the legacy era: a server request within the call, no round span", async () => {
      const c = await connected(PY, { mode, tracer, elicitationCallback: accept });
      exporter.reset();
      c.events.length = 0;
      assert.equal(text(await c.callTool("issue_card", {})), "Card issued to Ada.");
      const call = only("tools/call issue_card");
      if (era === "legacy") {
        assert.deepEqual(childrenOf(call), []);
        assert.deepEqual(c.events, []);
        return;
      }
      const round = only("input_required round 1");
      assert.equal(round.kind, SpanKind.INTERNAL);
      assert.equal(parentId(round), call.spanContext().spanId);
      assert.equal(round.attributes["mcp.input_required.round"], 1);
      assert.equal(round.attributes["mcp.method.name"], "tools/call");
      assert.ok(round.startTime[0] * 1e9 + round.startTime[1] >= call.startTime[0] * 1e9 + call.startTime[1]);
      const tp = traceparentOf(call);
      assert.deepEqual(c.events, [
        { type: "input_required", phase: "start", method: "tools/call", traceparent: tp, round: 1 },
        { type: "input_required", phase: "end", method: "tools/call", traceparent: tp, round: 1 },
      ]);
    });

    test("without a tracer the request carries no traceparent", async () => {
      const c = await connected(PY, { mode });
      const meta = metaOf(await c.callTool("client_capabilities", {})) ?? {};
      assert.equal(meta.traceparent, undefined);
      assert.equal(meta.tracestate, undefined);
      assert.deepEqual(spans(), []);
    });

    test("connect() inside an active span: the handshake request carries connect's traceparent (and the parent's tracestate); without a tracer none", async () => {
      const handshake = era === "modern" ? "server/discover" : "initialize";
      const sent = [];
      const bodies = (next) => async (url, init) => {
        if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
        return next(url, init);
      };
      const remote = { traceId: "5bf92f3577b34da6a3ce929d0e0e4736", spanId: "10f067aa0ba902b7", traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: createTraceState("vendor=hs") };
      await context.with(trace.setSpanContext(ROOT_CONTEXT, remote), () =>
        tracer.startActiveSpan("outer", async (outer) => {
          await connected(PY, { mode, tracer, middleware: [bodies] });
          outer.end();
        }));
      const span = only(handshake);
      assert.equal(parentId(span), only("outer").spanContext().spanId);
      const request = sent.find((m) => m.method === handshake);
      assert.ok(request, `the ${handshake} request: ${JSON.stringify(sent.map((m) => m.method))}`);
      assert.equal(request.params._meta?.traceparent, traceparentOf(span));
      assert.equal(request.params._meta?.tracestate, "vendor=hs");
      if (era === "modern") assert.equal(request.params._meta["io.modelcontextprotocol/protocolVersion"], version, "the envelope is still there");
      else assert.equal(request.params.protocolVersion, version);

      sent.length = 0;
      await connected(PY, { mode, middleware: [bodies] });
      const plain = sent.find((m) => m.method === handshake);
      assert.ok(plain && plain.params._meta?.traceparent === undefined, JSON.stringify(plain));
    });

    test("connect({ _meta }) (what tracing.js gives it): its keys on the handshake request; a _meta that is no object is an input error, the client still idle", async () => {
      const sent = [];
      const bodies = (next) => async (url, init) => {
        if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
        return next(url, init);
      };
      const c = new Client(PY, { mode, middleware: [bodies] });
      opened.push(c);
      const e = await rejection(c.connect({ _meta: 1 }));
      assert.equal(e.data?.kind, "input", e.message);
      assert.match(e.message, /_meta/);
      assert.equal(c.state, "idle");
      assert.equal(sent.length, 0, "nothing sent");
      await c.connect({ _meta: { "example.com/tag": "x" } });
      assert.equal(c.era, era);
      const handshake = sent.find((m) => m.method === (era === "modern" ? "server/discover" : "initialize"));
      assert.equal(handshake?.params._meta?.["example.com/tag"], "x", JSON.stringify(handshake));
    });
  });
}

describe("child spans of the steps inside a request", () => {
  test("legacy: a POST stream that drops after event ids and is resumed: a `reconnect` child", async () => {
    const c = await connected(fault("resume-with-ids"), { tracer });
    exporter.reset();
    assert.equal(text(await c.callTool("echo", { text: "x" })), "resumed");
    const resumes = await (await fetch(`${MISBEHAVE}/resume-with-ids/resume-log`)).json();
    assert.ok(resumes.length >= 1, "the stream was resumed (GET with Last-Event-ID)");
    const call = only("tools/call echo");
    const reconnect = only("reconnect");
    assert.equal(reconnect.kind, SpanKind.INTERNAL);
    assert.equal(parentId(reconnect), call.spanContext().spanId);
    assert.equal(reconnect.attributes["mcp.reconnect.attempt"], 1);
    assert.equal(reconnect.status.code, SpanStatusCode.UNSET);
    assert.equal(call.attributes["mcp.session.id"], c.sessionId);
    const tp = traceparentOf(call);
    assert.deepEqual(c.events.map((e) => [e.type, e.phase, e.traceparent, e.attempt]), [
      ["reconnect", "start", tp, 1],
      ["reconnect", "end", tp, 1],
    ]);
  });

  test("legacy: a stream that drops twice: one `reconnect` child per resume", async () => {
    const c = await connected(fault("resume-twice"), { tracer });
    exporter.reset();
    assert.equal(text(await c.callTool("echo", { text: "x" })), "resumed");
    const call = only("tools/call echo");
    const resumes = named("reconnect");
    assert.equal(resumes.length, 2);
    for (const r of resumes) assert.equal(parentId(r), call.spanContext().spanId);
  });

  test("2026: a response stream that drops with no event: the request is re-issued, a `retry reissue` child", async () => {
    const key = `tracing-${process.pid}-${Date.now()}`;
    const c = await connected(fault("modern-drop-once"), { tracer });
    assert.equal(c.era, "modern");
    exporter.reset();
    assert.match(text(await c.callTool("echo", { key })), /^reissued /);
    const call = only("tools/call echo");
    const retry = only("retry reissue");
    assert.equal(retry.kind, SpanKind.INTERNAL);
    assert.equal(parentId(retry), call.spanContext().spanId);
    assert.equal(retry.attributes["mcp.retry.reason"], "reissue");
    assert.deepEqual(c.events.map((e) => [e.type, e.phase, e.reason, e.traceparent]), [
      ["retry", "start", "reissue", traceparentOf(call)],
      ["retry", "end", "reissue", traceparentOf(call)],
    ]);
  });

  for (const mode of ["2026-07-28", "legacy"]) {
    test(`${mode}: a 401 recovered by the auth flow (the token expired at the server): an \`authorization\` child`, async () => {
      const world = await startWorld();
      try {
        world.addClient("as", "m2m", { secret: "cs-tracing-secret-1" });
        const grant = { type: "client_credentials", clientId: "m2m", clientSecret: "cs-tracing-secret-1" };
        const c = await connected(world.url, { mode, tracer, auth: { grant } });
        assert.equal(text(await c.callTool("echo", { text: "a" })), "a");
        exporter.reset();
        c.events.length = 0;
        world.expireAll();
        assert.equal(text(await c.callTool("echo", { text: "b" })), "b");
        const call = only("tools/call echo");
        const auth = only("authorization");
        assert.equal(auth.kind, SpanKind.INTERNAL);
        assert.equal(parentId(auth), call.spanContext().spanId);
        assert.equal(auth.status.code, SpanStatusCode.UNSET);
        assert.deepEqual(c.events.map((e) => [e.type, e.phase, e.traceparent]), [
          ["authorization", "start", traceparentOf(call)],
          ["authorization", "end", traceparentOf(call)],
        ]);
        await c.close();
      } finally {
        await world.close();
      }
    });
  }

  test("the authorization of connect() (its first request refused) is a child of connect's span", async () => {
    const world = await startWorld();
    try {
      world.addClient("as", "m2m", { secret: "cs-tracing-secret-2" });
      const grant = { type: "client_credentials", clientId: "m2m", clientSecret: "cs-tracing-secret-2" };
      exporter.reset();
      const c = await connected(world.url, { tracer, auth: { grant } });
      await c.close();
      assert.equal(parentId(only("authorization")), only("server/discover").spanContext().spanId);
    } finally {
      await world.close();
    }
  });

  test("connect's span says which method it was in mcp.method.name, as its name does", async () => {
    const c = await connected(PY, { mode: "legacy", tracer });
    await c.close();
    assert.equal(only("initialize").attributes["mcp.method.name"], "initialize");
  });
});

// ---- a plain `wasm-pack build` -------------------------------------------------------------------

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const onPath = (cmd) => (process.env.PATH ?? "").split(path.delimiter).some((d) => d && existsSync(path.join(d, cmd)));
const noWasmPack = !onPath("wasm-pack") || !onPath("wasm-bindgen")
  ? "wasm-pack or wasm-bindgen is not on PATH (scripts/setup.sh installs them)" : false;

describe("a plain `wasm-pack build` of the crate (what the design promises a user can run)", () => {
  test("wasm-bindgen writes tracing.js beside client.js, the glue names it nowhere, and a client with a tracer works", { skip: noWasmPack, timeout: 600_000 }, async () => {
    const out = mkdtempSync(path.join(tmpdir(), "plain-wasm-pack-"));
    try {
      // --dev: the debug build the wasm stages share (no nightly, no flags, no post-processing)
      await new Promise((resolve, reject) => {
        execFile("wasm-pack", ["build", "--mode", "no-install", "--dev", "--target", "nodejs", "--out-dir", out, ROOT], { maxBuffer: 1 << 26 },
          (e, stdout, stderr) => (e ? reject(new Error(`wasm-pack build failed: ${e.message}\n${stderr.slice(-4000)}`)) : resolve()));
      });
      const [dir] = readdirSync(path.join(out, "snippets"));
      const api = path.join(out, "snippets", dir, "src/js/api");
      assert.ok(existsSync(path.join(api, "client.js")) && existsSync(path.join(api, "tracing.js")), `snippets: ${readdirSync(api)}`);
      assert.ok(!readFileSync(path.join(out, "mcp_wasm_client.js"), "utf8").includes("src/js/api/tracing.js"), "the glue imports tracing.js");
      const plain = createRequire(import.meta.url)(path.join(out, "mcp_wasm_client.js"));
      const c = new plain.Client(PY, { tracer });
      try {
        await c.connect();
        assert.equal(text(await c.callTool("echo", { text: "plain" })), "plain");
      } finally {
        await c.close();
      }
      assert.equal(only("tools/call echo").attributes["gen_ai.tool.name"], "echo");
      assert.equal(named("server/discover").length, 1, JSON.stringify(spans().map((s) => s.name)));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
