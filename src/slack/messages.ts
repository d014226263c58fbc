// The messages the bot posts and edits besides the cards: a run's result, its links, its thread, its
// "working…" message, a sign-in prompt. They go through the outbox as the cards do, so Slack's pace per
// channel, a 429's Retry-After and a transient failure are met the same way: the bot's WebClient hands rate
// limits back instead of waiting them out (the outbox's setting), and a call made directly with it lost its
// message on the first 429 (the flood bench: a result posted within a second of the DM's last card).
import { randomUUID } from 'node:crypto';
import type { SlackMessage } from '../../blocks/index.js';
import { systemClock } from '../clock.js';
import { RelayError } from '../relay/errors.js';
import type { RelayClock } from '../relay/ports.js';
import { againWhileUnavailable } from '../relay/while-unavailable.js';
import type { Outbox, OutboxJob, OutboxResult } from './outbox/index.js';

/**
 * How long a message is tried again while Redis (the outbox's queue) is unavailable, in ms: a run's result is
 * out of the MCP server already and must not be lost to a Redis blip or restart.
 */
export const MESSAGE_REDIS_WAIT_MS = 60_000;

/** Where a message goes: a channel (a thread of it when `threadTs`), in the workspace `teamId`. */
export interface MessagePlace {
  channel: string;
  threadTs?: string;
  teamId?: string;
}

/** A message call Slack refused, or that the outbox could not make in time; `slackError` is Slack's code. */
export class MessageError extends RelayError<'slack_post_failed' | 'slack_update_failed'> {
  override name = 'MessageError';
  constructor(
    code: 'slack_post_failed' | 'slack_update_failed',
    readonly slackError: string,
  ) {
    super(code, `${code === 'slack_post_failed' ? 'chat.postMessage' : 'chat.update'} failed: ${slackError}`);
  }
}

export interface Messages {
  /** Posts `message` (its links never unfurled: they may be a server's) and resolves with its ts. */
  post(place: MessagePlace, message: SlackMessage): Promise<string>;
  /** Replaces the message at `ts` with `message`. */
  update(place: MessagePlace & { ts: string }, message: SlackMessage): Promise<void>;
}

/**
 * Messages through `outbox` (its default deadline: 5 min from the call's slot), each call one outbox job (its
 * key) however often it is tried while Redis is unavailable. Rejects with MessageError.
 */
export function outboxMessages(outbox: Pick<Outbox, 'send'>, clock: RelayClock = systemClock): Messages {
  const workspace = (teamId: string | undefined) => (teamId === undefined ? {} : { teamId });
  const send = (job: Omit<OutboxJob, 'key'>): Promise<OutboxResult> => {
    const keyed = { ...job, key: `message-${randomUUID()}` };
    const until = clock.now() + MESSAGE_REDIS_WAIT_MS;
    return againWhileUnavailable(() => outbox.send(keyed), { clock, until });
  };
  return {
    async post({ channel, threadTs, teamId }, { text, blocks }) {
      const thread = threadTs === undefined ? {} : { thread_ts: threadTs };
      const args = { text, blocks, ...thread, unfurl_links: false, unfurl_media: false };
      const posted = await send({ method: 'chat.postMessage', channel, ...workspace(teamId), args });
      if (!posted.ok) throw new MessageError('slack_post_failed', posted.error);
      if (posted.ts === undefined)
        throw new RelayError('slack_bad_response', 'chat.postMessage returned no ts');
      return posted.ts;
    },
    async update({ channel, ts, teamId }, { text, blocks }) {
      const args = { text, blocks, ts };
      const updated = await send({ method: 'chat.update', channel, ...workspace(teamId), args });
      if (!updated.ok) throw new MessageError('slack_update_failed', updated.error);
    },
  };
}
