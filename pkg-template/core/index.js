// A template: scripts/package.sh fills its {{…}} lines and copies it into the package as
// core/index.js, mcp-wasm-client/core's entry for browsers, bundlers (Vite, webpack 5, Rollup) and
// module workers: no top-level await. Importing starts init() (fetching dist/core/mcp_wasm_client_bg.wasm
// through new URL('mcp_wasm_client_bg.wasm', import.meta.url), which bundlers rewrite to the emitted
// asset) without waiting for it. `Client` and `ClientGroup` work at once: made before the module
// is ready, a client makes its core when it is (its methods wait for that; its getters answer
// their not-connected values; an option error surfaces from connect()). Every other export is
// core/manual.js's: usable once `await init()` (the same promise) has resolved.
import * as glue from '../dist/core/mcp_wasm_client.js';
import { adoptClient, makeClient } from '{{snippets}}/src/js/api/client.js';
import { makeGroup } from '{{snippets}}/src/js/api/group.js';
import { McpError as ErrorClass } from '{{snippets}}/src/js/boundary/error.js';
import { init } from './manual.js';

export * from './manual.js';
export { init as default } from './manual.js';

adoptClient(glue.Client, glue.ClientCore.prototype, init());

/** The exported Client: `new Client(…)` works before and after the module is ready. */
export const Client = new Proxy(glue.Client, { construct: (_, args) => makeClient(...args) });
/** The exported ClientGroup, built from such clients. */
export const ClientGroup = new Proxy(glue.ClientGroup, {
  construct: (_, [options]) => makeGroup(options, makeClient, ErrorClass, glue.ClientGroup),
});
