// A template: scripts/package.sh fills its {{…}} lines and copies it into the package. mcp-wasm-client/core (no authorization) for Node, CommonJS: the
// core nodejs glue, instantiated synchronously on require; the authorization helpers throw.
'use strict';
const glue = require('../dist/core/mcp_wasm_client.cjs');
const { absent } = require('./absent.js');
// {{exports}}
// {{absent}}
// The custom elements' classes (require(esm)); Node has no customElements, so none is defined.
const elements = require('../elements/index.js').defineElements(glue);
exports.AppFrame = elements.AppFrame;
exports.ElicitationForm = elements.ElicitationForm;
exports.init = function init(_input) { return Promise.resolve(undefined); };
exports.initSync = function initSync(_input) { return undefined; };
