// The test app: written with the official View SDK (`App` from @modelcontextprotocol/ext-apps 2.0.4),
// bundled into one HTML file by server.mjs. It records what the host sends in window.events and
// exposes the App as window.app, so the test drives it from inside the frame (playwright evaluates
// in the srcdoc frame). window.raw posts a hand-written JSON-RPC message to the proxy; window.inbox
// keeps every message the app's window receives from its parent. It registers one tool with the
// SDK's registerTool (pick_quarter, a zod schema); window.addTool registers another once connected
// (the SDK then sends notifications/tools/list_changed). Its teardown handler logs the event types
// it saw before the teardown, then "teardown seen".
import { App } from "@modelcontextprotocol/ext-apps";
import { z } from "zod";

const events = [];
window.events = events;
window.inbox = [];
window.addEventListener("message", (e) => { if (e.source === window.parent) window.inbox.push(e.data); });
window.raw = (msg) => window.parent.postMessage(msg, "*");

const app = new App({ name: "elements-test-app", version: "1.0.0" }, { availableDisplayModes: ["inline", "fullscreen"] }, { autoResize: false });
app.ontoolinput = (params) => events.push({ type: "tool-input", params });
app.ontoolinputpartial = (params) => events.push({ type: "tool-input-partial", params });
app.ontoolresult = (params) => events.push({ type: "tool-result", params });
app.ontoolcancelled = (params) => events.push({ type: "tool-cancelled", params });
app.onhostcontextchanged = (params) => events.push({ type: "host-context-changed", params });
app.onteardown = async (params) => {
  const before = events.map((e) => e.type);
  events.push({ type: "teardown", params });
  await app.sendLog({ level: "info", logger: "elements-test-app", data: { teardownAfter: before } });
  await app.sendLog({ level: "info", logger: "elements-test-app", data: "teardown seen" });
  await new Promise((r) => setTimeout(r, 300));
  return {};
};
app.registerTool("pick_quarter", {
  title: "Pick a quarter",
  description: "Highlights one quarter of the chart.",
  inputSchema: z.object({ quarter: z.number().int().min(1).max(4) }),
}, async ({ quarter }) => {
  events.push({ type: "app-tool-call", name: "pick_quarter", quarter });
  return { content: [{ type: "text", text: `picked Q${quarter}` }], structuredContent: { quarter } };
});
window.addTool = () => app.registerTool("app_echo", { description: "Echoes its text.", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: "text", text }] }));
window.app = app;
window.ready = app.connect().then(() => {
  events.push({ type: "connected", hostContext: app.getHostContext(), hostCapabilities: app.getHostCapabilities(), hostInfo: app.getHostVersion() });
  document.getElementById("status").textContent = `connected to ${app.getHostVersion()?.name}`;
  return true;
});
