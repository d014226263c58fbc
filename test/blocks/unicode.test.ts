// Server text can't smuggle in code points that make Slack text read differently from what it is (issue 15.12):
// lone surrogates become U+FFFD, bidi embeddings/overrides/isolates and invisible zero-width characters go.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeMrkdwn, mrkdwnChunks, plain } from '../../blocks/text.js';

/** What must never reach Slack from server text. */
const FORBIDDEN =
  /[\u202A-\u202E\u2066-\u2069\u200B\u200E\u200F\u2060\uFEFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const odd = fc.constantFrom(
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200B',
  '\u200E',
  '\u200F',
  '\u2060',
  '\uFEFF',
  '\uD800',
  '\uDFFF',
);
const serverText = fc
  .array(fc.oneof(fc.string({ unit: 'binary' }), odd), { maxLength: 20 })
  .map((parts) => parts.join(''));
const outputs = (text: string): string[] => [
  escapeMrkdwn(text),
  plain(text, 3000).text,
  ...mrkdwnChunks(text, 3000, 5),
];

describe('server text is neutralised before it reaches Slack', () => {
  it('never carries bidi controls, invisible zero-width characters or lone surrogates', () => {
    fc.assert(
      fc.property(serverText, (text) => {
        for (const out of outputs(text)) {
          expect(out).not.toMatch(FORBIDDEN);
          expect(LONE.test(out)).toBe(false);
        }
      }),
    );
  });

  it('leaves ASCII, CJK and emoji (with their joiners) as they are', () => {
    const readable = fc.stringMatching(/^[A-Za-z0-9 .,:;!?()'"_-]*$/);
    fc.assert(
      fc.property(readable, (text) => {
        expect(plain(text, 3000).text).toBe(text);
      }),
    );
    for (const text of ['请确认部署', '👩‍💻 ok', '🏳️‍🌈', 'नमस्ते', 'می‌خواهم']) {
      expect(plain(text, 3000).text).toBe(text);
      expect(escapeMrkdwn(text)).toBe(text);
    }
  });

  it('golden cases: an override that reverses "exe.txt", a hidden space, a split emoji', () => {
    expect(escapeMrkdwn('invoice\u202Etxt.exe')).toBe('invoicetxt.exe');
    expect(plain('pay\u200Bpal\u2066 \u2069', 100).text).toBe('paypal ');
    expect(escapeMrkdwn('a\uD83D b')).toBe('a\uFFFD b');
    expect(mrkdwnChunks('\uFEFFhi\u200F', 3000, 1)).toEqual(['hi']);
  });
});
