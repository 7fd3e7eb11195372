// End-to-end test of sign-in (OAuth) in the browser demo (www/) against the Python SDK's
// authorization server + resource server (tests/peers/oauth_server.py, consent page, no
// auto-approve).
//
//   cd tests/e2e && npm ci && node auth.mjs        (needs pkg/web, like run.mjs)
//
// Starts three OAuth peers (plain; --hide-www-authenticate; --as-no-cors) and a static server
// for the repository root with a same-origin proxy route /as-proxy/<url> (to those peers
// only), on free 127.0.0.1 ports (E2E_AUTH_PORTS="a-b", default 18611-18630). Drives Debian's
// /usr/bin/chromium with playwright-core: the popup (Approve on the consent page), token
// refresh, step-up, sign-out, a module worker using the page's sign-in, the legacy era, redirect
// mode, a header-less 401, an AS without CORS (auth_cors, then auth.fetch through the proxy), Deny
// and a closed popup, a 100 MiB token response (refused while reading: the connection closes
// after about the 64 KiB cap), and popup blockers (tests/e2e/fixtures/popup/, the README's
// patterns: a window opened in the click handler, authorizeWithPopup({ window }); Chromium's own
// blocker refusing a popup from a timer, popup_blocked's authorizationUrl as a link). Prints one line per step and "e2e-auth: N passed, M failed"; saves
// 08-oauth-consent.png and 09-oauth-signed-in.png (E2E_SCREENSHOTS=docs: to docs/screenshots/; see
// lib.mjs). E2E_OAUTH_SERVER overrides the peer's path.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import {
  ROOT, expect, freePorts, launchChromium, needOauthServer, needWebPackage, oauthPeer, shot, shotsFolder, shotsTaken, start, stepper, stopChildren, waitHttp,
} from "./lib.mjs";

const PORTS = process.env.E2E_AUTH_PORTS ?? "18611-18630";
const started = Date.now();
const steps = stepper(30_000);
const { step } = steps;
const result = () => steps;

// ------------------------------------------------------------------------------ servers

const MIME = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8", ".json": "application/json", ".wasm": "application/wasm", ".png": "image/png",
  ".svg": "image/svg+xml", ".ts": "text/plain; charset=utf-8",
};
const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "origin", "referer", "content-length"]);

/**
 * Answers with a JSON body of 100 MiB, 16 KiB every 2 ms while the socket takes it, until the
 * client goes away. Returns { written, closedEarly, done } (done: when the connection closed).
 */
function oversized(res) {
  const total = 100 * 1024 * 1024;
  const chunk = Buffer.alloc(16 * 1024, "a");
  const record = { written: 0, closedEarly: false, done: null };
  record.done = new Promise((resolve) => {
    let timer = null;
    res.on("close", () => {
      clearTimeout(timer);
      record.closedEarly = record.written < total;
      resolve(record);
    });
    const next = () => {
      if (record.written >= total) return void res.end('"}');
      record.written += chunk.length;
      if (res.write(chunk)) timer = setTimeout(next, 2);
      else res.once("drain", () => (timer = setTimeout(next, 2)));
    };
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    res.write('{"access_token":"');
    timer = setTimeout(next, 2);
  });
  return record;
}

/**
 * The static server of the repository root (what python3 -m http.server does in run.mjs),
 * plus /as-proxy/<absolute URL>: forwards the request to that URL when its origin is allowed.
 * This is the route an app adds on its own origin for an authorization server without CORS;
 * the page's auth.fetch sends discovery, registration and token requests through it. And
 * /oversized: a 100 MiB answer (recorded in `streams`), for a page's auth.fetch to send a token
 * request to.
 */
function staticServer(port, allowedOrigins, proxied, streams, flags) {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, `http://127.0.0.1:${port}`);
    if (u.pathname === "/oversized") {
      streams.push(oversized(res));
      return;
    }
    if (u.pathname.startsWith("/as-proxy/")) {
      let target;
      try { target = new URL(req.url.slice("/as-proxy/".length)); } catch { target = null; }
      if (!target || !allowedOrigins.has(target.origin)) {
        res.writeHead(403, { "content-type": "text/plain" }).end("not an allowed origin");
        return;
      }
      proxied.push(`${req.method} ${target.href}`);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP.has(k)));
      const out = http.request(target, { method: req.method, headers }, (up) => {
        const back = Object.fromEntries(Object.entries(up.headers).filter(([k]) => !HOP.has(k)));
        res.writeHead(up.statusCode, back);
        up.pipe(res);
      });
      out.on("error", (e) => res.writeHead(502, { "content-type": "text/plain" }).end(String(e)));
      req.pipe(out);
      return;
    }
    let file = path.join(ROOT, decodeURIComponent(u.pathname));
    if (!file.startsWith(ROOT)) { res.writeHead(403).end(); return; }
    try {
      if (fs.statSync(file).isDirectory()) file = path.join(file, "index.html");
      const body = fs.readFileSync(file);
      const coop = flags.coop && u.pathname === "/www/oauth/callback.html" ? { "cross-origin-opener-policy": "same-origin" } : {};
      res.writeHead(200, { "content-type": MIME[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store", ...coop });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

// ------------------------------------------------------------------------------ main

async function main() {
  needWebPackage();
  needOauthServer();
  const [web, ...p] = await freePorts(7, PORTS);
  const [plain, hidden, noCors] = await Promise.all([
    oauthPeer("oauth peer", p[0], p[1], []),
    oauthPeer("oauth peer (hidden WWW-Authenticate)", p[2], p[3], ["--hide-www-authenticate"]),
    oauthPeer("oauth peer (AS without CORS)", p[4], p[5], ["--as-no-cors"]),
  ]);
  const proxied = [];
  const streams = [];
  const allowed = new Set([plain, hidden, noCors].flatMap((x) => x.origins));
  const flags = { coop: false }; // coop: the callback page is served with Cross-Origin-Opener-Policy: same-origin
  const webServer = await staticServer(web, allowed, proxied, streams, flags);
  const WEB = `http://127.0.0.1:${web}`;
  console.log(`# oauth peers ${plain.mcp} (AS ${plain.issuer}), ${hidden.mcp} (hidden WWW-Authenticate), ` +
    `${noCors.mcp} (AS without CORS); static + /as-proxy/ ${WEB}/`);

  const browser = await launchChromium();
  const pageErrors = [];
  const popups = [];
  async function newPage() {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, deviceScaleFactor: 1 });
    context.on("page", (p) => popups.push(p));
    const page = await context.newPage();
    popups.length = 0;
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    // A 401 and a CORS refusal are console errors by design; anything else is not.
    page.on("console", (m) => {
      if (m.type() === "error" && !/Failed to load resource|blocked by CORS policy|net::ERR_FAILED/.test(m.text())) pageErrors.push(`console: ${m.text()}`);
    });
    return { context, page, $: (sel) => page.locator(sel) };
  }
  const demo = (mcp, extra = "") => `${WEB}/www/?url=${encodeURIComponent(mcp)}&auth=popup${extra}`;

  /** Waits for the sign-in popup, checks its consent page, clicks Approve; the popup closes itself. */
  function approveInPopup(context, opts) {
    const p = approve(context, opts);
    p.catch(() => {}); // awaited by the step; a step that fails before must not leave it unhandled
    return p;
  }
  async function approve(context, { scopes = [], screenshot } = {}) {
    const popup = await context.waitForEvent("page", { timeout: 15_000 });
    await popup.waitForURL(/\/consent\?request_id=/);
    await popup.locator("#approve").waitFor();
    const listed = await popup.locator("#scopes .scope").evaluateAll((els) => els.map((e) => e.dataset.scope));
    for (const s of scopes) expect(listed.includes(s), `consent page lists ${s} (lists ${listed.join(" ")})`);
    if (screenshot) {
      await popup.setViewportSize({ width: 560, height: 560 });
      await shot(popup, screenshot);
    }
    const closed = popup.waitForEvent("close", { timeout: 15_000 });
    await popup.locator("#approve").click();
    await closed; // completeAuthorizationPopup() closed it
    return listed;
  }

  const signedIn = async ($) => {
    await $('[data-test="auth-card"][data-signed-in="true"]').waitFor();
    return JSON.parse(await $('[data-test="auth-card"]').getAttribute("data-authorization"));
  };

  async function callTool($, page, tool, args = {}) {
    await $(`[data-test="tool-${tool}"]`).click();
    for (const [k, v] of Object.entries(args)) await $(`[data-test="arg-${k}"]`).fill(String(v));
    const sel = `[data-test="msg-result"][data-tool="${tool}"]`;
    const before = await $(sel).count();
    await $('[data-test="call"]').click();
    const li = $(sel).nth(before);
    await li.and(page.locator(':not([data-state="pending"])')).waitFor();
    return li;
  }
  const expectOk = async (li, re) => {
    const text = await li.textContent();
    expect(await li.getAttribute("data-state") === "ok" && re.test(text), `result: ${text}`);
    return text;
  };

  // ---- a single page through sign-in, refresh, step-up, sign-out and a worker
  const A = await newPage();
  await A.page.goto(`${WEB}/www/?url=${encodeURIComponent(plain.mcp)}`);
  await A.$('body[data-wasm="ready"]').waitFor();

  await step("(a0) without Sign in: the 401 is an unauthorized error with a Sign in button", async () => {
    expect(!(await A.$('[data-test="auth-toggle"]').isChecked()), "Sign in is off by default");
    await A.$('[data-test="connect"]').click();
    await A.$('[data-test="status"][data-state="error"]').waitFor();
    const err = await A.$('[data-test="status"] [data-test="error"]').textContent();
    expect(/"kind": "unauthorized"/.test(err) && err.includes(`"resourceMetadata": "http://127.0.0.1:${new URL(plain.mcp).port}/.well-known/oauth-protected-resource/mcp"`)
      && /"scope": "mcp:read"/.test(err), `error: ${err}`);
    await A.$('[data-test="sign-in"]').waitFor();
    expect(popups.length === 0 && (await plain.stats()).registrations === 0, "nothing signed in yet");
  });

  await step("(a) popup sign-in: 401 → consent page → Approve → connected, signed-in state, whoami", async () => {
    const approved = approveInPopup(A.context, { scopes: ["mcp:read"], screenshot: "08-oauth-consent.png" });
    await A.$('[data-test="sign-in"]').click(); // a click: the popup needs a user gesture
    await approved;
    expect(await A.$('[data-test="auth-toggle"]').isChecked(), "Sign in is now on");
    await A.$('[data-test="status"][data-state="connected"]').waitFor();
    const a = await signedIn(A.$);
    expect(a.issuer === plain.issuer, `issuer ${a.issuer}`);
    expect(a.scope?.split(" ").includes("mcp:read"), `scope ${a.scope}`);
    expect(a.expiresAt > Date.now() + 3000_000, `expiresAt ${a.expiresAt}`);
    expect(!("access_token" in a) && !JSON.stringify(a).includes("token"), `no token in client.authorization: ${JSON.stringify(a)}`);
    expect((await A.$('[data-test="auth-issuer"]').textContent()) === plain.issuer, "issuer shown");
    const li = await callTool(A.$, A.page, "whoami");
    await expectOk(li, /client_id=\S+ scopes=.*mcp:read/);
    const text = await li.locator('[data-test="content-text"]').textContent();
    const s = await plain.stats();
    expect(s.registrations === 1 && s.approvals === 1 && s.token_requests.authorization_code === 1, `stats ${JSON.stringify(s)}`);
    console.log(`     whoami: ${text.trim()}; client.authorization.scope "${a.scope}"`);
  });

  await step("(b) expired token: the next call refreshes (refresh_token grant), no popup", async () => {
    const before = await signedIn(A.$);
    const popupsBefore = popups.length;
    const { expired } = await plain.expire();
    expect(expired >= 1, `expired ${expired}`);
    await expectOk(await callTool(A.$, A.page, "whoami"), /client_id=/);
    const s = await plain.stats();
    expect(s.token_requests.refresh_token >= 1, `refresh grants: ${JSON.stringify(s.token_requests)}`);
    expect(s.approvals === 1, `no new approval: ${s.approvals}`);
    expect(popups.length === popupsBefore, "no popup opened");
    const after = await signedIn(A.$);
    expect(after.expiresAt >= before.expiresAt, `expiresAt ${before.expiresAt} → ${after.expiresAt}`);
  });

  await step("(c) step-up: write_note → 403 insufficient_scope → popup (mcp:write) → Approve → noted", async () => {
    const approved = approveInPopup(A.context, { scopes: ["mcp:read", "mcp:write"] });
    const li = callTool(A.$, A.page, "write_note", { text: "from the browser" });
    await approved;
    await expectOk(await li, /noted #1: from the browser/);
    const a = await signedIn(A.$);
    expect(a.scope.split(" ").includes("mcp:write"), `scope after step-up: ${a.scope}`);
    expect(/mcp:write/.test(await A.$('[data-test="auth-scope"]').textContent()), "mcp:write shown");
    expect((await plain.stats()).approvals === 2, "a second approval");
  });
  await shot(A.page, "09-oauth-signed-in.png");

  await step("(d) sign out: state null, the next call signs in again (popup)", async () => {
    await A.$('[data-test="sign-out"]').click();
    await A.$('[data-test="auth-signed-out"]').waitFor();
    expect(await A.$('[data-test="auth-card"]').getAttribute("data-authorization") === "null", "client.authorization is null");
    const stored = await A.page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith("mcp-wasm-client:auth:"))
      .map((k) => sessionStorage.getItem(k)).join(""));
    expect(!/access_token"\s*:\s*"/.test(stored), "no access token left in sessionStorage");
    // signed out, a worker cannot sign in by itself (no popup in a worker): a clear error
    await A.$('[data-test="worker-call"]').click();
    const w = A.$('[data-test="worker-result"]').last();
    await w.and(A.page.locator(':not([data-state="pending"])')).waitFor();
    const wText = await w.textContent();
    expect(await w.getAttribute("data-state") === "error" && /worker cannot open windows/.test(wText), `worker error: ${wText}`);
    const approved = approveInPopup(A.context, { scopes: ["mcp:read"] });
    const li = callTool(A.$, A.page, "whoami");
    await approved;
    await expectOk(await li, /client_id=/);
    await signedIn(A.$);
    const s = await plain.stats();
    expect(s.approvals === 3 && s.registrations === 1, `signed in again with the same registration: ${JSON.stringify(s)}`);
  });

  await step("(h) module worker: whoami with the page's sign-in over forwarded storage, no popup", async () => {
    const s0 = await plain.stats();
    const popupsBefore = popups.length;
    await A.$('[data-test="worker-call"]').click();
    const li = A.$('[data-test="worker-result"]').last();
    await li.and(A.page.locator(':not([data-state="pending"])')).waitFor();
    const text = await li.textContent();
    expect(await li.getAttribute("data-state") === "ok", `worker: ${text}`);
    expect(/client_id=\S+ scopes=/.test(await li.locator('[data-test="worker-text"]').textContent()), `worker result: ${text}`);
    const gets = Number(await li.locator('[data-test="worker-storage"]').getAttribute("data-get"));
    expect(gets >= 1, `the worker read the page's storage (${gets} gets)`);
    const s = await plain.stats();
    expect(s.authorization_requests === s0.authorization_requests && popups.length === popupsBefore, "no new sign-in");
  });
  await step("legacy era: reconnect with the stored token (initialize, session, GET stream), no popup", async () => {
    const s0 = await plain.stats();
    const popupsBefore = popups.length;
    await A.$('[data-test="mode"]').selectOption("legacy");
    await A.$('[data-test="connect"]').click();
    await A.$('[data-test="status"][data-state="connected"]').waitFor();
    const proto = await A.$('[data-test="protocol-version"]').textContent();
    expect(proto !== "2026-07-28", `legacy protocol: ${proto}`);
    await signedIn(A.$);
    await expectOk(await callTool(A.$, A.page, "echo", { text: "legacy with a token" }), /legacy with a token/);
    const s = await plain.stats();
    expect(s.authorization_requests === s0.authorization_requests && popups.length === popupsBefore, "no new sign-in");
  });
  await A.context.close();

  // ---- redirect mode
  await step("(e) redirect mode: connect navigates to the consent page, callback finishAuthorization, back connected", async () => {
    const B = await newPage();
    const s0 = await plain.stats();
    await B.page.goto(`${WEB}/www/?url=${encodeURIComponent(plain.mcp)}&auth=redirect`);
    await B.$('body[data-wasm="ready"]').waitFor();
    await B.$('[data-test="connect"]').click();
    await B.page.waitForURL(/\/consent\?request_id=/);
    await B.page.locator("#approve").click();
    await B.page.waitForURL(/\/www\/\?.*autoconnect=1/);
    await B.$('[data-test="status"][data-state="connected"]').waitFor();
    const a = await signedIn(B.$);
    expect(a.issuer === plain.issuer, `issuer ${a.issuer}`);
    expect((await B.$('[data-test="auth-mode"]').textContent()).startsWith("redirect"), "redirect mode shown");
    expect(popups.length === 0, "no popup in redirect mode");
    await expectOk(await callTool(B.$, B.page, "whoami"), /client_id=/);
    const s = await plain.stats();
    expect(s.approvals === s0.approvals + 1 && s.token_requests.authorization_code === s0.token_requests.authorization_code + 1,
      `one more approval and code redeemed: ${JSON.stringify(s)}`);
    await B.context.close();
  });

  // ---- a 401 whose WWW-Authenticate the browser may not read
  await step("(f) WWW-Authenticate not exposed: sign-in through well-known discovery", async () => {
    const C = await newPage();
    await C.page.goto(demo(hidden.mcp));
    await C.$('body[data-wasm="ready"]').waitFor();
    const approved = approveInPopup(C.context, { scopes: ["mcp:read"] });
    await C.$('[data-test="connect"]').click();
    await approved;
    await C.$('[data-test="status"][data-state="connected"]').waitFor();
    expect((await signedIn(C.$)).issuer === hidden.issuer, "signed in");
    await expectOk(await callTool(C.$, C.page, "whoami"), /client_id=/);
    const seen = await C.page.evaluate(async (u) => (await fetch(u, { method: "POST" })).headers.get("www-authenticate"), hidden.mcp);
    expect(seen === null, `the browser cannot read WWW-Authenticate here (got ${seen})`);
    await C.context.close();
  });

  // ---- an authorization server without CORS
  await step("(g) AS without CORS: auth_cors names the URL; auth.fetch through /as-proxy/ signs in", async () => {
    const D = await newPage();
    await D.page.goto(demo(noCors.mcp));
    await D.$('body[data-wasm="ready"]').waitFor();
    await D.$('[data-test="connect"]').click();
    await D.$('[data-test="status"][data-state="error"]').waitFor();
    const err = await D.$('[data-test="status"] [data-test="error"]').textContent();
    expect(/"kind": "auth_cors"/.test(err), `auth_cors shown: ${err}`);
    expect(err.includes(`${noCors.issuer}/`), `the AS URL named: ${err}`);
    expect(/auth\.fetch/.test(err), "auth.fetch suggested");
    await D.$('[data-test="auth-hint"]').waitFor();
    expect(popups.length === 0, "no popup before the AS answered");
    const proxiedBefore = proxied.length;
    await D.page.goto(demo(noCors.mcp, "&asproxy=/as-proxy/"));
    await D.$('body[data-wasm="ready"]').waitFor();
    const approved = approveInPopup(D.context, { scopes: ["mcp:read"] });
    await D.$('[data-test="connect"]').click();
    await approved;
    await D.$('[data-test="status"][data-state="connected"]').waitFor();
    expect((await signedIn(D.$)).issuer === noCors.issuer, "signed in");
    await expectOk(await callTool(D.$, D.page, "whoami"), /client_id=/);
    const via = proxied.slice(proxiedBefore);
    expect(via.some((r) => r.startsWith(`POST ${noCors.issuer}/token`)) && via.some((r) => r.startsWith(`POST ${noCors.issuer}/register`)),
      `token and registration went through the proxy: ${via.join(", ")}`);
    console.log(`     through /as-proxy/: ${via.join(", ")}`);
    await D.context.close();
  });

  // ---- the user says no
  await step("Deny on the consent page, then closing the popup: clear errors; then Approve signs in", async () => {
    const E = await newPage();
    await E.page.goto(demo(plain.mcp));
    await E.$('body[data-wasm="ready"]').waitFor();
    let popup = E.context.waitForEvent("page");
    await E.$('[data-test="connect"]').click();
    popup = await popup;
    await popup.locator("#deny").click();
    await E.$('[data-test="status"][data-state="error"]').waitFor();
    const denied = await E.$('[data-test="status"] [data-test="error"]').textContent();
    expect(/access_denied|denied/i.test(denied), `deny shown: ${denied}`);
    expect(await E.$('[data-test="auth-card"]').isHidden(), "no signed-in card");
    popup = E.context.waitForEvent("page");
    await E.$('[data-test="connect"]').click();
    popup = await popup;
    await popup.locator("#approve").waitFor();
    await popup.close();
    await E.$('[data-test="status"][data-state="error"]').waitFor();
    const closed = await E.$('[data-test="status"] [data-test="error"]').textContent();
    expect(/closed/i.test(closed), `closed popup shown: ${closed}`);
    const approved = approveInPopup(E.context, { scopes: ["mcp:read"] });
    await E.$('[data-test="connect"]').click();
    await approved;
    await E.$('[data-test="status"][data-state="connected"]').waitFor();
    await signedIn(E.$);
    const line = (t) => t.replace(/\s+/g, " ").slice(0, 150);
    console.log(`     deny: ${line(denied)}\n     closed: ${line(closed)}`);
    await E.context.close();
  });

  // ---- Cross-Origin-Opener-Policy on the callback page: window.opener is gone there
  await step("COOP same-origin on the callback page: no window.opener, the callback reaches the page over BroadcastChannel; signed in", async () => {
    const C = await newPage();
    const seen = [];
    C.context.on("console", (m) => { if (m.text().startsWith("coop-probe:")) seen.push(m.text()); });
    await C.context.addInitScript(() => {
      if (location.pathname.endsWith("/oauth/callback.html")) console.info(`coop-probe: opener ${window.opener === null ? "null" : "present"}`);
    });
    flags.coop = true;
    try {
      await C.page.goto(demo(plain.mcp));
      await C.$('body[data-wasm="ready"]').waitFor();
      const approved = approveInPopup(C.context, { scopes: ["mcp:read"] });
      await C.$('[data-test="connect"]').click();
      await approved;
      await C.$('[data-test="status"][data-state="connected"]').waitFor();
      const a = await signedIn(C.$);
      expect(a.issuer === plain.issuer, `issuer ${a.issuer}`);
      expect(seen.includes("coop-probe: opener null"), `the callback page had no opener: ${JSON.stringify(seen)}`);
    } finally {
      flags.coop = false;
      await C.context.close();
    }
  });

  // ---- a token response of 100 MiB
  await step("a 100 MiB token response: auth_metadata naming the token endpoint and the 64 KiB cap; the connection closes after about the cap", async () => {
    const F = await newPage();
    await F.page.goto(`${WEB}/www/`);
    await F.$('body[data-wasm="ready"]').waitFor();
    const cdp = await F.context.newCDPSession(F.page);
    await cdp.send("Performance.enable");
    const heap = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "JSHeapUsedSize").value;
    const before = await heap();
    // A client whose auth.fetch sends the token request to /oversized; the sign-in page is
    // skipped (authorize answers a callback at once): the code is never redeemed anyway.
    const e = await F.page.evaluate(async ({ mcp, issuer }) => {
      const { Client } = await import("/www/js/pkg.js");
      const { CLIENT_METADATA } = await import("/www/js/auth-options.js");
      const c = new Client(mcp, {
        auth: {
          clientMetadata: CLIENT_METADATA,
          authorize: async ({ redirectUri, state }) =>
            `${redirectUri}?code=never-redeemed&state=${encodeURIComponent(state)}&iss=${encodeURIComponent(issuer)}`,
          fetch: (url, init) => (String(url) === `${issuer}/token` ? fetch("/oversized", init) : fetch(url, init)),
        },
      });
      try {
        await c.connect();
        return { kind: "connected" };
      } catch (err) {
        return { kind: err.data?.kind, message: err.message, data: err.data };
      } finally {
        await c.close().catch(() => {});
      }
    }, { mcp: plain.mcp, issuer: plain.issuer });
    const grown = (await heap()) - before;
    expect(e.kind === "auth_metadata", `auth_metadata: ${JSON.stringify(e)}`);
    expect(e.message.includes(`${plain.issuer}/token`) && /larger than 65536 bytes/.test(e.message), `the endpoint and the cap named: ${e.message}`);
    expect(e.data?.maxBytes === 65536, `data.maxBytes: ${JSON.stringify(e.data)}`);
    expect(streams.length === 1, `one oversized answer (${streams.length})`);
    const s = await Promise.race([streams[0].done, new Promise((r) => setTimeout(() => r(null), 10_000))]);
    expect(s !== null, `the page still reads the answer after 10 s (${streams[0].written} bytes written)`);
    expect(s.closedEarly && s.written < 16 * 65536, `${s.written} bytes written before the page closed the connection`);
    expect(grown < 30 * 1024 * 1024, `JS heap grew ${(grown / 1048576).toFixed(1)} MiB`);
    console.log(`     ${s.written} bytes written before the page closed the connection; JS heap ${grown >= 0 ? "+" : ""}${(grown / 1048576).toFixed(1)} MiB`);
    await F.context.close();
  });

  // ---- popup blockers: tests/e2e/fixtures/popup/ (the README's two patterns)
  const fixture = (start) => `${WEB}/tests/e2e/fixtures/popup/index.html?mcp=${encodeURIComponent(plain.mcp)}&start=${start}`;
  const body = async (page) => page.evaluate(() => ({ ...document.body.dataset }));

  await step("popup blocker (1): a window opened in the click handler (about:blank) is navigated to the AS; Approve signs in", async () => {
    const G = await newPage();
    const s0 = await plain.stats();
    await G.page.goto(fixture("click"));
    await G.$('body[data-ready="true"]').waitFor();
    const popup = G.context.waitForEvent("page", { timeout: 15_000 });
    await G.$("#connect").click();
    const w = await popup;
    await w.waitForURL(/\/consent\?request_id=/);
    const closed = w.waitForEvent("close", { timeout: 15_000 });
    await w.locator("#approve").click();
    await closed;
    await G.$('body[data-state="connected"]').waitFor();
    const b = await body(G.page);
    expect(/client_id=/.test(b.whoami), `whoami: ${b.whoami}`);
    expect(b.opens === JSON.stringify(["about:blank"]), `only the app's window.open("about:blank"), the client opened none: ${b.opens}`);
    const s = await plain.stats();
    expect(s.approvals === s0.approvals + 1, `one approval: ${JSON.stringify(s)}`);
    await G.context.close();
  });

  await step("popup blocker (2): connect() from a timer → popup_blocked, data.authorizationUrl as a link; the link signs in in the tab", async () => {
    // A browser with Chromium's popup blocker on (playwright turns it off).
    const blocking = await launchChromium({ popupBlocking: true });
    try {
      const context = await blocking.newContext({ viewport: { width: 1100, height: 800 } });
      const opened = [];
      context.on("page", (p) => opened.push(p));
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      page.on("pageerror", (e) => pageErrors.push(String(e)));
      const H = { context, page, $: (sel) => page.locator(sel) };
      const s0 = await plain.stats();
      // Nothing polls the page before the outcome: playwright's evaluations count as user
      // gestures, and the popup would get through.
      const outcome = page.waitForEvent("console", { predicate: (m) => m.text().startsWith("popup-fixture:"), timeout: 20_000 });
      await H.page.goto(fixture("timer"), { waitUntil: "commit" });
      const line = (await outcome).text();
      expect(line === "popup-fixture: error popup_blocked", `outcome: ${line} (pages: ${opened.length})`);
      const b = await body(H.page);
      expect(b.kind === "popup_blocked", `popup_blocked: ${JSON.stringify(b)}`);
      expect(/blocked the sign-in popup/.test(b.message), `message: ${b.message}`);
      expect(opened.length === 1, `Chromium opened no popup (${opened.length - 1})`);
      const href = await H.$("#sign-in-link").getAttribute("href");
      const u = new URL(href);
      expect(u.origin + u.pathname === `${plain.issuer}/authorize`, `the AS's /authorize: ${href}`);
      expect(/^[\w-]{16,}$/.test(u.searchParams.get("state") ?? "") && /^[\w-]{43}$/.test(u.searchParams.get("code_challenge") ?? ""),
        `state and code_challenge: ${href}`);
      for (const k of ["client_secret", "code_verifier", "code", "access_token"]) expect(!u.searchParams.has(k), `no ${k} in ${href}`);
      await H.$("#sign-in-link").click();
      await H.page.waitForURL(/\/consent\?request_id=/);
      await H.page.locator("#approve").click();
      await H.$('body[data-state="connected"]').waitFor();
      const after = await body(H.page);
      expect(/client_id=/.test(after.whoami), `whoami: ${after.whoami}`);
      const s = await plain.stats();
      expect(s.approvals === s0.approvals + 1 && s.token_requests.authorization_code === s0.token_requests.authorization_code + 1,
        `one approval, its code redeemed: ${JSON.stringify(s)}`);
    } finally {
      await blocking.close();
    }
  });

  await step("popup blocker (3): a given window closed before discovery finished → a clear error, nothing navigated", async () => {
    const I = await newPage();
    await I.page.goto(fixture("click"));
    await I.$('body[data-ready="true"]').waitFor();
    // The window is closed as soon as it opens (before the 401, discovery and registration).
    const popup = I.context.waitForEvent("page", { timeout: 15_000 });
    await I.page.evaluate(() => {
      const open = window.open;
      window.open = (...a) => { const w = open(...a); w?.close(); return w; };
    });
    await I.$("#connect").click();
    await popup;
    await I.$('body[data-state="error"]').waitFor();
    const b = await body(I.page);
    expect(b.kind === "unauthorized" && /sign-in window was closed before the authorization page opened/.test(b.message), `closed: ${JSON.stringify(b)}`);
    await I.context.close();
  });

  await step("no page errors", async () => {
    expect(pageErrors.length === 0, pageErrors.join("\n"));
  });

  await browser.close();
  webServer.close();
  const { failed } = result();
  if (failed) for (const x of [plain, hidden, noCors]) console.log(`# ${x.child.label} log (tail):\n${x.child.log().split("\n").slice(-12).join("\n")}`);
  stopChildren();
  if (shotsTaken().length) console.log(`# screenshots in ${shotsFolder()}: ${shotsTaken().join(", ")}`);
  console.log(`e2e-auth: ${result().passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  stopChildren();
  console.log(`e2e-auth: ${result().passed} passed, ${result().failed + 1} failed`);
  process.exit(1);
});
