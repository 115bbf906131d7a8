// Loads `zod` on first need, as loadyaml.cts does `yaml`: importing it costs about 60 ms at start-up,
// and the direct check in schema.ts settles almost every real manifest without it.
import type * as Zod from "zod";

let zodModule: typeof Zod | undefined;

/** The `zod` package, required on the first call. */
function loadZod(): typeof Zod {
  zodModule ??= require("zod") as typeof Zod;
  return zodModule;
}

export = loadZod;
