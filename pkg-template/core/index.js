// A template: scripts/package.sh fills its {{…}} lines and copies it into the package. mcp-wasm-client/core (no authorization) for browsers, bundlers
// and module workers: like mcp-wasm-client's index.js (no top-level await; init() starts on
// import; Client and ClientGroup usable at once), from dist/core/mcp_wasm_client_bg.wasm.
import * as glue from '../dist/core/mcp_wasm_client.js';
import { adoptClient, makeClient, makeGroup } from '{{snippets}}/src/js/api/classes.js';
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
