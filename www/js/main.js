// MCP WASM client demo: a chat-style page in plain ES modules, no framework, no CDN, no bundler.
// Serve the repository root and open /www/ (the package lives in ../pkg/npm, see pkg.js).
//
// Query parameters: ?url=<mcp url>  &mode=auto|legacy|2026-07-28  &autoconnect=1
//                   &call=<tool>  &args=<JSON object>
//                   &auth=popup|redirect  &dpop=1  &asproxy=<prefix>   (sign-in, see auth.js)
import { el } from "./dom.js";
import { state } from "./state.js";
import { init } from "./pkg.js";
import { errorNode } from "./chat.js";
import { setStatus, updateButtons } from "./status.js";
import { connect, disconnect } from "./session.js";
import { callSelected, callTool, selectTool } from "./tools.js";
import { fillArgs } from "./forms.js";
import { addRoot, renderRoots } from "./roots.js";
import { callFromWorker, initAuthToggle, signOut } from "./auth.js";

const DEFAULT_URL = "http://127.0.0.1:8081/mcp"; // scripts/demo.sh starts demo/server.py there

el.form.addEventListener("submit", (ev) => { ev.preventDefault(); connect(); });
el.disconnect.addEventListener("click", () => disconnect());
el.args.addEventListener("submit", (ev) => { ev.preventDefault(); callSelected(); });
el.rootForm.addEventListener("submit", addRoot);
el.clear.addEventListener("click", () => el.transcript.replaceChildren());
el.signOut.addEventListener("click", () => signOut());
el.workerCall.addEventListener("click", () => callFromWorker());

async function main() {
  const params = new URLSearchParams(location.search);
  el.url.value = params.get("url") ?? DEFAULT_URL;
  const mode = params.get("mode");
  if (mode && [...el.mode.options].some((o) => o.value === mode)) el.mode.value = mode;
  initAuthToggle();
  renderRoots();
  try {
    await init();
  } catch (err) {
    setStatus("error", errorNode(err, "Loading the WebAssembly module"));
    el.connect.disabled = true;
    return;
  }
  document.body.dataset.wasm = "ready";
  updateButtons();
  if (params.get("autoconnect") === "1") {
    await connect();
    const call = params.get("call");
    if (state.client && call && state.tools.some((t) => t.name === call)) {
      selectTool(call);
      let args = {};
      try { args = params.has("args") ? JSON.parse(params.get("args")) : (call === "echo" ? { text: "hello from the demo" } : {}); } catch { /* keep {} */ }
      fillArgs(args);
      await callTool(call, args);
    }
  }
}

main();
