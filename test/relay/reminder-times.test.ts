import { describe, expect, it } from 'vitest';
import { reminderTimes } from '../../src/relay/reminders.js';

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

describe('reminder times without a policy', () => {
  it('nudges at half time for questions open two minutes or more, and never for shorter ones', () => {
    expect(reminderTimes(undefined, 600_000, 1_000)).toEqual([301_000]);
    expect(reminderTimes(undefined, 119_999, 1_000)).toEqual([]);
  });
});
