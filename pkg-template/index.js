// A template: scripts/package.sh fills its {{…}} lines and copies it into the package. Browsers,
// bundlers (Vite, webpack 5, Rollup), module workers: no top-level await. Two WebAssembly modules:
//  - the lean one (the core build: dist/mcp_wasm_client_lean.js and its _lean_bg.wasm, located
//    through new URL(…, import.meta.url), which bundlers rewrite to the emitted asset), fetched when the
//    first client without `auth` is made or init() is called: every client without `auth` is made
//    there, and every export that needs a module (elicitationForm, the transports…) is its;
//  - the full one (full.js: dist/mcp_wasm_client_bg.wasm through manual.js), loaded when the first
//    client with the `auth` option (or over a JS transport) is made, or a lean client's first
//    skills call; a page that never signs in never fetches it. A client with `auth` whose storage
//    holds a fresh token (a returning user) is made in the lean module too: auth-part.js sends the
//    token, and loads the full module only when more is needed (a refusal, a refresh, signing in
//    or out).
// `Client` and `ClientGroup` work at once: made before its module is ready, a client makes its core
// when it is (its methods wait for that; its getters answer their not-connected values; an option
// error, or a module that cannot be loaded, surfaces from connect()). The `auth` option's builders
// (authorizeWithPopup, webStorage…) are plain JS, usable at once. Every other export is
// './lean/manual.js''s (pkg-template/manual.js over the lean glue, which scripts/package.sh bundles
// into this file): usable once `await init()` has resolved (a client waits for the module alone:
// __initModule; init() also loads the form helpers' part, which the lean module splits off).
import * as glue from './dist/mcp_wasm_client_lean.js';
import { adoptClient, makeClient } from '{{snippets}}/src/js/api/client.js';
import { makeGroup } from '{{snippets}}/src/js/api/group.js';
import { McpError as ErrorClass, moduleLoadError } from '{{snippets}}/src/js/boundary/error.js';
import { __initModule as initModule } from './lean/manual.js';

export * from './lean/manual.js';
export { init as default } from './lean/manual.js';

// The clients not made as plain lean ones: one with an `auth` option (undefined and null are none),
// and one over a JS transport (`new Client({ transport }, …)`), whose skills no companion could
// reach (a transport carries one client).
function wantsMore(first, second) {
  try {
    return overTransport(first) || authOf(first, second) !== undefined;
  } catch {
    return false; // a hostile options object: the lean module's reader names what is wrong
  }
}

const overTransport = (first) => first !== null && typeof first === 'object' && !(first instanceof URL) && 'transport' in first;
const authOf = (first, second) =>
  [first, second].find((o) => o !== null && typeof o === 'object' && !(o instanceof URL) && o.auth != null)?.auth;

// The McpError of a file of the authorization part (at `url`) that could not be imported.
const partLoadError = (url, error) => moduleLoadError('the authorization part', url, error, { part: 'authorization' });

// The full module, loaded once, when the first client that wants it is made (full.js); after a
// failure, a later client tries again.
let full = null;
function loadFull() {
  full ??= import('./full.js')
    .catch((error) => {
      throw partLoadError(new URL('./full.js', import.meta.url).href, error);
    })
    .then((m) => m.coreMaker())
    .catch((error) => {
      full = null;
      throw error;
    });
  return full;
}

// Where a client that wantsMore is made: one with `auth` as auth-part.js decides (a returning
// user's stored token: the lean module), every other one in the full module.
async function loadFor(first, second) {
  if (overTransport(first)) return loadFull();
  let part;
  try {
    part = await import('./auth-part.js');
  } catch (error) {
    throw partLoadError(new URL('./auth-part.js', import.meta.url).href, error);
  }
  let auth;
  try {
    auth = authOf(first, second);
  } catch {
    return loadFull(); // a hostile options object: the full module's reader names what is wrong
  }
  return part.makerFor(first, auth, { init: initModule, Core: glue.ClientCore, loadFull });
}

// The lean module starts loading with the first client that needs it (or init()): a page whose
// clients all have `auth` fetches only the full module.
adoptClient(glue.Client, glue.ClientCore.prototype, () => initModule(), { wants: wantsMore, load: loadFor, full: loadFull });

/** The exported Client: `new Client(…)` works before and after the module is ready. */
export const Client = new Proxy(glue.Client, { construct: (_, args) => makeClient(...args) });
/** The exported ClientGroup, built from such clients. */
export const ClientGroup = new Proxy(glue.ClientGroup, {
  construct: (_, [options]) => makeGroup(options, makeClient, ErrorClass, glue.ClientGroup),
});
