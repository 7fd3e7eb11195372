// Tool names as each provider accepts them: a character set and at most 64 characters. A name
// that already fits is kept; any other becomes its allowed characters, cut to leave room for "_"
// and a stable 8-character hash of the whole original name (so two names that clean up the same
// stay apart, and the same tool gets the same name on every listing). The map back is kept by
// the caller (toolName()), not decoded from the name.

/** The name rule of each provider (`ai-sdk`: one that every provider below accepts). */
export const NAME_RULES = {
  "openai-chat": { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/ },
  "openai-responses": { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/ },
  anthropic: { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/ },
  gemini: { allowed: /[a-zA-Z0-9_.:-]/, first: /[a-zA-Z_]/ },
  "ai-sdk": { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z_]/ },
};
/** The longest name any of them accepts. */
export const MAX_NAME = 64;

/** FNV-1a (32 bits) of `text`'s UTF-16 units, as 8 hex digits: stable across runs and hosts. */
export function shortHash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** Whether `name` fits `rule` as it is. */
function fits(name, rule) {
  if (name.length === 0 || name.length > MAX_NAME || !rule.first.test(name[0])) return false;
  for (const c of name) if (!rule.allowed.test(c)) return false;
  return true;
}

/** The name `provider` is given for the tool named `name` (the group's name for a ClientGroup). */
export function modelName(name, provider) {
  const rule = NAME_RULES[provider];
  if (fits(name, rule)) return name;
  let clean = "";
  for (const c of name) clean += rule.allowed.test(c) ? c : "_";
  if (!rule.first.test(clean[0] ?? "")) clean = `_${clean}`;
  return `${clean.slice(0, MAX_NAME - 9)}_${shortHash(name)}`;
}

/**
 * The model names of `tools` for `provider`: a Map model name → tool, and the tools whose name
 * collided with another's (left out by the caller, reported as tool_schema).
 */
export function nameTools(tools, provider) {
  const byName = new Map();
  const collisions = [];
  for (const tool of tools) {
    const name = modelName(tool.name, provider);
    if (byName.has(name)) collisions.push({ tool, name, other: byName.get(name).name });
    else byName.set(name, tool);
  }
  return { byName, collisions };
}
