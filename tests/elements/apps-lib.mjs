// What the steps of tests/elements/apps.mjs share: the step counter (one for the run), and helpers
// reaching into the page: the app's frame, code run in it, the events it saw, mounting an
// <mcp-app-frame>, the peer's request counts.
import { stepper } from "../e2e/lib.mjs";

export const steps = stepper(20_000);
export const { step } = steps;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


/** The app's srcdoc frame inside the proxy frame (the newest one), once its window has `key`. */
export async function appFrame(env, key = "app") {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const frames = env.page.frames().filter((f) => !f.isDetached() && f.url() === "about:srcdoc" && f.parentFrame()?.url().startsWith(env.proxyOrigin));
    for (const f of frames.reverse()) {
      try { if (await f.evaluate((k) => k in window, key)) return f; } catch { /* navigating */ }
    }
    await sleep(50);
  }
  throw new Error("the app's frame did not appear");
}

/** Evaluates fn(arg) inside the app's frame. */
export async function inApp(env, fn, arg, key) {
  return (await appFrame(env, key)).evaluate(fn, arg);
}

/** Polls the app's recorded events until `pred(events)` holds; returns them. */
export async function appEvents(env, pred = () => true, what = "app events") {
  const until = Date.now() + 8_000;
  let events = [];
  while (Date.now() < until) {
    events = await inApp(env, () => window.events);
    if (pred(events)) return events;
    await sleep(50);
  }
  throw new Error(`${what}: not seen; the app has ${JSON.stringify(events.map((e) => e.type))}`);
}
export const has = (type) => (events) => events.some((e) => e.type === type);
export const find = (events, type) => events.find((e) => e.type === type);

/** The peer port's counters. */
export async function stats(origin) {
  return (await fetch(`${origin}/test/stats`)).json();
}

/** Mounts a frame in the page with `client` (a page expression) and calls a tool; resolves with { result } or { error }. */
export function mount(env, { tool, args = {}, client = "a", id = "f", await: wait = true }) {
  return env.page.evaluate(async ({ tool, args, client, id, wait, SANDBOX }) => {
    const { Client, ClientGroup } = t.mod;
    if (!t.clients) t.clients = {};
    if (!t.clients[client]) {
      t.clients[client] = client === "group"
        ? new ClientGroup({ apps: true, servers: { a: { url: t.params.a }, b: { url: t.params.b } } })
        : client === "legacy"
          ? new Client(t.params.a, { apps: true, mode: "legacy" })
          : new Client(t.params[client], { apps: true });
      await t.clients[client].connect();
    }
    let frame = document.getElementById(id);
    if (!frame) {
      frame = document.createElement("mcp-app-frame");
      frame.id = id;
      document.getElementById("chat").append(frame);
    }
    frame.client = t.clients[client];
    frame.sandbox = SANDBOX;
    const p = frame.callTool(tool, args).then((result) => ({ result }), (e) => ({ error: { message: e.message, code: e.code, data: e.data, name: e.name } }));
    if (!wait) { t.pending = p; return null; }
    return p;
  }, { tool, args, client, id, wait, SANDBOX: env.SANDBOX });
}
