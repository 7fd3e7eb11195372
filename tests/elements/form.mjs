// <mcp-elicitation-form> in Debian's headless Chromium (playwright-core): every field kind, inline
// errors from validateElicitation, typed content, the datetime-local conversion, decline / cancel /
// Escape / keyboard only, AbortSignal, URL mode, bad params, a strict-CSP page, and end to end a
// real Client whose elicitationCallback is ElicitationForm.ask against the Python SDK peer.
//
//   flock /tmp/mcp-ports.lock timeout 600 node tests/elements/form.mjs     (needs pkg/lean-web)
//
// Serves the repository root twice from this process (plain, and with a strict CSP), starts
// tests/peers/python_server.py; ports from ELEMENTS_FORM_PORTS (default 18930-18939), all on
// 127.0.0.1, stopped on exit. Prints one line per step and "elements-form: N passed, M failed".
import http from "node:http";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT, expect, freePorts, launchChromium, needWebPackage, readmeJsBlocks, start, runMain, stepper, waitAnswering } from "../e2e/lib.mjs";

const PORTS = process.env.ELEMENTS_FORM_PORTS ?? "18930-18939";
const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const started = Date.now();
const steps = stepper(20_000);
const { step } = steps;
const servers = [];

// The documented example ("Elicitation forms" in docs/elements.md: the js block that calls
// ElicitationForm.ask(dialog, ...)), read from the docs themselves; the test swaps the import for the
// page's and the port for the peer's.
function readmeExample() {
  const block = readmeJsBlocks().find((b) => b.includes("ElicitationForm.ask(dialog"));
  if (!block) throw new Error("the docs (README.md, docs/) have no js block calling ElicitationForm.ask(dialog, ...)");
  return block;
}

// A schema with every field kind and option shape the form model supports.
const EVERY_KIND = {
  type: "object",
  properties: {
    name: { type: "string", title: "Full name", description: "As printed on your badge.", minLength: 2, maxLength: 40 },
    email: { type: "string", title: "Email", format: "email" },
    site: { type: "string", format: "uri" },
    born: { type: "string", title: "Birthday", format: "date" },
    at: { type: "string", title: "Talk slot", format: "date-time", default: "2026-09-15T08:00:00Z" },
    score: { type: "number", title: "Score", minimum: 0, maximum: 10 },
    age: { type: "integer", title: "Age", minimum: 18, default: 30 },
    ok: { type: "boolean", title: "Newsletter", default: true },
    color: { type: "string", title: "Color", enum: ["r", "g"], enumNames: ["Red", "Green"], default: "g" },
    size: { type: "string", title: "Size", oneOf: [{ const: "s", title: "Small" }, { const: "m", title: "Medium" }, { const: "l", title: "Large" }] },
    city: { type: "string", title: "City", enum: ["Paris", "Berlin", "Rome", "Oslo", "Lima", "Quito"] },
    tags: { type: "array", title: "Tags", items: { type: "string", enum: ["a", "b", "c"] }, maxItems: 2, default: ["a"] },
    pets: { type: "array", title: "Pets", items: { anyOf: [{ const: "cat", title: "Cat" }, { const: "dog", title: "Dog" }] } },
  },
  required: ["name", "email", "size"],
};
const PARAMS = { message: "Tell us about you", requestedSchema: EVERY_KIND };
const SMALL = { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] } };

// ------------------------------------------------------------------------------ servers

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json", ".css": "text/css" };

/** Serves the repository root on 127.0.0.1:port, with a Content-Security-Policy header when `csp` is set. */
function serveRoot(port, csp) {
  const headers = csp ? { "content-security-policy": csp } : {};
  const server = http.createServer(async (req, res) => {
    const file = path.join(ROOT, path.normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)));
    try {
      if (!file.startsWith(ROOT + path.sep)) throw new Error("outside the root");
      const body = await readFile(file);
      res.writeHead(200, { ...headers, "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
      res.end(body);
    } catch {
      res.writeHead(req.url === "/favicon.ico" ? 204 : 404, headers);
      res.end();
    }
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
}


// ------------------------------------------------------------------------------ page helpers

/** Loads the test page from `origin` and waits for the package. */
async function openPage(page, origin) {
  await page.goto(`${origin}/tests/elements/pages/form.html`);
  await page.waitForFunction(() => window.ready === true);
}

/** Leaves no form behind from an earlier (failed) step: each is cancelled, so ask() removes it and closes its dialog. */
async function fresh(page) {
  await page.evaluate(async () => {
    for (const el of document.querySelectorAll("mcp-elicitation-form")) { el.cancel(); el.remove(); }
    await new Promise((r) => setTimeout(r, 0));
    const dialog = document.getElementById("dialog");
    if (dialog.open) dialog.close();
  });
}

/**
 * Starts ElicitationForm.ask(#where, params, { signal: window.ctl?.signal }) in the page; the answer
 * is window.pending. Returns once the form is drawn or ask() has settled (the page's first form is
 * drawn once elements/elicitation-view.js has arrived).
 */
async function ask(page, params, where = "dialog", withSignal = false) {
  await fresh(page);
  await page.evaluate(([params, where, withSignal]) => {
    window.ctl = new AbortController();
    window.settled = false;
    window.pending = window.mcp.ElicitationForm.ask(document.getElementById(where), params, withSignal ? { signal: window.ctl.signal } : {});
    window.pending.then(() => (window.settled = true), () => (window.settled = true));
  }, [params, where, withSignal]);
  await page.waitForFunction(() => window.settled || document.querySelector("mcp-elicitation-form")?.shadowRoot.querySelector("form"));
}

/** The answer ask() resolved with (waits for it). */
const answer = (page) => page.evaluate(() => window.pending);

/** "pending" when ask() has not settled within `ms`, else the answer. */
const settledWithin = (page, ms) => page.evaluate((ms) => Promise.race([window.pending, new Promise((r) => setTimeout(() => r("pending"), ms))]), ms);

/** How ask() (or the element's params setter) failed: { mcp, code, kind, message }, or "resolved". */
async function failure(page, params, where = "dialog") {
  await fresh(page);
  return page.evaluate(async ([params, where]) => {
    try {
      await window.mcp.ElicitationForm.ask(where === null ? null : document.getElementById(where), params);
      return "resolved";
    } catch (e) {
      return { mcp: e instanceof window.mcp.McpError, code: e.code, kind: e.data?.kind, message: e.message, name: e.name };
    }
  }, [params, where]);
}

/** data-test of the element focused inside the form's shadow root. */
const focused = (page) => page.evaluate(() => document.querySelector("mcp-elicitation-form")?.shadowRoot.activeElement?.dataset.test ?? null);

const deepEqual = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// ------------------------------------------------------------------------------ steps

/** Rendering: kinds, labels, required marks, help, defaults, aria wiring. */
async function renderingSteps(page, $) {
  await step("every field kind renders with its label, required mark, help text and default", async () => {
    await ask(page, PARAMS);
    const rows = await page.evaluate(() => {
      const root = document.querySelector("mcp-elicitation-form").shadowRoot;
      return [...root.querySelectorAll(".efield")].map((w) => {
        const control = w.querySelector("input, select");
        const label = w.tagName === "FIELDSET" ? w.querySelector("legend") : control.labels[0];
        return { name: w.dataset.field, kind: w.dataset.kind, tag: control.tagName.toLowerCase(), type: control.type, label: label.textContent,
          required: Boolean(label.querySelector('[part="required"]')), ariaRequired: control.getAttribute("aria-required"),
          described: control.getAttribute("aria-describedby"), help: w.querySelector('[part="help"]')?.textContent ?? null };
      });
    });
    const kinds = Object.fromEntries(rows.map((r) => [r.name, r.kind]));
    expect(deepEqual(kinds, { name: "text", email: "email", site: "uri", born: "date", at: "date-time", score: "number", age: "integer", ok: "boolean",
      color: "single-select", size: "single-select", city: "single-select", tags: "multi-select", pets: "multi-select" }), `kinds: ${JSON.stringify(kinds)}`);
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(by.name.label.startsWith("Full name") && by.name.required && by.name.ariaRequired === "true", `name label: ${JSON.stringify(by.name)}`);
    expect(by.site.label.startsWith("site") && !by.site.required, `no title: the property name labels it (${by.site.label})`);
    expect(by.name.help === "As printed on your badge." && by.name.described.split(" ").length === 2, `help text tied: ${JSON.stringify(by.name)}`);
    expect(by.size.required && by.size.type === "radio" && by.city.tag === "select", `radios for 3 options, a select for 6: ${by.size.type} ${by.city.tag}`);
    expect(by.at.type === "datetime-local" && by.born.type === "date" && by.email.type === "email", "native date, datetime-local and email inputs");
    expect(/at least 18\)/.test(by.age.label) && /0 to 10\)/.test(by.score.label) && /at most 2 choices/.test(by.tags.label) && /2 to 40 characters/.test(by.name.label),
      `bounds shown: ${by.age.label} / ${by.score.label} / ${by.tags.label} / ${by.name.label}`);
    const field = (n) => $(`mcp-elicitation-form [data-test="input-${n}"]`);
    expect(await field("age").inputValue() === "30", "integer default");
    expect(await field("ok").isChecked(), "boolean default");
    expect(await field("color-g").isChecked() && !(await field("color-r").isChecked()), "enum + enumNames default");
    expect(await $('mcp-elicitation-form [data-test="field-color"]').textContent().then((t) => t.includes("Green")), "enumNames as option labels");
    expect(await $('mcp-elicitation-form [data-test="field-pets"]').textContent().then((t) => t.includes("Dog")), "anyOf titles as labels");
    expect(await field("tags-a").isChecked() && !(await field("tags-b").isChecked()), "multi-select default");
    const at = await field("at").inputValue();
    expect(/^2026-09-15T10:00(:00)?$/.test(at), `date-time default in the user's zone (Europe/Paris): ${at}`);
    expect(await $("dialog[open] mcp-elicitation-form").count() === 1, "the closed dialog was opened (modal)");
    expect(await focused(page) === "input-name", `focus on the first field: ${await focused(page)}`);
    expect(await page.evaluate(() => document.querySelector("mcp-elicitation-form").shadowRoot.querySelector("form").noValidate), "novalidate: no native bubbles");
    await $('mcp-elicitation-form [data-test="elicitation-cancel"]').click();
    expect(deepEqual(await answer(page), { action: "cancel" }), "cancelled");
  });
}

/** Inline errors: the validator's messages on their fields, aria wiring, focus, nothing answered. */
async function errorSteps(page, $) {
  await step("invalid values: inline errors (aria-invalid, aria-describedby), focus on the first, nothing answered", async () => {
    await ask(page, PARAMS);
    const field = (n) => $(`mcp-elicitation-form [data-test="input-${n}"]`);
    await field("email").fill("ada-at-example");
    await field("score").fill("eleven");
    await field("age").fill("3.5");
    await $('mcp-elicitation-form [data-test="elicitation-accept"]').click();
    expect(await settledWithin(page, 300) === "pending", "no answer while invalid");
    const errors = await page.evaluate(() => {
      const root = document.querySelector("mcp-elicitation-form").shadowRoot;
      return [...root.querySelectorAll(".efield.invalid")].map((w) => {
        const controls = [...w.querySelectorAll("input, select")];
        const ids = (controls[0].getAttribute("aria-describedby") ?? "").split(" ");
        const error = w.querySelector('[part="error"]');
        return { name: w.dataset.field, invalid: controls.every((c) => c.getAttribute("aria-invalid") === "true"), tied: ids.includes(error.id), text: error.textContent, visible: !error.hidden };
      });
    });
    const names = errors.map((e) => e.name);
    expect(deepEqual(names, ["name", "email", "score", "age", "size"]), `fields in error: ${names}`);
    for (const e of errors) expect(e.invalid && e.tied && e.visible && e.text.length > 0, `error wiring: ${JSON.stringify(e)}`);
    const text = Object.fromEntries(errors.map((e) => [e.name, e.text]));
    expect(text.name === "Full name is required" && text.email === "Email is not a valid email", `validator's messages: ${JSON.stringify(text)}`);
    expect(/must be a number/.test(text.score) && /must be an integer/.test(text.age), `numbers: ${text.score} / ${text.age}`);
    expect(await focused(page) === "input-name", `focus on the first error: ${await focused(page)}`);
    await field("email").fill("ada@example.org");
    await $('mcp-elicitation-form [data-test="field-error-email"]').waitFor({ state: "hidden" });
    expect(await field("email").getAttribute("aria-invalid") === null, "fixed: aria-invalid removed");
    expect(await $('mcp-elicitation-form [data-test="field-error-name"]').isVisible(), "the other errors stay");
    await page.keyboard.press("Escape");
    expect(deepEqual(await answer(page), { action: "cancel" }), "Escape cancels");
  });
}

/** Typed content: the datetime-local value and the date converted, numbers, booleans, arrays. */
async function contentSteps(page, $) {
  await step("accept: typed content, a datetime-local value and a date converted (Europe/Paris)", async () => {
    await ask(page, PARAMS);
    const field = (n) => $(`mcp-elicitation-form [data-test="input-${n}"]`);
    await field("name").fill("Ada Lovelace");
    await field("email").fill("ada@example.org");
    await field("site").fill("https://ada.example.org/");
    await field("born").fill("1815-12-10");
    await field("at").fill("2026-09-15T10:30");
    await field("score").fill("7.5");
    await field("age").fill("36");
    await field("ok").uncheck();
    await field("size-m").check();
    await field("city").selectOption({ label: "Oslo" });
    await field("tags-b").check();
    await field("pets-dog").check();
    await $('mcp-elicitation-form [data-test="elicitation-accept"]').click();
    const got = await answer(page);
    const want = { action: "accept", content: { name: "Ada Lovelace", email: "ada@example.org", site: "https://ada.example.org/", born: "1815-12-10",
      at: "2026-09-15T10:30:00+02:00", score: 7.5, age: 36, ok: false, color: "g", size: "m", city: "Oslo", tags: ["a", "b"], pets: ["dog"] } };
    expect(deepEqual(got, want), `answer: ${JSON.stringify(got)}`);
    expect(await $("mcp-elicitation-form").count() === 0, "removed once answered");
    expect(await page.evaluate(() => document.getElementById("dialog").open) === false, "the dialog it opened is closed");
  });

  await step("decline, and Cancel, answer without content; an element container is used as is", async () => {
    await ask(page, SMALL, "inline");
    await $('#inline mcp-elicitation-form [data-test="elicitation-decline"]').click();
    expect(deepEqual(await answer(page), { action: "decline" }), "decline");
    await ask(page, SMALL, "inline");
    await $('#inline mcp-elicitation-form [data-test="input-name"]').fill("typed but cancelled");
    await $('#inline mcp-elicitation-form [data-test="elicitation-cancel"]').click();
    expect(deepEqual(await answer(page), { action: "cancel" }), "cancel sends no content");
    expect(await $("#inline mcp-elicitation-form").count() === 0, "removed");
  });
}

/** Keyboard only, Escape, and the AbortSignal. */
async function keyboardSteps(page, $) {
  await step("keyboard only: Tab, Space, arrows and Enter complete the form (no mouse)", async () => {
    const params = { message: "Quick survey", requestedSchema: { type: "object", required: ["name", "size"], properties: {
      name: { type: "string", title: "Name" }, agree: { type: "boolean", title: "I agree" },
      size: { type: "string", title: "Size", enum: ["s", "m", "l"] } } } };
    await ask(page, params);
    expect(await focused(page) === "input-name", "the first field has focus");
    await page.keyboard.type("Ada");
    await page.keyboard.press("Enter"); // implicit submission: size is missing
    expect(await settledWithin(page, 200) === "pending", "Enter with a missing choice does not answer");
    expect(await $('mcp-elicitation-form [data-test="field-error-size"]').isVisible(), "the missing choice is shown");
    expect(await focused(page) === "input-size-s", `focus moved to the first error: ${await focused(page)}`);
    await page.keyboard.press("ArrowDown"); // radio group: selects "m"
    await page.keyboard.press("Shift+Tab"); // back to the checkbox
    expect(await focused(page) === "input-agree", `Shift+Tab to the checkbox: ${await focused(page)}`);
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab"); // out of the radio group: the Submit button
    expect(await focused(page) === "elicitation-accept", `Tab reaches Submit: ${await focused(page)}`);
    await page.keyboard.press("Enter");
    const got = await answer(page);
    expect(deepEqual(got, { action: "accept", content: { name: "Ada", agree: true, size: "m" } }), `answer: ${JSON.stringify(got)}`);
  });

  await step("Escape answers cancel (the dialog's own cancel too)", async () => {
    await ask(page, SMALL);
    await $('mcp-elicitation-form [data-test="input-name"]').fill("Ada");
    await page.keyboard.press("Escape");
    expect(deepEqual(await answer(page), { action: "cancel" }), "Escape → cancel");
    expect(await page.evaluate(() => document.getElementById("dialog").open) === false, "dialog closed");
    await ask(page, SMALL);
    await page.evaluate(() => document.getElementById("dialog").dispatchEvent(new Event("cancel", { cancelable: true })));
    expect(deepEqual(await answer(page), { action: "cancel" }), "dialog cancel → cancel");
  });

  await step("signal: aborted before (nothing shown) and during (removed) answers cancel", async () => {
    await fresh(page);
    const before = await page.evaluate(async (params) => {
      let appended = 0;
      const box = document.getElementById("inline");
      const watch = new MutationObserver((m) => { appended += m.reduce((n, r) => n + r.addedNodes.length, 0); });
      watch.observe(box, { childList: true });
      const answer = await window.mcp.ElicitationForm.ask(box, params, { signal: AbortSignal.abort() });
      await new Promise((r) => setTimeout(r, 50));
      watch.disconnect();
      return { answer, appended };
    }, SMALL);
    expect(deepEqual(before, { answer: { action: "cancel" }, appended: 0 }), `already aborted: ${JSON.stringify(before)}`);
    await ask(page, SMALL, "dialog", true);
    await $('mcp-elicitation-form [data-test="input-name"]').fill("half typed");
    await page.evaluate(() => window.ctl.abort());
    expect(deepEqual(await answer(page), { action: "cancel" }), "aborted during → cancel");
    expect(await $("mcp-elicitation-form").count() === 0, "removed");
    expect(await page.evaluate(() => document.getElementById("dialog").open) === false, "dialog closed");
  });
}

/** URL mode: the domain, no navigation on its own, a noopener popup on click; a refused scheme. */
async function urlSteps(page, $, context) {
  await step("URL mode: the domain shown, nothing opens by itself, Open opens a noopener popup, answer accept", async () => {
    const url = "https://login.example.com:8443/connect?id=42";
    await context.route("https://login.example.com:8443/**", (r) => r.fulfill({ contentType: "text/html", body: "<title>connect</title>" }));
    await ask(page, { mode: "url", message: "Connect your account", url, elicitationId: "e1" });
    expect((await $('mcp-elicitation-form [data-test="url-domain"]').textContent()) === "login.example.com:8443", "domain");
    expect((await $('mcp-elicitation-form [data-test="url-full"]').textContent()) === url, "full URL");
    expect((await $('mcp-elicitation-form [data-test="url-full"] mark').textContent()) === "login.example.com:8443", "domain marked in the URL");
    expect(await focused(page) === "url-decline", "Decline has focus: a stray Enter opens nothing");
    await page.waitForTimeout(300);
    expect(context.pages().length === 1 && await settledWithin(page, 10) === "pending", "nothing opened, no answer");
    const popupP = context.waitForEvent("page", { timeout: 5_000 });
    await $('mcp-elicitation-form [data-test="url-open"]').click();
    const popup = await popupP;
    await popup.waitForLoadState("domcontentloaded");
    expect(popup.url() === url, `popup at ${popup.url()}`);
    expect(await popup.evaluate(() => window.opener === null), "noopener: the page gets no handle on the chat");
    await popup.close();
    expect(deepEqual(await answer(page), { action: "accept" }), "accept");
  });

  await step("URL mode: a javascript: URL is refused visibly (Open disabled); Decline answers", async () => {
    await ask(page, { mode: "url", message: "Click me", url: "javascript:alert(1)", elicitationId: "e2" });
    const err = await $('mcp-elicitation-form [data-test="url-error"]').textContent();
    expect(/javascript:/.test(err), `visible refusal: ${err}`);
    expect(await $('mcp-elicitation-form [data-test="url-open"]').isDisabled(), "Open disabled");
    await $('mcp-elicitation-form [data-test="url-decline"]').click();
    expect(deepEqual(await answer(page), { action: "decline" }), "decline");
  });
}

/** Bad params and options: McpError kind input, never a TypeError; declarative use. */
async function apiSteps(page, $) {
  await step("bad params reject with McpError kind input naming what is wrong", async () => {
    const cases = [
      [null, /params must be/], ["text", /params must be/], [{ message: "x" }, /requestedSchema/],
      [{ message: "x", requestedSchema: { type: "object", properties: { o: { type: "object" } } } }, /field "o"/],
      [{ message: "x", requestedSchema: { type: "object", properties: { p: { type: "string", format: "ipv4" } } } }, /ipv4/],
      [{ message: "x", mode: "url" }, /params\.url/], [{ message: "x", mode: "popup", url: "https://a.b" }, /mode/],
    ];
    for (const [params, re] of cases) {
      const f = await failure(page, params);
      expect(f !== "resolved" && f.mcp && f.kind === "input" && f.code === -32602 && re.test(f.message), `${JSON.stringify(params)}: ${JSON.stringify(f)}`);
    }
    const noContainer = await failure(page, SMALL, null);
    expect(noContainer.mcp && noContainer.kind === "input" && /container/.test(noContainer.message), `no container: ${JSON.stringify(noContainer)}`);
    expect(await $("mcp-elicitation-form").count() === 0, "nothing left behind");
  });

  await step("declarative: el.params renders, mcp-elicitation-answer (bubbles, composed) and el.answer", async () => {
    await fresh(page);
    const got = await page.evaluate(async (params) => {
      const el = document.createElement("mcp-elicitation-form");
      let bad = null;
      try { el.params = { message: "x", requestedSchema: "nope" }; } catch (e) { bad = e instanceof window.mcp.McpError && e.data?.kind; }
      el.params = params;
      document.getElementById("inline").append(el);
      const event = new Promise((r) => document.addEventListener("mcp-elicitation-answer", (e) => r({ detail: e.detail, bubbles: e.bubbles, composed: e.composed }), { once: true }));
      el.shadowRoot.querySelector('[data-test="input-name"]').value = "Grace";
      el.shadowRoot.querySelector('[data-test="elicitation-accept"]').click();
      const result = { event: await event, answer: await el.answer, state: el.dataset.state, disabled: el.shadowRoot.querySelector("input").disabled };
      let again = null;
      try { el.params = params; } catch (e) { again = e instanceof window.mcp.McpError && e.data?.kind === "input" && e.message; }
      el.remove();
      return { ...result, bad, again };
    }, SMALL);
    const want = { action: "accept", content: { name: "Grace" } };
    expect(deepEqual(got.event, { detail: want, bubbles: true, composed: true }), `event: ${JSON.stringify(got.event)}`);
    expect(deepEqual(got.answer, want) && got.state === "accept" && got.disabled, `answer: ${JSON.stringify(got)}`);
    expect(got.bad === "input", `bad params in the setter: McpError kind input (${got.bad})`);
    expect(/has been answered/.test(got.again), `an answered form refuses new params: ${got.again}`);
  });

  await step("Node: the module loads, defines nothing, ask rejects with McpError kind unsupported", async () => {
    const require = createRequire(import.meta.url);
    const wasm = require(path.join(ROOT, "pkg/nodejs/mcp_wasm_client.js"));
    const { defineElements } = await import(path.join(ROOT, "pkg-template/elements/index.js"));
    const { ElicitationForm } = defineElements(wasm);
    expect(globalThis.customElements === undefined, "no registry in Node");
    const e = await ElicitationForm.ask({}, SMALL).then(() => null, (err) => err);
    expect(e instanceof wasm.McpError && e.data?.kind === "unsupported" && /needs a page \(DOM\)/.test(e.message), `rejected: ${e?.message} ${JSON.stringify(e?.data)}`);
  });
}

/** The strict-CSP page: styled through adoptedStyleSheets, answers, zero violations (with a control). */
async function cspSteps(browser, cspOrigin) {
  await step("strict CSP page (no 'unsafe-inline'): styled, answers, zero CSP violations", async () => {
    const context = await browser.newContext({ timezoneId: "Europe/Paris" });
    const page = await context.newPage();
    try {
      const res = await page.goto(`${cspOrigin}/tests/elements/pages/form.html`);
      expect(res.headers()["content-security-policy"] === STRICT_CSP, "served with the strict policy");
      await page.waitForFunction(() => window.ready === true);
      await ask(page, PARAMS);
      const $ = (s) => page.locator(s);
      await $('mcp-elicitation-form [data-test="input-name"]').fill("Ada Lovelace");
      await $('mcp-elicitation-form [data-test="input-email"]').fill("nope");
      await $('mcp-elicitation-form [data-test="input-size-l"]').check();
      await $('mcp-elicitation-form [data-test="elicitation-accept"]').click();
      await $('mcp-elicitation-form [data-test="field-error-email"]').waitFor();
      const color = await $('mcp-elicitation-form [data-test="field-error-email"]').evaluate((e) => getComputedStyle(e).color);
      expect(color === "rgb(179, 38, 30)", `the stylesheet applies under the CSP (error color ${color})`);
      await $('mcp-elicitation-form [data-test="input-email"]').fill("ada@example.org");
      await $('mcp-elicitation-form [data-test="elicitation-accept"]').click();
      const got = await answer(page);
      expect(got.action === "accept" && got.content.size === "l" && got.content.age === 30, `answer: ${JSON.stringify(got)}`);
      const violations = await page.evaluate(() => window.cspViolations.slice());
      expect(violations.length === 0, `violations: ${violations.join("; ")}`);
      // control: an inline style attribute IS refused here, and the watcher sees it
      await page.evaluate(() => { const d = document.createElement("div"); d.innerHTML = '<p style="color: red">x</p>'; document.body.append(d); });
      await page.waitForFunction(() => window.cspViolations.length > 0, null, { timeout: 3_000 });
    } finally {
      await context.close();
    }
  });
}

/** A real Client answering the Python SDK peer through ElicitationForm.ask; then the README example. */
async function clientSteps(page, $, peerUrl) {
  await step("end to end: Client + elicitationCallback = ElicitationForm.ask against the Python peer's issue_card", async () => {
    await fresh(page);
    await page.evaluate((url) => {
      const { Client, ElicitationForm } = window.mcp;
      const dialog = document.getElementById("dialog");
      window.e2e = (async () => {
        const client = new Client(url, { elicitationCallback: (ctx, params) => ElicitationForm.ask(dialog, params, { signal: ctx.signal }) });
        await client.connect();
        const texts = [];
        for (let i = 0; i < 2; i++) texts.push((await client.callTool("issue_card", {})).content[0].text);
        await client.close();
        return texts;
      })();
      window.e2e.catch(() => {});
    }, peerUrl);
    const form = $('dialog[open] mcp-elicitation-form[data-state="pending"]');
    await form.locator('[data-test="elicitation-message"]').waitFor();
    expect(/name should go on the card/.test(await form.locator('[data-test="elicitation-message"]').textContent()), "the server's message");
    await form.locator('[data-test="elicitation-accept"]').click();
    await form.locator('[data-test="field-error-name"]').waitFor();
    await form.locator('[data-test="input-name"]').fill("Ada Lovelace");
    await form.locator('[data-test="elicitation-accept"]').click();
    await form.locator('[data-test="elicitation-decline"]').click(); // the second call's form (a new element)
    const texts = await page.evaluate(() => window.e2e);
    expect(deepEqual(texts, ["Card issued to Ada Lovelace.", "No card issued."]), `results: ${JSON.stringify(texts)}`);
  });

  await step("README example", async () => {
    await fresh(page);
    const port = new URL(peerUrl).port;
    const example = readmeExample();
    const source = example.replace('"mcp-wasm-client"', '"/tests/elements/pages/pkg.js"').replace("18101", port);
    expect(source.includes('"/tests/elements/pages/pkg.js"') && source.includes(`:${port}/mcp`), "snippet rewritten");
    const logged = new Promise((resolve) => page.on("console", (m) => { if (m.type() === "log") resolve(m); }));
    await page.addScriptTag({ type: "module", content: source });
    await $('dialog[open] mcp-elicitation-form [data-test="input-name"]').fill("Ada Lovelace");
    await page.keyboard.press("Enter");
    const message = await logged;
    const content = await message.args()[0].jsonValue();
    expect(content.length === 1 && content[0].type === "text" && content[0].text === "Card issued to Ada Lovelace.", `logged: ${JSON.stringify(content)}`);
  });
}

// ------------------------------------------------------------------------------ main

async function main() {
  needWebPackage();
  const [webPort, cspPort, peerPort] = await freePorts(3, PORTS);
  await Promise.all([serveRoot(webPort), serveRoot(cspPort, STRICT_CSP)]);
  const peer = start("python peer", "python3", ["tests/peers/python_server.py", String(peerPort)]);
  const peerUrl = `http://127.0.0.1:${peerPort}/mcp`;
  await waitAnswering(peerUrl, peer);
  console.log(`# pages http://127.0.0.1:${webPort}/ and (strict CSP) :${cspPort}, python peer ${peerUrl} (pid ${peer.pid})`);

  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ timezoneId: "Europe/Paris", viewport: { width: 900, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    page.on("console", (m) => { if (m.type() === "error") pageErrors.push(`console: ${m.text()}`); });
    const $ = (sel) => page.locator(sel);
    await openPage(page, `http://127.0.0.1:${webPort}`);

    await renderingSteps(page, $);
    await errorSteps(page, $);
    await contentSteps(page, $);
    await keyboardSteps(page, $);
    await urlSteps(page, $, context);
    await apiSteps(page, $);
    await clientSteps(page, $, peerUrl);
    await step("no page errors", async () => expect(pageErrors.length === 0, pageErrors.join("\n")));
    await cspSteps(browser, `http://127.0.0.1:${cspPort}`);
  } finally {
    await browser.close();
  }
}

await runMain(steps, main, servers);
const secs = ((Date.now() - started) / 1000).toFixed(1);
console.log(`elements-form: ${steps.passed} passed, ${steps.failed} failed (${secs} s)`);
process.exit(steps.failed ? 1 : 0);
