// A tool's result in the person's DM, through the Slack stand-in and real Redis: long output as a snippet
// file, structured content as a summary, failures with their reason, a -32042 answer's links with Retry,
// and a "working…" message that progress (or a task's status) updates before the result.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateMessage } from '../../src/standin/index.js';
import { resultText } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';

const require = createRequire(import.meta.url);
const everythingDir = dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));

describe('tool results in Slack', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      servers: {
        everything: { command: process.execPath, args: [join(everythingDir, 'dist/index.js'), 'stdio'] },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  const run = async (userId: string, tool: string, args: object, server = 'fixture') =>
    h.driver.slashCommand({ userId, command: '/mcp', text: `run ${server} ${tool} ${JSON.stringify(args)}` });

  it('shows short output inline, within Slack’s limits and without link previews', async () => {
    await run('U1', 'lines', { count: 3 });
    const message = await h.posted('U1', 'lines on fixture finished');
    expect(resultText(message.args.blocks)).toBe('line 1\nline 2\nline 3');
    expect(message.args).toMatchObject({ unfurl_links: 'false', unfurl_media: 'false' });
    expect(validateMessage(message.args)).toEqual([]);
  });

  it('sends output longer than 40 lines as a snippet file in the DM, with the whole text', async () => {
    await run('U2', 'lines', { count: 120 });
    const note = await h.posted('U2', 'attached as a file');
    expect(JSON.stringify(note.args.blocks)).toContain('120 lines');
    const completed = await h.standin.waitForCall('files.completeUploadExternal', (c) => c.ok, 15_000);
    expect(completed.args.channel_id).toBe(h.standin.dmChannelOf('U2'));
    const shared = h.standin.messagesIn(h.standin.dmChannelOf('U2')).find((m) => m.files !== undefined);
    const fileId = String(shared?.files?.[0]?.id);
    expect(h.standin.file(fileId)?.content?.split('\n')).toHaveLength(120);
    expect(h.standin.file(fileId)?.content).toMatch(/^line 1\n[\s\S]*line 120$/);
  });

  it('shortens the output inline, saying so, when Slack refuses the file', async () => {
    h.standin.failNext('files.getUploadURLExternal', 'file_uploads_disabled');
    await run('U3', 'lines', { count: 60 });
    const shortened = await h.posted('U3', 'could not be attached');
    expect(resultText(shortened.args.blocks)).toContain('line 60');
  });

  it('attaches the file after a 429 on completing its upload, instead of shortening the output', async () => {
    h.standin.failNext('files.completeUploadExternal', 'ratelimited', { retryAfterSec: 1 });
    await run('U12', 'lines', { count: 50 });
    const dm = h.standin.dmChannelOf('U12');
    await h.standin.waitForCall(
      'files.completeUploadExternal',
      (c) => c.ok && c.args.channel_id === dm,
      15_000,
    );
    const shared = h.standin.messagesIn(dm).find((m) => m.files !== undefined);
    expect(h.standin.file(String(shared?.files?.[0]?.id))?.content).toMatch(/line 50$/);
    expect(JSON.stringify(h.standin.messagesIn(dm))).not.toContain('could not be attached');
  });

  it('shows structured content as a readable summary', async () => {
    await run('U4', 'weather', {});
    const message = await h.posted('U4', 'weather on fixture finished');
    const text = JSON.stringify(message.args.blocks);
    expect(text).toContain('Structured result');
    expect(text).toContain('• *temperature*: 21.5');
    expect(text).toContain('• *tags*: [\\"sunny\\",\\"dry\\"]');
  });

  it('shows a failed tool as an error with the server’s reason, escaped', async () => {
    await run('U5', 'fail', { reason: 'disk full <!channel>' });
    const message = await h.posted('U5', 'fail on fixture failed');
    expect(JSON.stringify(message.args.blocks)).toContain(':warning:');
    expect(resultText(message.args.blocks)).toBe('disk full <!channel>');
    expect(JSON.stringify(message.args.blocks)).not.toContain('<!channel>');
  });

  it('posts a result Slack rate-limits once its Retry-After has passed', async () => {
    // The DM is known before: the run's first post is its result.
    await run('U11', 'lines', { count: 1 });
    await h.posted('U11', 'lines on fixture finished');
    h.standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 1 });
    await run('U11', 'lines', { count: 2 });
    const result = await h.posted('U11', 'lines on fixture finished');
    expect(resultText(result.args.blocks)).toBe('line 1\nline 2');
    const dm = h.standin.dmChannelOf('U11');
    const refused = h.standin.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.channel === dm && c.error === 'ratelimited',
    );
    expect(refused).toHaveLength(1);
    expect(result.at - (refused[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_000);
  });

  it('shows the links a -32042 answer asks for, and reruns the call on Retry', async () => {
    await run('U6', 'require_url_once', { url: 'https://auth.example.com/sign-in' });
    const links = await h.posted('U6', 'needs you to open these links');
    expect(links.args).toMatchObject({ unfurl_links: 'false', unfurl_media: 'false' });
    expect(JSON.stringify(links.args.blocks)).toContain('"url":"https://auth.example.com/sign-in"');
    expect(validateMessage(links.args)).toEqual([]);
    const channel = h.standin.dmChannelOf('U6');
    const ts =
      h.standin.messagesIn(channel).find((m) => JSON.stringify(m.blocks).includes('mcp_retry'))?.ts ?? '';
    // The link button opens the browser; its click still reaches the bot, which acks it.
    expect((await h.driver.clickButton({ userId: 'U6', channel, ts, actionId: 'mcp_link_0' })).status).toBe(
      200,
    );
    await h.driver.clickButton({ userId: 'U6', channel, ts, actionId: 'mcp_retry' });
    const done = await h.posted('U6', 'require_url_once on fixture finished');
    expect(resultText(done.args.blocks)).toBe('signed in at https://auth.example.com/sign-in');
    expect(JSON.stringify(h.standin.message(channel, ts)?.blocks ?? [])).not.toContain('mcp_retry');
  });

  it('retries a -32042 call by itself once the server says every link is done; a click racing it changes nothing', async () => {
    // The automatic retry claims the call, then updates the message: held there, the button is still shown.
    const update = h.standin.holdNext('chat.update');
    await run('U9', 'require_url_then_complete', { url: 'https://auth.example.com/later', afterMs: 300 });
    await h.posted('U9', 'needs you to open these links');
    const channel = h.standin.dmChannelOf('U9');
    const ts =
      h.standin.messagesIn(channel).find((m) => JSON.stringify(m.blocks).includes('mcp_retry'))?.ts ?? '';
    await update.arrived;
    await h.driver.clickButton({ userId: 'U9', channel, ts, actionId: 'mcp_retry' });
    const refused = await h.standin.waitForCall('response_url', (c) =>
      JSON.stringify(c.args).includes('already being retried'),
    );
    expect(refused.args).toMatchObject({ response_type: 'ephemeral' });
    update.release();

    const done = await h.posted('U9', 'require_url_then_complete on fixture finished');
    expect(resultText(done.args.blocks)).toBe('signed in at https://auth.example.com/later');
    const links = h.standin.message(channel, ts);
    expect(links?.text).toContain('every link is done');
    expect(JSON.stringify(links?.blocks)).not.toContain('mcp_retry');
    const results = h.standin.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        String(c.args.text).includes('require_url_then_complete on fixture finished'),
    );
    expect(results).toHaveLength(1);
  });

  it('keeps one "working…" message updated while the tool reports progress, then posts the result', async () => {
    await run('U7', 'paced_progress', { steps: 4, pauseMs: 200 });
    const working = await h.posted('U7', 'is working');
    expect(JSON.stringify(working.args.blocks)).toMatch(/\d+% · step \d/);
    const result = await h.posted('U7', 'paced_progress on fixture finished');
    expect(resultText(result.args.blocks)).toBe('done');
    const ts = messageTs(h, 'U7', 'is done');
    const updates = h.standin.calls.filter((c) => c.method === 'chat.update' && c.args.ts === ts);
    expect(JSON.stringify(updates.at(-1)?.args.blocks)).toContain('is done');
  });

  it('shows a task’s status, then its result (server-everything simulate-research-query)', async () => {
    await run('U8', 'simulate-research-query', { topic: 'tides' }, 'everything');
    const working = await h.posted('U8', 'is working');
    expect(JSON.stringify(working.args.blocks)).toMatch(
      /Gathering sources|Analyzing content|Synthesizing|Generating/,
    );
    const result = await h.posted('U8', 'simulate-research-query on everything finished');
    expect(JSON.stringify(result.args)).toMatch(/Research Report: tides|attached as a file/);
  }, 60_000);
});

function messageTs(h: Harness, userId: string, marker: string): string | undefined {
  return h.standin
    .messagesIn(h.standin.dmChannelOf(userId))
    .find((m) => JSON.stringify(m.blocks).includes(marker))?.ts;
}
