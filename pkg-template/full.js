// Copied into the package as it is by scripts/package.sh. Not an entry: the default entry
// (index.js) imports it when the first client with the `auth` option is made. The full module
// (authorization's sign-in flow, tokens, DPoP…), initialised through manual.js (its wasm_load
// McpError names the URL and the reason when it cannot be loaded).
import * as glue from './dist/mcp_wasm_client.js';
import { init } from './manual.js';

/** Resolves, once the full module is ready, to the function that makes a client core in it. */
export function coreMaker() {
  return init().then(
    () => (first, second, observe) => new glue.ClientCore(first, second, observe),
    (error) => {
      if (error?.data && typeof error.data === 'object') error.data.part ??= 'authorization';
      throw error;
    },
  );
}
