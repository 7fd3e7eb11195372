// Which calls ask the user first: the `approval` option, from the tool's annotations or a function.
//   "never" (default)  no call asks
//   "destructive"      a call asks unless the tool says readOnlyHint: true or destructiveHint: false
//                      (the spec's defaults: readOnlyHint false, destructiveHint true)
//   "always"           every call asks
//   (tool, args) => boolean | Promise<boolean>   your rule

const POLICIES = ["never", "destructive", "always"];

/** Whether a call of `tool` may change things, by its annotations and the spec's defaults. */
export function mayDestroy(tool) {
  const a = tool?.annotations ?? {};
  return !(a.readOnlyHint === true || a.destructiveHint === false);
}

/**
 * The rule `(tool, args) => boolean | Promise<boolean>` for `approval`, or null for "never".
 * A value that is none of the above is a TypeError naming it.
 */
export function approvalRule(approval, fn) {
  if (approval === undefined || approval === "never") return null;
  if (approval === "always") return () => true;
  if (approval === "destructive") return (tool) => mayDestroy(tool);
  if (typeof approval === "function") return (tool, args) => approval(tool, args);
  throw new TypeError(`${fn}: options.approval must be one of ${POLICIES.map((p) => JSON.stringify(p)).join(", ")} or a function (tool, args) => boolean, got ${JSON.stringify(approval)}`);
}
