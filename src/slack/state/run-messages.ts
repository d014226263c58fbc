// Where each person's run's "working…" message is, by the run's Cancel name (src/slack/run-cancels.ts), so a
// replica that resumes the run after its own replica died (a 2026 round taken over) shows it on the same message,
// whose Cancel button still stops it, instead of leaving that one behind and posting another.
import type { RedisClient } from '../../redis/index.js';
import type { RunMessageAt, RunMessages } from '../run-cancels.js';

/**
 * How long a run's message is findable, in seconds (a day): beyond any run's rounds, which are kept an hour past
 * their deadline (src/rounds ROUND_GRACE_MS) for a survivor to take over.
 */
export const RUN_MESSAGE_TTL_SEC = 86_400;

export class RedisRunMessages implements RunMessages {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyOf: (runId: string) => string,
  ) {}

  async note(runId: string, at: RunMessageAt): Promise<void> {
    const value = JSON.stringify({ channel: at.channel, ts: at.ts });
    await this.redis.set(this.keyOf(runId), value, 'EX', RUN_MESSAGE_TTL_SEC);
  }

  async find(runId: string): Promise<RunMessageAt | undefined> {
    const value = await this.redis.get(this.keyOf(runId));
    return value === null ? undefined : messageAtOf(value);
  }
}

/** A stored value read back; undefined when it is not one (another version's, or foreign). */
function messageAtOf(value: string): RunMessageAt | undefined {
  try {
    const data = JSON.parse(value) as { channel?: unknown; ts?: unknown };
    const { channel, ts } = data;
    return typeof channel === 'string' && typeof ts === 'string' ? { channel, ts } : undefined;
  } catch {
    return undefined;
  }
}
