// Cuts that keep every character as people see it whole: an emoji ZWJ sequence, a flag, a keycap, a skin tone,
// a letter with its accents. Intl.Segmenter (Unicode's grapheme clusters) is the judge of what a character is.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formModal } from '../../blocks/modal.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { OPTION_TEXT_MAX } from '../../blocks/slack-limits.js';
import { mrkdwnChunks, truncate } from '../../blocks/text.js';
import { slackIssues } from './testing.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const clusters = (text: string): string[] => Array.from(segmenter.segment(text), (s) => s.segment);
/** Characters as drawn, each several code points but for the last three. */
const POOL = [
  '👩‍💻',
  '👨‍👩‍👧‍👦',
  '🇯🇵',
  '🇺🇸',
  '1️⃣',
  '👍🏽',
  'e\u0301',
  '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}',
  'a',
  ' ',
  '请',
];
const text = fc.array(fc.constantFrom(...POOL), { minLength: 1, maxLength: 120 }).map((a) => a.join(''));

/** Whether `part` is `whole`'s first characters as drawn. */
function wholePrefix(part: string, whole: string): boolean {
  const mine = clusters(part);
  return mine.join('') === part && clusters(whole).slice(0, mine.length).join('') === part;
}
const body = (cut: string) => (cut.endsWith('…') ? cut.slice(0, -1) : cut);

describe('truncate', () => {
  it('leaves out a technologist emoji that does not fit whole, rather than showing a woman', () => {
    const cut = truncate('👩‍💻'.repeat(30), 75);
    expect(cut).toBe(`${'👩‍💻'.repeat(14)}…`);
  });

  it('never splits a flag into its two letters', () => {
    const cut = truncate(`xyz${'🇯🇵'.repeat(40)}`, 75);
    expect(cut).toBe(`xyz${'🇯🇵'.repeat(17)}…`);
  });

  it('keeps each character whole, within the limit (property)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 200 }), (input, max) => {
        const cut = truncate(input, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(wholePrefix(body(cut), input)).toBe(true);
      }),
    );
  });
});

describe('mrkdwnChunks', () => {
  // 16: the longest character of the pool (a tagged flag, 14 units) fits a chunk.
  it('splits a long message only between characters as drawn (property)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 16, max: 60 }), (input, max) => {
        const chunks = mrkdwnChunks(input, max, 1000);
        // Where characters as drawn begin and end; blank chunks are left out, so each is found after the last.
        const bounds = new Set([...Array.from(segmenter.segment(input), (s) => s.index), input.length]);
        let offset = 0;
        for (const chunk of chunks) {
          const at = input.indexOf(chunk, offset);
          expect(chunk.length).toBeLessThanOrEqual(max);
          expect([bounds.has(at), bounds.has(at + chunk.length)]).toEqual([true, true]);
          offset = at + chunk.length;
        }
      }),
    );
  });
});

describe('an option titled with flags', () => {
  it('shows whole flags in the select, within Slack’s 75 characters', () => {
    const titles = ['🇯🇵', '🇺🇸', '🇫🇷', '🇩🇪', '🇮🇹', '🇪🇸'].map((flag, i) => `${i}ab${flag.repeat(40)}`);
    const spec = parseFormSchema({
      type: 'object',
      properties: { team: { type: 'string', oneOf: titles.map((title, i) => ({ const: `t${i}`, title })) } },
    });
    const view = formModal(spec, { questionId: 'q1', server: 'hr', message: 'Which team?' });
    expect(slackIssues(view)).toEqual([]);
    const shown = JSON.stringify(view.blocks).match(/"text":"\d[^"]*"/g) ?? [];
    expect(shown).toHaveLength(titles.length);
    titles.forEach((title, i) => {
      const label = (JSON.parse(`{${shown[i] ?? ''}}`) as { text: string }).text;
      expect(label.length).toBeLessThanOrEqual(OPTION_TEXT_MAX);
      expect(wholePrefix(body(label), title)).toBe(true);
    });
  });
});
