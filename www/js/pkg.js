// The one import of the package: its default browser entry as a page that installs it gets it,
// pkg/npm/index.js (scripts/package.sh assembles pkg/npm): the lean module for clients without
// `auth`, the full one loaded when first needed, the custom elements defined. The page is served
// from the repository root (scripts/demo.sh, tests/e2e/run.mjs), so www/js/ reaches it at ../../pkg/npm/.
export {
  init, Client, ClientGroup, McpError, elicitationForm, validateElicitation, AppFrame, ElicitationForm,
  authorizeWithPopup, authorizeWithRedirect, completeAuthorizationPopup, webStorage, indexedDbStorage,
} from "../../pkg/npm/index.js";
