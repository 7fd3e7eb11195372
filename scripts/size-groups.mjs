// Sums `twiggy top --format json` rows by owner: a project module (mcp_wasm_client::floor::module)
// when the item names one anywhere (a generic instantiated for our types is our code's cost), else
// the first crate its name names; data segments and unnamed items apart; custom sections (never
// shipped) left out. A step of size-report.sh.
import { readFileSync } from 'node:fs';

const [jsonPath] = process.argv.slice(2);
if (!jsonPath) {
  console.error('usage: node scripts/size-groups.mjs TWIGGY_TOP.json');
  process.exit(2);
}

/** The crate an item belongs to, or the project module when it names one. */
function owner(name) {
  const ours = /mcp_wasm_client(?:\[[0-9a-f]+\])?::([a-z_0-9]+)(?:::([a-z_0-9]+))?/.exec(name);
  if (ours) return { crate: 'mcp_wasm_client', module: ours[2] ? `${ours[1]}::${ours[2]}` : ours[1] };
  if (/^data segment|^data\[/.test(name)) return { crate: '(data segments: strings, tables)' };
  const crate = /([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::/.exec(name);
  if (crate) return { crate: crate[1] };
  if (/_[0-9a-f]{16}$/.test(name)) return { crate: '(wasm-bindgen exports and shims)' };
  return { crate: '(other: imports, tables, type and element sections)' };
}

const rows = JSON.parse(readFileSync(jsonPath, 'utf8'));
const crates = new Map();
const modules = new Map();
let total = 0;
for (const { name, shallow_size: size } of rows) {
  // Sections nothing ships: wasm-bindgen's own and the names (wasm-opt strips both).
  if (!Number.isFinite(size) || /^Σ|^\.\.\. and |^custom section|^"function names"/.test(name)) continue;
  total += size;
  const { crate, module } = owner(name);
  crates.set(crate, (crates.get(crate) ?? 0) + size);
  if (module) modules.set(module, (modules.get(module) ?? 0) + size);
}
const table = (map) =>
  [...map].sort((a, b) => b[1] - a[1]).map(([k, v]) =>
    `${String(v).padStart(9)}  ${(100 * v / total).toFixed(1).padStart(5)} %  ${k}`).join('\n');
console.log(table(crates));
console.log(`${String(total).padStart(9)}  100.0 %  total`);
console.log('\n== the project\'s own code by module (same bytes, within mcp_wasm_client) ==');
console.log(table(modules));
