// How one server link opens its sessions (a person's, the control link's): the sign-in a server with `auth` asks
// for first (waited for and tried again, MAX_SIGN_INS), a place among the server's starts (starts.ts; sign-in
// waits take none), the transport, the era verdict (era.ts) and the handshake within its bound (handshake.ts).
// Each open has its own abort: all of them at once when the hub closes, so that no handshake runs on to its bound
// (up to the server's startupTimeout, default 30 s) holding a stdio child or an HTTP request while the bot stops,
// and close() waits until each has ended (the child killed, the request aborted); one by the run that alone waits
// for it, when that run is cancelled. The steps before the handshake (the sign-in's record, the transport's
// build) are not waited for once aborted. Each open gets a signal of its own, so none collects a listener per open.
import type { EraVerdict } from './era.js';
import { openAborted } from './handshake.js';
import type { LinkOptions } from './link.js';
import type { OutputChecks } from './output-check.js';
import { McpSession } from './session.js';
import { SessionStarts } from './starts.js';
import { primaryTransport, transportPlan, type TransportPlan } from './transport.js';
import { MAX_SIGN_INS, needsSignIn, type SessionAuth } from './auth/sign-in.js';
import { McpClientError, type ElicitationSink, type McpServerSpec } from './types.js';
import type { Origin } from '../relay/types.js';

/** What a link's opens are made with: its server, its options, its gated sink, its era verdict. */
export interface OpeningDeps {
  spec: McpServerSpec;
  link: Omit<LinkOptions, 'sink'>;
  sink: ElicitationSink;
  era: EraVerdict;
  /** The server's compiled outputSchemas, shared by its sessions. */
  outputs: OutputChecks;
  /** A session heard `notifications/tools/list_changed`. */
  onToolsChanged: () => void;
}

export class Openings {
  /** Each open under way: its abort, and its end (settled either way). */
  private readonly underWay = new Map<AbortController, Promise<void>>();
  private readonly starts: SessionStarts;
  private readonly server: string;
  private closed = false;

  constructor(private readonly deps: OpeningDeps) {
    this.server = deps.spec.name;
    this.starts = new SessionStarts(deps.link.maxSessionStarts);
  }

  /**
   * A new session for `person` (undefined: the control link). Aborted at once, with its reason, when `cancel`
   * (the signal of the one run waiting for it) aborts; with McpClientError 'closed' when the hub closes.
   */
  open(
    person: Origin | undefined,
    cancel: AbortSignal | undefined,
    onClosed: (dropped: boolean) => void,
  ): Promise<McpSession> {
    const abort = new AbortController();
    if (this.closed) abort.abort(this.closedError());
    const cancelled = (): void => abort.abort(cancel?.reason);
    if (cancel?.aborted === true) cancelled();
    else cancel?.addEventListener('abort', cancelled, { once: true });
    const opening = this.signingIn(person, abort.signal, onClosed);
    const ended = (): void => {
      this.underWay.delete(abort);
      cancel?.removeEventListener('abort', cancelled);
    };
    this.underWay.set(abort, opening.then(ended, ended));
    return opening;
  }

  /** Aborts every open under way and resolves once each has ended; later opens are aborted from the start. */
  async close(): Promise<void> {
    this.closed = true;
    const ends = [...this.underWay.values()];
    for (const abort of this.underWay.keys()) abort.abort(this.closedError());
    await Promise.all(ends);
  }

  /** Opens; when the server wants a sign-in first, waits for it and tries again (MAX_SIGN_INS). */
  private async signingIn(
    person: Origin | undefined,
    signal: AbortSignal,
    onClosed: (dropped: boolean) => void,
  ): Promise<McpSession> {
    const auth = this.deps.link.auth;
    const sessionAuth = await (auth &&
      unlessAborted(this.server, auth.forSession(this.server, person), signal));
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.starts.run(() => this.openOnce(person, { onClosed, signal }, sessionAuth));
      } catch (error) {
        if (sessionAuth === undefined || !needsSignIn(error) || attempt >= MAX_SIGN_INS) throw error;
        await sessionAuth.signedIn(signal);
      }
    }
  }

  private async openOnce(
    person: Origin | undefined,
    { onClosed, signal }: { onClosed: (dropped: boolean) => void; signal: AbortSignal },
    sessionAuth: SessionAuth | undefined,
  ): Promise<McpSession> {
    const { spec, link } = this.deps;
    const connect = link.connect;
    const plan: TransportPlan = connect
      ? { primary: () => connect(spec) }
      : transportPlan(spec, link.logger, sessionAuth?.provider, link.turn);
    const transport = await unlessAborted(
      this.server,
      primaryTransport(plan, this.server),
      signal,
      (late) => {
        late.close().catch(() => undefined);
      },
    );
    const session = {
      spec,
      person,
      transport,
      ...(plan.fallback === undefined ? {} : { fallback: plan.fallback }),
      sink: this.deps.sink,
      clientInfo: link.clientInfo,
      clock: link.clock,
      outputs: this.deps.outputs,
      onClosed,
      signal,
      onToolsChanged: this.deps.onToolsChanged,
      ...(link.logger === undefined ? {} : { logger: link.logger }),
      ...(sessionAuth === undefined ? {} : { auth: sessionAuth }),
      ...(plan.signIns === undefined ? {} : { signIns: plan.signIns }),
      ...(link.rounds === undefined ? {} : { rounds: link.rounds }),
    };
    return await this.deps.era.connect(
      (prior) => McpSession.open(prior === undefined ? session : { ...session, prior }),
      signal,
    );
  }

  private closedError(): McpClientError {
    return new McpClientError('closed', this.server, 'the MCP hub is closed');
  }
}

/**
 * What `step` (a step of an open before its handshake) gives, unless `signal` aborts first: then openAborted at
 * once, and what the step gives later goes to `dispose` (a transport built too late is closed).
 */
function unlessAborted<T>(
  server: string,
  step: Promise<T>,
  signal: AbortSignal,
  dispose: (late: T) => void = () => undefined,
): Promise<T> {
  if (signal.aborted) {
    step.then(dispose, () => undefined);
    return Promise.reject(openAborted(server, signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const aborted = (): void => {
      step.then(dispose, () => undefined);
      reject(openAborted(server, signal.reason));
    };
    signal.addEventListener('abort', aborted, { once: true });
    step.finally(() => signal.removeEventListener('abort', aborted)).then(resolve, reject);
  });
}
