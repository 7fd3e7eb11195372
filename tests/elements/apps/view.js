// The test app: written with the official View SDK (`App` from @modelcontextprotocol/ext-apps 2.0.4),
// bundled into one HTML file by server.mjs. It records what the host sends in window.events and
// exposes the App as window.app, so the test drives it from inside the frame (playwright evaluates
// in the srcdoc frame). window.raw posts a hand-written JSON-RPC message to the proxy; window.inbox
// keeps every message the app's window receives from its parent.
import { App } from "@modelcontextprotocol/ext-apps";

const events = [];
window.events = events;
window.inbox = [];
window.addEventListener("message", (e) => { if (e.source === window.parent) window.inbox.push(e.data); });
window.raw = (msg) => window.parent.postMessage(msg, "*");

const app = new App({ name: "elements-test-app", version: "1.0.0" }, { availableDisplayModes: ["inline", "fullscreen"] }, { autoResize: false });
app.ontoolinput = (params) => events.push({ type: "tool-input", params });
app.ontoolresult = (params) => events.push({ type: "tool-result", params });
app.ontoolcancelled = (params) => events.push({ type: "tool-cancelled", params });
app.onhostcontextchanged = (params) => events.push({ type: "host-context-changed", params });
app.onteardown = async (params) => {
  events.push({ type: "teardown", params });
  await app.sendLog({ level: "info", logger: "elements-test-app", data: "teardown seen" });
  await new Promise((r) => setTimeout(r, 300));
  return {};
};
window.app = app;
window.ready = app.connect().then(() => {
  events.push({ type: "connected", hostContext: app.getHostContext(), hostCapabilities: app.getHostCapabilities(), hostInfo: app.getHostVersion() });
  document.getElementById("status").textContent = `connected to ${app.getHostVersion()?.name}`;
  return true;
});
