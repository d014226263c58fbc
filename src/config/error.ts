// A wrong setting: names the key at fault and says how to fix it.
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly code = 'invalid_config';
  constructor(
    /** The environment variable or config-file path at fault, e.g. `mcpServers.github.url`. */
    readonly key: string,
    problem: string,
    fix: string,
    options?: { cause?: unknown },
  ) {
    super(`${key}: ${problem}. ${fix}`, options);
  }
}
