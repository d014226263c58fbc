// What the end-to-end system tests share: a form of every field kind, opening a question's form from its card,
// and the card's end as the bot updates it.
import { expect } from 'vitest';
import type { Harness } from './harness.js';

export const EVERY_KIND = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 2 },
    note: { type: 'string', description: 'Optional remark' },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    count: { type: 'integer', minimum: 1, maximum: 10 },
    agree: { type: 'boolean', title: 'I agree' },
    colour: { type: 'string', enum: ['red', 'green', 'blue'] },
  },
  required: ['name', 'ratio', 'count', 'agree', 'colour'],
} as const;

/** Clicks Respond on `card` as `userId` and resolves with the modal that opened. */
export async function openForm(
  h: Harness,
  userId: string,
  card: { channel: string; ts: string },
): Promise<string> {
  const click = await h.driver.clickButton({ userId, ...card, actionId: 'elicit_respond' });
  expect(click.status).toBe(200);
  await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews(userId).length > 0, 10_000);
  const [view] = h.standin.openViews(userId);
  if (!view) throw new Error('no modal open');
  return view.id;
}

/** Resolves once `card` was updated to show `status`, without its Respond button. */
export async function expectCardEnded(
  h: Harness,
  card: { channel: string; ts: string },
  status: string,
): Promise<void> {
  const updated = await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts);
  const blocks = JSON.stringify(updated.args.blocks);
  expect(blocks).not.toContain('elicit_respond');
  expect(blocks).toContain(status);
}
