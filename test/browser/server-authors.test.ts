// An MCP server author's sandbox: `elicit-relay sandbox --server …` with a stdio command line and a
// Streamable HTTP URL; the page lists each server's tools and runs them from a JSON arguments box.
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForStdout } from '../system/child.js';
import { sandboxPage, screenshots } from './harness.js';

const FIXTURE = 'test/fixtures/elicit-server.ts';

/** The fixture server over Streamable HTTP, as a child process; resolves with its port. */
async function startHttpFixture() {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, '--http', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr: '' })),
  );
  const [, port] = await waitForStdout({ child, done, stdout: () => stdout }, /listening (\d+)/);
  return { port: Number(port), stop: () => child.kill() };
}

describe('the sandbox for server authors, in Chromium', { timeout: 90_000 }, () => {
  let http: { port: number; stop: () => boolean } | undefined;
  // The sandbox points at the fixture over stdio, and at the same fixture over HTTP twice (by host, by name).
  const the = sandboxPage(async () => {
    http = await startHttpFixture();
    const url = `http://127.0.0.1:${http.port}/mcp`;
    const servers = [`node --import tsx ${FIXTURE}`, url, `remote=${url}`];
    return { args: ['sandbox', ...servers.flatMap((server) => ['--server', server])] };
  });
  afterAll(() => {
    http?.stop();
  });

  const tool = (name: string) => the.ada.getByRole('article', { name, exact: true });

  it("lists each added server, named from its file, its host or the name given, with its tools' descriptions", async ({
    task,
  }) => {
    const shot = screenshots('server-authors', task.name);
    const servers = the.ada.getByRole('listitem');
    for (const name of ['forms', 'elicit-server', `127.0.0.1-${http?.port ?? 0}`, 'remote']) {
      await servers.filter({ hasText: name }).first().waitFor();
    }
    await the.ada.getByRole('button', { name: 'elicit-server', exact: true }).click();
    await tool('ask').getByText('Elicits with the given requestedSchema').waitFor();
    await shot(the.ada, 'stdio server tools');
    await the.ada.getByRole('button', { name: 'remote', exact: true }).click();
    await the.ada.getByRole('heading', { name: 'Tools of remote' }).waitFor();
    await tool('echo').waitFor();
    await tool('ask').getByText('Elicits with the given requestedSchema').waitFor();
    await shot(the.ada, 'http server tools');
  });

  it("runs an author's tool from its arguments box, and the person answers its form", async ({ task }) => {
    const shot = screenshots('server-authors', task.name);
    await the.ada.getByRole('button', { name: 'elicit-server', exact: true }).click();
    const schema = {
      type: 'object',
      properties: { ok: { type: 'boolean', title: 'Ship it?' } },
      required: ['ok'],
    };
    await tool('ask')
      .getByRole('textbox', { name: 'Arguments for ask' })
      .fill(JSON.stringify({ message: 'Release 2.0 is ready.', schema }));
    await shot(the.ada, 'arguments');
    await tool('ask').getByRole('button', { name: 'Run ask' }).click();
    const card = the.ada.getByRole('article').filter({ hasText: 'Release 2.0 is ready.' });
    await card.getByRole('button', { name: 'Respond' }).click();
    const dialog = the.ada.getByRole('dialog');
    await dialog.getByRole('group', { name: 'Ship it?' }).getByLabel('Yes').check();
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    await the.ada.getByRole('article').filter({ hasText: 'ask on elicit-server finished' }).waitFor();
    const result = the.ada.getByRole('article').filter({ hasText: 'ask on elicit-server finished' });
    expect(await result.locator('.block.section').nth(1).innerText()).toBe(
      JSON.stringify({ action: 'accept', content: { ok: true } }),
    );
    await shot(the.ada, 'answered');
  });

  it("opens a tool's arguments form as Slack would, with errors under their field", async ({ task }) => {
    const shot = screenshots('server-authors', task.name);
    await the.ada.getByRole('button', { name: 'elicit-server', exact: true }).click();
    await tool('book').getByRole('button', { name: "Fill in book's form" }).click();
    const dialog = the.ada.getByRole('dialog');
    await dialog.getByText('Books a room').waitFor();
    await dialog.getByLabel('room').fill('blue');
    await dialog.getByLabel('people').fill('3');
    await dialog.getByRole('button', { name: 'Run' }).click();
    await dialog.getByText('Does not match the expected format').waitFor();
    await shot(the.ada, 'field error');
    await dialog.getByLabel('room').fill('Blue');
    await dialog.getByRole('button', { name: 'Run' }).click();
    await dialog.waitFor({ state: 'detached' });
    await the.ada
      .getByRole('article')
      .filter({ hasText: 'book on elicit-server finished' })
      .getByText('booked Blue for 3')
      .waitFor();
    await shot(the.ada, 'booked');
  });

  it('runs a tool of the HTTP server and refuses arguments that are not JSON', async ({ task }) => {
    const shot = screenshots('server-authors', task.name);
    await the.ada.getByRole('button', { name: 'remote', exact: true }).click();
    const args = tool('echo').getByRole('textbox', { name: 'Arguments for echo' });
    await args.fill('{text: hi}');
    await tool('echo').getByRole('button', { name: 'Run echo' }).click();
    await tool('echo').getByRole('alert').filter({ hasText: 'Not JSON' }).waitFor();
    await shot(the.ada, 'not json');
    await args.fill('{"text": "hello from HTTP"}');
    await tool('echo').getByRole('button', { name: 'Run echo' }).click();
    await the.ada
      .getByRole('article')
      .filter({ hasText: 'echo on remote finished' })
      .getByText('hello from HTTP')
      .waitFor();
    await shot(the.ada, 'echoed');
  });
});
