import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeMrkdwn, mrkdwnChunks, truncate } from '../../blocks/text.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const anyText = fc.string({
  unit: fc.constantFrom('a', ' ', '\n', '中', '😀', '&', '<', '>', 'é', '👩‍👩‍👧'),
  maxLength: 400,
});

describe('truncate', () => {
  it('leaves text within the limit untouched', () => {
    expect(truncate('hello', 5)).toBe('hello');
  });

  it('cuts with an ellipsis that counts towards the limit', () => {
    expect(truncate('hello world', 8)).toBe('hello w…');
  });

  it('never splits a surrogate pair', () => {
    expect(truncate('ab😀😀', 4)).toBe('ab…');
  });

  it('never exceeds the limit and never leaves a lone surrogate (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.integer({ min: 1, max: 120 }),
        (text, max) => {
          const out = truncate(text, max);
          expect(out.length).toBeLessThanOrEqual(max);
          expect(LONE_SURROGATE.test(out)).toBe(false);
          if (out !== text) expect(text.startsWith(out.slice(0, -1))).toBe(true);
        },
      ),
    );
  });
});

describe('escapeMrkdwn', () => {
  it('makes mentions, channel links and URL links literal', () => {
    expect(escapeMrkdwn('<!channel> <!here> <@U123> <#C1> <http://x|y> a&b')).toBe(
      '&lt;!channel&gt; &lt;!here&gt; &lt;@U123&gt; &lt;#C1&gt; &lt;http://x|y&gt; a&amp;b',
    );
  });
});

describe('mrkdwnChunks', () => {
  it('splits long text at a space and keeps every character', () => {
    const text = `${'word '.repeat(1000)}end`;
    const chunks = mrkdwnChunks(text, 3000, 5);
    expect(chunks.length).toBe(2);
    expect(chunks.every((c) => c.length <= 3000)).toBe(true);
    expect(chunks[0]?.endsWith(' ')).toBe(true);
    expect(chunks.join('')).toBe(text);
  });

  it('ends the last allowed chunk with an ellipsis when text is left out', () => {
    const chunks = mrkdwnChunks('x'.repeat(100), 10, 2);
    expect(chunks).toEqual(['x'.repeat(10), `${'x'.repeat(9)}…`]);
  });

  it('gives no chunks for text with nothing visible', () => {
    expect(mrkdwnChunks(' \u0000\n\u0007 ', 100, 3)).toEqual([]);
  });

  it('drops control characters other than newline and tab', () => {
    expect(mrkdwnChunks('a\u0000b\u001bc\n\td', 100, 1)).toEqual(['abc\n\td']);
  });

  it('chunks stay within limits, are never blank, never split entities or surrogates, and keep all visible text (property)', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 6, max: 50 }), (text, max) => {
        const chunks = mrkdwnChunks(text, max, 1000);
        for (const chunk of chunks) {
          expect(chunk.length).toBeLessThanOrEqual(max);
          expect(LONE_SURROGATE.test(chunk)).toBe(false);
          expect(/&(?!amp;|lt;|gt;)/.test(chunk)).toBe(false);
        }
        for (const chunk of chunks) expect(chunk.trim()).not.toBe('');
        const visible = (t: string) => t.replace(/\s/g, '');
        expect(visible(chunks.join(''))).toBe(visible(escapeMrkdwn(text)));
      }),
    );
  });
});
