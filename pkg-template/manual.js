// A template: scripts/package.sh fills its {{…}} lines and copies it into the package. Browsers, bundlers, workers: the web glue WITHOUT automatic
// initialisation. Call `await init()` (the .wasm next to the glue, located by dist/wasm-url.js
// with new URL(…, import.meta.url) exactly as the glue would), `await init({ module_or_path: urlOrResponseOrModule })` or
// `initSync({ module: bytesOrModule })` first; until then every export throws a clear error.
import * as glue from './dist/mcp_wasm_client.js';
import { wasmUrl as defaultWasmUrl } from './dist/wasm-url.js';
import { defineElements } from './elements/index.js';
import { McpError as ErrorClass, adopt } from '{{snippets}}/src/js/boundary/error.js';

let ready = false;
let pending = null;
let loadFailure = null; // the McpError of the last init() that failed, until one succeeds

// The package's McpError answers `instanceof` before (and without) a successful init.
adopt(glue.McpError);

function notInitialised(name) {
  const error = new Error(
    `mcp-wasm-client: ${name} was used before the WebAssembly module was initialised. ` +
      'Call `await init()` (or `initSync({ module })`) first; "mcp-wasm-client" starts init() on ' +
      'import (await it before using this), and its Client and ClientGroup wait for it by themselves.',
  );
  error.code = 'ERR_MCP_WASM_NOT_INITIALISED';
  return error;
}

// A Proxy keeps the class itself (prototype, statics, instanceof for objects the wasm creates);
// only calling or constructing it before init is refused. (The name is passed in: minifiers
// rename classes.)
function guard(target, name) {
  return new Proxy(target, {
    apply(fn, self, args) {
      if (!ready) throw loadFailure ?? notInitialised(`${name}()`);
      return Reflect.apply(fn, self, args);
    },
    construct(cls, args, newTarget) {
      if (!ready) throw loadFailure ?? notInitialised(`new ${name}()`);
      return Reflect.construct(cls, args, newTarget);
    },
  });
}

/**
 * Initialises the module (once; concurrent and repeated calls share the first) and loads the parts
 * its synchronous exports need (the form helpers', which the default entry's lean module loads on
 * first use: ClientCore.loadParts), so every export works once it resolves. Resolves to nothing:
 * the raw wasm exports the glue's init returns are not the package's API.
 */
export function init(input) {
  // One promise for every call, as the module's own: dropped when it fails, so a later call tries again.
  initialised ??= __initModule(input)
    .then(() => glue.ClientCore.loadParts())
    .catch((error) => {
      initialised = null;
      throw error;
    });
  return initialised;
}
let initialised = null;

/**
 * The module alone, its parts loaded when first used: what a client waits for (the default
 * entry's index.js and auth-part.js). Not part of the API.
 */
export function __initModule(input) {
  if (ready) return pending;
  if (!pending) {
    const url = wasmUrl(input);
    pending = fetched(input, url)
      .then((source) => glue.default(source))
      .then(
        () => { ready = true; loadFailure = null; },
        (error) => { pending = null; throw (loadFailure = loadError(error, url)); },
      );
  }
  return pending;
}

// What init(input) was given to read the module from (the object form's module_or_path).
function sourceOf(input) {
  return input && typeof input === 'object' && 'module_or_path' in input ? input.module_or_path : input;
}

// Where init(input) reads the module from: a URL, or null (bytes or a compiled module).
function wasmUrl(input) {
  const source = sourceOf(input);
  if (source === undefined) return defaultWasmUrl().href;
  if (typeof source === 'string' || source instanceof URL) return new URL(String(source), globalThis.location?.href).href;
  if (typeof Request === 'function' && source instanceof Request) return source.url;
  if (typeof Response === 'function' && source instanceof Response) return source.url || null;
  return null;
}

// The module's response when init() fetches it (undefined, a string or a URL): a status that is
// not 2xx is an error of its own; anything else is passed to the glue as it was given.
async function fetched(input, url) {
  const source = sourceOf(input);
  if (!(source === undefined || typeof source === 'string' || source instanceof URL)) return input;
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw Object.assign(new Error(`fetching it failed (${error?.message ?? error}): the network, CORS, or the page's Content-Security-Policy connect-src`), { loading: true });
  }
  if (!response.ok) throw Object.assign(new Error(`the server answered ${response.status} ${response.statusText}`.trim()), { loading: true });
  return { ...(input && typeof input === 'object' && !(input instanceof URL) ? input : {}), module_or_path: response };
}

// The McpError every API call rejects with after init() failed: what happened, and the URL.
function loadError(error, url) {
  if (error instanceof ErrorClass) return error;
  const text = String(error?.message ?? error);
  let why = text;
  if (!error?.loading) {
    if (/unsafe-eval|Content.Security.Policy|CSP/i.test(text)) {
      why = `the page's Content-Security-Policy refused to compile it (allow 'wasm-unsafe-eval' in script-src): ${text}`;
    } else if (error instanceof WebAssembly.CompileError || /magic|not a wasm|expected.*wasm|Wasm/i.test(text)) {
      why = `the response is not the WebAssembly module (a wrong file, or an HTML page in its place; it must be served as application/wasm): ${text}`;
    }
  }
  const where = url ? `from ${url}` : '(the bytes or module given to init)';
  return new ErrorClass(-32603, `mcp-wasm-client: the WebAssembly module could not be loaded ${where}: ${why}`, {
    kind: 'wasm_load',
    url: url ?? undefined,
    cause: text,
  });
}

/** Initialises the module synchronously from bytes or a WebAssembly.Module (returns nothing). */
export function initSync(input) {
  glue.initSync(input);
  if (!ready) { ready = true; pending = Promise.resolve(); }
}

export default init;
// {{exports}}
// {{builders}}
// The custom elements (plain JS, outside the wasm), bound to this entry's guarded exports; in a
// page this defines <mcp-app-frame> and <mcp-elicitation-form>.
export const { AppFrame, ElicitationForm } = defineElements({ McpError, elicitationForm, validateElicitation, init });
