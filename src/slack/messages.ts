// The messages the bot posts and edits besides the cards: a run's result, its links, its thread, its
// "working…" message, a sign-in prompt. The bot's WebClient hands rate limits back instead of waiting them out
// (the outbox's setting, slack-calls.ts), so a call made once with it lost its message on the first 429 (the
// flood bench: a result posted within a second of its DM's last card). Each call here is made again after a
// 429's Retry-After, and after a passing failure (5xx, network, Slack's own fault) with back-off, until
// MESSAGE_RETRY_WITHIN_MS. Not through the outbox: its per-channel pacing would queue a result behind every card
// slot its DM has reserved (a hostile server's 1,000 questions: ~17 min), while a run's message is one call.
import type { SlackMessage } from '../../blocks/index.js';
import { systemClock } from '../clock.js';
import { RelayError } from '../relay/errors.js';
import type { RelayClock } from '../relay/ports.js';
import { OUTBOX_MAX_ATTEMPTS, OUTBOX_RETRY_BASE_MS, classifySlackError } from './outbox/index.js';
import type { SlackClients } from './workspaces.js';

/** How long a message call is tried again, in ms from its first try: 5 minutes, as the outbox's calls. */
export const MESSAGE_RETRY_WITHIN_MS = 5 * 60_000;

/** Where a message goes: a channel (a thread of it when `threadTs`), in the workspace `teamId`. */
export interface MessagePlace {
  channel: string;
  threadTs?: string;
  teamId?: string;
}

/** A message call Slack refused, or still failed when its tries ran out; `slackError` is Slack's code. */
export class MessageError extends RelayError<'slack_post_failed' | 'slack_update_failed'> {
  override name = 'MessageError';
  constructor(
    code: 'slack_post_failed' | 'slack_update_failed',
    readonly slackError: string,
    options?: { cause?: unknown },
  ) {
    const method = code === 'slack_post_failed' ? 'chat.postMessage' : 'chat.update';
    super(code, `${method} failed: ${slackError}`, options);
  }
}

export interface Messages {
  /** Posts `message` (its links never unfurled: they may be a server's) and resolves with its ts. */
  post(place: MessagePlace, message: SlackMessage): Promise<string>;
  /** Replaces the message at `ts` with `message`. */
  update(place: MessagePlace & { ts: string }, message: SlackMessage): Promise<void>;
}

/** Messages made with the workspace's client, each tried again as the top of this file says. */
export function retryingMessages(clients: SlackClients, clock: RelayClock = systemClock): Messages {
  return {
    async post({ channel, threadTs, teamId }, { text, blocks }) {
      const client = await clients.for(teamId);
      const thread = threadTs === undefined ? {} : { thread_ts: threadTs };
      const args = { channel, text, blocks, ...thread, unfurl_links: false, unfurl_media: false };
      const posted = await tried('slack_post_failed', clock, () => client.chat.postMessage(args));
      if (posted.ts === undefined)
        throw new RelayError('slack_bad_response', 'chat.postMessage returned no ts');
      return posted.ts;
    },
    async update({ channel, ts, teamId }, { text, blocks }) {
      const client = await clients.for(teamId);
      await tried('slack_update_failed', clock, () => client.chat.update({ channel, ts, text, blocks }));
    },
  };
}

/** `call`'s result, made again after a retryable failure while tries and time are left; else a MessageError. */
async function tried<T>(code: MessageError['code'], clock: RelayClock, call: () => Promise<T>): Promise<T> {
  const until = clock.now() + MESSAGE_RETRY_WITHIN_MS;
  for (let failures = 0; ;) {
    try {
      return await call();
    } catch (error) {
      const sorted = classifySlackError(error);
      // A 429 is Slack asking to wait, not a failure: only the others count against the tries.
      if (sorted.retryAfterMs === undefined) failures += 1;
      const waitMs = sorted.retryAfterMs ?? OUTBOX_RETRY_BASE_MS * 2 ** (failures - 1);
      const last = !sorted.retry || failures >= OUTBOX_MAX_ATTEMPTS || clock.now() + waitMs > until;
      if (last) throw new MessageError(code, sorted.error, { cause: error });
      await new Promise<void>((resolve) => clock.schedule(resolve, waitMs));
    }
  }
}
