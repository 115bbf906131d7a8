// A fast path for the common, simple frontmatter shapes; declines (undefined) whatever it is not sure of.

/**
 * Parse `text` when it is made only of the simple shapes this scanner knows, giving exactly what the
 * `yaml` package would; `undefined` means "not sure", and the caller falls back to `yaml`.
 */
export function fastParse(_text: string): Record<string, unknown> | undefined {
  return undefined;
}
