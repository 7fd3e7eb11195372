// The arguments of a tool call while a model still streams them: the JSON text received so far
// (`{"title": "Q3 rev`) read as the object it is becoming (`{ title: "Q3 rev" }`), for
// <mcp-app-frame>'s feedToolInput (view-session.js imports this with the first app shown). A string
// still open is closed where it stops; a key without its value, a half-written number, literal
// or escape is left out; open objects and arrays are closed.

/** Text longer than this is not read again (each read scans it all): its last reading stands. */
export const MAX_PARTIAL_JSON = 1 << 20;

/**
 * The object `text` (the start of a JSON object) is becoming, or undefined when it is not the
 * start of an object (or is over MAX_PARTIAL_JSON characters).
 */
export function parsePartialJson(text) {
  if (typeof text !== 'string' || text.length > MAX_PARTIAL_JSON) return undefined;
  const scan = scanJson(text);
  if (!scan) return undefined;
  const tries = [];
  if (scan.inString) tries.push(closeString(text) + closers(scan.stack));
  else tries.push(text + closers(scan.stack));
  if (scan.safe) tries.push(text.slice(0, scan.safe.at) + closers(scan.safe.stack));
  for (const candidate of tries) {
    try {
      const value = JSON.parse(candidate);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value;
    } catch { /* the next, shorter reading */ }
  }
  return undefined;
}

/** The brackets that close `stack` (innermost first). */
function closers(stack) {
  return stack.map((c) => (c === '{' ? '}' : ']')).reverse().join('');
}

/** `text` ending inside a string, closed there (a half-written escape dropped). */
function closeString(text) {
  return `${text.replace(/\\u[0-9a-fA-F]{0,3}$/, '').replace(/(^|[^\\])((?:\\\\)*)\\$/, '$1$2')}"`;
}

/**
 * One pass over `text`: the containers still open (`stack`), whether it ends inside a string,
 * and the last point where everything before it is complete JSON once closed (`safe`: the
 * index and the stack there): after `{` or `[`, after a value, before a `,`.
 */
function scanJson(text) {
  const stack = [];
  const expectKey = []; // per open object: true while its next string is a key
  let inString = false;
  let escaped = false;
  let stringIsKey = false;
  let safe;
  let i = text.search(/\S/);
  if (i < 0 || text[i] !== '{') return undefined;
  const mark = (at) => { safe = { at, stack: [...stack] }; };
  for (; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') {
        inString = false;
        if (!stringIsKey) mark(i + 1);
      }
      continue;
    }
    const top = stack.length - 1;
    if (c === '"') {
      inString = true;
      stringIsKey = stack[top] === '{' && expectKey[top];
    } else if (c === '{' || c === '[') {
      stack.push(c);
      expectKey.push(c === '{');
      mark(i + 1);
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey.pop();
      if (!stack.length) return { stack, inString: false, safe: { at: i + 1, stack: [] } };
      mark(i + 1);
    } else if (c === ':') {
      expectKey[top] = false;
    } else if (c === ',') {
      mark(i);
      if (stack[top] === '{') expectKey[top] = true;
    }
  }
  return { stack, inString, safe };
}
