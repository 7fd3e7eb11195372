// A template: scripts/package.sh fills its {{…}} lines and copies it into the package. mcp-wasm-client/core (no authorization) for Node, ESM: the same
// instance as require('mcp-wasm-client/core') (core/node.cjs).
import glue from './node.cjs';
export const {
// {{exports}}
// {{absent}}
  AppFrame,
  ElicitationForm,
  init,
  initSync,
} = glue;
export default glue.init;
