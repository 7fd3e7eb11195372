// The page of tests/elements/apps.mjs: the package as the browser entry gives it (pages/pkg.js), and
// window.t for the test: every mcp-app-* event the page saw (t.log), the event types the page
// refuses (t.refuse: their listener calls preventDefault()), and a timer-gap probe (t.gaps).
let mod;
let entry;
try {
  mod = await import("/tests/elements/pages/pkg.js");
  entry = "pkg.js";
} catch (e) {
  // elements/index.js also imports elicitation-form.js, the other half of issue 25: until both
  // halves are merged, bind AppFrame to pkg/web here, exactly as defineElements does.
  const wasm = await import("/pkg/web/mcp_wasm_client.js");
  await wasm.default();
  const { appFrameClass } = await import("/pkg-template/elements/app-frame.js");
  const AppFrame = appFrameClass(wasm);
  if (!customElements.get("mcp-app-frame")) customElements.define("mcp-app-frame", AppFrame);
  mod = { ...wasm, AppFrame };
  entry = `app-frame.js (pages/pkg.js did not load: ${e.message})`;
}

const log = [];
const refuse = new Set();
const TYPES = ["mcp-app-message", "mcp-app-open-link", "mcp-app-context", "mcp-app-display-mode", "mcp-app-log", "mcp-app-size", "mcp-app-request-teardown"];
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

window.t = { mod, entry, log, refuse, gaps, params: Object.fromEntries(new URLSearchParams(location.search)) };
document.body.dataset.ready = "1";
