// The "working…" message of one tool call, in the run's DM or thread: posted at the first progress update,
// updated at most once per interval with the latest one (chat.update is Tier 3), and marked done at the end. A
// person's run has a Cancel button on it, so its message is also posted when the run lasts a little while without
// progress (quick runs post only their result, as before): the button is there whatever the tool reports. A run
// resumed by a survivor (its replica died) goes on on the message it had, which is noted where it is once posted.
import {
  progressMessage,
  type Locale,
  type RunCancelTarget,
  type SlackMessage,
  type WorkEnd,
} from '../../blocks/index.js';
import { systemClock, type Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { ProgressUpdate } from '../mcp/index.js';
import type { Origin } from '../relay/types.js';
import type { MessagePlace, Messages } from './messages.js';

/** Where one run shows its progress and result: the person's DM, or the thread its conversation holds. */
export interface RunPlace {
  origin: Origin;
  server: string;
  tool: string;
  channel: string;
  /** The run's thread (`route: thread`); absent in the DM. */
  threadTs?: string;
  locale: Locale;
}

/** Where a run's messages go: its channel (and thread), in the workspace the run came from. */
export function messagePlaceOf({ channel, threadTs, origin }: RunPlace): MessagePlace {
  const place = { channel, teamId: origin.teamId };
  return threadTs === undefined ? place : { ...place, threadTs };
}

export interface ProgressOptions {
  /** Posts and updates it, each call made again after a 429's Retry-After or a passing failure. */
  messages: Messages;
  logger: Logger;
  /** Least time between two updates of the "working…" message, in ms; default 3000 (chat.update is Tier 3). */
  progressIntervalMs?: number;
  /** Timers and time, for tests; default the system clock. */
  clock?: Pick<Clock, 'now' | 'schedule'>;
  /**
   * How long a cancellable run goes on without progress before its message (and Cancel button) is posted anyway,
   * in ms; default CANCEL_SHOWN_AFTER_MS.
   */
  cancelShownAfterMs?: number;
}

/**
 * Default of ProgressOptions.cancelShownAfterMs, in ms: a run not done within 5 s is one a person may want to
 * stop; quicker ones (a first call's session start included, ~1-3 s for a stdio server) post only their result.
 */
export const CANCEL_SHOWN_AFTER_MS = 5000;

/** A cancellable run's message kept across replicas (run-cancels.ts RunMessages). */
export interface KeptMessage {
  /** The message already up in the run's place: a resumed run's, posted by the replica that died. */
  ts?: string;
  /** Told the message's ts once posted, so a replica resuming the run updates that one. */
  posted?: (ts: string) => void;
}

/**
 * The "working…" message of one call: posted at the first progress update, then updated with the latest
 * update at most once per interval (a trailing update carries the last one), and marked done at the end.
 */
export class ProgressMessage {
  private ts: string | undefined;
  private latest: ProgressUpdate | undefined;
  private shownAt = Number.NEGATIVE_INFINITY;
  /** Cancels the pending update; set while one is scheduled. */
  private cancelTimer: (() => void) | undefined;
  /** Cancels the post of a cancellable run's message before any progress; set while it is scheduled. */
  private cancelGrace: (() => void) | undefined;
  private ended = false;
  private work: Promise<void> = Promise.resolve();
  private readonly clock: Pick<Clock, 'now' | 'schedule'>;
  private readonly interval: number;

  constructor(
    private readonly place: RunPlace,
    private readonly opts: ProgressOptions,
    /** A person's run: the message carries its Cancel button. */
    private readonly cancel?: RunCancelTarget,
    private readonly kept: KeptMessage = {},
  ) {
    this.clock = opts.clock ?? systemClock;
    this.interval = opts.progressIntervalMs ?? 3000;
    this.ts = kept.ts;
  }

  /**
   * A cancellable run's call starts: unless progress posts the message first, it is posted once the run has gone
   * on cancelShownAfterMs, so the person can stop a tool that reports nothing.
   */
  started(): void {
    if (this.cancel === undefined || this.ended) return;
    this.cancelGrace = this.clock.schedule(() => {
      this.cancelGrace = undefined;
      if (this.ts === undefined && this.cancelTimer === undefined) this.enqueue(() => this.show());
    }, this.opts.cancelShownAfterMs ?? CANCEL_SHOWN_AFTER_MS);
  }

  update(update: ProgressUpdate): void {
    this.latest = update;
    this.stopGrace();
    if (this.ended || this.cancelTimer !== undefined) return;
    const wait = Math.max(0, this.shownAt + this.interval - this.clock.now());
    this.cancelTimer = this.clock.schedule(() => {
      this.cancelTimer = undefined;
      this.enqueue(() => this.show());
    }, wait);
  }

  /**
   * Stops updating; a posted message says the call is done (the result follows it). Never rejects: a message
   * that cannot be marked done (deleted, Slack refusing) is logged, and the result still goes out.
   */
  end(failed: boolean): Promise<void> {
    return this.finish(failed ? 'failed' : 'finished');
  }

  /** The person cancelled the run: a posted message says so, by whom, and loses its button; no result follows. */
  cancelled(): Promise<void> {
    return this.finish('cancelled');
  }

  private async finish(done: WorkEnd): Promise<void> {
    this.ended = true;
    this.stopGrace();
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    await this.work;
    if (this.ts === undefined) return;
    this.enqueue(() => this.send(progressMessage({ ...this.names(), done })));
    await this.work;
  }

  private stopGrace(): void {
    this.cancelGrace?.();
    this.cancelGrace = undefined;
  }

  private enqueue(step: () => Promise<void>): void {
    this.work = this.work.then(step).catch((error: unknown) => {
      this.opts.logger.warn({ err: error, server: this.place.server }, 'progress message failed');
    });
  }

  private async show(): Promise<void> {
    if (this.ended) return;
    this.shownAt = this.clock.now();
    await this.send(progressMessage({ ...this.names(), ...(this.latest ? { progress: this.latest } : {}) }));
  }

  private async send(message: SlackMessage): Promise<void> {
    const place = messagePlaceOf(this.place);
    if (this.ts !== undefined) {
      await this.opts.messages.update({ ...place, ts: this.ts }, message);
      return;
    }
    this.ts = await this.opts.messages.post(place, message);
    this.kept.posted?.(this.ts);
  }

  /** The call's names, and its Cancel button's run (shown until it is done; a cancelled one names its owner). */
  private names(): { server: string; tool: string; locale: Locale; cancel?: RunCancelTarget } {
    const names = { server: this.place.server, tool: this.place.tool, locale: this.place.locale };
    return this.cancel === undefined ? names : { ...names, cancel: this.cancel };
  }
}
