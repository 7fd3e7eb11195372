// Copied into the package as it is by scripts/package.sh: the types of require("mcp-wasm-client/core") for TypeScript's
// node16/nodenext CommonJS resolution: the full entry's CommonJS types (see core/index.d.ts).
export * from "../index.cjs";
