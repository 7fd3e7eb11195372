// Copied into the package as it is by scripts/package.sh. mcp-wasm-client/core is the package without authorization (a
// page that never signs in does not download it). The full entry's authorization helpers keep
// their names here, so code written for either entry loads with both; calling one throws.

/**
 * The stand-in for authorization helper `name`: a function that throws an McpError (code -32602,
 * `data: { local: true, kind: "input" }`, like the wasm's argument errors) naming the full entry.
 */
export function absent(McpError, name) {
  return {
    [name]() {
      throw new McpError(
        -32602,
        `${name} needs authorization, which mcp-wasm-client/core leaves out: import it from mcp-wasm-client (the full entry) instead`,
        { local: true, kind: 'input' },
      );
    },
  }[name];
}
