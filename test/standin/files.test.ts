// File uploads on the stand-in as WebClient's filesUploadV2 makes them: files.getUploadURLExternal, a POST of
// the bytes to the upload URL, files.completeUploadExternal sharing the file in a conversation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webApi } from '@slack/bolt';
import { type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { BOT_TOKEN, callApi } from './helpers.js';

let standin: SlackStandin;

beforeEach(async () => {
  standin = await startSlackStandin({ botToken: BOT_TOKEN });
});
afterEach(() => standin.close());

describe('Slack stand-in: file uploads', () => {
  it('takes WebClient.filesUploadV2 end to end and shares the file in the channel with its content', async () => {
    const client = new webApi.WebClient(BOT_TOKEN, {
      slackApiUrl: standin.apiUrl,
      retryConfig: { retries: 0 },
    });
    const channel = standin.dmChannelOf('U1');
    const done = await client.filesUploadV2({
      channel_id: channel,
      content: 'line 1\nline 2 ✓',
      filename: 'out.txt',
      title: 'Output',
      snippet_type: 'text',
    });
    expect(done.ok).toBe(true);
    const [shared] = standin.messagesIn(channel);
    const id = String(shared?.files?.[0]?.id);
    expect(shared?.files?.[0]).toMatchObject({ name: 'out.txt', title: 'Output', mode: 'snippet' });
    expect(standin.file(id)?.content).toBe('line 1\nline 2 ✓');
  });

  it('answers an upload URL request without filename or length with invalid_arguments', async () => {
    expect((await callApi(standin, 'files.getUploadURLExternal', { filename: 'a.txt' })).body).toEqual({
      ok: false,
      error: 'invalid_arguments',
    });
    expect((await callApi(standin, 'files.getUploadURLExternal', { length: 3 })).body.error).toBe(
      'invalid_arguments',
    );
  });

  it('refuses to complete a file that was never uploaded, or twice, and an unknown channel', async () => {
    const { body } = await callApi(standin, 'files.getUploadURLExternal', { filename: 'a.txt', length: 3 });
    const files = [{ id: body.file_id as string }];
    expect((await callApi(standin, 'files.completeUploadExternal', { files })).body.error).toBe(
      'file_not_found',
    );
    const upload = await fetch(body.upload_url as string, { method: 'POST', body: 'abc' });
    expect([upload.status, await upload.text()]).toEqual([200, 'OK - 3']);
    expect((await fetch(body.upload_url as string, { method: 'POST', body: 'abc' })).status).toBe(404);
    const wrong = await callApi(standin, 'files.completeUploadExternal', { files, channel_id: 'Dnowhere' });
    expect(wrong.body.error).toBe('channel_not_found');
    expect((await callApi(standin, 'files.completeUploadExternal', { files })).body).toMatchObject({
      ok: true,
    });
    expect((await callApi(standin, 'files.completeUploadExternal', { files })).body.error).toBe(
      'file_not_found',
    );
    expect((await callApi(standin, 'files.completeUploadExternal', { files: 'nope' })).body.error).toBe(
      'invalid_arguments',
    );
  });
});
