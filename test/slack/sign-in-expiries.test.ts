// The sweep of expired Connect messages while Redis is down: every replica sweeps every 15 s, and a warn line per
// failed sweep would be four lines a minute per replica. A line at the first failure, then at most every 5 min
// with the count, and one when a sweep works again.
import { describe, expect, it } from 'vitest';
import { EXPIRY_SWEEP_MS, SignInExpiries } from '../../src/slack/sign-in-expiries.js';
import { LOG_AGAIN_AFTER_MS } from '../../src/streak-lines.js';
import { steppedClock } from '../support/stepped-clock.js';

describe('the sweep of expired Connect messages', () => {
  it('logs failing sweeps at the first, then every 5 min, and once when it works again', async () => {
    const clock = steppedClock();
    const lines: { level: string; fields: object }[] = [];
    let down = true;
    const expiries = new SignInExpiries({
      signIn: {
        expire: () =>
          down ? Promise.reject(new Error('Redis down')) : Promise.resolve({ taken: 0, failed: [] }),
      },
      clock,
      logger: {
        warn: (fields: object) => void lines.push({ level: 'warn', fields }),
        info: (fields: object) => void lines.push({ level: 'info', fields }),
      },
    });
    expiries.start();
    for (let ms = 0; ms < LOG_AGAIN_AFTER_MS; ms += EXPIRY_SWEEP_MS) await clock.advance(EXPIRY_SWEEP_MS);
    expect(lines).toMatchObject([{ level: 'warn', fields: { failedSweeps: 1 } }]);
    expect(lines).toHaveLength(1);
    await clock.advance(EXPIRY_SWEEP_MS);
    expect(lines.slice(1)).toMatchObject([{ level: 'warn', fields: { failedSweeps: 21 } }]);
    expect(lines).toHaveLength(2);
    down = false;
    await clock.advance(EXPIRY_SWEEP_MS);
    await clock.advance(EXPIRY_SWEEP_MS);
    expect(lines.slice(2)).toEqual([{ level: 'info', fields: { failedSweeps: 21 } }]);
    await expiries.stop();
  });
});
