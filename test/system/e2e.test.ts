// End to end: Slack stand-in → bot (real Bolt, real Redis) → fixture MCP server over stdio, and back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const EVERY_KIND = {
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

const blockOf = (h: Harness, viewId: string, label: string): string => {
  const view = h.standin.view(viewId)?.view as {
    blocks: { type: string; block_id: string; label?: { text: string } }[];
  };
  const block = view.blocks.find((b) => b.type === 'input' && b.label?.text.startsWith(label));
  if (!block) throw new Error(`no input labelled ${label}`);
  return block.block_id;
};

async function openForm(h: Harness, userId: string, card: { channel: string; ts: string }): Promise<string> {
  const click = await h.driver.clickButton({ userId, ...card, actionId: 'elicit_respond' });
  expect(click.status).toBe(200);
  await h.standin.waitForCall('views.open', (c) => c.ok && c.args.trigger_id !== undefined, 10_000);
  const [view] = h.standin.openViews(userId);
  if (!view) throw new Error('no modal open');
  return view.id;
}

describe('one elicitation, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('accepts a form of every field kind, with content typed by the schema and empty optionals absent', async () => {
    const card = await h.ask('U1', EVERY_KIND);
    const viewId = await openForm(h, 'U1', card);
    const submit = await h.driver.submitView({
      userId: 'U1',
      viewId,
      values: {
        [blockOf(h, viewId, 'Your name')]: 'Ada',
        [blockOf(h, viewId, 'ratio')]: '0.25',
        [blockOf(h, viewId, 'count')]: '3',
        [blockOf(h, viewId, 'I agree')]: 'Yes',
        [blockOf(h, viewId, 'colour')]: 'green',
      },
    });
    expect(submit.status).toBe(200);
    expect(submit.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({
      action: 'accept',
      content: { name: 'Ada', ratio: 0.25, count: 3, agree: true, colour: 'green' },
    });
    const updated = await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts);
    expect(JSON.stringify(updated.args.blocks)).not.toContain('elicit_respond');
  });
});
