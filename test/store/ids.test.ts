// Question ids (store/ids.ts): 20 url-safe characters, ordered as their creation times are (the due index hands
// a burst of one deadline over in id order, store/slots.ts), starting with a letter, unique within one ms.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/store/ids.js';

/** Clock values (ms) from 1970 to the year 2109, where the first character changes. */
const clock = fc.integer({ min: 0, max: 2 ** 42 - 1 });

describe('question ids', () => {
  it('sort as their creation times do, whatever the random bits', () => {
    fc.assert(
      fc.property(clock, clock, (a, b) => {
        fc.pre(a !== b);
        const [early, late] = a < b ? [a, b] : [b, a];
        expect(newId(early) < newId(late)).toBe(true);
      }),
    );
  });

  it('are 20 url-safe characters starting with a letter', () => {
    fc.assert(
      fc.property(clock, (at) => {
        expect(newId(at)).toMatch(/^[A-Za-z][A-Za-z0-9_-]{19}$/);
      }),
    );
    expect(newId()).toMatch(/^V[A-Za-z0-9_-]{19}$/);
  });

  it('differ when made in the same millisecond', () => {
    const at = Date.now();
    const made = Array.from({ length: 10_000 }, () => newId(at));
    expect(new Set(made).size).toBe(made.length);
    expect(new Set(made.map((id) => id.slice(0, 8))).size).toBe(1);
  });
});
