// Logs name methods, ids, sizes and statuses, never what people answer, what a tool was given or returned, or
// a secret: a whole flow at `trace` (the most verbose level) with distinctive values planted in each place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type CapturedLogs } from '../slack/log-capture.js';
import { BOT_TOKEN, SIGNING_SECRET, openForm, startHarness, type Harness } from './harness.js';

const ANSWER = 'answer-zebra-7731';
const TOOL_ARGUMENT = 'argument-walrus-4410';
const TOOL_OUTPUT = 'output-heron-9052';
const PLANTED = [ANSWER, TOOL_ARGUMENT, TOOL_OUTPUT, BOT_TOKEN, SIGNING_SECRET];

const CODE_FORM = {
  type: 'object',
  properties: { code: { type: 'string', title: 'Code' } },
  required: ['code'],
} as const;

describe('log content at trace level', () => {
  let h: Harness;
  let logs: CapturedLogs;
  beforeAll(async () => {
    logs = captureLogs('trace');
    h = await startHarness({ logger: logs.logger });
  });
  afterAll(async () => {
    await h.close();
  });

  it('logs no answer, tool argument, tool output or secret anywhere in a whole flow', async () => {
    const card = await h.ask('U1', CODE_FORM, `Please confirm ${TOOL_ARGUMENT}`);
    const viewId = await openForm(h, 'U1', card);
    const view = h.standin.view(viewId)?.view as { blocks: { type: string; block_id: string }[] };
    const input = view.blocks.find((b) => b.type === 'input');
    await h.driver.submitView({ userId: 'U1', viewId, values: { [input?.block_id ?? '']: ANSWER } });
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { code: ANSWER } });

    await h.driver.slashCommand({
      userId: 'U1',
      command: '/mcp',
      text: `run fixture echo {"text":"${TOOL_OUTPUT}"}`,
    });
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => JSON.stringify(c.args).includes(TOOL_OUTPUT),
      15_000,
    );

    expect(logs.lines.length).toBeGreaterThan(0);
    const leaks = logs.lines
      .map((line) => JSON.stringify(line))
      .filter((text) => PLANTED.some((planted) => text.includes(planted)));
    expect(leaks).toEqual([]);
  });
});
