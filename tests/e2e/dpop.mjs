// End-to-end test of DPoP and the signing grants in the browser demo (www/) against the
// Python SDK's authorization server + resource server (tests/peers/oauth_server.py --dpop).
//
//   cd tests/e2e && npm ci && node dpop.mjs        (needs pkg/web, like run.mjs)
//
// Starts two OAuth peers (--dpop; --dpop-nonce) and a static server of the repository root
// on free 127.0.0.1 ports (E2E_DPOP_PORTS="a-b", default 18631-18650) and drives Debian's
// /usr/bin/chromium with playwright-core:
//   * the demo with ?dpop=1 (auth.dpop: true, indexedDbStorage("mcp-demo")): popup sign-in
//     (Approve), whoami with a DPoP-bound token; a reload, then whoami and a refresh without a
//     new sign-in, by the same key (the peer's /test/stats: one bound thumbprint, every RS proof
//     by it); a module worker with the same IndexedDB; the same against --dpop-nonce; redirect
//     mode (the callback page redeems the code with the key the app then uses);
//   * client_credentials with private_key_jwt from the page: a non-extractable ES256 CryptoKey
//     made in the page, and a PKCS#8 PEM (then DPoP-bound too); the page shows the client's
//     "secret or private key in a web page" warning (messageHandler, kind "warning").
// Prints one line per step and "e2e-dpop: N passed, M failed". E2E_OAUTH_SERVER overrides the
// peer's path.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  ROOT, expect, freePorts, launchChromium, needOauthServer, needWebPackage, oauthPeer, start, stepper, stopChildren, waitHttp,
} from "./lib.mjs";

const PORTS = process.env.E2E_DPOP_PORTS ?? "18631-18650";
const started = Date.now();
const steps = stepper(30_000);
const { step } = steps;

async function main() {
  needWebPackage();
  needOauthServer();
  const [web, ...p] = await freePorts(5, PORTS);
  const webServer = start("static server", "python3", ["-m", "http.server", "--bind", "127.0.0.1", "--directory", ROOT, String(web)]);
  const [dpop, nonce] = await Promise.all([
    oauthPeer("oauth peer (--dpop)", p[0], p[1], ["--dpop"]),
    oauthPeer("oauth peer (--dpop-nonce)", p[2], p[3], ["--dpop-nonce"]),
  ]);
  const WEB = `http://127.0.0.1:${web}`;
  await waitHttp(`${WEB}/www/`, webServer);
  console.log(`# oauth peers ${dpop.mcp} (--dpop, AS ${dpop.issuer}), ${nonce.mcp} (--dpop-nonce); static ${WEB}/`);

  const browser = await launchChromium();
  const pageErrors = [];
  async function newPage() {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, deviceScaleFactor: 1 });
    const popups = [];
    context.on("page", (pg) => popups.push(pg));
    const page = await context.newPage();
    popups.length = 0;
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    // A 401 (and the DPoP nonce challenges: 400/401) are console errors by design.
    page.on("console", (m) => {
      if (m.type() === "error" && !/Failed to load resource/.test(m.text())) pageErrors.push(`console: ${m.text()}`);
    });
    return { context, page, popups, $: (sel) => page.locator(sel) };
  }
  const demo = (peer, extra = "") => `${WEB}/www/?url=${encodeURIComponent(peer.mcp)}&auth=popup${extra}`;

  async function approve(context) {
    const popup = await context.waitForEvent("page", { timeout: 15_000 });
    await popup.waitForURL(/\/consent\?request_id=/);
    const closed = popup.waitForEvent("close", { timeout: 15_000 });
    await popup.locator("#approve").click();
    await closed;
  }
  function approveInPopup(context) {
    const pr = approve(context);
    pr.catch(() => {});
    return pr;
  }
  const signedIn = async ($) => {
    await $('[data-test="auth-card"][data-signed-in="true"]').waitFor();
    return JSON.parse(await $('[data-test="auth-card"]').getAttribute("data-authorization"));
  };
  async function callTool($, page, tool) {
    await $(`[data-test="tool-${tool}"]`).click();
    const sel = `[data-test="msg-result"][data-tool="${tool}"]`;
    const before = await $(sel).count();
    await $('[data-test="call"]').click();
    const li = $(sel).nth(before);
    await li.and(page.locator(':not([data-state="pending"])')).waitFor();
    const text = await li.textContent();
    expect(await li.getAttribute("data-state") === "ok", `${tool}: ${text}`);
    return (await li.locator('[data-test="content-text"]').textContent()).trim();
  }
  async function connected($) {
    await $('[data-test="connect"]').click();
    await $('[data-test="status"][data-state="connected"]').waitFor();
  }
  /** What the page's IndexedDB "mcp-demo" holds: key names, and the DPoP key pair's shape. */
  const idb = (page) => page.evaluate(() => new Promise((resolve, reject) => {
    const r = indexedDB.open("mcp-demo");
    r.onerror = () => reject(r.error);
    r.onsuccess = () => {
      const t = r.result.transaction("kv", "readonly");
      const s = t.objectStore("kv");
      const keys = s.getAllKeys();
      const values = s.getAll();
      t.oncomplete = () => {
        const out = { keys: keys.result.map(String), pair: null };
        keys.result.forEach((k, i) => {
          const v = values.result[i];
          if (String(k).includes(":dpop:") && v?.privateKey) {
            out.pair = { type: v.privateKey.type, extractable: v.privateKey.extractable, alg: v.privateKey.algorithm?.namedCurve };
          }
        });
        r.result.close();
        resolve(out);
      };
    };
  }));

  // ---- DPoP with the popup sign-in, then a reload
  const A = await newPage();
  let jkt = null;
  await step("(a) DPoP sign-in: ?dpop=1 → popup → Approve → whoami with a DPoP-bound token", async () => {
    await A.page.goto(demo(dpop, "&dpop=1"));
    await A.$('body[data-wasm="ready"]').waitFor();
    expect(await A.$('[data-test="dpop-toggle"]').isChecked() && await A.$('[data-test="auth-toggle"]').isChecked(), "DPoP and Sign in ticked");
    const approved = approveInPopup(A.context);
    await A.$('[data-test="connect"]').click();
    await approved;
    await A.$('[data-test="status"][data-state="connected"]').waitFor();
    const a = await signedIn(A.$);
    expect(a.issuer === dpop.issuer, `issuer ${a.issuer}`);
    expect(/DPoP/.test(await A.$('[data-test="auth-mode"]').textContent()), "the card says DPoP");
    const who = await callTool(A.$, A.page, "whoami");
    expect(/^client_id=\S+ scopes=.*mcp:read/.test(who), `whoami: ${who}`);
    const s = await dpop.stats();
    const d = s.dpop;
    expect(s.approvals === 1 && s.token_requests.authorization_code === 1, `one sign-in: ${JSON.stringify(s)}`);
    expect(d.bound_tokens_issued === 1 && d.bound_jkts.length === 1 && d.as_proofs_verified === 1, `a DPoP-bound token: ${JSON.stringify(d)}`);
    expect(d.rs_proofs_verified >= 2 && d.rs_proofs_rejected === 0 && d.rs_jkts_seen.join() === d.bound_jkts.join(),
      `every MCP request carried a proof by the bound key: ${JSON.stringify(d)}`);
    jkt = d.bound_jkts[0];
    const db = await idb(A.page);
    expect(db.pair?.type === "private" && db.pair.extractable === false && db.pair.alg === "P-256",
      `a non-extractable P-256 key pair in IndexedDB: ${JSON.stringify(db)}`);
    expect(db.keys.some((k) => k.startsWith("mcp-wasm-client:auth:")), `tokens in IndexedDB too: ${db.keys.join(", ")}`);
    const stored = await A.page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith("mcp-wasm-client:")));
    expect(stored.length === 0, `nothing in sessionStorage: ${stored}`);
    console.log(`     whoami: ${who}; jkt ${jkt}; RS proofs ${d.rs_proofs_verified}`);
  });

  await step("(b) reload: whoami again without a sign-in, by the same key; then a refresh by it", async () => {
    const s0 = await dpop.stats();
    const popupsBefore = A.popups.length;
    await A.page.reload();
    await A.$('body[data-wasm="ready"]').waitFor();
    await connected(A.$);
    const who = await callTool(A.$, A.page, "whoami");
    expect(/^client_id=/.test(who), `whoami: ${who}`);
    let s = await dpop.stats();
    expect(s.approvals === s0.approvals && s.registrations === s0.registrations && A.popups.length === popupsBefore, "no new sign-in");
    expect(s.dpop.rs_proofs_verified > s0.dpop.rs_proofs_verified && s.dpop.rs_proofs_rejected === 0, `proofs after the reload: ${JSON.stringify(s.dpop)}`);
    expect(s.dpop.bound_jkts.join() === jkt && s.dpop.rs_jkts_seen.join() === jkt, `one key before and after: ${JSON.stringify(s.dpop)}`);
    // the refresh token is bound to the key too: the AS refreshes only with a proof by it
    const { expired } = await dpop.expire();
    expect(expired >= 1, `expired ${expired}`);
    await callTool(A.$, A.page, "whoami");
    s = await dpop.stats();
    expect(s.token_requests.refresh_token === 1 && s.dpop.bound_tokens_issued === 2 && s.dpop.wrong_key_refused === 0
      && s.dpop.bound_jkts.join() === jkt, `refreshed by the same key: ${JSON.stringify({ t: s.token_requests, d: s.dpop })}`);
  });

  await step("(c) module worker: whoami with the page's DPoP key and tokens (its own IndexedDB handle)", async () => {
    const s0 = await dpop.stats();
    await A.$('[data-test="worker-call"]').click();
    const li = A.$('[data-test="worker-result"]').last();
    await li.and(A.page.locator(':not([data-state="pending"])')).waitFor();
    const text = await li.textContent();
    expect(await li.getAttribute("data-state") === "ok" && /client_id=/.test(text), `worker: ${text}`);
    const s = await dpop.stats();
    expect(s.dpop.rs_proofs_verified > s0.dpop.rs_proofs_verified && s.dpop.rs_jkts_seen.join() === jkt
      && s.approvals === s0.approvals, `the worker signed with the same key: ${JSON.stringify(s.dpop)}`);
  });
  await A.context.close();

  await step("(d) --dpop-nonce: use_dpop_nonce at the AS and the MCP server, retried; again after a reload", async () => {
    const B = await newPage();
    await B.page.goto(demo(nonce, "&dpop=1"));
    await B.$('body[data-wasm="ready"]').waitFor();
    const approved = approveInPopup(B.context);
    await B.$('[data-test="connect"]').click();
    await approved;
    await B.$('[data-test="status"][data-state="connected"]').waitFor();
    await signedIn(B.$);
    await callTool(B.$, B.page, "whoami");
    let d = (await nonce.stats()).dpop;
    expect(d.as_nonce_challenges === 1 && d.rs_nonce_challenges === 1 && d.bound_jkts.length === 1
      && d.as_proofs_rejected === 0 && d.rs_proofs_rejected === 0, `one nonce challenge at each: ${JSON.stringify(d)}`);
    await B.page.reload();
    await B.$('body[data-wasm="ready"]').waitFor();
    await connected(B.$);
    await callTool(B.$, B.page, "whoami");
    d = (await nonce.stats()).dpop;
    expect(d.rs_nonce_challenges === 2 && d.bound_jkts.length === 1 && d.rs_jkts_seen.join() === d.bound_jkts.join(),
      `the reloaded client met the RS nonce once more, same key: ${JSON.stringify(d)}`);
    await B.context.close();
  });

  await step("(d2) redirect mode with DPoP: the callback page redeems the code with the key the app then uses", async () => {
    const R = await newPage();
    const s0 = await dpop.stats();
    await R.page.goto(`${WEB}/www/?url=${encodeURIComponent(dpop.mcp)}&auth=redirect&dpop=1`);
    await R.$('body[data-wasm="ready"]').waitFor();
    await R.$('[data-test="connect"]').click();
    await R.page.waitForURL(/\/consent\?request_id=/);
    await R.page.locator("#approve").click();
    await R.page.waitForURL(/\/www\/\?.*autoconnect=1/);
    await R.$('[data-test="status"][data-state="connected"]').waitFor();
    expect(await R.$('[data-test="dpop-toggle"]').isChecked(), "DPoP still ticked after the redirect");
    await callTool(R.$, R.page, "whoami");
    const s = await dpop.stats();
    const fresh = s.dpop.bound_jkts.slice(s0.dpop.bound_jkts.length);
    expect(s.approvals === s0.approvals + 1 && fresh.length === 1 && s.dpop.rs_jkts_seen.includes(fresh[0])
      && s.dpop.rs_proofs_rejected === 0 && s.dpop.wrong_key_refused === s0.dpop.wrong_key_refused,
      `one new key, used by the app after the callback: ${JSON.stringify(s.dpop)}`);
    await R.context.close();
  });

  // ---- client_credentials + private_key_jwt from a page
  const warningShown = async ($) => {
    const note = $('[data-test="msg-transport"]').filter({ hasText: /\[warning\].*(secret|private key).*web page/ });
    await note.first().waitFor();
    return (await note.first().textContent()).trim();
  };
  await step("(e) private_key_jwt with a non-extractable ES256 CryptoKey made in the page; the warning is shown", async () => {
    const C = await newPage();
    await C.page.goto(`${WEB}/www/?url=${encodeURIComponent(dpop.mcp)}`);
    await C.$('body[data-wasm="ready"]').waitFor();
    const made = await C.page.evaluate(async () => {
      const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
      (await import("/www/js/auth.js")).useGrant({ type: "client_credentials", clientId: "page-key", privateKey: pair.privateKey });
      return { jwk: await crypto.subtle.exportKey("jwk", pair.publicKey), extractable: pair.privateKey.extractable };
    });
    expect(made.extractable === false, "the private key is not extractable");
    await dpop.staticClient({ client_id: "page-key", jwk: made.jwk });
    const s0 = await dpop.stats();
    await connected(C.$);
    const who = await callTool(C.$, C.page, "whoami");
    expect(who === "client_id=page-key scopes=mcp:read", `whoami: ${who}`);
    const warning = await warningShown(C.$);
    const s = await dpop.stats();
    expect(s.client_credentials.by_auth_method.private_key_jwt === (s0.client_credentials.by_auth_method.private_key_jwt ?? 0) + 1
      && s.last_client_assertion?.alg === "ES256" && s.last_client_assertion?.client_id === "page-key", `assertion verified: ${JSON.stringify(s.last_client_assertion)}`);
    expect(C.popups.length === 0 && s.approvals === s0.approvals, "no sign-in page");
    expect((await C.$('[data-test="auth-mode"]').textContent()).startsWith("client_credentials"), "the card names the grant");
    console.log(`     ${warning.replace(/\s+/g, " ").slice(0, 140)}…`);
    await C.context.close();
  });

  await step("(f) private_key_jwt with a PKCS#8 PEM, DPoP-bound (?dpop=1); the warning is shown", async () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" });
    await dpop.staticClient({ client_id: "page-pem", jwk: publicKey.export({ format: "jwk" }) });
    const D = await newPage();
    await D.page.goto(`${WEB}/www/?url=${encodeURIComponent(dpop.mcp)}&dpop=1`);
    await D.$('body[data-wasm="ready"]').waitFor();
    await D.page.evaluate(async (key) => {
      (await import("/www/js/auth.js")).useGrant({ type: "client_credentials", clientId: "page-pem", privateKey: key });
    }, pem);
    const s0 = await dpop.stats();
    await connected(D.$);
    const who = await callTool(D.$, D.page, "whoami");
    expect(who === "client_id=page-pem scopes=mcp:read", `whoami: ${who}`);
    await warningShown(D.$);
    const s = await dpop.stats();
    expect(s.client_credentials.by_auth_method.private_key_jwt === s0.client_credentials.by_auth_method.private_key_jwt + 1
      && s.last_client_assertion?.client_id === "page-pem", `assertion verified: ${JSON.stringify(s.last_client_assertion)}`);
    expect(s.dpop.bound_tokens_issued === s0.dpop.bound_tokens_issued + 1 && s.dpop.bound_jkts.length === s0.dpop.bound_jkts.length + 1
      && s.dpop.rs_proofs_verified > s0.dpop.rs_proofs_verified && s.dpop.rs_proofs_rejected === 0,
      `a DPoP-bound client_credentials token (a second key): ${JSON.stringify(s.dpop)}`);
    await D.context.close();
  });

  await step("no page errors", async () => {
    expect(pageErrors.length === 0, pageErrors.join("\n"));
  });

  await browser.close();
  const { failed } = steps;
  if (failed) for (const x of [dpop, nonce]) console.log(`# ${x.child.label} log (tail):\n${x.child.log().split("\n").slice(-15).join("\n")}`);
  stopChildren();
  console.log(`e2e-dpop: ${steps.passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  stopChildren();
  console.log(`e2e-dpop: ${steps.passed} passed, ${steps.failed + 1} failed`);
  process.exit(1);
});
