// StreakLines on an injected clock: which occurrences and ends of a trouble get a log line. An operator who read
// a streak's end ("answering again") is told at once when the trouble is back, a trouble that flaps stays within
// the bound the file states, and the last line always says whether the trouble is on.
import { describe, expect, it } from 'vitest';
import { LOG_AGAIN_AFTER_MS, RETURNS_TOLD_MAX, StreakLines } from '../src/streak-lines.js';

function setUp() {
  let now = 0;
  const lines = new StreakLines({ now: () => now });
  const at = (ms: number): StreakLines => {
    now = ms;
    return lines;
  };
  return { at };
}

describe('StreakLines', () => {
  it('tells a streak that follows a logged end at once, counting those left unlogged, and then its end', () => {
    const { at } = setUp();
    expect(at(0).occurred()).toEqual({ count: 1, sinceLastLine: 1, forMs: 0 });
    expect(at(10_000).occurred()).toBeUndefined();
    expect(at(20_000).ended()).toEqual({ count: 2, forMs: 20_000 });
    // Down again a minute after the line that said it was over.
    expect(at(80_000).occurred()).toEqual({ count: 1, sinceLastLine: 2, forMs: 0 });
    expect(at(90_000).occurred()).toBeUndefined();
    expect(at(100_000).ended()).toEqual({ count: 2, forMs: 20_000 });
  });

  it('leaves a streak untold, and its end, while the last line said the trouble was on', () => {
    const { at } = setUp();
    at(0).occurred();
    at(10_000).occurred();
    // No end between: the streak goes on, and one within 5 min of the first line adds none.
    expect(at(20_000).occurred()).toBeUndefined();
    expect(at(30_000).ended()).toEqual({ count: 3, forMs: 30_000 });
    expect(at(40_000).ended()).toBeUndefined();
  });

  it(`tells at most ${RETURNS_TOLD_MAX} returns in 5 min, then only the timed lines, each end with its start`, () => {
    const { at } = setUp();
    const said: string[] = [];
    // A trouble that flaps at every 10 s probe for an hour.
    for (let t = 0; t < 3_600_000; t += 20_000) {
      if (at(t).occurred()) said.push(`on ${t / 1000}`);
      if (at(t + 10_000).ended()) said.push(`over ${(t + 10_000) / 1000}`);
    }
    expect(said.slice(0, 10)).toEqual([
      'on 0',
      'over 10',
      'on 20',
      'over 30',
      'on 40',
      'over 50',
      'on 60',
      'over 70',
      // The return told at 20 s is 5 min old: one more may be told.
      'on 320',
      'over 330',
    ]);
    // Every start has its end, and the bound the file states (8 lines per 5 min, ~96 an hour) holds.
    expect(said.filter((line) => line.startsWith('on'))).toHaveLength(said.length / 2);
    expect(said.length).toBeLessThanOrEqual(96);
    expect(said.at(-1)).toMatch(/^over/);
  });

  it('gives an occurrence of another kind its line at once', () => {
    const { at } = setUp();
    expect(at(0).occurred('invalid_auth')).toMatchObject({ count: 1 });
    expect(at(1_000).occurred('invalid_auth')).toBeUndefined();
    expect(at(2_000).occurred('token_revoked')).toEqual({ count: 3, sinceLastLine: 2, forMs: 2_000 });
    expect(at(3_000).occurred('token_revoked')).toBeUndefined();
    expect(at(LOG_AGAIN_AFTER_MS + 2_000).occurred('token_revoked')).toMatchObject({ sinceLastLine: 2 });
  });
});
