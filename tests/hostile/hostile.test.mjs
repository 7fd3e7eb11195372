// Hostile-server suite: the client against tests/hostile/server.mjs (started by run.sh).
//
// For every fault: a clear McpError or a correct result, no panic (a wasm panic aborts the
// instance: every later call would fail), bounded memory, and the same client still works for a
// next call. Plus security: no server-provided URL is fetched by the client, custom headers
// never reach another origin (redirects included), and maxMessageBytes bounds what is buffered.
//
// Run: bash tests/hostile/run.sh   (or node --test --expose-gc tests/hostile/ with the server up)
// Env: MCP_PKG_NODE (the built --target nodejs package, default <repo>/pkg/nodejs: tests/js/peers.mjs),
//      HOSTILE_PORT (18801), HOSTILE_PORT2 (18802).
// Where the client misbehaves today the test states the expected behaviour and is marked
// `todo` (node:test reports it without failing the run).
// What the cases share (URLs, outcomes and their checks, memory figures, one fault's run) is in
// hostile-lib.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import { handTransport, PKG_PATH } from "../js/peers.mjs";
import { Client, McpError, BASE, BASE2, url, MiB, text, log, traps, log2, sleep, outcome, assertLocal, assertOkOrLocal, measured, mb, report, client, stillUsable, fault } from "./hostile-lib.mjs";

// ---- content types -------------------------------------------------------------------------------

test("text/html body: a clear protocol error", () =>
  fault("ct-html", (o) => assertLocal(o, ["protocol"], "ct-html")));

test("text/plain carrying JSON: a clear protocol error or the result", () =>
  fault("ct-plain-json", (o) => assertOkOrLocal(o, ["protocol"], "ct-plain-json")));

test("no Content-Type at all: a clear protocol error or the result", () =>
  fault("ct-none", (o) => assertOkOrLocal(o, ["protocol"], "ct-none")));

test("text/event-stream carrying plain JSON: a clear error, not a hang", () =>
  fault("ct-sse-json-body", (o, ms) => {
    assertLocal(o, ["protocol", "network"], "ct-sse-json-body");
    assert.ok(ms < 5_000, `took ${ms} ms`);
  }));

test("application/json carrying SSE: a parse error", () =>
  fault("ct-json-sse-body", (o) => {
    assertLocal(o, ["protocol"], "ct-json-sse-body");
    assert.equal(o.err.code, -32700);
  }));

// ---- truncated JSON ------------------------------------------------------------------------------

test("truncated JSON body: -32700", () =>
  fault("truncated-json", (o) => {
    assertLocal(o, ["protocol"], "truncated-json");
    assert.equal(o.err.code, -32700);
  }));

test("SSE stream ending inside an event: a clear error", () =>
  fault("truncated-sse", (o, ms) => {
    assertLocal(o, ["network", "protocol"], "truncated-sse");
    assert.ok(ms < 5_000, `took ${ms} ms`);
  }));

test("SSE event whose JSON is cut: a clear error", () =>
  fault("truncated-sse-event", (o, ms) => {
    assertLocal(o, ["network", "protocol"], "truncated-sse-event");
    assert.ok(ms < 5_000, `took ${ms} ms`);
  }));

// ---- ids -----------------------------------------------------------------------------------------

test("a JSON response for an id never sent: a prompt clear error, not a timeout", () =>
  fault("unknown-id-json", (o, ms) => {
    assertLocal(o, ["protocol", "network"], "unknown-id-json");
    assert.ok(ms < 5_000, `took ${ms} ms (a timeout is not a clear answer)`);
  }));

test("responses for ids never sent on the SSE stream are ignored; the real one wins", () =>
  fault("unknown-id-sse", (o) => assert.equal(text(o.ok), "ok")));

test("duplicate responses on the SSE stream: the first one wins, the rest are dropped", () =>
  fault("duplicate-sse", (o) => assert.equal(text(o.ok), "ok")));

test("a batch with a duplicate response: the first one wins", () =>
  fault("duplicate-batch", (o) => assertOkOrLocal(o, ["protocol"], "duplicate-batch")));

// ---- huge and deep -------------------------------------------------------------------------------

test("maxMessageBytes 64 KiB bounds a server request on the SSE stream, and the next call works", async () => {
  const m = await measured(() =>
    fault(
      "huge-request-sse",
      (o) => {
        assertLocal(o, ["protocol", "network"], "huge-request-sse 64 KiB");
        assert.equal(o.err.data?.maxMessageBytes ?? 65536, 65536);
      },
      { maxMessageBytes: 64 * 1024 },
    ),
  );
  report("huge-request-sse (64 KiB cap)", m);
  assert.ok(m.peakRss - m.before.rss < 64 * MiB, `RSS grew ${mb(m.peakRss - m.before.rss)}`);
  assert.ok(m.after.wasm - m.before.wasm <= 4 * MiB, `wasm memory grew ${mb(m.after.wasm - m.before.wasm)}`);
});

test("a 100 MB JSON result with maxMessageBytes 1 MiB: refused, the download stops early", async () => {
  const m = await measured(() =>
    fault("huge-result-json", (o) => assertLocal(o, ["protocol"], "huge-result-json"), { maxMessageBytes: MiB }),
  );
  report("huge-result-json (1 MiB cap)", m);
  const notes = (await log()).filter((e) => e.fault === "huge-result-json" && e.note).map((e) => e.note);
  console.log(`[huge-result-json] server: ${notes.join("; ")}`);
  assert.ok(notes.some((n) => /client went away/.test(n)), "the client stopped reading (the server did not send all 100 MB)");
  assert.ok(m.peakRss - m.before.rss < 64 * MiB, `RSS grew ${mb(m.peakRss - m.before.rss)}`);
  assert.ok(m.after.wasm - m.before.wasm <= 16 * MiB, `wasm memory grew ${mb(m.after.wasm - m.before.wasm)}`);
});

test("a 100 MB SSE line without a line end, maxMessageBytes 1 MiB: refused, memory bounded", async () => {
  const m = await measured(() =>
    fault("huge-line-sse", (o) => assertLocal(o, ["protocol", "network"], "huge-line-sse"), { maxMessageBytes: MiB }),
  );
  report("huge-line-sse (1 MiB cap)", m);
  const notes = (await log()).filter((e) => e.fault === "huge-line-sse" && e.note).map((e) => e.note);
  console.log(`[huge-line-sse] server: ${notes.join("; ")}`);
  assert.ok(m.peakRss - m.before.rss < 64 * MiB, `RSS grew ${mb(m.peakRss - m.before.rss)}`);
  assert.ok(m.after.wasm - m.before.wasm <= 16 * MiB, `wasm memory grew ${mb(m.after.wasm - m.before.wasm)}`);
});

test("a transport written in JS hands over a 50 MiB message: refused at maxMessageBytes before it is copied into wasm memory", async () => {
  // The cap for a JS transport: the length of the message's JSON text (JSON.stringify, UTF-16
  // units), checked on the JS string before it crosses into wasm memory.
  const reports = [];
  const transport = handTransport({ tools: {} }, (m, peer) => {
    const answer = (result) => queueMicrotask(() => peer.onmessage({ jsonrpc: "2.0", id: m.id, result }));
    if (m.method === "tools/call" && m.params.name === "huge") answer({ content: [{ type: "text", text: "A".repeat(50 * MiB) }] });
    else if (m.method === "tools/call") answer(OK_RESULT);
  });
  const c = new Client({ transport, mode: "legacy", maxMessageBytes: MiB, messageHandler: (e) => reports.push(e) });
  await c.connect();
  const m = await measured(() => outcome(c.callTool("huge", {}, { timeoutMs: 10_000 })));
  report("js-transport-50MiB (1 MiB cap)", m);
  assertLocal(m.value, ["protocol"], "js-transport-50MiB");
  assert.equal(m.value.err.data.maxMessageBytes, MiB);
  assert.match(m.value.err.message, /larger than maxMessageBytes/);
  assert.equal(text(await c.callTool("echo", {})), "ok", "the next call on the same client");
  await c.close();
  assert.ok(m.after.wasm - m.before.wasm < 8 * MiB, `wasm memory grew ${mb(m.after.wasm - m.before.wasm)}`);
});
const OK_RESULT = { content: [{ type: "text", text: "ok" }] };

test("a 50 MiB server request on the GET stream, maxMessageBytes 1 MiB: refused while read, wasm memory < 8 MiB growth", async () => {
  const reports = [];
  const m = await measured(async () => {
    const c = await client("huge-get", { maxMessageBytes: MiB, messageHandler: (e) => reports.push(e) });
    await sleep(1500); // the GET stream opens and is refused (and reopened) meanwhile
    await stillUsable(c, "huge-get");
    await c.close();
  });
  report("huge-get (1 MiB cap)", m);
  const notes = (await log()).filter((e) => e.fault === "huge-get" && e.note).map((e) => e.note);
  console.log(`[huge-get] server: ${notes.join("; ")}; reports: ${reports.map((r) => r.message).join(" | ").slice(0, 300)}`);
  assert.ok(notes.some((n) => /client went away/.test(n)), "the client stopped reading the GET stream");
  // messageHandler hears each refusal once (a GET cut by close() is not refused), never the content.
  const refusals = reports.filter((r) => r.data?.maxMessageBytes === MiB);
  const refused = notes.filter((n) => /client went away/.test(n)).length;
  // Once per refused message: the server saw `refused` GETs cut short, of which at most one (the
  // last) by close() rather than by the refusal.
  console.log(`[huge-get] ${refusals.length} refusals heard for ${refused} GET streams cut short`);
  assert.ok(refusals.length >= 1, "messageHandler heard the refusal");
  assert.ok(refusals.length <= refused, `${refusals.length} refusals for ${refused} refused messages`);
  assert.ok(refusals.length >= refused - 1, `${refusals.length} refusals for ${refused} refused messages: one missing`);
  for (const r of refusals) {
    assert.ok(r instanceof McpError, "the refusal is an McpError");
    assert.equal(r.data.local, true);
    assert.equal(r.data.kind, "protocol", "the same kind as a POST response over maxMessageBytes");
    assert.match(r.message, /larger than 1048576 bytes/);
    assert.ok(!/AAAA|"pad"/.test(JSON.stringify(r)), "the refusal carries none of the message");
  }
  assert.ok(m.after.wasm - m.before.wasm < 8 * MiB, `wasm memory grew ${mb(m.after.wasm - m.before.wasm)}`);
});

// (After the small-cap cases: wasm memory never shrinks, so their bounds are measured first.)
test("a 100 MB server request on the SSE stream: refused at maxMessageBytes (16 MiB default), memory bounded", async () => {
  const m = await measured(() =>
    fault("huge-request-sse", (o) => {
      assertLocal(o, ["protocol", "network"], "huge-request-sse");
      assert.match(o.err.message, /larger|too large|maxMessageBytes|bytes/i);
    }),
  );
  report("huge-request-sse (default 16 MiB cap)", m);
  const notes = (await log()).filter((e) => e.fault === "huge-request-sse" && e.note).map((e) => e.note);
  console.log(`[huge-request-sse] server: ${notes.join("; ")}`);
  // Measured: RSS +54–80 MiB peak, wasm linear memory +28–64 MiB (up to 4× the cap, by allocation
  // history; wasm memory never shrinks).
  assert.ok(m.peakRss - m.before.rss < 160 * MiB, `RSS grew ${mb(m.peakRss - m.before.rss)}`);
  assert.ok(m.after.wasm - m.before.wasm <= 5 * 16 * MiB, `wasm memory grew ${mb(m.after.wasm - m.before.wasm)}`);
});

test("a server request nested 10 000 levels deep: no crash, a clear error or the call completes", () =>
  fault("deep-request-sse", (o) => assertOkOrLocal(o, ["protocol"], "deep-request-sse")));

test("a result nested 10 000 levels deep: a clear parse error", () =>
  fault("deep-result-json", (o) => assertLocal(o, ["protocol"], "deep-result-json")));

test("a result nested 100 levels deep: accepted", () =>
  fault("deep-result-100", (o) => assert.equal(text(o.ok), "ok")));

// ---- streams that never give an answer / never close ---------------------------------------------

test("an endless SSE stream of comments only: times out at timeoutMs and the stream is closed", async () => {
  await fetch(`${BASE}/_log`, { method: "DELETE" });
  await fault(
    "comments-only",
    (o, ms) => {
      assertLocal(o, ["timeout"], "comments-only");
      assert.equal(o.err.code, -32001);
      assert.ok(ms >= 900 && ms < 4_000, `took ${ms} ms for timeoutMs 1000`);
    },
    {},
    { timeoutMs: 1_000 },
  );
  await sleep(300);
  const notes = (await log()).filter((e) => e.fault === "comments-only" && e.note).map((e) => e.note);
  console.log(`[comments-only] server: ${notes.join("; ")}`);
  assert.ok(notes.some((n) => /client closed: true/.test(n)), "the client closed the stream after the timeout");
});

test("a stream that never closes after the response: the call resolves at once and the client closes the stream", async () => {
  await fault("never-close", (o, ms) => {
    assert.equal(text(o.ok), "ok");
    assert.ok(ms < 3_000, `took ${ms} ms`);
  });
  await sleep(300);
  const notes = (await log()).filter((e) => e.fault === "never-close" && e.note).map((e) => e.note);
  console.log(`[never-close] server: ${notes.join("; ")}`);
  assert.ok(notes.some((n) => /client closed the stream: true/.test(n)), "the client dropped the stream after its response");
});

test("1 000 ping requests on the POST's stream before the response: all answered, the call completes", async () => {
  await fetch(`${BASE}/_log`, { method: "DELETE" });
  const m = await measured(() =>
    fault("ping-flood", (o) => assert.equal(text(o.ok), "ok", "the server saw all 1 000 pings answered"), {}, { timeoutMs: 30_000 }),
  );
  report("ping-flood", m);
  // 1 000 concurrent answer POSTs (Node's fetch opens many sockets): measured RSS +100 MiB peak,
  // heap +7 MiB, wasm flat.
  assert.ok(m.peakRss - m.before.rss < 256 * MiB, `RSS grew ${mb(m.peakRss - m.before.rss)}`);
  assert.ok(m.after.heap - m.before.heap < 32 * MiB, `heap grew ${mb(m.after.heap - m.before.heap)}`);
  assert.ok(m.after.wasm - m.before.wasm <= 4 * MiB, `wasm memory grew ${mb(m.after.wasm - m.before.wasm)}`);
  const answers = (await log()).filter((e) => e.fault === "ping-flood" && e.isResponse && String(e.id).startsWith("flood-"));
  assert.equal(new Set(answers.map((e) => e.id)).size, 1000, "one response per ping");
  assert.equal(answers.length, 1000, "no ping answered twice");
});

/** Runs scenario `name` of flood-child.mjs in a child process; returns its JSON figures. */
async function inChild(name) {
  const { execFile } = await import("node:child_process");
  const { promisify } = await import("node:util");
  const child = new URL("./flood-child.mjs", import.meta.url).pathname;
  const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", child, name], {
    env: process.env,
    timeout: 180_000,
  });
  const figures = JSON.parse(stdout.trim().split("\n").pop());
  console.log(
    `[memory] ${name} (child process): RSS ${mb(figures.before.rss)} → peak ${mb(figures.peakRss)} (+${mb(figures.peakRss - figures.before.rss)}) → ${mb(figures.after.rss)}; ` +
      `heap ${mb(figures.before.heap)} → ${mb(figures.after.heap)}; wasm ${mb(figures.before.wasm)} → ${mb(figures.after.wasm)}`,
  );
  return figures;
}

for (const [fault, body] of [["huge-50-json", "JSON"], ["huge-50-sse", "SSE"]]) {
  test(`a 50 MiB result as the POST's ${body} body, maxMessageBytes 1 MiB: refused while read, wasm memory and JS heap < 8 MiB growth (RSS peak < 40 MiB)`, async () => {
    const f = await inChild(fault);
    const notes = (await log()).filter((e) => e.fault === fault && e.note).map((e) => e.note);
    console.log(`[${fault}] ${f.err?.code} ${f.err?.data?.kind}: ${f.err?.message}; server: ${notes.at(-1)}`);
    assert.ok(f.err?.isMcpError, "the call fails with an McpError");
    assert.equal(f.err.data.local, true);
    assert.equal(f.err.data.kind, "protocol");
    assert.equal(f.err.data.maxMessageBytes, MiB);
    assert.ok(!f.err.message.includes("AAAA"), "the refusal carries none of the body");
    assert.equal(f.next, "ok", "the next call on the same client");
    assert.match(notes.at(-1) ?? "", /client went away/, "the client stopped reading (the server did not send all 50 MiB)");
    assert.ok(f.after.wasm - f.before.wasm < 8 * MiB, `wasm memory grew ${mb(f.after.wasm - f.before.wasm)}`);
    // Nothing of the body is kept: the JS heap once settled (two gcs) grows < 8 MiB (measured
    // +0.2 MiB every run). RSS after the gcs is the allocator's business, not a retention signal
    // (measured −13 to +27 MiB on the same run, often above the peak: the gc's own pages), so it
    // is not asserted. The RSS peak (measured +11–27 MiB: fetch's socket buffers and the chunks
    // read before the cap) stays below the 50 MiB the body would take read whole.
    assert.ok(f.after.heap - f.before.heap < 8 * MiB, `JS heap grew ${mb(f.after.heap - f.before.heap)}`);
    assert.ok(f.peakRss - f.before.rss < 40 * MiB, `RSS grew ${mb(f.peakRss - f.before.rss)} at its peak`);
  });
}

test("1 000 ping, roots/list and elicitation/create requests at once: answered in order, at most 16 at a time, RSS bounded", async () => {
  const f = await inChild("request-flood");
  console.log(`[request-flood] ${f.text}; at most ${f.maxRunning} callbacks at once`);
  const summary = JSON.parse(f.text.replace(/^ok /, ""));
  assert.equal(summary.all, true, "every request answered before the server's deadline");
  assert.equal(summary.answered, 1000, "1 000 answers, none dropped or doubled");
  assert.equal(summary.results, 1000, "every answer a result");
  assert.equal(summary.firstOutOfOrder, -1, "answers in the order the requests arrived");
  // The engine answers at most MAX_ANSWERING (16) server requests at once (src/engine/answers.rs).
  assert.ok(f.maxRunning <= 16, `${f.maxRunning} callbacks ran at once`);
  // Before the queue: 1 000 concurrent callbacks and POSTs, RSS +95 MiB (666 callbacks at once,
  // answers out of order); after: +60 MiB, most of it collectable garbage of the 1 000 answer
  // fetches (the heap after is +4 MiB).
  assert.ok(f.peakRss - f.before.rss < 80 * MiB, `RSS grew ${mb(f.peakRss - f.before.rss)}`);
  assert.ok(f.after.wasm - f.before.wasm <= 4 * MiB, `wasm memory grew ${mb(f.after.wasm - f.before.wasm)}`);
});

test("10 000 notifications on one call: all delivered, wasm memory and JS heap flat", async () => {
  const f = await inChild("notify-flood");
  console.log(`[notify-flood] ${f.text}; ${f.notes} notifications delivered`);
  assert.equal(f.notes, 10_000);
  assert.ok(f.after.wasm - f.before.wasm <= 2 * MiB, `wasm memory grew ${mb(f.after.wasm - f.before.wasm)}`);
  assert.ok(f.after.heap - f.before.heap < 8 * MiB, `heap grew ${mb(f.after.heap - f.before.heap)}`);
});

test("1 000 progress events on one call: all delivered, wasm memory and JS heap flat", async () => {
  const f = await inChild("progress-flood");
  console.log(`[progress-flood] ${f.text}; ${f.events} progress events delivered`);
  assert.equal(f.events, 1000);
  assert.ok(f.after.wasm - f.before.wasm <= 2 * MiB, `wasm memory grew ${mb(f.after.wasm - f.before.wasm)}`);
  assert.ok(f.after.heap - f.before.heap < 8 * MiB, `heap grew ${mb(f.after.heap - f.before.heap)}`);
});

test("10 000 calls with a timeout: all answered, nothing pending, wasm memory and JS heap flat", async () => {
  const f = await inChild("calls-timeout");
  console.log(`[calls-timeout] ${f.ok} ok, ${f.pending} pending`);
  assert.equal(f.ok, 10_000);
  assert.equal(f.pending, 0);
  assert.ok(f.after.wasm - f.before.wasm <= 2 * MiB, `wasm memory grew ${mb(f.after.wasm - f.before.wasm)}`);
  assert.ok(f.after.heap - f.before.heap < 8 * MiB, `heap grew ${mb(f.after.heap - f.before.heap)}`);
});

test("100 reconnects of the GET stream (one notification each, reconnection 5–20 ms): every notification once, wasm memory and JS heap flat", async () => {
  const f = await inChild("get-reconnects");
  const gets = (await log()).filter((e) => e.fault === "get-reconnects" && e.note?.startsWith("GET "));
  const session = gets.at(-1)?.session;
  const mine = gets.filter((e) => e.session === session);
  const reconnects = mine.length - 1;
  console.log(`[get-reconnects] ${reconnects} reconnects in ${f.ms} ms; ${f.seqs.length} notifications; messageHandler also heard: ${f.others.join(" | ").slice(0, 200) || "nothing else"}`);
  // The first GET plus 100 reconnects; the 101st reconnect's stream is held open (no notification).
  assert.equal(reconnects, 100, "100 reconnects counted server-side");
  assert.deepEqual(f.seqs, Array.from({ length: 100 }, (_, i) => i + 1), "every notification delivered exactly once, in order");
  // Each reconnect resumed from the last event id it saw.
  for (const e of mine.slice(1)) assert.equal(e.resumedFrom, `get-${e.n - 1}`, `GET ${e.n} sent Last-Event-ID`);
  assert.ok(f.after.wasm - f.before.wasm <= 2 * MiB, `wasm memory grew ${mb(f.after.wasm - f.before.wasm)}`);
  assert.ok(f.after.heap - f.before.heap < 8 * MiB, `heap grew ${mb(f.after.heap - f.before.heap)}`);
});

test("a bad reconnection option is refused, naming the field", () => {
  const range = "must be a number of milliseconds from 1 to 3600000";
  const bad = [
    [{ initialDelayMs: -1 }, `options.reconnection.initialDelayMs ${range}`],
    [{ maxDelayMs: "20" }, `options.reconnection.maxDelayMs ${range}`],
    [{ initialDelayMs: NaN }, `options.reconnection.initialDelayMs ${range}`],
    [{ maxDelayMs: Infinity }, `options.reconnection.maxDelayMs ${range}`],
    [{ maxDelayMs: 1e10 }, `options.reconnection.maxDelayMs ${range}`],
    [{ initialDelayMs: 50, maxDelayMs: 20 }, "options.reconnection.initialDelayMs (50) is larger than options.reconnection.maxDelayMs (20)"],
    [{ initialDelay: 5 }, "options.reconnection.initialDelay is not an option of reconnection: did you mean initialDelayMs?"],
    [5, "options.reconnection must be an object"],
  ];
  for (const [reconnection, says] of bad) {
    assert.throws(
      () => new Client(url("ok"), { mode: "legacy", reconnection }),
      (e) => e instanceof McpError && e.data?.kind === "input" && e.message.includes(says),
      `reconnection ${JSON.stringify(reconnection)}`,
    );
  }
  const transport = { start() {}, close() {}, send() {} };
  assert.throws(() => new Client({ transport, reconnection: { initialDelayMs: 5 } }), /options\.reconnection applies to Streamable HTTP only/);
  new Client(url("ok"), { reconnection: { initialDelayMs: 5, maxDelayMs: 20 } }); // accepted
  new Client(url("ok"), { reconnection: {} }); // the defaults
});

// ---- invalid UTF-8 -------------------------------------------------------------------------------

test("invalid UTF-8 inside an SSE event's JSON: U+FFFD or a clear error, never a crash", () =>
  fault("bad-utf8-sse", (o) => {
    if (o.ok) assert.match(text(o.ok), /^a\uFFFD.*b$/u);
    else assertLocal(o, ["protocol"], "bad-utf8-sse");
  }));

test("invalid UTF-8 in an SSE event name and id: the stream goes on", () =>
  fault("bad-utf8-field", (o) => assert.equal(text(o.ok), "ok")));

test("invalid UTF-8 in a JSON body: U+FFFD or a clear error", () =>
  fault("bad-utf8-json", (o) => {
    if (o.ok) assert.match(text(o.ok), /^o\uFFFD+k$/u);
    else assertLocal(o, ["protocol"], "bad-utf8-json");
  }));

// ---- 2026 ----------------------------------------------------------------------------------------

for (const f of ["modern-unknown-resulttype", "modern-unknown-resulttype-sse"]) {
  test(`2026: a result with an unknown resultType is a clear protocol error (${f})`, async () => {
    const c = new Client(url(f), { mode: "2026-07-28", timeoutMs: 10_000 });
    await c.connect();
    try {
      const o = await outcome(c.callTool("hostile", {}));
      console.log(`[${f}] ${o.ok ? JSON.stringify(o.ok) : `${o.err.code} ${o.err.data?.kind}: ${o.err.message}`}`);
      assertLocal(o, ["protocol"], f);
      assert.match(o.err.message, /resultType/);
      await stillUsable(c, f);
    } finally {
      await c.close();
    }
  });
}

// ---- a hostile outputSchema ---------------------------------------------------------------------

test(
  "an outputSchema built to take exponential time (anyOf of two self-$refs): validation is bounded, the call answers",
  async () => {
    // Run in a worker: a synchronous wasm loop would block this thread (and the test runner) forever.
    const worker = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads");
       const { Client } = require(workerData.pkg);
       (async () => {
         const c = new Client(workerData.url, { mode: "legacy", timeoutMs: 5000 });
         await c.connect();
         await c.listTools();
         parentPort.postMessage({ stage: "listed" });
         try {
           const r = await c.callTool("hostile", {});
           parentPort.postMessage({ stage: "done", ok: r.content?.[0]?.text });
         } catch (e) {
           parentPort.postMessage({ stage: "done", err: e.message, kind: e.data?.kind });
         }
         await c.close();
       })();`,
      { eval: true, workerData: { pkg: PKG_PATH, url: url("exp-output-schema") } },
    );
    const msgs = [];
    worker.on("message", (m) => msgs.push(m));
    worker.on("error", (e) => msgs.push({ stage: "error", err: String(e) }));
    const t0 = Date.now();
    while (Date.now() - t0 < 5_000 && !msgs.some((m) => m.stage === "done" || m.stage === "error")) await sleep(50);
    await worker.terminate();
    console.log(`[exp-output-schema] after ${Date.now() - t0} ms: ${JSON.stringify(msgs)}`);
    const done = msgs.find((m) => m.stage === "done");
    assert.ok(done, "the call answered (a result, or an error saying the schema is too complex) within 5 s");
  },
);

// ---- security: server-provided URLs --------------------------------------------------------------

test("security: the client never fetches a URL-mode elicitation URL or any other server-provided URL", async () => {
  await fetch(`${BASE}/_log`, { method: "DELETE" });
  const seen = [];
  const c = new Client(url("trap-urls"), {
    mode: "legacy",
    timeoutMs: 10_000,
    elicitationCallback: (ctx, params) => {
      seen.push(params);
      return { action: "accept" }; // the user "opened" it themselves
    },
  });
  await c.connect();
  try {
    const tools = await c.listTools();
    assert.ok(tools.tools.some((t) => t.name === "iconic"));
    const r = await c.callTool("hostile", {});
    assert.equal(text(r), "ok");
    assert.equal(seen.length, 1, "the callback got the URL elicitation");
    assert.equal(seen[0].mode, "url");
    assert.match(seen[0].url, /_trap\/elicitation-url/);
    const answer = (await log()).find((e) => e.fault === "trap-urls" && e.id === "url-elicit" && e.isResponse);
    assert.ok(answer, "the elicitation was answered");
    const o = await outcome(c.callTool("hostile", {}, {}));
    assert.ok(o.ok || o.err);
    await stillUsable(c, "trap-urls");
  } finally {
    await c.close();
  }
  // the same with the -32042 error form
  const c2 = await client("url-elicit-error", { elicitationCallback: () => ({ action: "accept" }) });
  try {
    const o = await outcome(c2.callTool("hostile", {}));
    assert.ok(o.err, "the -32042 error reaches the caller");
    assert.equal(o.err.code, -32042);
    await stillUsable(c2, "url-elicit-error");
  } finally {
    await c2.close();
  }
  await sleep(200);
  const hits = await traps();
  assert.deepEqual(hits.map((h) => h.url), [], "no request reached a server-provided URL");
});

// ---- security: custom headers never reach another origin ------------------------------------------

const SECRET = { Authorization: "Bearer s3cret-token", "X-Api-Key": "k-123" };
const leaked = (entries) => entries.filter((e) => e.headers.authorization || e.headers["x-api-key"]);

for (const f of ["redirect-307", "redirect-308", "redirect-302"]) {
  test(`security: a ${f.slice(-3)} redirect of a POST to another origin never carries the custom headers`, async () => {
    await fetch(`${BASE2}/_log`, { method: "DELETE" });
    const c = await client(f, { headers: SECRET });
    try {
      const o = await outcome(c.callTool("hostile", {}, { timeoutMs: 5_000 }));
      console.log(`[${f}] ${o.ok ? `followed: ${text(o.ok)}` : `${o.err.code} ${o.err.data?.kind}: ${o.err.message}`}`);
      await stillUsable(c, f);
    } finally {
      await c.close();
    }
    const got = await log2();
    console.log(`[${f}] the other origin saw: ${JSON.stringify(got.map((e) => ({ m: e.httpMethod, url: e.url, auth: e.headers.authorization ?? null })))}`);
    assert.deepEqual(leaked(got), [], "Authorization / X-Api-Key reached the other origin");
  });
}

test("security: initialize redirected (307) to another origin never carries the custom headers", async () => {
  await fetch(`${BASE2}/_log`, { method: "DELETE" });
  const c = new Client(url("redirect-init-307"), { mode: "auto", timeoutMs: 5_000, headers: SECRET });
  const o = await outcome(c.connect());
  console.log(`[redirect-init-307] ${o.err ? `${o.err.code} ${o.err.data?.kind}: ${o.err.message}` : "connected"}`);
  await c.close();
  const got = await log2();
  console.log(`[redirect-init-307] the other origin saw: ${JSON.stringify(got.map((e) => ({ m: e.httpMethod, url: e.url, auth: e.headers.authorization ?? null })))}`);
  assert.deepEqual(leaked(got), []);
});

test("security: an HTTP+SSE endpoint event naming another origin is refused, no headers sent there", async () => {
  await fetch(`${BASE2}/_log`, { method: "DELETE" });
  const reported = [];
  const c = new Client(url("sse-endpoint-elsewhere"), {
    mode: "legacy",
    timeoutMs: 5_000,
    headers: SECRET,
    messageHandler: (m) => reported.push(m),
  });
  const o = await outcome(c.connect());
  console.log(`[sse-endpoint-elsewhere] ${o.err ? `${o.err.code} ${o.err.data?.kind}: ${o.err.message}` : `connected, transport ${c.transport}`}`);
  console.log(`[sse-endpoint-elsewhere] reported: ${reported.map((m) => m.message ?? m.method).join(" | ")}`);
  await c.close();
  const gets = (await log()).filter((e) => e.fault === "sse-endpoint-elsewhere" && e.httpMethod === "GET");
  assert.ok(gets.length >= 1, "the client tried the HTTP+SSE GET (the case was exercised)");
  const got = await log2();
  assert.deepEqual(leaked(got), []);
  assert.deepEqual(got, [], "nothing at all reached the other origin");
  assert.ok(o.err, "connecting through an endpoint on another origin is refused");
  assert.ok(reported.some((m) => m instanceof McpError && /origin/i.test(m.message)), "the refusal names the origin");
});

// ---- maxMessageBytes -----------------------------------------------------------------------------

test("no panic anywhere: a fresh client still works after the whole suite", async () => {
  const c = await client("ok");
  try {
    await stillUsable(c, "final");
  } finally {
    await c.close();
  }
});
