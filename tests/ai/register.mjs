// `node --import tests/ai/register.mjs script.mjs`: the package names mapped as in the suites
// (hooks.mjs), for docs/ai.md's scripts run by docs.test.mjs.
import { mapPackages } from "./setup.mjs";

mapPackages("ai");
