// The servers with `auth.mode: enterpriseManaged` and one person's session to one of them: the access token
// (sealed in the vault per person and server) comes from exchanging the person's ID token from the company
// IdP (enterprise.ts); the ID token from their one IdP sign-in (idp.ts). A person with no IdP sign-in, or
// whose ID token the IdP no longer exchanges, gets the Connect message naming the IdP, and the call waits
// (bounded) until they signed in on any replica; an API call fails not_connected, saying how to connect. An IdP
// that cannot be reached just now fails the call (idp_unavailable) and keeps the sign-in.
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { EnterpriseProvider } from './enterprise.js';
import { scopesOf } from './grants.js';
import { idpUnavailable, IdpSignIn, type IdpSignInDeps, type SignInIdp } from './idp.js';
import type { SessionAuth } from './sign-in.js';
import { SignInError, type Person, type SignInPrompter, type SignInReason } from './types.js';
import { boundedWait, notConnected } from './waiting.js';
import type { SignInWaiter, SignInWakes } from './wakes.js';

/** An enterpriseManaged server from the config. */
export interface EnterpriseServer {
  name: string;
  /** The MCP endpoint (the protected resource). */
  url: string;
  /** The bot's client at the server's authorization server. */
  clientId: string;
  clientSecret?: string;
  /** The authorization server's issuer the client is registered with (enterprise.ts). */
  issuer?: string;
  scopes?: string[];
  idp: SignInIdp;
}

/** The enterpriseManaged servers and one IdpSignIn per IdP issuer, shared by every server it covers. */
export class EnterpriseSignIns {
  private readonly servers: Map<string, EnterpriseServer>;
  private readonly idps = new Map<string, IdpSignIn>();

  constructor(servers: readonly EnterpriseServer[], deps: IdpSignInDeps) {
    this.servers = new Map(servers.map((server) => [server.name, server]));
    for (const { idp } of servers)
      if (!this.idps.has(idp.issuer)) this.idps.set(idp.issuer, new IdpSignIn(idp, deps));
  }

  has(server: string): boolean {
    return this.servers.has(server);
  }

  names(): string[] {
    return [...this.servers.keys()];
  }

  server(name: string): EnterpriseServer {
    const server = this.servers.get(name);
    if (server === undefined)
      throw new SignInError('not_oauth_server', name, `${name} is not an enterprise-managed server`);
    return server;
  }

  /** The IdP sign-in of `server`. */
  idpOf(server: string): IdpSignIn {
    return this.byIssuer(this.server(server).idp.issuer);
  }

  byIssuer(issuer: string): IdpSignIn {
    const idp = this.idps.get(issuer);
    if (idp === undefined)
      throw new SignInError('state_invalid', '', 'this sign-in link names an IdP this bot does not use');
    return idp;
  }
}

export interface EnterpriseSessionDeps {
  signIns: EnterpriseSignIns;
  vault: IdpSignInDeps['vault'];
  wakes: Pick<SignInWakes, 'wait'>;
  prompter?: SignInPrompter;
  /** How long a call waits for a sign-in, ms; default DEFAULT_SIGN_IN_WAIT_MS. */
  waitMs?: number;
}

export class EnterpriseSession implements SessionAuth {
  readonly provider: EnterpriseProvider;
  private readonly idp: IdpSignIn;
  private pending: SignInWaiter | SignInError | undefined;

  constructor(
    private readonly deps: EnterpriseSessionDeps,
    private readonly server: string,
    private readonly person: Person,
    private readonly mayPrompt: boolean,
  ) {
    const spec = deps.signIns.server(server);
    this.idp = deps.signIns.idpOf(server);
    this.provider = new EnterpriseProvider(
      {
        clientId: spec.clientId,
        ...(spec.clientSecret === undefined ? {} : { clientSecret: spec.clientSecret }),
        ...(spec.scopes === undefined ? {} : { scopes: spec.scopes }),
        ...(spec.issuer === undefined ? {} : { issuer: spec.issuer }),
        idp: spec.idp,
        idToken: () => this.idToken(),
        onExchangeRefused: () => this.exchangeRefused(),
        onExchangeFailed: (cause) => this.fail(idpUnavailable(server, cause)),
      },
      deps.vault.storage(server, person),
    );
  }

  async signedIn(signal?: AbortSignal): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    if (pending instanceof SignInError) throw pending;
    if (pending === undefined)
      throw new SignInError('token_exchange_failed', this.server, `${this.server} refused the ID-JAG`);
    try {
      await boundedWait(pending.done, this.server, this.deps.waitMs, signal);
    } finally {
      pending.cancel();
    }
  }

  /** The person's ID token; none: they are asked to sign in to the IdP and the SDK's auth() fails 401. */
  private async idToken(): Promise<string> {
    const state = await this.idp.idToken(this.server, this.person);
    if ('idToken' in state) return state.idToken;
    if ('unavailable' in state) {
      this.fail(state.unavailable);
      // The hub answers an UnauthorizedError by asking signedIn(), which throws the error just kept.
      throw new UnauthorizedError(state.unavailable.message);
    }
    await this.ask(state.missing);
    throw new UnauthorizedError(`${this.server} needs a sign-in to the company IdP`);
  }

  /** The IdP could not be reached: the person's sign-in stays, the call fails with `error`, to be made again. */
  private fail(error: SignInError): void {
    if (this.pending !== undefined && !(this.pending instanceof SignInError)) this.pending.cancel();
    this.pending = error;
  }

  /** The IdP no longer exchanges the ID token (revoked, or the person left): drop it and ask again. */
  private async exchangeRefused(): Promise<void> {
    await this.idp.forget(this.person);
    await this.ask('revoked');
  }

  private async ask(reason: SignInReason): Promise<void> {
    if (this.pending !== undefined && !(this.pending instanceof SignInError)) this.pending.cancel();
    const { prompter } = this.deps;
    if (!this.mayPrompt || prompter === undefined) {
      this.pending = notConnected(this.server);
      return;
    }
    const authorizationUrl = await this.idp.begin(this.server, this.person);
    this.pending = this.deps.wakes.wait(this.idp.name, this.person);
    await prompter.prompt({
      server: this.server,
      person: this.person,
      authorizationUrl,
      scopes: scopesOf(authorizationUrl),
      reason,
      idp: this.idp.idp.issuer,
    });
  }
}
