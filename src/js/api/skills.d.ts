// The skills extension's declarations (`client.skills`), appended to the glue's .d.ts as
// types.d.ts is (src/js/api/types.rs).
/** One file of a skill as its entry lists it. */
export interface SkillResourceEntry { uri: string; digest: string; size: number }
/** A skill entry (`skills/list`, `skills/get`): its SKILL.md URI, the frontmatter, its files or `"dynamic"`. */
export interface SkillEntry {
  uri: string;
  frontmatter: { name: string; description: string; [key: string]: JsonValue };
  resources: SkillResourceEntry[] | "dynamic";
  _meta?: JsonObject;
}
/** An entry `list()` refused: its index across every page, its uri, and why. */
export interface InvalidSkillEntry { index: number; uri?: string; reason: string }
export type SkillCacheScope = "public" | "private" | string;
export interface SkillsListOptions extends CallOptions {
  /** One page from this cursor (then `nextCursor` may come back); without it every page is walked. */
  cursor?: string;
  /** Return invalid entries in `invalid` instead of throwing. */
  skipInvalid?: boolean;
  /** Page cap of the walk (default 64). */
  maxPages?: number;
}
export interface SkillListing { skills: SkillEntry[]; invalid: InvalidSkillEntry[]; nextCursor?: string; ttlMs?: number; cacheScope?: SkillCacheScope }
/** A skill file read and checked against its entry. */
export interface SkillFile {
  uri: string;
  mimeType?: string;
  /** Exactly the bytes the entry's digest covers. */
  bytes: Uint8Array;
  text?: string;
  /** Size and digest were checked (`false` only for `"dynamic"` skills). */
  verified: boolean;
  /** The skill's own SKILL.md only: its frontmatter (equal to the entry's) and the markdown after it. */
  frontmatter?: JsonObject;
  body?: string;
}
/** Why a read failed verification: `McpError.data.reason` when `data.kind === "skill_verification"`. */
export type SkillVerificationReason = "unlisted" | "size" | "digest" | "frontmatter";
export interface DirectoryResource { uri: string; name: string; mimeType?: string; [key: string]: JsonValue | undefined }
/** `client.skills`: the skills extension, with the semantics of the TypeScript SDK 2.x SkillsClient. */
export class Skills {
  private constructor();
  /** The server declared the extension. */
  readonly supported: boolean;
  /** The server serves `resources/directory/read`. */
  readonly directoryRead: boolean;
  /** Every page (or one, from `cursor`); invalid entries throw unless `skipInvalid`; no extension: empty. */
  list(options?: SkillsListOptions): Promise<SkillListing>;
  /** One skill by its SKILL.md URI (listed or not). */
  get(uri: string, options?: CallOptions): Promise<{ skill: SkillEntry; ttlMs?: number; cacheScope?: SkillCacheScope }>;
  /** A file of `skill` (`ref` relative to its root; default its SKILL.md), verified against the entry. */
  read(skill: SkillEntry, ref?: string, options?: CallOptions): Promise<SkillFile>;
  /** A file URI that a skill this client listed or got lists. */
  read(fileUri: string, options?: CallOptions): Promise<SkillFile>;
  /** The direct children of a skill directory, every page (needs `directoryRead`). */
  readDirectory(uri: string, options?: SkillsListOptions): Promise<{ resources: DirectoryResource[]; ttlMs?: number; cacheScope?: SkillCacheScope }>;
  free(): void;
}
