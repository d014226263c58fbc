// The bot's own settings whose value is text, beside the server fields written-text.ts names: a server's `auth`
// (its client id and secret, URLs, files, scopes) and an API client's `token` and the names it lists. YAML reads an
// unquoted `clientId: 12345` as a number and `token: 0123` as 123; their readers refused the number (a token as
// "missing"), and turned back into a string it would be text nobody wrote. So such a scalar keeps its source text
// here too (`0123` stays "0123"); a null is left to the setting's reader, which says what is missing. What still
// reaches a reader and is no text (a list, a mapping) is named as what it is (`notTextProblem`), never as missing.

type Path = readonly (string | number)[];

/** `mcpServers.<name>.auth.<setting>` holding text (server-auth.ts); `scopes` may also be a list of them. */
const AUTH_TEXT = new Set([
  'clientId',
  'clientSecret',
  'metadataUrl',
  'privateKeyFile',
  'signingAlgorithm',
  'assertionFile',
  'issuer',
  'scopes',
]);
/** `mcpServers.<name>.auth.idp.<setting>` holding text. */
const IDP_TEXT = new Set(['issuer', 'tokenEndpoint', 'clientId', 'clientSecret']);
/** `api.clients.<name>.<list>[i]`: names of servers and of whom it may ask (keys, kept as written, among them). */
const CLIENT_NAME_LISTS = new Set(['servers', 'targets']);

/** Whether the setting at `path` (as written-text.ts walks the file) wants text whatever YAML reads. */
export function settingWantsText(path: Path): boolean {
  const [section, group] = path;
  if (section === 'api') return group === 'clients' && clientWantsText(path.slice(3));
  if (section !== 'mcpServers' && section !== 'servers') return false;
  const [, , field, ...rest] = path;
  return field === 'auth' && authWantsText(rest);
}

/** `rest`: the path inside `api.clients.<name>`. */
function clientWantsText(rest: Path): boolean {
  const [setting, index] = rest;
  if (rest.length === 1) return setting === 'token';
  return (
    rest.length === 2 &&
    typeof setting === 'string' &&
    CLIENT_NAME_LISTS.has(setting) &&
    typeof index === 'number'
  );
}

/** `rest`: the path inside a server's `auth`. */
function authWantsText(rest: Path): boolean {
  const [setting, inner] = rest;
  if (typeof setting !== 'string') return false;
  if (rest.length === 1) return AUTH_TEXT.has(setting);
  if (rest.length !== 2) return false;
  if (setting === 'idp') return typeof inner === 'string' && IDP_TEXT.has(inner);
  return setting === 'scopes' && typeof inner === 'number';
}

/** Why `value`, read where text is wanted, is none: a ConfigError's problem ("is missing", "is a list, not text"). */
export function notTextProblem(value: unknown): string {
  if (value === undefined) return 'is missing';
  if (value === null) return 'has no value';
  if (value === '') return 'is empty';
  if (Array.isArray(value)) return 'is a list, not text';
  if (typeof value === 'object') return 'is a mapping, not text';
  return `is the ${typeof value} ${JSON.stringify(value)}, not text`;
}
