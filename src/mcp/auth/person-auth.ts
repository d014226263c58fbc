// The hub's McpAuth for the bot: each person's sessions to a server with `auth.mode: oauth` use that person's
// tokens from the vault (nobody else's); a server with `clientCredentials` uses the deployment's grant. When
// the SDK finds no usable token it hands over the authorization URL: a person calling from Slack is sent a
// Connect message and their call waits (bounded) until the sign-in completes on any replica; an API call
// (no one to show a prompt to) fails with SignInError not_connected, which says how to connect.
import type { Origin } from '../../relay/types.js';
import { deploymentAuth, type DeploymentGrant } from './deployment.js';
import { EnterpriseSession, type EnterpriseSignIns } from './enterprise-session.js';
import { scopesOf, type PersonGrants } from './grants.js';
import type { SignInProvider } from './provider.js';
import type { McpAuth, SessionAuth } from './sign-in.js';
import type { TokenVault } from './vault.js';
import type { SignInWaiter, SignInWakes } from './wakes.js';
import { boundedWait, notConnected } from './waiting.js';
import { SignInError, type Person, type SignInPrompter, type SignInReason } from './types.js';

export { DEFAULT_SIGN_IN_WAIT_MS } from './waiting.js';

export interface PersonAuthDeps {
  grants: PersonGrants;
  wakes: Pick<SignInWakes, 'wait'>;
  /** The Slack side's Connect message; absent: nobody can be prompted (every call fails not_connected). */
  prompter?: SignInPrompter;
  /** The deployment's own grants (`auth.mode: clientCredentials`), by server. */
  deploymentGrants?: ReadonlyMap<string, DeploymentGrant>;
  /** How long a call waits for a sign-in, ms; default DEFAULT_SIGN_IN_WAIT_MS. */
  waitMs?: number;
  /** The `enterpriseManaged` servers (enterprise-session.ts) and the vault their access tokens are sealed in. */
  enterprise?: { signIns: EnterpriseSignIns; vault: TokenVault };
}

export class PersonAuth implements McpAuth {
  constructor(private readonly deps: PersonAuthDeps) {}

  personal(server: string): boolean {
    if (this.deps.enterprise?.signIns.has(server) === true) return true;
    return !this.deps.deploymentGrants?.has(server) && this.deps.grants.has(server);
  }

  forSession(server: string, origin: Origin | undefined): Promise<SessionAuth | undefined> {
    const grant = this.deps.deploymentGrants?.get(server);
    if (grant !== undefined) return Promise.resolve(deploymentAuth(server, grant));
    const enterprise = this.deps.enterprise;
    if (origin !== undefined && enterprise?.signIns.has(server) === true) {
      const person = this.deps.grants.personOf({ teamId: origin.teamId ?? '', userId: origin.userId });
      const deps = { ...this.deps, ...enterprise };
      return Promise.resolve(new EnterpriseSession(deps, server, person, origin.callId === undefined));
    }
    // The control link has no person, so no tokens: it only learns the server wants a sign-in.
    if (origin === undefined || !this.deps.grants.has(server)) return Promise.resolve(undefined);
    const person = this.deps.grants.personOf({ teamId: origin.teamId ?? '', userId: origin.userId });
    // An API call (callId) has no one to prompt in Slack while it runs.
    return Promise.resolve(new PersonSession(this.deps, server, person, origin.callId === undefined));
  }
}

/** One session's sign-in: the waiter is registered when the person is sent to sign in, before the prompt. */
class PersonSession implements SessionAuth {
  readonly provider: SignInProvider;
  private pending: SignInWaiter | SignInError | undefined;
  private tokensDropped = false;

  constructor(
    private readonly deps: PersonAuthDeps,
    private readonly server: string,
    private readonly person: Person,
    private readonly mayPrompt: boolean,
  ) {
    this.provider = deps.grants.provider(server, person, {
      onRedirect: (url) => this.redirected(url),
      onTokensDropped: () => void (this.tokensDropped = true),
    });
  }

  async signedIn(signal?: AbortSignal): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    if (pending instanceof SignInError) throw pending;
    if (pending === undefined)
      throw new SignInError('token_exchange_failed', this.server, `${this.server} refused the sign-in`);
    try {
      await boundedWait(pending.done, this.server, this.deps.waitMs, signal);
    } finally {
      pending.cancel();
    }
  }

  private async redirected(authorizationUrl: URL): Promise<void> {
    if (this.pending !== undefined && !(this.pending instanceof SignInError)) this.pending.cancel();
    const { prompter } = this.deps;
    if (!this.mayPrompt || prompter === undefined) {
      this.pending = notConnected(this.server);
      return;
    }
    const scopes = scopesOf(authorizationUrl);
    const reason = await this.reason(scopes);
    this.pending = this.deps.wakes.wait(this.server, this.person);
    await prompter.prompt({ server: this.server, person: this.person, authorizationUrl, scopes, reason });
  }

  /** Revoked: a refresh was just refused. Step-up: tokens held lack a scope now asked for. */
  private async reason(scopes: string[]): Promise<SignInReason> {
    if (this.tokensDropped) return 'revoked';
    const { tokens } = await this.deps.grants.record(this.server, this.person);
    if (tokens === undefined) return 'first';
    const held = (tokens.scope ?? '').split(' ');
    return scopes.some((scope) => !held.includes(scope)) ? 'step_up' : 'expired';
  }
}
