// Connections (types.ts) over the vault: what `/mcp connect|disconnect`, the App Home and the callback route
// do with a person's sign-ins. begin() runs the SDK's auth flow up to the authorization URL (discovery,
// registration, PKCE, `resource`, a `state` bound to the person, workspace and server); start() answers the
// Connect link's start page (whose link it is, where it leads; the state left in place); complete() consumes
// the `state` once, exchanges the code through the SDK, seals the tokens into the vault and announces the
// sign-in to every replica, where the person's waiting calls go on (a sign-in refused at the authorization
// server's page, or whose code could not be exchanged, is announced too: those calls end at once).
// disconnect() also revokes the grant at the authorization server when it offers revocation (RFC 7009).
import { auth } from '@modelcontextprotocol/client';
import { scopesOf, type PersonGrants } from './grants.js';
import type { McpLogger } from '../types.js';
import { revokeGrant } from './revoke.js';
import { exchangeCode } from './sign-in.js';
import type { StateBinding, TokenVault } from './vault.js';
import type { EnterpriseSignIns } from './enterprise-session.js';
import type { SignInWakes } from './wakes.js';
import {
  SignInError,
  type CallbackParams,
  type Connection,
  type Connections,
  type Person,
  type SignInNeeded,
  type SignInStart,
} from './types.js';

export interface VaultConnectionsDeps {
  grants: PersonGrants;
  vault: TokenVault;
  wakes: Pick<SignInWakes, 'announce'>;
  now: () => number;
  /** Where a failed revocation at the authorization server is told (never with a token). */
  logger?: McpLogger;
  /** The `enterpriseManaged` servers: connecting to one is the person's sign-in to its company IdP. */
  enterprise?: EnterpriseSignIns;
}

export class VaultConnections implements Connections {
  constructor(private readonly deps: VaultConnectionsDeps) {}

  async begin(server: string, requester: Person): Promise<SignInNeeded> {
    const person = this.deps.grants.personOf(requester);
    const enterprise = this.deps.enterprise;
    if (enterprise?.has(server) === true) {
      const idp = enterprise.idpOf(server);
      const authorizationUrl = await idp.begin(server, person);
      const scopes = scopesOf(authorizationUrl);
      return { server, person, authorizationUrl, scopes, reason: 'first', idp: idp.idp.issuer };
    }
    const spec = this.deps.grants.server(server);
    let authorizationUrl: URL | undefined;
    const provider = this.deps.grants.provider(server, person, {
      fresh: true,
      onRedirect: (url) => Promise.resolve(void (authorizationUrl = url)),
    });
    try {
      await auth(provider, { serverUrl: spec.url });
    } catch (cause) {
      throw new SignInError('discovery_failed', server, `could not start signing in to ${server}`, { cause });
    }
    if (authorizationUrl === undefined)
      throw new SignInError('discovery_failed', server, `${server} gave no authorization page`);
    return { server, person, authorizationUrl, scopes: scopesOf(authorizationUrl), reason: 'first' };
  }

  async start(state: string): Promise<SignInStart> {
    const { authorizationUrl, server, person } = await this.deps.vault.peekState(state);
    // A state issued before start pages existed has no URL: it is refused, and the person connects again.
    if (authorizationUrl === undefined)
      throw new SignInError('state_invalid', server, 'this sign-in link has no authorization page');
    return { server, person, authorizationUrl: new URL(authorizationUrl) };
  }

  async complete(params: CallbackParams): Promise<{ server: string; person: Person }> {
    const binding = await this.deps.vault.consumeState(params.state);
    const { server, person } = binding;
    // What the person's calls wait on: this server's sign-in, or (enterprise-managed) the one to the IdP.
    const waitedAs = binding.idp === undefined ? server : this.enterprise().byIssuer(binding.idp).name;
    if (params.error !== undefined) {
      // The calls waiting for this sign-in (on any replica) end now rather than when their wait runs out.
      await this.deps.wakes.announce(waitedAs, person, 'denied');
      throw new SignInError('denied', server, `the sign-in to ${server} was refused (${params.error})`, {
        person,
      });
    }
    try {
      if (binding.idp !== undefined) await this.completeIdp(binding, params);
      else await this.exchange(binding, params);
    } catch (error) {
      // The state is consumed, so no later callback of this link wakes the calls waiting for it: they end now
      // too. A lost announcement leaves them to their bounded wait; the page still says why the sign-in failed.
      await this.deps.wakes.announce(waitedAs, person, 'failed').catch(() => undefined);
      throw spentBy(error, person);
    }
    await this.deps.vault.completedState(params.state);
    await this.deps.wakes.announce(waitedAs, person);
    return { server, person };
  }

  /** The callback of a sign-in to `server`'s own authorization server: the code exchanged, the tokens sealed. */
  private async exchange(binding: StateBinding, params: CallbackParams): Promise<void> {
    const { server, person, codeVerifier, client } = binding;
    const spec = this.deps.grants.server(server);
    if (params.code === undefined)
      throw new SignInError('token_exchange_failed', server, `the callback for ${server} has no code`);
    const provider = this.deps.grants.provider(server, person, {
      onRedirect: () => Promise.resolve(),
      ...(codeVerifier === undefined ? {} : { codeVerifier }),
      callback: client === undefined ? {} : { client },
    });
    try {
      await exchangeCode(provider, spec.url, params.code, params.iss);
    } catch (cause) {
      if (provider.clientLost)
        throw new SignInError(
          'client_forgotten',
          server,
          `${server}'s authorization server no longer knows the bot's registration this sign-in link was made ` +
            `with; run /mcp connect ${server} for a new link`,
          { cause },
        );
      throw new SignInError('token_exchange_failed', server, `${server} refused the sign-in's code`, {
        cause,
      });
    }
    const connectedAt = this.deps.now();
    await this.deps.vault
      .storage(server, person)
      .update((stored) => (stored === undefined ? undefined : { ...stored, connectedAt }));
  }

  /** The callback of a sign-in to the company IdP: its tokens sealed, for every server that IdP manages. */
  private async completeIdp(binding: StateBinding, params: CallbackParams): Promise<void> {
    const { server, person, codeVerifier, idp: issuer = '' } = binding;
    const idp = this.enterprise().byIssuer(issuer);
    if (params.code === undefined || codeVerifier === undefined)
      throw new SignInError('token_exchange_failed', server, `the IdP's callback for ${server} has no code`);
    await idp.complete(server, person, params.code, codeVerifier, params.iss);
  }

  private enterprise(): EnterpriseSignIns {
    const { enterprise } = this.deps;
    if (enterprise === undefined)
      throw new SignInError('state_invalid', '', 'this sign-in link names an IdP this bot does not use');
    return enterprise;
  }

  async list(requester: Person): Promise<Connection[]> {
    const { grants } = this.deps;
    const person = grants.personOf(requester);
    const records = await Promise.all(
      grants.names().map(async (server) => ({ server, record: await grants.record(server, person) })),
    );
    const enterprise = await this.enterpriseConnections(person);
    return enterprise.concat(
      records.flatMap(({ server, record }) => {
        const { tokens, tokensAt, connectedAt } = record;
        if (tokens === undefined) return [];
        const expiresIn = tokens.expires_in;
        const connection: Connection = {
          server,
          scopes: (tokens.scope ?? '').split(' ').filter(Boolean),
          connectedAt: new Date(connectedAt ?? tokensAt ?? 0),
          // expires_in is in seconds from when the tokens were issued.
          ...(expiresIn === undefined || tokensAt === undefined
            ? {}
            : { expiresAt: new Date(tokensAt + expiresIn * 1000) }),
        };
        return [connection];
      }),
    );
  }

  /** An enterprise-managed server is connected while the person holds an IdP sign-in; scopes of its token. */
  private async enterpriseConnections(person: Person): Promise<Connection[]> {
    const { enterprise, vault } = this.deps;
    if (enterprise === undefined) return [];
    const rows = await Promise.all(
      enterprise.names().map(async (server): Promise<Connection[]> => {
        const connectedAt = await enterprise.idpOf(server).connectedAt(person);
        if (connectedAt === undefined) return [];
        const { tokens, tokensAt } = await vault.storage(server, person).load();
        const expiresIn = tokens?.expires_in;
        return [
          {
            server,
            scopes: (tokens?.scope ?? '').split(' ').filter(Boolean),
            connectedAt: new Date(connectedAt),
            // expires_in is in seconds from when the access token was issued.
            ...(expiresIn === undefined || tokensAt === undefined
              ? {}
              : { expiresAt: new Date(tokensAt + expiresIn * 1000) }),
          },
        ];
      }),
    );
    return rows.flat();
  }

  /** Deletes the grant here first, then revokes it at the authorization server (revoke.ts). */
  async disconnect(server: string, requester: Person): Promise<boolean> {
    const { grants, vault, logger, enterprise } = this.deps;
    if (enterprise?.has(server) === true) {
      // The IdP sign-in is what connects the person: dropping it disconnects every server of that IdP, so
      // their access tokens go too. The sign-in first: an exchange that read it before has made its grant's
      // record by then (enterprise.ts), which goes next, so that exchange's token is not saved.
      const person = grants.personOf(requester);
      const idp = enterprise.idpOf(server);
      const covered = enterprise.names().filter((name) => enterprise.idpOf(name) === idp);
      const forgot = await idp.forget(person);
      const removed = await Promise.all(covered.map((name) => vault.remove(name, person)));
      return forgot || removed.some(Boolean);
    }
    grants.server(server);
    const person = grants.personOf(requester);
    const record = await grants.record(server, person);
    const removed = await vault.remove(server, person);
    if (record.tokens !== undefined) await revokeGrant(server, record, logger);
    return removed;
  }
}

/** A sign-in error of a consumed link, naming whose link it spent (SignInError.person); other errors as they are. */
function spentBy(error: unknown, person: Person): unknown {
  if (!(error instanceof SignInError)) return error;
  return new SignInError(error.code, error.server, error.message, { cause: error.cause, person });
}
