// Finishes the loader wasm-split-cli writes for the lean module's parts (__wasm_split.js, which the
// module imports; scripts/build-wasm.sh): a part that cannot be loaded is told to the wasm, not only
// to the console. Each part's last failure (the URL and the reason) is kept and read by the wasm
// through `partFailure(part)` (src/js/host/parts.rs), which names them in the McpError of the call
// that needed the part; a .wasm answered with an HTTP error is a failure naming its status; one
// served without `application/wasm` (a file: URL in Deno, a plain static server) is compiled from
// its bytes. Every place patched must be found, or the build fails: a new wasm-split-cli that
// writes another loader needs this script read again.
//
// Usage: node scripts/split-loader.mjs DIR   (DIR/__wasm_split.js, before minifying)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
if (!dir) throw new Error("usage: node scripts/split-loader.mjs DIR");
const file = join(dir, "__wasm_split.js");
let text = readFileSync(file, "utf8");

function patch(what, from, to, { all = false } = {}) {
  const count = text.split(from).length - 1;
  if (count === 0 || (!all && count > 1)) {
    throw new Error(`split-loader: ${what}: expected ${all ? "at least one" : "one"} ${JSON.stringify(from)} in ${file}, found ${count}`);
  }
  text = text.split(from).join(to);
}

const helpers = `
// Added by scripts/split-loader.mjs: each part's last failed load, and how a part's .wasm is fetched.
const failures = new Map();
/** The URL and the reason of the last failed load of \`part\`, or undefined. */
export function partFailure(part) {
  const e = failures.get(part);
  return e === undefined ? undefined : { url: e.url ?? "", cause: String(e.message ?? e) };
}
function failure(url, e) {
  return Object.assign(new Error(String(e?.message ?? e), { cause: e }), { url: String(url) });
}
function fetchPart(url) {
  return fetch(url).then(
    (response) => {
      if (!response.ok) throw failure(url, \`HTTP \${response.status}\`);
      return response;
    },
    (e) => {
      throw failure(url, e);
    },
  );
}
async function instantiatePart(source, imports) {
  const response = await source;
  try {
    const type = response.headers.get("content-type")?.split(";")[0].trim();
    if (type === "application/wasm") return await WebAssembly.instantiateStreaming(response, imports);
    return await WebAssembly.instantiate(await response.arrayBuffer(), imports);
  } catch (e) {
    throw failure(response.url, e);
  }
}
`;
const firstLineEnd = text.indexOf("\n");
if (!/^import \{ initSync \} from /.test(text)) throw new Error(`split-loader: ${file} does not start with the glue's import`);
text = text.slice(0, firstLineEnd + 1) + helpers + text.slice(firstLineEnd + 1);

patch("the load callback's wrapper", "function wrapAsyncCb(callee) {", "function wrapAsyncCb(part, callee) {");
patch("its success", "            success = true;", "            success = true;\n            failures.delete(part);");
patch("its failure", "            console.error(e);", "            failures.set(part, e);");
const loaders = [...text.matchAll(/export const __wasm_split_load_(\w+) = wrapAsyncCb\(/g)].map((m) => m[1]);
if (!loaders.length) throw new Error(`split-loader: no part loader in ${file}`);
for (const part of loaders) {
  patch(`the ${part} loader`, `export const __wasm_split_load_${part} = wrapAsyncCb(`, `export const __wasm_split_load_${part} = wrapAsyncCb(${JSON.stringify(part)}, `);
}
patch("the fetch of a module", "const src = fetch(new URL(", "const src = fetchPart(new URL(", { all: true });
patch("its instantiation", "WebAssembly.instantiateStreaming(src, imports)", "instantiatePart(src, imports)", { all: true });
writeFileSync(file, text);
console.log(`split-loader: ${loaders.length} part(s): ${loaders.join(", ")}`);
