// Where the Node build finds its .wasm. scripts/package.sh copies this file to dist/node-wasm.cjs
// and points the nodejs glue (dist/mcp_wasm_client.cjs, dist/core/mcp_wasm_client.cjs) at it in
// place of wasm-bindgen's `require('fs').readFileSync(`${__dirname}/…_bg.wasm`)`, which works only
// where the glue sits beside its .wasm. A bundler that inlines the package into one file (esbuild
// --bundle --platform=node) moves the glue away from it: a CommonJS bundle's __dirname is the
// bundle's folder, and an ESM bundle has neither __dirname nor a working require() (esbuild's
// stand-in throws "Dynamic require of "fs" is not supported"). So the Node built-ins come from
// process.getBuiltinModule (Node >= 20.16, which the package's engines field covers; require where
// a runtime lacks it), and the .wasm from the first of these places that has the right file:
//   1. the glue's own folder, when it has one (`__dirname`): the package's dist/ (unbundled), or a
//      CommonJS bundle's folder (a .wasm copied beside it);
//   2. the folder of the entry script (process.argv[1]): an ESM bundle's, with the .wasm copied
//      beside it;
//   3. the installed package, resolved as mcp-wasm-client/package.json from each of those folders
//      and from the working directory: a bundle run where node_modules/mcp-wasm-client is.
// A file of the right name but another size is another build's (another version of the package):
// it is passed over, and named in the error if nothing else fits. No place has it: an Error with
// code ERR_MCP_WASM_NOT_FOUND that lists where it looked and what to do.
'use strict';

const PACKAGE = 'mcp-wasm-client';

// Each require() names its module as a literal: a bundler (webpack) warns about a computed one.
const builtins = () =>
  typeof process.getBuiltinModule === 'function'
    ? { fs: process.getBuiltinModule('fs'), path: process.getBuiltinModule('path'), nodeModule: process.getBuiltinModule('module') }
    : { fs: require('fs'), path: require('path'), nodeModule: require('module') };

/**
 * The .wasm's bytes, read synchronously.
 * @param {string | undefined} dir the glue's __dirname, if it has one
 * @param {string} file the .wasm's path inside the package (dist/mcp_wasm_client_bg.wasm)
 * @param {number} size its length in bytes, as this build wrote it
 * @returns {Uint8Array}
 */
exports.readWasm = function readWasm(dir, file, size) {
  const { fs, path, nodeModule } = builtins();
  const name = path.basename(file);
  const tried = [];
  const read = (candidate) => {
    if (tried.some((t) => t.path === candidate)) return undefined;
    let bytes;
    try {
      bytes = fs.readFileSync(candidate);
    } catch (e) {
      tried.push({ path: candidate, why: e?.code === 'ENOENT' ? 'missing' : String(e?.code ?? e) });
      return undefined;
    }
    if (bytes.length === size) return bytes;
    tried.push({ path: candidate, why: `${bytes.length} bytes, not this build's ${size}: another version's` });
    return undefined;
  };
  const folders = typeof dir === 'string' && dir ? [dir] : [];
  // 1. the glue's folder: unbundled, the only place looked at
  const own = folders.length ? read(path.join(dir, name)) : undefined;
  if (own) return own;
  // 2. the entry script's folder
  const entry = process.argv[1];
  if (typeof entry === 'string' && entry) {
    let main = path.resolve(entry);
    try {
      main = fs.realpathSync(main);
    } catch {} // the path as given (a script run by a loader need not be a file)
    folders.push(path.dirname(main));
    const beside = read(path.join(path.dirname(main), name));
    if (beside) return beside;
  }
  // 3. the installed package, from those folders and the working directory
  const { createRequire } = nodeModule;
  const unresolved = [];
  for (const base of new Set([...folders, process.cwd()])) {
    let root;
    try {
      root = path.dirname(createRequire(path.join(base, 'noop.js')).resolve(`${PACKAGE}/package.json`));
    } catch {
      unresolved.push(base);
      continue;
    }
    const installed = read(path.join(root, file));
    if (installed) return installed;
  }
  const looked = tried.map((t) => `${t.path} (${t.why})`);
  if (unresolved.length) looked.push(`the package ${PACKAGE} from ${unresolved.join(', ')} (not installed there)`);
  const error = new Error(
    `${PACKAGE}: its WebAssembly module ${name} was not found. Looked in: ${looked.join('; ')}. ` +
      `A bundle that includes ${PACKAGE} (esbuild --bundle --platform=node) reads it from beside the bundle ` +
      `or from node_modules/${PACKAGE}: run it where the package is installed, or copy ` +
      `node_modules/${PACKAGE}/${file} into the bundle's folder (an ESM bundle: the folder of the script ` +
      `node runs), or keep the package out of the bundle (esbuild --external:${PACKAGE}).`,
  );
  error.code = 'ERR_MCP_WASM_NOT_FOUND';
  throw error;
};
