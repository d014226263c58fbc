// The messages the bot posts and edits besides the cards: a run's result, its links, its thread, its
// "working…" message, a sign-in prompt. Each call is retried (retried.ts): made once, a 429 lost its message
// (the flood bench: a result posted within a second of its DM's last card). Not through the outbox: its
// per-channel pacing would queue a result behind every card slot its DM has reserved (a hostile server's 1,000
// questions: ~17 min), while a run's message is one call.
import type { SlackMessage } from '../../blocks/index.js';
import { systemClock } from '../clock.js';
import { RelayError } from '../relay/errors.js';
import type { RelayClock } from '../relay/ports.js';
import { classifySlackError } from './outbox/index.js';
import { retried } from './retried.js';
import type { SlackClients } from './workspaces.js';

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

/** Messages made with the workspace's client, each call retried. */
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

/** `call`'s result (retried), or a MessageError naming Slack's code once it failed for good. */
async function tried<T>(code: MessageError['code'], clock: RelayClock, call: () => Promise<T>): Promise<T> {
  try {
    return await retried(call, clock);
  } catch (error) {
    throw new MessageError(code, classifySlackError(error).error, { cause: error });
  }
}
