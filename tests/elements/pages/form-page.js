// The elicitation-form test page's module: the package (as the npm browser entry binds it) on
// window.mcp, then window.ready. tests/elements/form.mjs drives it with page.evaluate().
import * as mcp from "./pkg.js";

window.mcp = mcp;
window.ready = true;
