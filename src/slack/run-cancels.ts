// A person's `/mcp run` cancelled from the Cancel button of its "working…" message. The click may reach any
// replica while the run goes on one, so this is the pattern of a host's cancel of a gateway call, with its parts
// (src/api/gateway-cancels.ts, endpoint-calls.ts): the run's entry in Redis under a random run id while it runs,
// marked cancelled by the click on whichever replica gets it, read (and renewed) once a second by the replica
// running it, which then aborts the call's signal: the server is sent notifications/cancelled (a task,
// tasks/cancel) and the call's open questions are withdrawn (`call_ended`). The mark waits in Redis rather than
// passing by: a replica briefly off Redis still reads it once back, while its entry lives (30 s unrenewed).
// A run whose replica dies while its 2026 round waits is resumed by a survivor (src/rounds/take-over.ts): the run's
// name goes with the round (`Origin.runId`), and the survivor adopts the run's entry, a mark left on it included,
// and its "working…" message (noted by the run's name, state/run-messages.ts), so the button the person has still
// stops it.
import { randomBytes } from 'node:crypto';
import type { RunCancelTarget } from '../../blocks/index.js';
import type { CancelMark, EndpointCalls } from '../api/endpoint-calls.js';
import { GatewayCancels, type CancelsWarnings } from '../api/gateway-cancels.js';
import type { Clock } from '../clock.js';

/**
 * The client name runs' entries go under, beside the API clients' calls: a run's id is random (128 bits), so no
 * host's call id names one.
 */
export const RUN_CANCELS_CLIENT = 'slack-run';

const RUN_WARNINGS: CancelsWarnings = {
  notNoted: 'a run was not noted for Cancel clicks on other replicas',
  notForgotten: 'a finished run was not forgotten by Cancel',
  notChecked: 'runs not checked for Cancel clicks',
};

/** The abort reason a cancelled run's signal carries (the SDK sends it as notifications/cancelled's reason). */
export const RUN_CANCELLED_REASON = 'cancelled by the person who ran it';

/** Where a run's "working…" message is. */
export interface RunMessageAt {
  channel: string;
  ts: string;
}

/** Where each run's "working…" message is, by the run's id, across replicas. */
export interface RunMessages {
  note(runId: string, at: RunMessageAt): Promise<void>;
  /** Undefined when none was noted (the run's message was never posted), or the note expired. */
  find(runId: string): Promise<RunMessageAt | undefined>;
}

export interface RunCancelsDeps {
  marks: Pick<
    EndpointCalls,
    'rememberGateway' | 'adoptGateway' | 'forgetGateway' | 'checkGateways' | 'markCancelled'
  >;
  /** Absent: a resumed run posts a message of its own (its Cancel button still stops it, as the first one's does). */
  messages?: RunMessages;
  clock: Pick<Clock, 'schedule'>;
  logger: { warn(obj: object, msg: string): void };
}

export class RunCancels {
  private readonly running: GatewayCancels;

  constructor(private readonly deps: RunCancelsDeps) {
    this.running = new GatewayCancels({
      calls: deps.marks,
      clock: deps.clock,
      logger: deps.logger,
      said: RUN_WARNINGS,
    });
  }

  /** A run of `owner` that their Cancel click, on any replica, can abort until it settles. */
  start(owner: string): CancellableRun {
    return new CancellableRun({ run: randomBytes(16).toString('base64url'), owner }, this.running);
  }

  /**
   * The run `runId` of `owner` that a replica which died started, resumed here: a Cancel click on its message, and
   * a mark a click left while no replica ran it, abort it here.
   */
  adopt(runId: string, owner: string): CancellableRun {
    return new CancellableRun({ run: runId, owner }, this.running, true);
  }

  /** Notes where run `runId`'s message is, for a replica that may resume it; a failure is logged. */
  noteMessage(runId: string, at: RunMessageAt): void {
    this.deps.messages?.note(runId, at).catch((err: unknown) => {
      this.deps.logger.warn({ err }, 'the working message of a run was not noted for a replica resuming it');
    });
  }

  /** Where run `runId`'s message is, if noted; undefined (logged) when Redis failed. */
  async messageOf(runId: string): Promise<RunMessageAt | undefined> {
    try {
      return await this.deps.messages?.find(runId);
    } catch (err) {
      this.deps.logger.warn({ err }, 'the working message of a resumed run was not found: another is posted');
      return undefined;
    }
  }

  /**
   * Marks the run cancelled for the replica running it: `marked` the first time, `already` for a second click,
   * `none` when no such run is going on (it ended, or its replica lost its entry), `unrecorded` (logged) when
   * Redis failed.
   */
  async mark(runId: string): Promise<CancelMark | 'unrecorded'> {
    try {
      return await this.deps.marks.markCancelled(RUN_CANCELS_CLIENT, runId);
    } catch (err) {
      this.deps.logger.warn({ err }, 'a Cancel click was not recorded');
      return 'unrecorded';
    }
  }
}

/** One run: its Cancel button's target, and the signal its call is made with. */
export class CancellableRun {
  private readonly aborter = new AbortController();
  /** Set once the call came back: a cancel read after it changes nothing (the result is being shown). */
  private settled = false;

  constructor(
    readonly target: RunCancelTarget,
    private readonly running: GatewayCancels,
    /** Resumed from a replica that died (RunCancels.adopt). */
    private readonly adopted = false,
  ) {}

  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  /** True when the person cancelled the run before its call came back: no result is shown. */
  get cancelled(): boolean {
    return this.aborter.signal.aborted;
  }

  /** Runs the call with this run's signal, findable by a Cancel click on any replica until it settles. */
  run<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const cancel = (): void => {
      if (!this.settled) this.aborter.abort(RUN_CANCELLED_REASON);
    };
    const named = { callId: this.target.run, cancel, adopted: this.adopted };
    return this.running.run(RUN_CANCELS_CLIENT, named, async () => {
      try {
        return await call(this.aborter.signal);
      } finally {
        this.settled = true;
      }
    });
  }
}
