// The "working…" message of one tool call, in the run's DM or thread: posted at the first progress update,
// updated at most once per interval with the latest one (chat.update is Tier 3), and marked done at the end.
import { progressMessage, type Locale, type SlackMessage } from '../../blocks/index.js';
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
  private ended = false;
  private work: Promise<void> = Promise.resolve();
  private readonly clock: Pick<Clock, 'now' | 'schedule'>;
  private readonly interval: number;

  constructor(
    private readonly place: RunPlace,
    private readonly opts: ProgressOptions,
  ) {
    this.clock = opts.clock ?? systemClock;
    this.interval = opts.progressIntervalMs ?? 3000;
  }

  update(update: ProgressUpdate): void {
    this.latest = update;
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
  async end(failed: boolean): Promise<void> {
    this.ended = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    await this.work;
    if (this.ts === undefined) return;
    this.enqueue(() => this.send(progressMessage({ ...this.names(), done: failed ? 'failed' : 'finished' })));
    await this.work;
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
  }

  private names(): { server: string; tool: string; locale: Locale } {
    return { server: this.place.server, tool: this.place.tool, locale: this.place.locale };
  }
}
