// A template: scripts/package.sh fills its {{…}} lines and copies it into the package. Node, ESM: the same instance as require('mcp-wasm-client')
// (node.cjs), so classes and instanceof agree between import and require.
import glue from './node.cjs';
export const {
// {{exports}}
// {{builders}}
  AppFrame,
  ElicitationForm,
  init,
  initSync,
} = glue;
export default glue.init;
