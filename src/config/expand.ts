// `${VAR}` in the config file's values, expanded from the environment wherever a value is read (servers, their
// auth, the API's clients), so an unset variable is refused naming the key that refers to it.
import { ConfigError } from './error.js';

type Env = Record<string, string | undefined>;

/** Expands `${VAR}` and `${VAR:-fallback}` from the environment; `$${` escapes a literal `${`. */
export function expand(key: string, value: string, env: Env): string {
  return value.replace(
    /\$(\$)?\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (whole, escaped, name: string, fallback?: string) => {
      if (escaped) return whole.slice(1);
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      throw new ConfigError(
        key,
        `refers to \${${name}}, which is not set`,
        `Set ${name} in the environment, or write \${${name}:-default}.`,
      );
    },
  );
}
