// Runs a tool for a person and shows what happens in their DM with the bot: a "working…" message that
// progress (and a task's status) updates at most every few seconds, then the result: inline text, a
// snippet file for long output, a readable summary of structured content, the error and its reason, or the
// links a -32042 answer asks them to open with a Retry button.
import {
  needsSnippet,
  progressMessage,
  resultMessage,
  urlRequiredMessage,
  type Locale,
  type SlackMessage,
} from '../../blocks/index.js';
import type { Logger } from '../logger.js';
import type { ProgressUpdate, ToolCall, ToolResult } from '../mcp/index.js';
import type { Origin } from '../relay/types.js';
import type { Locales } from './locales.js';
import type { SlackClients } from './workspaces.js';

export interface ToolResultsOptions {
  clients: SlackClients;
  locales: Locales;
  /** The person's DM channel with the bot (conversations.open, cached by the surface). */
  dmOf: (userId: string, teamId?: string) => Promise<string>;
  callTool: (call: ToolCall) => Promise<ToolResult>;
  logger: Logger;
  /** Least time between two updates of the "working…" message, in ms; default 3000 (chat.update is Tier 3). */
  progressIntervalMs?: number;
  /** Timers and time, for tests; default the real ones. */
  clock?: ProgressClock;
}

export interface ProgressClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const realClock: ProgressClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** What one run shows and where. */
export interface Place {
  origin: Origin;
  server: string;
  tool: string;
  channel: string;
  locale: Locale;
}

export class ToolResults {
  constructor(private readonly opts: ToolResultsOptions) {}

  /** Calls the tool for `origin.userId`; progress and the result go to their DM. Slack errors propagate. */
  async run(call: {
    server: string;
    tool: string;
    args: Record<string, unknown>;
    origin: Origin;
  }): Promise<void> {
    const { userId, teamId } = call.origin;
    const [channel, locale] = await Promise.all([
      this.opts.dmOf(userId, teamId),
      this.opts.locales.of(userId, teamId),
    ]);
    const place: Place = { origin: call.origin, server: call.server, tool: call.tool, channel, locale };
    const progress = new ProgressMessage(place, this.opts);
    let result: ToolResult;
    try {
      result = await this.opts.callTool({ ...call, onProgress: (update) => progress.update(update) });
    } catch (error) {
      // An unexpected failure still ends the "working…" message; the error goes on to be logged.
      await progress.end(true);
      throw error;
    }
    await progress.end(result.isError);
    await this.show(place, call.args, result);
  }

  private async show(place: Place, args: Record<string, unknown>, result: ToolResult): Promise<void> {
    const common = { server: place.server, tool: place.tool, locale: place.locale };
    if (result.urlRequired) {
      const links = result.urlRequired.map(({ url, message }) => ({ url, message }));
      return this.post(place, urlRequiredMessage({ ...common, links, args }));
    }
    const outcome = { ...common, isError: result.isError, text: result.text, structured: result.structured };
    if (!needsSnippet(result.text)) return this.post(place, resultMessage(outcome));
    await this.post(place, resultMessage({ ...outcome, attached: true }));
    try {
      await this.attach(place, result.text);
    } catch (error) {
      this.opts.logger.warn({ err: error, server: place.server, tool: place.tool }, 'snippet upload failed');
      await this.post(place, resultMessage({ ...outcome, shortened: true }));
    }
  }

  private async post(place: Place, message: SlackMessage): Promise<void> {
    const client = await this.opts.clients.for(place.origin.teamId);
    // Server-chosen links must never be previewed (fetched) on its behalf.
    await client.chat.postMessage({
      channel: place.channel,
      text: message.text,
      blocks: message.blocks as never,
      unfurl_links: false,
      unfurl_media: false,
    });
  }

  /** The long output as a text snippet in the DM (files.getUploadURLExternal, upload, completeUploadExternal). */
  private async attach(place: Place, text: string): Promise<void> {
    const client = await this.opts.clients.for(place.origin.teamId);
    const name = place.tool.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'result';
    await client.filesUploadV2({
      channel_id: place.channel,
      content: text,
      filename: `${name}.txt`,
      title: `${place.tool} (${place.server})`,
      snippet_type: 'text',
    });
  }
}

/**
 * The "working…" message of one call: posted at the first progress update, then updated with the latest
 * update at most once per interval (a trailing update carries the last one), and marked done at the end.
 */
export class ProgressMessage {
  private ts: string | undefined;
  private latest: ProgressUpdate | undefined;
  private shownAt = Number.NEGATIVE_INFINITY;
  private timer: unknown;
  private ended = false;
  private work: Promise<void> = Promise.resolve();
  private readonly clock: ProgressClock;
  private readonly interval: number;

  constructor(
    private readonly place: Place,
    private readonly opts: Pick<ToolResultsOptions, 'clients' | 'logger' | 'progressIntervalMs' | 'clock'>,
  ) {
    this.clock = opts.clock ?? realClock;
    this.interval = opts.progressIntervalMs ?? 3000;
  }

  update(update: ProgressUpdate): void {
    this.latest = update;
    if (this.ended || this.timer !== undefined) return;
    const wait = Math.max(0, this.shownAt + this.interval - this.clock.now());
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.enqueue(() => this.show());
    }, wait);
  }

  /** Stops updating; a posted message says the call is done (the result follows it). */
  async end(failed: boolean): Promise<void> {
    this.ended = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    await this.work;
    if (this.ts === undefined) return;
    await this.send(progressMessage({ ...this.names(), done: failed ? 'failed' : 'finished' }));
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
    const client = await this.opts.clients.for(this.place.origin.teamId);
    const content = { channel: this.place.channel, text: message.text, blocks: message.blocks as never };
    if (this.ts !== undefined) {
      await client.chat.update({ ...content, ts: this.ts });
      return;
    }
    const posted = await client.chat.postMessage(content);
    this.ts = posted.ts;
  }

  private names(): { server: string; tool: string; locale: Locale } {
    return { server: this.place.server, tool: this.place.tool, locale: this.place.locale };
  }
}
