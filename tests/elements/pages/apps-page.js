// The page of tests/elements/apps.mjs: the package as the browser entry gives it (pages/pkg.js), and
// window.t for the test: every mcp-app-* event the page saw (t.log), the event types the page
// refuses (t.refuse: their listener calls preventDefault()), a timer-gap probe (t.gaps), and
// t.frame(id, client): an <mcp-app-frame> over t.clients[client].
const mod = await import("/tests/elements/pages/pkg.js");

const log = [];
const refuse = new Set();
const TYPES = ["mcp-app-message", "mcp-app-open-link", "mcp-app-context", "mcp-app-display-mode", "mcp-app-log", "mcp-app-size", "mcp-app-request-teardown",
  "mcp-app-download", "mcp-app-sampling", "mcp-app-tools"];
for (const type of TYPES) {
  document.addEventListener(type, (e) => {
    log.push({ type, detail: e.detail, iframe: Boolean(e.target.shadowRoot?.querySelector("iframe")), t: performance.now() });
    if (refuse.has(type)) e.preventDefault();
  });
}

/** Largest gap between 10 ms timer ticks since start() (the page's responsiveness during a flood). */
const gaps = {
  max: 0,
  last: 0,
  id: 0,
  start() { this.max = 0; this.last = performance.now(); this.id = setInterval(() => { const now = performance.now(); this.max = Math.max(this.max, now - this.last); this.last = now; }, 10); },
  stop() { clearInterval(this.id); return this.max; },
};

const params = Object.fromEntries(new URLSearchParams(location.search));

/** The frame `id` in #chat (made once), over t.clients[client] and the sandbox of the page's URL. */
function frame(id, client) {
  let f = document.getElementById(id);
  if (!f) {
    f = Object.assign(document.createElement("mcp-app-frame"), { id });
    document.getElementById("chat").append(f);
  }
  f.client = window.t.clients[client];
  f.sandbox = params.sandbox;
  return f;
}

window.t = { mod, log, refuse, gaps, params, frame };
document.body.dataset.ready = "1";
