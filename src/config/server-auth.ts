// Per server `auth:` (MCP authorization, issue #20); the settings every sign-in needs are in sign-in.ts.
//   auth: { mode: none | oauth | clientCredentials | workloadIdentity | enterpriseManaged, clientId?,
//           clientSecret? (${VAR}), scopes?, metadataUrl?, tokenEndpointAuthMethod?, privateKeyFile?,
//           signingAlgorithm?, assertionFile?, issuer?, idp? { issuer, tokenEndpoint?, clientId, clientSecret? } }
import { ConfigError } from './error.js';
import { notTextProblem } from './text-settings.js';
import type { IdpConfig, ServerAuthConfig } from './types.js';
import { readHttpUrl } from './url.js';

type Expand = (key: string, value: string) => string;

const MODES = ['none', 'oauth', 'clientCredentials', 'workloadIdentity', 'enterpriseManaged'] as const;
const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
const KNOWN_KEYS = [
  'mode',
  'clientId',
  'clientSecret',
  'scopes',
  'metadataUrl',
  'tokenEndpointAuthMethod',
  'privateKeyFile',
  'signingAlgorithm',
  'assertionFile',
  'idp',
  'issuer',
];
const IDP_KEYS = ['issuer', 'tokenEndpoint', 'clientId', 'clientSecret'];

/** `auth` of one server; undefined for none. Only HTTP servers sign in (stdio servers get env instead). */
export function readServerAuth(
  key: string,
  value: unknown,
  transportKind: string,
  expand: Expand,
): ServerAuthConfig | undefined {
  if (value === undefined) return undefined;
  const at = `${key}.auth`;
  const entry = authMapping(at, value);
  const mode = readMode(at, entry.mode, transportKind);
  if (mode === undefined) return undefined;
  const text = (name: string): string | undefined => optionalText(`${at}.${name}`, entry[name], expand);
  const common = {
    ...optional('clientId', text('clientId')),
    ...optional('clientSecret', text('clientSecret')),
    ...optional('scopes', readScopes(`${at}.scopes`, entry.scopes)),
  };
  const enterpriseOnly = ['idp', 'issuer'].find((name) => entry[name] !== undefined);
  if (enterpriseOnly !== undefined && mode !== 'enterpriseManaged')
    throw new ConfigError(
      `${at}.${enterpriseOnly}`,
      `is set with mode ${mode}`,
      `${enterpriseOnly} is for mode enterpriseManaged.`,
    );
  if (mode === 'oauth') {
    return {
      mode,
      ...common,
      ...optional('metadataUrl', readMetadataUrl(`${at}.metadataUrl`, text('metadataUrl'))),
      ...optional(
        'tokenEndpointAuthMethod',
        readAuthMethod(`${at}.tokenEndpointAuthMethod`, entry.tokenEndpointAuthMethod),
      ),
    };
  }
  if (mode === 'workloadIdentity') return readWorkloadIdentity(at, common, text('assertionFile'));
  if (mode === 'enterpriseManaged')
    return readEnterpriseManaged(at, common, entry.idp, expand, text('issuer'));
  return readClientCredentials(at, common, text('privateKeyFile'), text('signingAlgorithm'));
}

/** `auth` as a mapping of known settings only. */
function authMapping(at: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError(at, 'is not a mapping', 'Write `auth: { mode: oauth }`.');
  return knownSettingsOnly(at, value as Record<string, unknown>, KNOWN_KEYS, 'auth');
}

/** `entry` itself, once every setting in it is one of `keys` (the settings of `what`, e.g. auth or idp). */
function knownSettingsOnly(
  at: string,
  entry: Record<string, unknown>,
  keys: readonly string[],
  what: string,
): Record<string, unknown> {
  const unknown = Object.keys(entry).find((name) => !keys.includes(name));
  if (unknown !== undefined)
    throw new ConfigError(
      `${at}.${unknown}`,
      `is not a setting of ${what}`,
      `Use one of ${keys.join(', ')}.`,
    );
  return entry;
}

/** `auth.mode` (default oauth); undefined for none. A stdio server has no sign-in mode. */
function readMode(
  at: string,
  value: unknown,
  transportKind: string,
): Exclude<(typeof MODES)[number], 'none'> | undefined {
  const mode = MODES.find((m) => m === (value ?? 'oauth'));
  if (mode === undefined)
    throw new ConfigError(
      `${at}.mode`,
      `${JSON.stringify(value)} is not a mode`,
      'Use none, oauth, clientCredentials, workloadIdentity or enterpriseManaged.',
    );
  if (mode === 'none') return undefined;
  if (transportKind === 'stdio')
    throw new ConfigError(
      at,
      'is set on a stdio server',
      'MCP authorization is for HTTP servers; give a stdio server its credentials in `env`.',
    );
  return mode;
}

function readWorkloadIdentity(
  at: string,
  common: { clientId?: string; clientSecret?: string; scopes?: string[] },
  assertionFile: string | undefined,
): ServerAuthConfig {
  if (common.clientId === undefined)
    throw new ConfigError(
      `${at}.clientId`,
      'is missing',
      'workloadIdentity needs the client id the authorization server knows the workload by.',
    );
  if (assertionFile === undefined)
    throw new ConfigError(
      `${at}.assertionFile`,
      'is missing',
      'Give the path of the JWT the platform issues to the workload (e.g. a projected service account token).',
    );
  if (common.clientSecret !== undefined)
    throw new ConfigError(
      `${at}.clientSecret`,
      'is set with workloadIdentity',
      'The workload JWT is the credential; remove clientSecret.',
    );
  return {
    mode: 'workloadIdentity',
    clientId: common.clientId,
    assertionFile,
    ...optional('scopes', common.scopes),
  };
}

function readEnterpriseManaged(
  at: string,
  common: { clientId?: string; clientSecret?: string; scopes?: string[] },
  idp: unknown,
  expand: Expand,
  issuer: string | undefined,
): ServerAuthConfig {
  if (common.clientId === undefined)
    throw new ConfigError(
      `${at}.clientId`,
      'is missing',
      "enterpriseManaged needs the client id the server's authorization server knows the bot by.",
    );
  return {
    mode: 'enterpriseManaged',
    ...common,
    clientId: common.clientId,
    ...optional('issuer', issuer),
    idp: readIdp(`${at}.idp`, idp, expand),
  };
}

/** `auth.idp`: the company IdP every person signs in to once (OpenID Connect, authorization code + PKCE). */
function readIdp(at: string, value: unknown, expand: Expand): IdpConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError(
      at,
      value === undefined ? 'is missing' : 'is not a mapping',
      'Write `idp: { issuer: https://idp.example.com, clientId: elicit-relay, clientSecret: ${IDP_SECRET} }`.',
    );
  const entry = knownSettingsOnly(at, value as Record<string, unknown>, IDP_KEYS, 'idp');
  const text = (name: string): string | undefined => optionalText(`${at}.${name}`, entry[name], expand);
  const url = (name: string): string | undefined => {
    const found = text(name);
    return found === undefined ? undefined : readHttpUrl(`${at}.${name}`, found, "Give the IdP's URL.");
  };
  const issuer = url('issuer');
  if (issuer === undefined)
    throw new ConfigError(
      `${at}.issuer`,
      'is missing',
      'People sign in to the IdP from Slack: give its issuer (its OpenID configuration names the endpoints).',
    );
  const clientId = text('clientId');
  if (clientId === undefined)
    throw new ConfigError(`${at}.clientId`, 'is missing', 'Give the client id the IdP knows the bot by.');
  return {
    issuer,
    clientId,
    ...optional('tokenEndpoint', url('tokenEndpoint')),
    ...optional('clientSecret', text('clientSecret')),
  };
}

function readClientCredentials(
  at: string,
  common: { clientId?: string; clientSecret?: string; scopes?: string[] },
  privateKeyFile: string | undefined,
  signingAlgorithm: string | undefined,
): ServerAuthConfig {
  if (common.clientId === undefined)
    throw new ConfigError(
      `${at}.clientId`,
      'is missing',
      'clientCredentials needs the client id the authorization server gave the bot.',
    );
  if ((common.clientSecret === undefined) === (privateKeyFile === undefined))
    throw new ConfigError(
      at,
      'needs exactly one of clientSecret and privateKeyFile',
      'Give `clientSecret: ${VAR}` (client_secret_basic) or `privateKeyFile:` (a PEM key signing a JWT assertion).',
    );
  return {
    mode: 'clientCredentials',
    clientId: common.clientId,
    ...optional('clientSecret', common.clientSecret),
    ...optional('scopes', common.scopes),
    ...optional('privateKeyFile', privateKeyFile),
    ...(privateKeyFile === undefined ? {} : { signingAlgorithm: signingAlgorithm ?? 'ES256' }),
  };
}

function optional<K extends string, V>(name: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [name]: value }) as { [P in K]?: V };
}

function optionalText(key: string, value: unknown, expand: Expand): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '')
    throw new ConfigError(key, notTextProblem(value), 'Quote the value; write secrets as ${VAR}.');
  return expand(key, value);
}

function readScopes(key: string, scopes: unknown): string[] | undefined {
  if (scopes === undefined) return undefined;
  const list = typeof scopes === 'string' ? scopes.split(' ').filter(Boolean) : scopes;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every((s) => typeof s === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))
  )
    throw new ConfigError(
      key,
      `${JSON.stringify(scopes)} is not a list of scopes`,
      'Write `scopes: [repo, read:user]` (RFC 6749 scope tokens).',
    );
  return list as string[];
}

function readMetadataUrl(key: string, url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  return readHttpUrl(
    key,
    url,
    'Give the authorization server metadata URL, e.g. https://host/.well-known/oauth-authorization-server.',
  );
}

function readAuthMethod(key: string, method: unknown): (typeof AUTH_METHODS)[number] | undefined {
  if (method === undefined) return undefined;
  const found = AUTH_METHODS.find((m) => m === method);
  if (found === undefined)
    throw new ConfigError(
      key,
      `${JSON.stringify(method)} is not supported`,
      `Use ${AUTH_METHODS.join(', ')}.`,
    );
  return found;
}
