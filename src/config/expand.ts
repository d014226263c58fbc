// `${VAR}` in the config file's values, expanded from the environment wherever a value is read (servers, their
// auth, the API's clients), so an unset variable is refused naming the key that refers to it. VS Code's
// `${env:VAR}` reads the same; any other `${…}` (VS Code's `${input:…}`, a shell's `${VAR-x}`, a typo) is refused
// too, since sent on as literal text it would reach a server as a token or an argument nobody meant.
import { ConfigError } from './error.js';

type Env = Record<string, string | undefined>;

/** `$${` (a literal `${`), or `${…}` up to its `}`, or an unclosed `${`. */
const REFERENCE = /\$\$\{|\$\{([^}]*)(\})?/g;
/** `NAME`, `env:NAME`, each with an optional `:-fallback`. */
const VARIABLE = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/** Expands `${VAR}`, `${env:VAR}` and `${VAR:-fallback}` from the environment; `$${` escapes a literal `${`. */
export function expand(key: string, value: string, env: Env): string {
  return value.replace(REFERENCE, (whole, inner: string | undefined, closed: string | undefined) => {
    if (inner === undefined) return '${';
    const variable = closed === undefined ? null : VARIABLE.exec(inner);
    if (!variable?.[1]) throw unreadable(key, whole, inner);
    const name = variable[1];
    const found = env[name];
    if (found !== undefined && found !== '') return found;
    if (variable[2] !== undefined) return variable[2];
    throw new ConfigError(
      key,
      `refers to \${${name}}, which is not set`,
      `Set ${name} in the environment, or write \${${name}:-default}.`,
    );
  });
}

function unreadable(key: string, whole: string, inner: string): ConfigError {
  if (inner.startsWith('input:')) {
    return new ConfigError(
      key,
      `refers to ${whole}, an input only an editor can prompt for`,
      `Write \${NAME} instead and set NAME in the bot's environment (drop the \`inputs\` list).`,
    );
  }
  return new ConfigError(
    key,
    `has ${JSON.stringify(whole)}, which is not \${VAR} or \${VAR:-default}`,
    'Write ${NAME} (letters, digits, "_"), or $${ for a literal "${".',
  );
}
