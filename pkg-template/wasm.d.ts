/** `mcp-wasm-client/wasm`: the package's .wasm file. What importing it gives is the bundler's
 *  choice; with the setup the README's "Bundlers" section shows (esbuild `--loader:.wasm=file`) it
 *  is the emitted file's URL, relative to the bundle: pass it to `init({ module_or_path })`. */
declare const wasmUrl: string;
export default wasmUrl;
