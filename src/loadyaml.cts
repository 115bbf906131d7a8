// Loads the `yaml` package on first need. CommonJS on purpose: here `require` is synchronous and
// resolves from this file in both the ESM and the CommonJS build, where `import.meta` cannot be used.
import type * as YAML from "yaml";

let yamlModule: typeof YAML | undefined;

/** The `yaml` package, required on the first call: most manifests never need it. */
function loadYaml(): typeof YAML {
  yamlModule ??= require("yaml") as typeof YAML;
  return yamlModule;
}

export = loadYaml;
