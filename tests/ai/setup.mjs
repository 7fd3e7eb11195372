// Imported first by each ai suite: registers hooks.mjs (the package names mapped to this
// checkout) and exports the package, the peers' URLs and helpers of tests/js/peers.mjs.
import { register } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
/** Registers the hooks; `ai`: the AI SDK package "mcp-wasm-client/ai" gets ("ai" = 7, "ai6" = 6). */
export function mapPackages(ai = "ai") {
  register(pathToFileURL(path.join(here, "hooks.mjs")), { parentURL: import.meta.url, data: { here, ai } });
}
