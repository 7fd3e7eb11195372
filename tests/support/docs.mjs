// The user documentation whose examples the tests run and type-check: the README (the first
// example) and the guides in docs/ it links to, in reading order.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The files, relative to the repository root. */
export const DOC_FILES = ["README.md", "docs/client.md", "docs/elements.md", "docs/sign-in.md", "docs/package.md"];

/** Their text, one after the other (each file starts with its own "# " title). */
export function docsText() {
  return DOC_FILES.map((f) => readFileSync(path.join(ROOT, f), "utf8")).join("\n");
}

/** The ```js blocks of the documentation, in order, or of its section under `heading` (to the next "## " or "# "). */
export function docJsBlocks(heading) {
  let text = docsText();
  if (heading) {
    const start = text.indexOf(heading);
    if (start < 0) throw new Error(`the documentation (${DOC_FILES.join(", ")}) has no section ${heading}`);
    const next = text.slice(start + 1).search(/\n#{1,2} /);
    text = text.slice(start, next < 0 ? undefined : start + 1 + next);
  }
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
}
