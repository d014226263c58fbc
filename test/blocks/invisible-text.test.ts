// Server text with nothing visible once neutralised (only zero-width or bidi characters) still draws a view Slack
// accepts: Slack refuses a blank plain_text ("must be more than 0 characters"), so an option title falls back to
// its value, a value to the UI's numbered placeholder, and a description is no hint; answers keep the real value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Locale } from '../../blocks/i18n.js';
import { formModal } from '../../blocks/modal.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import { suggestOptions } from '../../blocks/suggest.js';
import { answerLines } from '../../blocks/summary.js';
import { slackIssues, stateFor } from './testing.js';

type Block = { type: string; hint?: unknown; element?: { options?: { text: { text: string } }[] } };
const meta = { questionId: 'Q1', server: 'srv', message: 'm' };
const schemaOf = (c: object) => ({ type: 'object', properties: { c } });
const viewOf = (c: object, locale?: Locale) =>
  formModal(parseFormSchema(schemaOf(c)), { ...meta, ...(locale && { locale }) });
const input = (view: { blocks: object[] }) => (view.blocks as Block[]).find((b) => b.type === 'input');
const texts = (view: { blocks: object[] }) => input(view)?.element?.options?.map((o) => o.text.text);

describe('server text with nothing visible still draws a view Slack accepts', () => {
  it('an option title with nothing visible shows the option’s value instead', () => {
    const titled = viewOf({
      type: 'string',
      oneOf: [
        { const: 'a', title: '\u200B' },
        { const: 'b', title: 'B' },
      ],
    });
    const named = viewOf({ type: 'string', enum: ['a', 'b'], enumNames: ['\u202E', 'B'] });
    const many = viewOf({ type: 'array', items: { anyOf: [{ const: 'x', title: '\u2060\u200F' }] } });
    for (const view of [titled, named]) {
      expect(slackIssues(view)).toEqual([]);
      expect(texts(view)).toEqual(['a', 'B']);
    }
    expect(slackIssues(many)).toEqual([]);
    expect(texts(many)).toEqual(['x']);
  });

  it('an option value with nothing visible shows the numbered placeholder in the person’s language', () => {
    const c = { type: 'string', enum: ['\u200B', 'b'] };
    expect(slackIssues(viewOf(c))).toEqual([]);
    expect(texts(viewOf(c))).toEqual(['Option 1', 'b']);
    expect(texts(viewOf(c, 'zh-CN'))).toEqual(['选项 1', 'b']);
  });

  it('an option shown as the placeholder still answers its real value, in the form, suggestions and summary', () => {
    const values = ['\u202E', ...Array.from({ length: 120 }, (_, i) => `v${i}`)];
    const spec = parseFormSchema(schemaOf({ type: 'string', enum: values }));
    const view = formModal(spec, meta);
    expect(slackIssues(view)).toEqual([]);
    const content = { c: '\u202E' };
    expect(readSubmission(spec, stateFor(spec, view, content))).toEqual({ ok: true, content });
    const actionId = spec.fields[0]?.actionId ?? '';
    expect(suggestOptions(spec, actionId, '选项', 'zh-CN')).toEqual([
      { text: { type: 'plain_text', text: '选项 1', emoji: true }, value: 'o0' },
    ]);
    expect(answerLines(spec, content)).toEqual(['*c*: Option 1']);
  });

  it('a description with nothing visible gives the input no hint', () => {
    const view = viewOf({ type: 'string', description: '\u200B' });
    expect(slackIssues(view)).toEqual([]);
    expect(input(view)).not.toHaveProperty('hint');
  });

  it('any mix of invisible and visible titles, values and descriptions draws and reads back (property)', () => {
    const invisible = fc.constantFrom('\u200B', '\u202E', '\u2066', '\u2060', '\uFEFF', '\u200F', ' ');
    const text = fc
      .array(fc.oneof(invisible, fc.constantFrom('a', '详', '😀')), { maxLength: 4 })
      .map((parts) => parts.join(''));
    const titledOptions = fc.uniqueArray(fc.tuple(text, text), {
      minLength: 1,
      maxLength: 12,
      selector: ([value]) => value,
    });
    const field = fc.tuple(titledOptions, fc.constantFrom('enum', 'enumNames', 'oneOf', 'anyOf'), text);
    const locale = fc.constantFrom<Locale | undefined>(undefined, 'en', 'zh-CN');
    fc.assert(
      fc.property(field, locale, fc.nat(), ([list, variant, description], lang, pick) => {
        const values = list.map(([value]) => value);
        const titled = list.map(([value, title]) => ({ const: value, title }));
        const c =
          variant === 'anyOf'
            ? { type: 'array', description, items: { anyOf: titled } }
            : variant === 'oneOf'
              ? { type: 'string', description, oneOf: titled }
              : {
                  type: 'string',
                  description,
                  enum: values,
                  ...(variant === 'enumNames' && {
                    enumNames: list.map(([, title]) => title),
                  }),
                };
        const spec = parseFormSchema(schemaOf(c));
        const view = formModal(spec, { ...meta, ...(lang && { locale: lang }) });
        expect(slackIssues(view)).toEqual([]);
        const chosen = values[pick % values.length] ?? '';
        const content = { c: variant === 'anyOf' ? [chosen] : chosen };
        expect(readSubmission(spec, stateFor(spec, view, content))).toEqual({ ok: true, content });
      }),
      { numRuns: 300 },
    );
  });
});
