// A template: scripts/package.sh fills its {{…}} lines and copies it into the package. Node, CommonJS: the nodejs glue instantiates the wasm
// synchronously from the file on require, so init()/initSync() only exist for portability.
'use strict';
const glue = require('./dist/mcp_wasm_client.cjs');
// {{exports}}
// {{builders}}
// The custom elements' classes (require(esm)); Node has no customElements, so none is defined.
const elements = require('./elements/index.js').defineElements(glue);
exports.AppFrame = elements.AppFrame;
exports.ElicitationForm = elements.ElicitationForm;
exports.init = function init(_input) { return Promise.resolve(undefined); };
exports.initSync = function initSync(_input) { return undefined; };
