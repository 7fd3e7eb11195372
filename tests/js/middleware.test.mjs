// The `middleware` option with mcp-wasm-client/middleware (pkg-template/middleware/index.js, the file
// the package ships) over the built package (pkg/nodejs): the order of the layers around real MCP
// requests to the Python peer, in both eras; withLogging's records (no header value, every query
// value masked but the allowed ones); the authorization requests of a sign-in going through the
// layers too (the OAuth world of oauth_world.mjs), with `auth.fetch` as well (innermost), with no
// secret in the log; withRetry against a node:http server of its own
// (a GET retried, a POST never); createMiddleware and applyMiddlewares; and the docs/client.md
// "Fetch middleware" example run as written.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eventually, pkg, PY, PKG_PATH, rejection, text } from "./peers.mjs";
import { scenario } from "./auth-common.mjs";
import { checkNoSecrets, dump } from "./auth-harness.mjs";
import { docJsBlocks } from "../support/docs.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const MIDDLEWARE = path.join(here, "../../pkg-template/middleware/index.js");
const { applyMiddlewares, createMiddleware, redactUrl, withLogging, withRetry } = await import(MIDDLEWARE);
const { Client } = pkg;

/**
 * Two recording layers: each request gets an id from the outer one (keyed by its init object,
 * which the inner one receives as it is), and `events` gets "outer>", "inner>", "<inner",
 * "<outer" with that id.
 */
function recorders() {
  const events = [];
  const ids = new WeakMap();
  let n = 0;
  const layer = (name, outer) => (next) => async (url, init) => {
    if (outer) ids.set(init, ++n);
    const id = ids.get(init);
    events.push({ id, at: `${name}>`, url: String(url), method: init?.method ?? "GET" });
    try {
      return await next(url, init);
    } finally {
      events.push({ id, at: `<${name}` });
    }
  };
  return { events, outer: layer("outer", true), inner: layer("inner", false), count: () => n };
}

for (const [era, mode] of [["modern", "auto"], ["legacy", "legacy"]]) {
  describe(`middleware against the Python peer (${era})`, () => {
    test("the first layer is the outermost: entry and exit order around every request", async () => {
      const r = recorders();
      const c = new Client(PY, { mode, middleware: [r.outer, r.inner] });
      try {
        await c.connect();
        assert.equal(c.era, era);
        assert.equal(text(await c.callTool("echo", { text: "through the layers" })), "through the layers");
        await c.listTools();
      } finally {
        await c.close();
      }
      // a request cut by close() (the legacy GET stream) settles right after it
      const complete = (id) => r.events.filter((e) => e.id === id).length === 4;
      await eventually(() => Array.from({ length: r.count() }, (_, i) => i + 1).every(complete), 3000);
      assert.ok(r.count() >= 3, `requests seen: ${r.count()}`);
      for (let id = 1; id <= r.count(); id++) {
        const order = r.events.filter((e) => e.id === id).map((e) => e.at);
        assert.deepEqual(order, ["outer>", "inner>", "<inner", "<outer"], `request ${id}`);
      }
      assert.ok(r.events.every((e) => e.at !== "outer>" || e.url.startsWith(PY)), "every request went to the peer");
      assert.ok(r.events.some((e) => e.method === "POST"));
    });

    test("withLogging: method, status, ms, mcpMethod; no Bearer token of `headers`, every query value of the URL masked (the names kept)", async () => {
      const records = [];
      const token = "sekrit-token-8c1f";
      const url = `${PY}?token=tok-secret-51&state=st-secret-52&keep=visible&api_key=ak-secret-54`;
      const c = new Client(url, {
        mode,
        headers: { Authorization: `Bearer ${token}`, "X-Api-Key": "key-secret-53" },
        middleware: [withLogging((rec) => records.push(rec))],
      });
      try {
        await c.connect();
        assert.equal(text(await c.callTool("echo", { text: "logged" })), "logged");
      } finally {
        await c.close();
      }
      assert.ok(records.length >= 2, `records: ${records.length}`);
      for (const rec of records) {
        assert.match(rec.method, /^(GET|POST|DELETE)$/);
        assert.equal(typeof rec.status, "number");
        assert.ok(rec.status >= 200 && rec.status < 500, `status ${rec.status}`);
        assert.equal(typeof rec.statusText, "string");
        assert.ok(typeof rec.ms === "number" && rec.ms >= 0, `ms ${rec.ms}`);
        assert.equal(rec.error, undefined);
        assert.ok(rec.url.endsWith("/mcp?token=[redacted]&state=[redacted]&keep=[redacted]&api_key=[redacted]"), rec.url);
      }
      const calls = records.filter((rec) => rec.method === "POST");
      assert.ok(calls.length >= 2);
      if (era === "modern") {
        assert.ok(records.some((rec) => rec.mcpMethod === "tools/call"), JSON.stringify(records));
      } else {
        assert.ok(records.every((rec) => rec.mcpMethod === undefined), "no Mcp-Method header on the legacy era");
      }
      checkNoSecrets([token, "Bearer", "tok-secret-51", "st-secret-52", "key-secret-53", "ak-secret-54", "visible"], records);
    });

    test("withLogging { allowParams }: the allowed values shown, the others masked, a secret's never", async () => {
      const records = [];
      const url = `${PY}?Page=2&api_key=ak-secret-55&access_token=at-secret-56&view=full`;
      const c = new Client(url, { mode, middleware: [withLogging((rec) => records.push(rec), { allowParams: ["page", "view", "access_token"] })] });
      try {
        await c.connect();
        await c.listTools();
      } finally {
        await c.close();
      }
      assert.ok(records.length >= 2);
      for (const rec of records) assert.ok(rec.url.endsWith("/mcp?Page=2&api_key=[redacted]&access_token=[redacted]&view=full"), rec.url);
      checkNoSecrets(["ak-secret-55", "at-secret-56"], records);
    });
  });
}

test("the middleware option's errors: kind input, data.option middleware, wherever the options are given", () => {
  const refused = (make, pattern) => {
    assert.throws(make, (e) => {
      assert.ok(e instanceof pkg.McpError, String(e));
      assert.equal(e.data?.kind, "input");
      assert.equal(e.data?.option, "middleware");
      assert.match(e.message, pattern);
      return true;
    });
  };
  const url = "http://127.0.0.1:9/mcp";
  refused(() => new Client(url, { middleware: () => {} }), /must be an array/);
  refused(() => new Client(url, { middleware: [42] }), /middleware\[0\] must be a function/);
  refused(() => new Client(url, { middleware: [() => "no"] }), /middleware\[0\] must return a function/);
  const [transport] = pkg.inMemoryPair();
  refused(() => new Client({ transport, middleware: [] }), /a client over \{ transport \} makes none/);
  refused(() => new Client({ transport }, { middleware: [] }), /a client over \{ transport \} makes none/);
});

test("redactUrl and withLogging's options: a bare part masked, fragments too, bad options are TypeErrors", () => {
  assert.equal(redactUrl("https://u:p@h.test/p?sk-live-1&a=1&b#c=2&d"), "https://[redacted]@h.test/p?[redacted]&a=[redacted]&[redacted]#c=[redacted]&[redacted]");
  assert.equal(redactUrl("/rel?a=1&B=2", { allowParams: ["b"] }), "/rel?a=[redacted]&B=2");
  assert.throws(() => redactUrl("https://h", { allowParams: "a" }), /allowParams must be an array/);
  assert.throws(() => withLogging(() => {}, { allowParams: [1] }), /allowParams must be an array/);
  assert.throws(() => withLogging(() => {}, 5), /options must be an object/);
  assert.equal(typeof withLogging({ allowParams: ["a"] }), "function", "withLogging(options): the default log");
});

test("withLogging's default log: one console.info line per request, no secret", async () => {
  const lines = [];
  const info = console.info;
  console.info = (...args) => lines.push(args.join(" "));
  const c = new Client(`${PY}?code=code-secret-61`, {
    headers: { Authorization: "Bearer default-log-secret" },
    middleware: [withLogging()],
  });
  try {
    await c.connect();
    await c.callTool("echo", { text: "x" });
  } finally {
    console.info = info;
    await c.close();
  }
  assert.ok(lines.length >= 2);
  for (const line of lines) assert.match(line, /^mcp-wasm-client: (GET|POST|DELETE) http:\/\/127\.0\.0\.1:\d+\/mcp\?code=\[redacted\].* \d{3}.* [\d.]+ ms$/);
  assert.ok(lines.some((l) => l.includes("(tools/call)")), lines.join("\n"));
  checkNoSecrets(["code-secret-61", "default-log-secret"], lines);
});

test("withLogging: a failed fetch is recorded with status 0 and error, and the call fails as a network error", async () => {
  const records = [];
  const server = http.createServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  await new Promise((r) => server.close(r)); // nothing listens there now
  const c = new Client(`http://127.0.0.1:${port}/mcp?client_secret=cs-secret-71`, {
    middleware: [withLogging((rec) => records.push(rec))],
    timeoutMs: 5000,
  });
  const e = await rejection(c.connect());
  assert.equal(e.data?.kind, "network", e.message);
  assert.ok(records.length >= 1);
  for (const rec of records) {
    assert.equal(rec.status, 0);
    assert.equal(typeof rec.error, "string");
    assert.ok(rec.url.endsWith("client_secret=[redacted]"), rec.url);
  }
  checkNoSecrets(["cs-secret-71"], records);
  await c.close();
});

// ---- authorization requests go through the middleware too -------------------------------------

describe("middleware sees the authorization requests (oauth_world.mjs)", () => {
  for (const mode of ["legacy", "2026-07-28"]) {
    scenario(`${mode}: PRM, AS metadata, registration and token requests pass the layers; the log holds no secret`, {}, async (h) => {
      const { world } = h;
      const seen = [];
      const recorder = (next) => async (url, init) => {
        const u = new URL(String(url));
        seen.push(`${(init?.method ?? "GET").toUpperCase()} ${u.pathname}`);
        return next(url, init);
      };
      const records = [];
      const lines = [];
      const c = h.client({ mode, middleware: [recorder, withLogging((rec) => records.push(rec)), withLogging((rec) => lines.push(JSON.stringify(rec)))] });
      await c.connect();
      assert.equal(text(await c.callTool("echo", { text: "signed in" })), "signed in");
      for (const want of [
        "GET /.well-known/oauth-protected-resource/mcp",
        "GET /.well-known/oauth-authorization-server/as",
        "POST /as/register",
        "POST /as/token",
        "POST /mcp",
      ]) {
        assert.ok(seen.includes(want), `${want} not seen by the middleware: ${seen.join(", ")}`);
      }
      // every request the world served went through the layers (the headless authorizer's
      // GET /as/authorize may be its own fetch's)
      const left = [...seen];
      for (const r of world.log.filter((r) => r.path !== "/as/authorize")) {
        const i = left.indexOf(`${r.method} ${r.path}`);
        assert.ok(i >= 0, `${r.method} ${r.path} reached the world without passing the middleware`);
        left.splice(i, 1);
      }
      const token = records.find((rec) => rec.url.endsWith("/as/token"));
      assert.ok(token && token.method === "POST" && token.status === 200, JSON.stringify(token));
      assert.ok(world.secrets.size >= 3, "the world recorded its secrets (tokens, code, verifier)");
      h.seen.push(records, lines);
      checkNoSecrets([...world.secrets], [...records, ...lines]);
      assert.ok(!dump(records).includes("Bearer"));
    });

    scenario(`${mode}: with auth.fetch set, the authorization requests pass the layers too, auth.fetch innermost`, {}, async (h) => {
      const { world } = h;
      const order = [];
      const layer = (name) => (next) => async (url, init) => {
        order.push(`${name} ${(init?.method ?? "GET").toUpperCase()} ${new URL(String(url)).pathname}`);
        return next(url, init);
      };
      const authFetch = (url, init) => {
        order.push(`auth.fetch ${(init?.method ?? "GET").toUpperCase()} ${new URL(String(url)).pathname}`);
        return fetch(url, init);
      };
      const records = [];
      const c = h.client({ mode, auth: { fetch: authFetch }, middleware: [layer("outer"), withLogging((rec) => records.push(rec)), layer("inner")] });
      await c.connect();
      assert.equal(text(await c.callTool("echo", { text: "via auth.fetch" })), "via auth.fetch");
      const auth = [
        "GET /.well-known/oauth-protected-resource/mcp",
        "GET /.well-known/oauth-authorization-server/as",
        "POST /as/register",
        "POST /as/token",
      ];
      for (const want of auth) {
        const at = order.indexOf(`auth.fetch ${want}`);
        assert.ok(at >= 2, `${want} went through auth.fetch after the layers: ${order.join(", ")}`);
        assert.deepEqual(order.slice(at - 2, at), [`outer ${want}`, `inner ${want}`], `${want}: the layers, then auth.fetch`);
      }
      // the MCP requests take the client's fetch, through the same layers
      assert.ok(order.includes("outer POST /mcp") && !order.includes("auth.fetch POST /mcp"), order.join(", "));
      assert.ok(records.some((rec) => rec.url.endsWith("/as/token") && rec.status === 200), JSON.stringify(records));
      for (const r of world.log.filter((r) => r.path !== "/as/authorize")) {
        assert.ok(order.includes(`outer ${r.method} ${r.path}`), `${r.method} ${r.path} reached the world without passing the middleware`);
      }
      checkNoSecrets([...world.secrets], records);
    });
  }
});

// ---- withRetry against a server of our own -----------------------------------------------------

/** A node:http server: `answer(req, res, hits)` per request; `hits` counts "METHOD /path". */
async function retryServer(answer) {
  const hits = new Map();
  const closes = [];
  const server = http.createServer((req, res) => {
    const key = `${req.method} ${req.url.split("?")[0]}`;
    const n = (hits.get(key) ?? 0) + 1;
    hits.set(key, n);
    req.resume();
    res.on("close", () => closes.push({ key, n, ended: res.writableEnded }));
    answer(req, res, n);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const close = () => new Promise((r) => {
    server.close(() => r());
    server.closeAllConnections();
  });
  return { base, hits: (key) => hits.get(key) ?? 0, closes, close };
}

describe("withRetry", () => {
  test("a GET answered 503 once is sent again and succeeds; a POST answered 503 is not; the retried body is released", async () => {
    const s = await retryServer((req, res, n) => {
      if (req.method === "GET" && n > 1) return res.end("fine");
      res.writeHead(503, { "content-type": "text/plain" });
      res.write("busy, and a body that never ends…"); // released by withRetry, or left hanging
    });
    try {
      const f = withRetry({ retries: 2, backoff: 10 })(globalThis.fetch);
      const got = await f(`${s.base}/flaky`, { method: "GET" });
      assert.equal(got.status, 200);
      assert.equal(await got.text(), "fine");
      assert.equal(s.hits("GET /flaky"), 2);
      const posted = await f(`${s.base}/flaky`, { method: "POST", body: "{}" });
      assert.equal(posted.status, 503);
      assert.equal(s.hits("POST /flaky"), 1);
      await posted.body.cancel();
      // the 503 the GET met was released (its connection closed before the server ended it)
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(s.closes.some((c) => c.key === "GET /flaky" && c.n === 1 && !c.ended), JSON.stringify(s.closes));
    } finally {
      await s.close();
    }
  });

  test("retries stop at `retries`; 408/429/502/504 retried, 404 and 500 not; HEAD retried", async () => {
    const statuses = { "/always": 502, "/t408": 408, "/t429": 429, "/t504": 504, "/nf": 404, "/ise": 500 };
    const s = await retryServer((req, res, n) => {
      const path = req.url;
      if (path !== "/always" && statuses[path] && n > 1 && [408, 429, 504].includes(statuses[path])) return res.end("ok");
      res.writeHead(statuses[path] ?? 200, { "content-type": "text/plain" });
      res.end("answer");
    });
    try {
      const f = withRetry({ retries: 3, backoff: () => 5 })(globalThis.fetch);
      assert.equal((await f(`${s.base}/always`)).status, 502);
      assert.equal(s.hits("GET /always"), 4);
      for (const p of ["/t408", "/t429", "/t504"]) {
        assert.equal((await f(`${s.base}${p}`, { method: "GET" })).status, 200, p);
        assert.equal(s.hits(`GET ${p}`), 2, p);
      }
      for (const p of ["/nf", "/ise"]) {
        await (await f(`${s.base}${p}`)).text();
        assert.equal(s.hits(`GET ${p}`), 1, p);
      }
      assert.equal((await f(`${s.base}/t429`, { method: "HEAD" })).status, 200);
      assert.equal((await f(`${s.base}/always`, { method: "PUT", body: "x" })).status, 502);
      assert.equal(s.hits("PUT /always"), 1);
    } finally {
      await s.close();
    }
  });

  test("Retry-After: waited when at most 30 s; a longer one returns the response unretried", async () => {
    const s = await retryServer((req, res, n) => {
      if (req.url === "/soon" && n > 1) return res.end("ok");
      res.writeHead(503, { "retry-after": req.url === "/soon" ? "1" : "60" });
      res.end();
    });
    try {
      const f = withRetry({ retries: 2, backoff: 0 })(globalThis.fetch);
      const t0 = Date.now();
      assert.equal((await f(`${s.base}/soon`)).status, 200);
      assert.ok(Date.now() - t0 >= 950, `waited ${Date.now() - t0} ms for Retry-After: 1`);
      assert.equal(s.hits("GET /soon"), 2);
      assert.equal((await f(`${s.base}/later`)).status, 503);
      assert.equal(s.hits("GET /later"), 1);
    } finally {
      await s.close();
    }
  });

  test("a network failure is retried (GET); an aborted signal stops it; an AbortError is not retried", async () => {
    const dead = await retryServer(() => {});
    const url = `${dead.base}/gone`;
    await dead.close(); // nothing listens there now
    let tries = 0;
    const counting = (next) => (u, i) => {
      tries++;
      return next(u, i);
    };
    const f = applyMiddlewares(counting, withRetry({ retries: 2, backoff: 5 }))(globalThis.fetch); // withRetry outermost
    await assert.rejects(f(url), TypeError);
    assert.equal(tries, 3);
    tries = 0;
    const aborted = AbortSignal.abort();
    await assert.rejects(f(url, { signal: aborted }), (e) => e.name === "AbortError");
    assert.equal(tries, 1);
    // aborted while waiting to retry: rejects with the signal's reason at once
    tries = 0;
    const ctl = new AbortController();
    const slow = applyMiddlewares(counting, withRetry({ retries: 2, backoff: 10_000 }))(globalThis.fetch);
    const t0 = Date.now();
    const p = slow(url, { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 100);
    await assert.rejects(p, (e) => e.name === "AbortError");
    assert.ok(Date.now() - t0 < 5000);
    assert.equal(tries, 1);
  });

  test("through the Client: a POST (every MCP request) answered 503 is sent once", async () => {
    const s = await retryServer((req, res) => {
      res.writeHead(503, { "content-type": "text/plain" });
      res.end("busy");
    });
    try {
      const c = new Client(`${s.base}/mcp`, { mode: "legacy", middleware: [withRetry({ retries: 3, backoff: 5 })] });
      await rejection(c.connect());
      assert.equal(s.hits("POST /mcp"), 1);
      await c.close();
    } finally {
      await s.close();
    }
  });

  test("bad options are TypeErrors", () => {
    assert.throws(() => withRetry({ retries: -1 }), TypeError);
    assert.throws(() => withRetry({ backoff: "fast" }), TypeError);
    assert.throws(() => withLogging("console"), TypeError);
    assert.throws(() => createMiddleware(null), TypeError);
    assert.throws(() => applyMiddlewares(() => {}, 3), TypeError);
  });
});

// ---- the TypeScript SDK's helpers, and the documented example ----------------------------------

test("createMiddleware and applyMiddlewares compose as the TypeScript SDK's (the last outermost)", async () => {
  const order = [];
  const named = (name) => createMiddleware(async (next, url, init) => {
    order.push(`${name}>`);
    const headers = new Headers(init?.headers);
    headers.append("x-trail", name);
    const r = await next(url, { ...init, headers });
    order.push(`<${name}`);
    return r;
  });
  const trails = [];
  const c = new Client(PY, {
    middleware: [applyMiddlewares(named("a"), named("b")), named("c")],
    fetch: (url, init) => {
      trails.push(new Headers(init.headers).get("x-trail"));
      return globalThis.fetch(url, init);
    },
  });
  try {
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "composed" })), "composed");
  } finally {
    await c.close();
  }
  assert.deepEqual(order.slice(0, 6), ["b>", "a>", "c>", "<c", "<a", "<b"]);
  assert.ok(trails.length >= 2 && trails.every((t) => t === "b, a, c"), trails.join(" | "));
});

test("docs/client.md's Fetch middleware example runs as written against the Python peer", async () => {
  const [example] = docJsBlocks("## Fetch middleware");
  assert.ok(example?.includes("mcp-wasm-client/middleware"), "docs/client.md has the example");
  const code = example
    .replace('from "mcp-wasm-client"', `from ${JSON.stringify(path.join(PKG_PATH, "mcp_wasm_client.js"))}`)
    .replace('from "mcp-wasm-client/middleware"', `from ${JSON.stringify(MIDDLEWARE)}`)
    .replace("http://127.0.0.1:18101/mcp", PY);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "middleware-doc-")), "example.mjs");
  writeFileSync(file, code);
  const out = await new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { encoding: "utf8", timeout: 30_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout));
  });
  assert.match(out, /text: 'hi'/);
  assert.match(out, /^POST http:\/\/127\.0\.0\.1:\d+\/mcp tools\/call 200 [\d.]+ ms$/m);
});
