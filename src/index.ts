// The package's public surface, re-exported by name.
export { resolveAgainst, resolveConfig } from "./config.js";
export { SkillError, type SkillErrorCode, StartupError } from "./errors.js";
export type { FindingSeverity, RuleCount, ValidationFinding, ValidationReport } from "./findings.js";
export { agentsSkillRoots, clarvisSkillRoots, claudeSkillRoots, type PresetOptions } from "./preset.js";
export { createAgentSkills, createAgentSkillsAsync } from "./registry.js";
export {
  type CatalogFormat,
  type RenderCatalogOptions,
  type RenderedCatalog,
  renderCatalog,
} from "./render.js";
export { type SkillFrontmatter, skillFrontmatterSchema } from "./schema.js";
export { type EmbeddingSearchOptions, type LexicalSearchOptions, searchSkills } from "./search.js";
export { VALIDATION_TARGETS, type ValidationTarget } from "./targets.js";
export type {
  AgentSkills,
  AgentSkillsOptions,
  CandidateVerdict,
  EmbedFunction,
  RefreshResult,
  SearchOptions,
  SkillCandidate,
  SkillConfig,
  SkillContent,
  SkillInfo,
  SkillMatch,
  SkillRoot,
  SkillRootInput,
  SkillScope,
  SkillWarning,
  SkillWatcher,
  WarningCode,
  WarnSink,
  WatchOptions,
} from "./types.js";
export { type ValidateOptions, validateSkills } from "./validate.js";
export { setWarnSink } from "./warnings.js";
