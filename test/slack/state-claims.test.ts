import { afterEach, describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { COMMAND_CLAIM_TTL_SEC, SlackState } from '../../src/slack/state/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { rawRedis, recordingLogger } from '../store/helpers.js';

const states: SlackState[] = [];
afterEach(async () => {
  await Promise.all(states.splice(0).map((s) => s.close()));
});

async function replicas(prefix: string): Promise<SlackState[]> {
  const opened = await Promise.all(
    ['h1', 'h2'].map((holderId) =>
      SlackState.open({ url: redisUrl(), prefix, holderId, logger: recordingLogger() }),
    ),
  );
  states.push(...opened);
  return opened;
}

describe('one-time claims (SlackState)', () => {
  it('grants a slash command’s trigger_id to exactly one of ten replays across two replicas', async () => {
    const prefix = uniquePrefix();
    const [a, b] = await replicas(prefix);
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a! : b!).claimCommand('13345224609.738474920.8088930838d88f008e0'),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await a!.claimCommand('another-trigger')).toBe(true);
    // Longer than the 5 minutes a signed request is accepted, so no valid replay outlives its claim.
    const ttl = await rawRedis().ttl(keys(prefix).command('13345224609.738474920.8088930838d88f008e0'));
    expect(ttl).toBeGreaterThan(300);
    expect(ttl).toBeLessThanOrEqual(COMMAND_CLAIM_TTL_SEC);
  });

  it('grants the retry of one -32042 answer once across replicas', async () => {
    const [a, b] = await replicas(uniquePrefix());
    const claims = await Promise.all([a!.claimRetry('C1', '1.000'), b!.claimRetry('C1', '1.000')]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await b!.claimRetry('C1', '2.000')).toBe(true);
  });
});
