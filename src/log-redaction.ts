// The second line of redaction, run on each log line as pino has written it (after its serializers and its
// path redaction, logger.ts): pino's paths name fields at a fixed depth, so a secret one level further down
// (an error's `config.headers.Authorization`, a server's `env` inside a logged config) or inside text (an
// error's message or its cause's, which pino's error serializer folds into `message` and `stack`; a stdio
// server's stderr line; a URL with a password or a `?token=`) went out as it was. Here secrets are found by
// their shape anywhere in the line, and by their field's name at any depth.

export const CENSOR = '[redacted]';

/** Replaces what a pattern matched, keeping the part that says what kind of secret it was. */
type Scrub = [pattern: RegExp, replace: (match: string, ...groups: string[]) => string];

/** A credential after an auth scheme: a digit in it, or 20 characters, tells it from a word ("Basic Information"). */
const looksLikeCredential = (text: string): boolean => /\d/.test(text) || text.length >= 20;

/**
 * Secrets by shape. Character classes stop at `"` and `\`, so a replacement never eats a JSON string's end or
 * half of an escape: the line stays valid JSON.
 */
const SHAPES: readonly Scrub[] = [
  // Slack: bot xoxb-, user xoxp-, legacy xoxa-/xoxo-/xoxs-, refresh xoxe-, rotating xoxe.xoxb-, app-level xapp-.
  [/\b((?:xox[a-z](?:\.xox[a-z])?|xapp)-)[A-Za-z0-9-]+/g, (_m, kind = '') => `${kind}${CENSOR}`],
  // GitHub tokens, the usual `env` of an MCP server (classic ghp_/gho_/ghu_/ghs_/ghr_ and fine-grained).
  [/\b(gh[opusr]_|github_pat_)[A-Za-z0-9_]+/g, (_m, kind = '') => `${kind}${CENSOR}`],
  // An Authorization header's value written out as text: `Bearer …`, `Basic …`, `DPoP …`.
  [
    /\b(Bearer|Basic|DPoP)(\s+)([A-Za-z0-9._~+/-]+=*)/gi,
    (match, scheme = '', space = '', credential = '') =>
      looksLikeCredential(credential) ? `${scheme}${space}${CENSOR}` : match,
  ],
  // A URL's password: redis://bot:pw@host, https://user:pass@host, redis://:pw@host.
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@"\\]*:)[^\s/@"\\]+@/gi, (_m, head = '') => `${head}${CENSOR}@`],
  // A query or form parameter that carries a secret: ?token=, &access_token=, ?key=, ?api_key=, &code= (OAuth),
  // X-Amz-Signature=, ?ticket= (Socket Mode's WebSocket URL).
  [
    /([?&](?:[a-z0-9_.-]*?(?:token|secret|password|passwd|key|signature|sig|credential|code|ticket|auth))=)[^&#\s"\\]+/gi,
    (_m, head = '') => `${head}${CENSOR}`,
  ],
];

/**
 * Field names whose value is a secret wherever they appear: tokens of any kind (botToken, refresh_token,
 * x-auth-token), secrets (clientSecret, signingSecret), passwords, Authorization and Cookie headers, API and
 * private keys, credentials, and an MCP server's `env` (its values are the secrets the config file keeps out
 * of itself).
 */
const SECRET_FIELD =
  /(?:token|secret|password|passwd|passphrase|authorization|cookie|api[-_]?key|private[-_]?key|credentials?)$|^env$/i;
/** A cheap look at the line's text for such a field, before it is parsed. */
const SECRET_FIELD_IN_JSON =
  /"[^"\\]*(?:token|secret|password|passwd|passphrase|authorization|cookie|api[-_]?key|private[-_]?key|credentials?|env)"\s*:/i;
/** Nesting past this is censored whole rather than walked (pino's own lines are far shallower). */
const MAX_DEPTH = 32;

/** A cheap look for anything SHAPES could match, so that most lines (ids, methods, sizes) skip them. */
const SHAPE_HINT = /xox|xapp-|gh[opusr]_|github_pat_|bearer|basic|dpop|:\/\/|[?&][^=\s"]*=/i;

/** `line` (one JSON log line as pino wrote it, with its newline) with every secret found replaced by CENSOR. */
export function redactLine(line: string): string {
  let out = line;
  if (SHAPE_HINT.test(out)) for (const [pattern, replace] of SHAPES) out = out.replace(pattern, replace);
  if (!SECRET_FIELD_IN_JSON.test(out)) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(out);
  } catch {
    // Not one JSON object (pino always writes one): the shapes above are all that can be done.
    return out;
  }
  const walked = censorFields(parsed, 0);
  return walked.changed ? `${JSON.stringify(walked.value)}\n` : out;
}

function censorFields(value: unknown, depth: number): { value: unknown; changed: boolean } {
  if (typeof value !== 'object' || value === null) return { value, changed: false };
  if (depth >= MAX_DEPTH) return { value: CENSOR, changed: true };
  if (Array.isArray(value)) {
    const items = value.map((item) => censorFields(item, depth + 1));
    return { value: items.map((i) => i.value), changed: items.some((i) => i.changed) };
  }
  let changed = false;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (SECRET_FIELD.test(key) && isSecretValue(field)) {
      copy[key] = CENSOR;
      changed = true;
      continue;
    }
    const inner = censorFields(field, depth + 1);
    copy[key] = inner.value;
    changed ||= inner.changed;
  }
  return { value: copy, changed };
}

/** What a secret field may hold: text, a number, or an object of them; `true`, `null` and CENSOR tell nothing. */
function isSecretValue(field: unknown): boolean {
  return field !== null && typeof field !== 'boolean' && field !== CENSOR;
}
