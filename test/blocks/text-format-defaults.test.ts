// A text default is pre-filled only when the rule a submission is held to accepts it (ajv-formats, as in
// validate.ts), so the form never shows a default it then refuses; a date-time default without an offset (a
// moment only the process's time zone would pin down) is ignored, and the moment drawn does not depend on TZ.
import { afterEach, describe, expect, it } from 'vitest';
import { formModal } from '../../blocks/modal.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import { untouchedState } from './testing.js';

const withDefault = (format: string, value: string) =>
  parseFormSchema({ type: 'object', properties: { when: { type: 'string', format, default: value } } });
const defaultOf = (format: string, value: string) => withDefault(format, value).fields[0]?.default;

describe('text defaults held to the format rule of a submission', () => {
  it('ignores a date that is not on the calendar, keeps one that is', () => {
    for (const bad of ['2025-02-30', '2025-02-29', '2025-13-01', '2025-00-10', '2025-1-01'])
      expect(defaultOf('date', bad), bad).toBeUndefined();
    for (const good of ['2024-02-29', '2025-12-31']) expect(defaultOf('date', good)).toBe(good);
  });

  it('ignores a date-time without an offset, keeps RFC 3339 ones', () => {
    for (const bad of ['2025-01-02T10:00:00', '2025-01-02', '2025-02-30T10:00:00Z', 'tomorrow'])
      expect(defaultOf('date-time', bad), bad).toBeUndefined();
    for (const good of ['2025-01-02T10:00:00Z', '2025-01-02T10:00:00.5+05:30', '2025-01-02 10:00:00z'])
      expect(defaultOf('date-time', good)).toBe(good);
  });

  it('ignores an email or URL default the submission would refuse', () => {
    expect(defaultOf('email', 'nobody')).toBeUndefined();
    expect(defaultOf('email', 'ada@example.com')).toBe('ada@example.com');
    expect(defaultOf('uri', 'example dot com')).toBeUndefined();
    expect(defaultOf('uri', 'https://example.com')).toBe('https://example.com');
  });

  it('pre-fills what it keeps, and a form submitted untouched is accepted with it', () => {
    const cases: [string, string, unknown][] = [
      ['date', '2024-02-29', '2024-02-29'],
      // A date-time default left as drawn goes back as the server wrote it (submission.ts dateTime).
      ['date-time', '2025-01-02T10:00:00+01:00', '2025-01-02T10:00:00+01:00'],
      ['date-time', '2025-01-02t10:00:00z', '2025-01-02t10:00:00z'],
      ['email', 'ada@example.com', 'ada@example.com'],
    ];
    for (const [format, value, sent] of cases) {
      const spec = withDefault(format, value);
      const view = formModal(spec, { questionId: 'q', server: 's', message: 'm' });
      expect(readSubmission(spec, untouchedState(view)), value).toEqual({
        ok: true,
        content: { when: sent },
      });
    }
  });
});

describe('a date-time default drawn in any time zone', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('is the same moment whatever the process time zone', () => {
    const drawn = (tz: string) => {
      process.env.TZ = tz;
      const offset = new Date(Date.UTC(2025, 0, 2)).getTimezoneOffset();
      const spec = withDefault('date-time', '2025-01-02T10:00:00-08:00');
      const view = formModal(spec, { questionId: 'q', server: 's', message: 'm' });
      return { offset, state: untouchedState(view) };
    };
    const east = drawn('Pacific/Kiritimati');
    const west = drawn('America/Los_Angeles');
    // The zones did change for this process (otherwise the comparison would prove nothing).
    expect(east.offset).not.toBe(west.offset);
    expect(east.state).toEqual(west.state);
    expect(Object.values(east.state)[0]).toEqual({
      f0_when: { type: 'datetimepicker', selected_date_time: Date.UTC(2025, 0, 2, 18) / 1000 },
    });
  });
});
