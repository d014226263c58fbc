// One form for several form requests of a 2026 round (src/mcp/round-form.ts): names stay apart per request,
// and one outcome becomes each request's own answer.
import { describe, expect, it } from 'vitest';
import { combineForms } from '../../src/mcp/round-form.js';

const ask = (message: string, properties: object, required: string[] = []) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties, required },
});

describe('combineForms', () => {
  it('keeps two requests’ same-named fields apart and gives each request back only its own answer', () => {
    const combined = combineForms([
      ['from', ask('Ship from?', { city: { type: 'string' } }, ['city'])],
      ['to', ask('Ship to?', { city: { type: 'string', title: 'Town' } })],
    ]);
    expect(combined?.request.requestedSchema).toMatchObject({
      properties: { '1.city': { title: 'city' }, '2.city': { title: 'Town' } },
      required: ['1.city'],
    });
    const answers = combined?.split({ action: 'accept', content: { '1.city': 'Oslo', '2.city': 'Rome' } });
    expect(answers).toEqual([
      ['from', { action: 'accept', content: { city: 'Oslo' } }],
      ['to', { action: 'accept', content: { city: 'Rome' } }],
    ]);
  });

  it('fills each request’s own defaults for the fields left empty', () => {
    const combined = combineForms([
      ['a', ask('A?', { n: { type: 'integer', default: 3 } })],
      ['b', ask('B?', { n: { type: 'integer', default: 7 }, note: { type: 'string' } })],
    ]);
    expect(combined?.split({ action: 'accept', content: { '2.note': 'hi' } })).toEqual([
      ['a', { action: 'accept', content: { n: 3 } }],
      ['b', { action: 'accept', content: { note: 'hi', n: 7 } }],
    ]);
  });

  it('gives every request the combined form’s decline or cancel', () => {
    const combined = combineForms([
      ['a', ask('A?', {})],
      ['b', ask('B?', { x: { type: 'boolean' } })],
    ]);
    expect(combined?.split({ action: 'decline' })).toEqual([
      ['a', { action: 'decline' }],
      ['b', { action: 'decline' }],
    ]);
    expect(combined?.split({ action: 'cancel' })).toEqual([
      ['a', { action: 'cancel' }],
      ['b', { action: 'cancel' }],
    ]);
  });

  it('leaves requests asked alone when together they exceed one form’s 100 fields', () => {
    const sixty = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, { type: 'string' }]));
    expect(
      combineForms([
        ['a', ask('A?', sixty)],
        ['b', ask('B?', sixty)],
      ]),
    ).toBeUndefined();
  });

  it('refuses an invalid request with the -32602 it gets when asked alone', () => {
    expect(() =>
      combineForms([
        ['a', ask('A?', {})],
        ['b', { mode: 'form', message: 1 }],
      ]),
    ).toThrow(expect.objectContaining({ code: -32602 }));
  });
});
