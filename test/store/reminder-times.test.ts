import { describe, expect, it } from 'vitest';
import { reminderTimes } from '../../src/store/index.js';

describe('reminder times from a server’s slack.reminders', () => {
  it('puts a share of the time after the start and a duration before the deadline, sorted', () => {
    expect(reminderTimes([{ beforeMs: 300_000 }, { atFraction: 0.5 }], 3_600_000, 1_000)).toEqual([
      1_801_000, 3_301_000,
    ]);
  });

  it('drops times outside the question’s life and merges duplicates', () => {
    const specs = [{ beforeMs: 600_000 }, { atFraction: 0.5 }, { beforeMs: 60_000 }, { atFraction: 0.5 }];
    expect(reminderTimes(specs, 120_000, 0)).toEqual([60_000]);
    expect(reminderTimes([], 120_000, 0)).toEqual([]);
  });
});
