// Enum values a server tells apart are told apart on screen. An untitled option shows its value, trimmed, with
// invisible characters removed and cut to Slack's 75 characters, so values differing only in surrounding spaces,
// an invisible character or past the 75th character would look the same: the person could not know which value
// they send. Such look-alikes show their value as it is (edge spaces "␠", hidden characters "[U+200B]", a long
// value's start and end); what still looks alike shows its position, "(2)". Everything else is drawn as before.
import { describe, expect, it } from 'vitest';
import { fieldElement } from '../../blocks/elements.js';
import { uiText } from '../../blocks/i18n.js';
import { formModal } from '../../blocks/modal.js';
import { optionLabels } from '../../blocks/option-labels.js';
import { reviewModal } from '../../blocks/review.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { OPTION_TEXT_MAX } from '../../blocks/slack-limits.js';
import { suggestOptions } from '../../blocks/suggest.js';
import { answerLines } from '../../blocks/summary.js';
import { slackIssues } from './testing.js';

const long = 'Restore the production database from the nightly snapshot taken at 02:00 UTC ';

const lookAlikes: Record<string, { values: string[]; shown: string[] }> = {
  'a trailing space': { values: ['main', 'main '], shown: ['main', 'main␠'] },
  'a leading space': { values: ['v1', ' v1'], shown: ['v1', '␠v1'] },
  'a zero-width space': { values: ['admin', 'admin\u200B'], shown: ['admin', 'admin[U+200B]'] },
  'a tab at the end': { values: ['x\t', 'x'], shown: ['x[U+0009]', 'x'] },
  'what follows the 75th character': {
    values: [`${long}(keep the replicas)`, `${long}(drop the replicas)`],
    shown: [
      'Restore the production database from …aken at 02:00 UTC (keep the replicas)',
      'Restore the production database from …aken at 02:00 UTC (drop the replicas)',
    ],
  },
};

/** The option texts of an untitled enum of `values`, padded to `size` options with "pad-n" values. */
function spec(values: string[], size: number, multi = false) {
  const all = [...values, ...Array.from({ length: size - values.length }, (_, i) => `pad-${i}`)];
  const property = multi
    ? { type: 'array', items: { type: 'string', enum: all } }
    : { type: 'string', enum: all };
  return parseFormSchema({ type: 'object', properties: { choice: property } });
}

const texts = (options: { text: { text: string } }[] | undefined, count: number) =>
  (options ?? []).slice(0, count).map((o) => o.text.text);

function optionsOf(element: ReturnType<typeof fieldElement>) {
  return 'options' in element ? element.options : undefined;
}

describe('untitled enum values that look alike', () => {
  it.each(Object.entries(lookAlikes))(
    'differing by %s are shown distinct in radio buttons, checkboxes and static selects',
    (_, { values, shown }) => {
      for (const [size, multi] of [
        [values.length, false],
        [values.length, true],
        [50, false],
        [50, true],
      ] as const) {
        const form = spec(values, size, multi);
        const field = form.fields[0];
        expect(field && texts(optionsOf(fieldElement(field)), values.length)).toEqual(shown);
        expect(slackIssues(formModal(form, { questionId: 'q', server: 's', message: 'm' }))).toEqual([]);
      }
    },
  );

  it.each(Object.entries(lookAlikes))(
    'differing by %s are suggested distinct by an external select (over 100 options)',
    (_, { values, shown }) => {
      const form = spec(values, 150);
      const actionId = form.fields[0]?.actionId ?? '';
      const typed = (values[0] ?? '').trim().slice(0, 4);
      const suggested = suggestOptions(form, actionId, typed).filter((o) => !o.text.text.startsWith('pad-'));
      expect(suggested.map((o) => o.text.text)).toEqual(shown);
      // Still valued by position, so the pick reads back as the value the person saw.
      expect(suggested.map((o) => o.value)).toEqual(values.map((_, i) => `o${i}`));
    },
  );

  it.each(Object.entries(lookAlikes))(
    'differing by %s are told apart on the review and the answered card',
    (_, { values, shown }) => {
      const form = spec(values, values.length);
      for (const [i, value] of values.entries()) {
        const line = answerLines(form, { choice: value })[0];
        expect(line).toBe(`*choice*: ${shown[i]}`);
      }
      const review = reviewModal(form, {
        questionId: 'q',
        server: 's',
        content: { choice: values[1] ?? '' },
      });
      expect(JSON.stringify(review.blocks)).toContain(JSON.stringify(shown[1]).slice(1, -1));
    },
  );
});

describe('option labels', () => {
  it('leave options that do not look alike as they were, titled ones included', () => {
    const form = parseFormSchema({
      type: 'object',
      properties: {
        a: { type: 'string', enum: [' padded ', 'other', long + 'x'] },
        b: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
      },
    });
    const [a, b] = form.fields;
    expect(a && texts(optionsOf(fieldElement(a)), 3)).toEqual(['padded', 'other', `${long.slice(0, 74)}…`]);
    expect(b && texts(optionsOf(fieldElement(b)), 2)).toEqual(['Red', 'Green']);
  });

  it('number what still looks alike: one title twice, or values that differ only in the middle', () => {
    const t = uiText();
    expect(
      optionLabels(
        [
          { value: 'y1', label: 'Yes' },
          { value: 'n', label: 'No' },
          { value: 'y2', label: 'Yes' },
        ],
        t,
      ),
    ).toEqual(['Yes (1)', 'No', 'Yes (3)']);
    // Past the 75th character, and too far from the end for the end to show it.
    const middle = (ch: string) => `${'a'.repeat(80)}${ch}${'b'.repeat(80)}`;
    const labels = optionLabels(
      ['1', '2'].map((ch) => ({ value: middle(ch), label: middle(ch) })),
      t,
    );
    expect(new Set(labels).size).toBe(2);
    expect(labels.every((l) => l.length <= OPTION_TEXT_MAX && /\((1|2)\)$/.test(l))).toBe(true);
  });

  it('stay distinct when a numbered label would look like another option', () => {
    const labels = optionLabels(
      [
        { value: 'x1', label: 'x' },
        { value: 'x2', label: 'x' },
        { value: 'x3', label: 'x (2)' },
      ],
      uiText(),
    );
    expect(labels).toEqual(['x (1)', 'x (2)', 'x (2) (3)']);
  });

  it('are the same in Chinese: no words are added, and a placeholder keeps its language', () => {
    const values = ['main', 'main ', '\u200B'];
    expect(
      optionLabels(
        values.map((v) => ({ value: v, ...(v.trim() !== '\u200B' && { label: v.trim() }) })),
        uiText('zh-CN'),
      ),
    ).toEqual(['main', 'main␠', '选项 3']);
  });
});
