// The gateway calls of POST /mcp running on this replica, for a host's `notifications/cancelled` that lands on
// another replica: there it marks the call's entry cancelled (endpoint-calls.ts); here every running call's entry
// is read, and renewed, once a second in one script while any runs (nothing is read while none does), and a
// marked call is ended as the host's own cancel on this replica ends it: its HTTP request closed, so the
// downstream server's request is aborted and the person's open question withdrawn (`call_ended`), once.
// The mark waits in Redis rather than passing by as a pub/sub message: a replica that could not reach Redis when
// the cancel came still reads it once back, as long as its entry has not lapsed (GATEWAY_ENTRY_TTL_MS without a
// renewal; the cancel then found no entry and did nothing, and the call ends as it would have without one).
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { EndpointCalls, GatewayEntry } from './endpoint-calls.js';

/** How often the running gateway calls' entries are read, in ms: the most a cancel on another replica waits. */
export const GATEWAY_CHECK_MS = 1_000;
/** An entry not renewed for this long lapses (its replica died, or lost Redis), in ms. */
export const GATEWAY_ENTRY_TTL_MS = 30_000;

export interface GatewayCancelsDeps {
  calls: Pick<EndpointCalls, 'rememberGateway' | 'adoptGateway' | 'forgetGateway' | 'checkGateways'>;
  clock: Pick<Clock, 'schedule'>;
  logger: { warn(obj: object, msg: string): void };
  /** What its warnings call the calls it runs; default the gateway's (a person's runs use it too, run-cancels.ts). */
  said?: CancelsWarnings;
}

/** The warnings of a Redis failure, in the words of the calls' owner. */
export interface CancelsWarnings {
  notNoted: string;
  notForgotten: string;
  notChecked: string;
}

const GATEWAY_WARNINGS: CancelsWarnings = {
  notNoted: 'MCP endpoint: a gateway call was not noted for cancels',
  notForgotten: 'MCP endpoint: a finished gateway call was not forgotten',
  notChecked: 'MCP endpoint: gateway calls not checked for cancels',
};

/** A gateway call by the host's name for it; `cancel` ends it as the host's own cancel on this replica does. */
export interface CancellableCall {
  callId: string;
  cancel: () => void;
  /**
   * The call was started under this name by a replica that died, and this one resumes it: its entry (a mark a
   * cancel left on it included) becomes this call's rather than the name becoming ambiguous. Default false.
   */
  adopted?: boolean;
}

export class GatewayCancels {
  private readonly running = new Map<string, { entry: GatewayEntry; cancel: () => void }>();
  /** Set while a check is scheduled or in flight. */
  private checking = false;

  private readonly said: CancelsWarnings;

  constructor(private readonly deps: GatewayCancelsDeps) {
    this.said = deps.said ?? GATEWAY_WARNINGS;
  }

  /** Runs `work`, findable by a cancel on any replica until it settles. */
  async run<T>(client: string, call: CancellableCall, work: () => Promise<T>): Promise<T> {
    const entry = { client, callId: call.callId, token: randomBytes(12).toString('base64url') };
    const { calls } = this.deps;
    const noted =
      call.adopted === true
        ? calls.adoptGateway(entry, GATEWAY_ENTRY_TTL_MS)
        : calls.rememberGateway(entry, GATEWAY_ENTRY_TTL_MS);
    // Without its entry the call still runs; only a cancel landing on another replica misses it.
    await noted.catch((err: unknown) => {
      this.deps.logger.warn({ err, client }, this.said.notNoted);
    });
    this.running.set(entry.token, { entry, cancel: call.cancel });
    this.schedule();
    try {
      return await work();
    } finally {
      this.running.delete(entry.token);
      // Awaited: a host's next call under the same id (one without a session) must not find this one.
      await this.deps.calls.forgetGateway(entry).catch((err: unknown) => {
        this.deps.logger.warn({ err, client }, this.said.notForgotten);
      });
    }
  }

  private schedule(): void {
    if (this.checking || this.running.size === 0) return;
    this.checking = true;
    this.deps.clock.schedule(() => void this.check(), GATEWAY_CHECK_MS);
  }

  private async check(): Promise<void> {
    const entries = [...this.running.values()].map((r) => r.entry);
    try {
      const cancelled = await this.deps.calls.checkGateways(entries, GATEWAY_ENTRY_TTL_MS);
      for (const token of cancelled) this.running.get(token)?.cancel();
    } catch (err) {
      this.deps.logger.warn({ err }, this.said.notChecked);
    } finally {
      this.checking = false;
      this.schedule();
    }
  }
}
