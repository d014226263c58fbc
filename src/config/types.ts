// The configuration as the rest of the bot sees it: parsed once (load.ts), as unions whose variants carry
// exactly the values their mode needs, so nothing downstream checks a setting again.
import type { AuditConfig } from './audit.js';
import type { RedisConfig } from './redis.js';
import type { SlackPolicy } from './slack-policy.js';

/** How Slack's requests reach the bot: signed HTTP requests (Events API), or Socket Mode's WebSocket. */
export type SlackConnection = { mode: 'http'; signingSecret: string } | { mode: 'socket'; appToken: string };

/** Whose tokens the bot calls the Web API with: one workspace's bot token, or each workspace's OAuth install. */
export type SlackAuth =
  | { auth: 'token'; botToken: string; oauth?: never; signInWithSlack?: SignInWithSlackConfig }
  | { auth: 'oauth'; oauth: OAuthConfig; botToken?: never; signInWithSlack?: never };

/**
 * The app's client id and secret with a bot token (SLACK_CLIENT_ID and SLACK_CLIENT_SECRET, no SLACK_STATE_SECRET):
 * only for Sign in with Slack at a Connect link's start page. OAuth installs use OAuthConfig's.
 */
export interface SignInWithSlackConfig {
  clientId: string;
  clientSecret: string;
}

export interface OAuthConfig {
  clientId: string;
  clientSecret: string;
  /** Signs the OAuth `state` (CSRF protection of the install flow). */
  stateSecret: string;
}

interface SlackApi {
  /** Base URL of the Web API, always ending in "/". Default https://slack.com/api/ */
  apiUrl: string;
}

/** A bot connected to Slack (SLACK_BOT_TOKEN or the OAuth settings, with a signing secret or an app token). */
export type ConnectedSlack = SlackConnection & SlackAuth & SlackApi;

/** No Slack credentials, or ELICIT_RELAY_MODE=sandbox: the bot runs against the built-in stand-in. */
export interface SandboxSlack extends SlackApi {
  mode: 'sandbox';
  botToken?: never;
  oauth?: never;
}

export type SlackConfig = SandboxSlack | ConnectedSlack;

export type TransportConfig =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers: Record<string, string> };

export interface ServerConfig {
  name: string;
  transport: TransportConfig;
  /**
   * `startupTimeout`: how long the server has to answer MCP's handshake once started, in ms (1 s to 10 min).
   * Absent: the hub's default, 30 s.
   */
  startupTimeoutMs?: number;
  /** How long a person has to answer one elicitation from this server, in ms. Default 10 minutes. */
  elicitationTimeoutMs: number;
  /** form: ask people (default); decline: answer decline without asking; off: do not declare the capability. */
  elicitationMode: 'form' | 'decline' | 'off';
  /** Most new questions per minute from this server, across replicas. Default 60; absent (`null` in the file) = unlimited. */
  ratePerMinute?: number;
  /**
   * Most questions of this server waiting for an answer at once on each replica (the one holding the
   * server's session); beyond it a new elicitation gets -32600 before Slack is asked. Default 20; absent
   * (`null` in the file) = unlimited.
   */
  maxPending?: number;
  /**
   * `elicitation.unsolicited: { user: "U…" }`: the person asked when the server elicits with no tool call of
   * this bot in flight. Absent: such an elicitation is refused with -32600.
   */
  unsolicitedUser?: string;
  /**
   * `elicitation.maxRounds`: a 2026-07-28 server may ask for input again after each answer; after this many
   * retries of one call it fails. Absent: the hub's default, 10.
   */
  maxRounds?: number;
  /** Refuse (-32602) forms with fields that look like secrets, which the spec forbids in form mode; default warn. */
  refuseSecrets?: boolean;
  /** Where questions go in Slack, who answers, review, close and reminders; DEFAULT_SLACK_POLICY when absent. */
  slack?: SlackPolicy;
  /** `gateway: true`: its tools are offered at the bot's MCP endpoint as `<server>__<tool>`. */
  gateway?: true;
  /** `auth`: MCP authorization (server-auth.ts); absent for `mode: none`. */
  auth?: ServerAuthConfig;
}

/** One client of the Automations API. */
export interface ApiClientConfig {
  name: string;
  /** Its bearer token (from `${VAR}` in the file, or ELICIT_RELAY_API_TOKEN for `default`). */
  token: string;
  /** The MCP servers it may call tools on; every server when absent. */
  servers?: string[];
  /** The user, user-group and channel ids it may ask; anyone when absent. */
  targets?: string[];
  /** New questions per minute across replicas; unlimited when absent. */
  ratePerMinute?: number;
  /** The Slack user its gateway tool calls (POST /mcp) run for; ApiConfig.gatewayAs when absent. */
  as?: string;
  /** The workspace (Slack team id) of `as`; required for an `as` when the bot serves several workspaces. */
  asTeam?: string;
}

export interface ApiConfig {
  /** No clients: the API is off. */
  clients: ApiClientConfig[];
  /** ELICIT_RELAY_WEBHOOK_HOSTS: the hosts callbackUrl may name (host or host:port, lower case). */
  webhookHosts: string[];
  /** ELICIT_RELAY_WEBHOOK_SECRET: signs webhook deliveries. */
  webhookSecret?: string;
  /** `api.gateway.as`: the Slack user gateway tool calls run for (their elicitations go to them). */
  gatewayAs?: string;
  /** `api.gateway.as.team`: their workspace; required with gatewayAs when the bot serves several workspaces. */
  gatewayTeam?: string;
  /** ELICIT_RELAY_WEBHOOK_RETRY_BASE: wait after a delivery's first failed attempt, ms (default 10 s, doubling). */
  webhookRetryBaseMs?: number;
  /**
   * ELICIT_RELAY_REDELIVER_AFTER: age (ms) past which a pending API question, or a durable 2026 round's
   * question, without a card is posted and attached by any replica's sweep (default 60 s; the sweep runs every
   * half of it, with the API on or off).
   */
  redeliverAfterMs?: number;
}

/** How the bot signs in to a server that needs it (per person, or as the deployment for automations). */
export type ServerAuthConfig =
  | {
      mode: 'oauth';
      /** Pre-registered client; absent: a client ID metadata document or dynamic registration. */
      clientId?: string;
      clientSecret?: string;
      /** Asked when neither the server's WWW-Authenticate nor its metadata says. */
      scopes?: string[];
      /**
       * The authorization server's metadata URL (RFC 8414), used instead of finding the authorization server
       * from the protected resource metadata (for a server whose resource metadata is missing or wrong).
       */
      metadataUrl?: string;
      tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
    }
  | {
      mode: 'clientCredentials';
      clientId: string;
      /** client_secret_basic; or */
      clientSecret?: string;
      /** a PEM private key signing a JWT assertion (private_key_jwt) with `signingAlgorithm` (default ES256). */
      privateKeyFile?: string;
      signingAlgorithm?: string;
      scopes?: string[];
    }
  | {
      /** Workload identity federation (SEP-1933): the platform's JWT for the workload as a JWT-bearer grant. */
      mode: 'workloadIdentity';
      clientId: string;
      /** The JWT's file, read at each token request (platforms rotate it). */
      assertionFile: string;
      scopes?: string[];
    }
  | {
      /**
       * Enterprise-managed authorization (SEP-990): each person signs in once to the company IdP; their ID
       * token is exchanged for an ID-JAG at the IdP and that for an access token at the server's authorization
       * server (JWT-bearer grant), with no consent screen per server.
       */
      mode: 'enterpriseManaged';
      /** The client the server's authorization server knows the bot by. */
      clientId: string;
      /** client_secret_basic; absent: a public client (`none`). */
      clientSecret?: string;
      /** The authorization server's issuer the client is registered with: credentials go to no other. */
      issuer?: string;
      scopes?: string[];
      idp: IdpConfig;
    };

/** The company IdP of `enterpriseManaged` servers (OpenID Connect). */
export interface IdpConfig {
  /** Its issuer: the sign-in and token endpoints are read from its OpenID configuration. */
  issuer: string;
  /** Its token endpoint for the token exchange, when not the one its configuration names. */
  tokenEndpoint?: string;
  /** The bot's client at the IdP (sign-in and token exchange). */
  clientId: string;
  clientSecret?: string;
}

/** ELICIT_RELAY_TOKEN_KEY and, while rotating, _PREVIOUS: they seal sign-in tokens and Slack installations. */
export type TokenKeys = Pick<SignInConfig, 'tokenKey' | 'previousTokenKey'>;

/** The settings every sign-in needs; present once any server has `auth`. */
export interface SignInConfig {
  /** ELICIT_RELAY_TOKEN_KEY: 32 bytes (AES-256-GCM) that encrypt tokens in Redis. */
  tokenKey: Buffer;
  /** ELICIT_RELAY_TOKEN_KEY_PREVIOUS: still decrypts while a rotation is under way. */
  previousTokenKey?: Buffer;
  /**
   * ELICIT_RELAY_PUBLIC_URL without a trailing "/" (default http://localhost:<PORT>); present once a server signs
   * people in (`mode: oauth` or `enterpriseManaged`).
   */
  publicUrl?: string;
}

export interface AppConfig {
  slack: SlackConfig;
  /** The Redis topology, its credentials and TLS, REDIS_PREFIX and ELICIT_RELAY_RETENTION (see redis.ts). */
  redis: RedisConfig;
  /** HTTP port for Slack's requests and /healthz. Default 3000; 0 picks a free port. */
  port: number;
  /**
   * The address that port listens on; default every interface. No setting reads it: the sandbox sets
   * 127.0.0.1, as only its page's server (on the same machine) talks to its bot.
   */
  host?: string;
  configPath: string;
  servers: ServerConfig[];
  /** The `audit` section and AUDIT_DATABASE_URL; absent: the defaults (Redis Stream, 30 days, no content). */
  audit?: AuditConfig;
  /** The Automations API (src/api) and its webhooks. */
  api: ApiConfig;
  /** Token key and callback URL, once a server has `auth` (sign-in.ts). */
  signIn?: SignInConfig;
  /** ELICIT_RELAY_TOKEN_KEY (and _PREVIOUS) whenever set, `auth` or not: they seal Slack installations too. */
  tokenKeys?: TokenKeys;
  /** ELICIT_RELAY_SEAL_INSTALLATIONS=true: Slack installations are written sealed with `tokenKeys`. */
  sealInstallations?: boolean;
  /**
   * ELICIT_RELAY_SHUTDOWN_DELAY: how long a stop keeps serving with /readyz at 503 before anything else stops,
   * in ms (at most 10 s), so load balancers take the replica out first. Absent: no delay.
   */
  shutdownDelayMs?: number;
  /**
   * ELICIT_RELAY_REPLICA_LEASE: how long a replica's lease holds without renewal, in ms (3 s to 120 s), before
   * the others take over its questions, durable rounds and API calls. Absent: the default, 15 s.
   */
  replicaLeaseMs?: number;
}

/** The configuration of a bot connected to Slack (every mode but the sandbox). */
export type SlackAppConfig = AppConfig & { slack: ConnectedSlack };
