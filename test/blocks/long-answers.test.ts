// Long answers on the review a person sends from and on the answered card: every answered field is shown whole,
// within Slack's 3000 characters per section, not cut off after the first ten or so.
import { describe, expect, it } from 'vitest';
import { endedCard } from '../../blocks/card.js';
import { reviewModal } from '../../blocks/review.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { SUMMARY_LINES_MAX, answerLines } from '../../blocks/summary.js';
import { slackIssues } from './testing.js';

const FIELDS = SUMMARY_LINES_MAX;
const names = Array.from({ length: FIELDS }, (_, i) => `field${i}`);
const spec = parseFormSchema({
  type: 'object',
  properties: Object.fromEntries(
    names.map((name, i) => [name, { type: 'string', title: `Question ${i} & <more>`, maxLength: 1000 }]),
  ),
});
// 300 characters each (what a summary line keeps of a value), "&" and "<" escaped to 5 and 4 on the way.
const content = Object.fromEntries(names.map((name, i) => [name, `A${i} & <b> `.repeat(30).slice(0, 300)]));

/** The mrkdwn texts of a rendering's section blocks. */
function sectionTexts(blocks: unknown[]): string[] {
  return blocks.flatMap((b) => {
    const block = b as { type?: string; text?: { text?: string } };
    return block.type === 'section' && typeof block.text?.text === 'string' ? [block.text.text] : [];
  });
}

/** Each answer line, found whole in one section: label and its full (escaped) value. */
function expectEveryLineWhole(texts: string[]): void {
  const lines = answerLines(spec, content);
  expect(lines).toHaveLength(FIELDS);
  for (const line of lines) expect(texts.some((text) => text.split('\n').includes(line))).toBe(true);
}

describe('answers too long for one section', () => {
  it('the review shows every answered field in full, in sections Slack takes', () => {
    const view = reviewModal(spec, { questionId: 'q1', server: 'deploy', content });
    expect(slackIssues(view)).toEqual([]);
    expectEveryLineWhole(sectionTexts(view.blocks));
  });

  it('the answered card shows every answered field in full, in a message Slack takes', () => {
    const card = endedCard({
      server: 'deploy',
      message: 'Fill in the release notes',
      state: 'accepted',
      reason: 'answered',
      answer: answerLines(spec, content),
    });
    expect(slackIssues(card)).toEqual([]);
    expectEveryLineWhole(sectionTexts(card.blocks));
  });

  it('a review with nothing answered still says so', () => {
    const view = reviewModal(spec, { questionId: 'q1', server: 'deploy', content: {} });
    expect(sectionTexts(view.blocks)).toContain('(nothing filled in)');
  });
});
