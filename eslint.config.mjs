// The JS lint stage (scripts/test.sh lint): ESLint's recommended rules over every JS file the
// package ships (the wasm-bindgen snippets in src/js, the wrappers, elements and React hooks in
// pkg-template) and the demo page's scripts. Browser, worker and Node globals: the package runs
// in all of them. An empty `catch {}` is allowed (each says why beside it: a best effort whose
// failure changes nothing), and so is an unused argument named `_…`.
import js from "./tools/node_modules/@eslint/js/src/index.js";
import globals from "./tools/node_modules/globals/index.js";

export default [
  {
    files: ["src/js/**/*.js", "pkg-template/**/*.js", "pkg-template/**/*.cjs", "www/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.worker, ...globals.node },
    },
    rules: {
      ...js.configs.recommended.rules,
      "no-empty": ["error", { allowEmptyCatch: true }],
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  { files: ["pkg-template/**/*.cjs"], languageOptions: { sourceType: "commonjs" } },
  {
    // Templates whose `// {{exports}}` line scripts/package.sh fills with one line per export of
    // the crate: those lines define the exports (McpError, elicitationForm, …) and use guard() /
    // absent(), which the template alone cannot show.
    files: ["pkg-template/manual.js", "pkg-template/node.cjs", "pkg-template/core/node.cjs"],
    rules: { "no-undef": "off", "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^(guard|absent)$" }] },
  },
];
