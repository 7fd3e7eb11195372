// Writes the package README (what npm shows) from pkg-template/README.md: each line
//
//   <!-- include: docs/client.md ## Errors -->
//
// becomes that section of the guide (its heading line up to the next heading of its level or
// above), so a section the package README shares with docs/ has one source and cannot drift.
// Links relative to the guide become their text (the package names no repository to point them
// at); absolute links stay. scripts/package.sh runs it; tests/types/readme.mjs checks the template's
// own blocks (the included ones are checked where they are written).
//
// Usage: node scripts/package-readme.mjs TEMPLATE OUT
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const INCLUDE = /^<!-- include: (\S+) (#{1,6} .+) -->$/;

/** The section of `file` under the heading line `heading`, that line included. */
export function section(file, heading) {
  const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
  const level = heading.match(/^#+/)[0].length;
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`${file} has no heading line ${JSON.stringify(heading)}`);
  let fenced = false;
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i].startsWith("```")) fenced = !fenced;
    const m = !fenced && lines[i].match(/^(#{1,6}) /);
    if (m && m[1].length <= level) { end = i; break; }
  }
  while (end > start && lines[end - 1] === "") end--;
  return lines.slice(start, end).join("\n");
}

/** The template's text with every include line replaced by its section. */
export function expand(template) {
  return readFileSync(template, "utf8")
    .split("\n")
    .map((line) => {
      const m = line.match(INCLUDE);
      if (!m) return line;
      // [text](relative) → text; images and absolute links are left alone
      return section(m[1], m[2]).replace(/(?<!!)\[([^\]]+)\]\((?![a-z]+:)[^)]*\)/g, "$1");
    })
    .join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [template, out] = process.argv.slice(2);
  if (!template || !out) {
    console.error("usage: node scripts/package-readme.mjs TEMPLATE OUT");
    process.exit(2);
  }
  writeFileSync(out, expand(template));
}
