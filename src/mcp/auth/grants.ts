// Each person's OAuth client for each server with `auth.mode: oauth`: a SignInProvider over their sealed record
// in the vault, whose `state` is bound to the person, workspace and server. The record's storage also stamps
// when tokens arrive (for their expiry in the App Home) and notices tokens being dropped (a refresh refused
// as invalid_grant while they were still the refused ones: the grant was revoked), so the next sign-in can say
// why it is asked for. A refresh's answer that was not saved (the grant changed meanwhile) is revoked at the
// authorization server (revoke.ts), a failure logged.
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { McpLogger } from '../types.js';
import { configuredResource, fetchAuthorizationServerMetadata } from './as-metadata.js';
import {
  SignInProvider,
  type ConfiguredAuthorizationServer,
  type SignInRecord,
  type SignInStorage,
} from './provider.js';
import { revokeGrant } from './revoke.js';
import type { TokenVault } from './vault.js';
import { SignInError, type Person } from './types.js';

/** A server people sign in to, from its config (`auth.mode: oauth`). */
export interface PersonSignInServer {
  name: string;
  /** The MCP endpoint (the protected resource). */
  url: string;
  scopes?: string[];
  clientId?: string;
  clientSecret?: string;
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
  /** `auth.metadataUrl`: the authorization server's metadata (RFC 8414); skips finding it from the resource. */
  metadataUrl?: string;
}

export interface GrantsDeps {
  servers: readonly PersonSignInServer[];
  vault: TokenVault;
  /** `${ELICIT_RELAY_PUBLIC_URL}/oauth/mcp/callback`. */
  redirectUrl: string;
  /** The client_name the bot registers with (dynamic registration). */
  clientName: string;
  /**
   * The deployment serves one workspace: a person's grant is theirs whatever workspace id a request names
   * (slash commands carry one, API calls do not), so every person is taken with the workspace id ''.
   */
  oneWorkspace: boolean;
  now: () => number;
  /** Where a failed revocation of a refresh's unsaved tokens is logged (revoke.ts). */
  logger?: McpLogger;
}

export interface ProviderHooks {
  onRedirect: (url: URL) => Promise<void>;
  /** A refresh was refused and the SDK dropped the person's tokens. */
  onTokensDropped?: () => void;
  /** Hide the tokens held (a fresh sign-in, `/mcp connect`) without deleting them until new ones arrive. */
  fresh?: boolean;
  /** The callback leg: the PKCE verifier bound to the callback's `state`. */
  codeVerifier?: string;
  /** The callback leg: what its `state` is bound to besides the verifier (the link's shared client). */
  callback?: { client?: StoredOAuthClientInformation };
}

export class PersonGrants {
  private readonly servers: Map<string, PersonSignInServer>;
  /** `auth.metadataUrl` documents, fetched once per server (again after a failed fetch). */
  private readonly metadata = new Map<string, Promise<AuthorizationServerMetadata>>();

  constructor(private readonly deps: GrantsDeps) {
    this.servers = new Map(deps.servers.map((server) => [server.name, server]));
  }

  /** The server's settings; SignInError not_oauth_server when it does not sign people in. */
  server(name: string): PersonSignInServer {
    const server = this.servers.get(name);
    if (server === undefined)
      throw new SignInError('not_oauth_server', name, `${name} is not a server people sign in to`);
    return server;
  }

  has(name: string): boolean {
    return this.servers.has(name);
  }

  names(): string[] {
    return [...this.servers.keys()];
  }

  /** Whose grant a request's person uses (see `oneWorkspace`); every caller takes people through this. */
  personOf(person: Person): Person {
    return this.deps.oneWorkspace ? { teamId: '', userId: person.userId } : person;
  }

  /** The person's record, with the shared registered client it signed in with when it holds none itself. */
  async record(server: string, person: Person): Promise<SignInRecord> {
    const { vault } = this.deps;
    const record = await vault.storage(server, person).load();
    const issuer = record.tokens?.issuer;
    if (record.client !== undefined || issuer === undefined || this.server(server).clientId !== undefined)
      return record;
    const client = await vault.registrations(server).find(issuer);
    return client === undefined ? record : { ...record, client };
  }

  provider(server: string, person: Person, hooks: ProviderHooks): SignInProvider {
    const spec = this.server(server);
    const { vault } = this.deps;
    const stored = tracked(vault.storage(server, person), this.deps.now, hooks.onTokensDropped);
    return new SignInProvider({
      redirectUrl: this.deps.redirectUrl,
      clientName: this.deps.clientName,
      storage: hooks.fresh === true ? withoutTokens(stored) : stored,
      state: () => vault.issueState({ server, person }),
      bindRequest: (state, request) => vault.bindRequest(state, request),
      onRedirect: hooks.onRedirect,
      revokeUnsaved: (record) => revokeGrant(server, record, this.deps.logger),
      ...(hooks.codeVerifier === undefined ? {} : { codeVerifier: hooks.codeVerifier }),
      ...(hooks.callback === undefined ? {} : { callback: hooks.callback }),
      ...(spec.scopes === undefined ? {} : { scopes: spec.scopes }),
      ...(spec.tokenEndpointAuthMethod === undefined
        ? {}
        : { tokenEndpointAuthMethod: spec.tokenEndpointAuthMethod }),
      ...preRegistered(spec),
      ...(spec.clientId === undefined ? { registrations: vault.registrations(server) } : {}),
      ...this.configuredAuthorizationServer(spec),
    });
  }

  private configuredAuthorizationServer(spec: PersonSignInServer): {
    authorizationServer?: ConfiguredAuthorizationServer;
  } {
    const { metadataUrl, name } = spec;
    if (metadataUrl === undefined) return {};
    const metadata = (): Promise<AuthorizationServerMetadata> => {
      const cached = this.metadata.get(name);
      if (cached !== undefined) return cached;
      const fetched = fetchAuthorizationServerMetadata(name, metadataUrl);
      this.metadata.set(name, fetched);
      fetched.catch(() => this.metadata.delete(name));
      return fetched;
    };
    return {
      authorizationServer: { metadata, resource: (url, named) => configuredResource(name, url, named) },
    };
  }
}

function preRegistered(spec: PersonSignInServer): { preRegistered?: OAuthClientInformationMixed } {
  if (spec.clientId === undefined) return {};
  const secret = spec.clientSecret === undefined ? {} : { client_secret: spec.clientSecret };
  return { preRegistered: { client_id: spec.clientId, ...secret } };
}

/** Stamps `tokensAt` when new tokens are saved; calls `onDropped` when saved tokens disappear. */
function tracked(storage: SignInStorage, now: () => number, onDropped?: () => void): SignInStorage {
  const stamped = (previous: SignInRecord | undefined, next: SignInRecord): SignInRecord => {
    const fresh = next.tokens !== undefined && next.tokens.access_token !== previous?.tokens?.access_token;
    return fresh ? { ...next, tokensAt: now() } : next;
  };
  return {
    ...storage,
    save: async (next) => {
      const previous = await storage.load();
      if (previous.tokens !== undefined && next.tokens === undefined) onDropped?.();
      await storage.save(stamped(previous, next));
    },
    update: async (change) => {
      let dropped = false;
      const wrote = await storage.update((stored) => {
        const next = change(stored);
        dropped = stored?.tokens !== undefined && next !== undefined && next.tokens === undefined;
        return next === undefined ? undefined : stamped(stored, next);
      });
      if (wrote && dropped) onDropped?.();
      return wrote;
    },
  };
}

/** The record as if it held no tokens; the tokens it holds are kept on every save. */
function withoutTokens(storage: SignInStorage): SignInStorage {
  return {
    ...storage,
    load: async () => {
      const record = await storage.load();
      delete record.tokens;
      return record;
    },
    save: async (next) => {
      const { tokens, tokensAt } = await storage.load();
      await storage.save({ ...next, ...(tokens === undefined ? {} : { tokens, tokensAt }) });
    },
    update: (change) =>
      storage.update((stored) => {
        const { tokens, tokensAt, ...hidden } = stored ?? {};
        const next = change(stored === undefined ? undefined : hidden);
        if (next === undefined) return undefined;
        return { ...next, ...(tokens === undefined ? {} : { tokens, tokensAt }) };
      }),
  };
}

/** The scopes an authorization URL asks for. */
export function scopesOf(authorizationUrl: URL): string[] {
  return (authorizationUrl.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
}
