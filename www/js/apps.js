// MCP Apps in the transcript: a tool whose _meta.ui names a ui:// resource is called through an
// <mcp-app-frame> (the package's MCP Apps host), which renders the app inline below the result.
// The app runs in the package's sandbox proxy page, served from ANOTHER origin: scripts/demo.sh
// serves the repository root a second time on DEMO_SANDBOX_PORT (default 8083) for it; ?sandbox=
// overrides its URL.
import { h } from "./dom.js";
import { state } from "./state.js";
import "./pkg.js"; // defines <mcp-app-frame>
import { addMessage, systemNote } from "./chat.js";

// the element's own rules: a tool's ui:// resource, and whom its visibility is for
export { toolResourceUri, visibleTo } from "../../pkg-template/elements/view-session.js";

const SANDBOX_PORT = 8083;

/** The sandbox proxy page's URL: ?sandbox=…, else this host name on port 8083. */
export function sandboxUrl() {
  const given = new URLSearchParams(location.search).get("sandbox");
  return given ?? `${location.protocol}//${location.hostname}:${SANDBOX_PORT}/pkg-template/mcp-app-sandbox.html`;
}

/** What the page tells the app about itself (the app's ui/initialize result carries it). */
function hostContext() {
  return {
    theme: matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light",
    locale: navigator.language,
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    platform: "web",
  };
}

/** The text of a ui/message's content (one block or several). */
function messageText(content) {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b) => (b?.type === "text" ? b.text : `[${b?.type ?? "content"}]`)).join("\n");
}

/** An <mcp-app-frame> under the message `li`, its events shown in the transcript. */
function mountFrame(li, toolName) {
  const frame = document.createElement("mcp-app-frame");
  frame.client = state.client;
  frame.sandbox = sandboxUrl();
  frame.hostContext = hostContext();
  frame.setAttribute("data-test", "app-frame");
  frame.addEventListener("mcp-app-message", (e) => {
    addMessage("user", { test: "msg-app", label: `You (from the ${toolName} app)` },
      h("pre", { class: "plain", text: messageText(e.detail?.content) }));
  });
  frame.addEventListener("mcp-app-context", () => systemNote(`The ${toolName} app updated the model context.`, "msg-app-context"));
  li.append(h("div", { class: "app-slot" }, frame));
  return frame;
}

/** Calls a tool that has an MCP App: the frame renders the view and resolves with the CallToolResult. */
export function callWithApp(li, name, args, options) {
  return mountFrame(li, name).callTool(name, args, options);
}
