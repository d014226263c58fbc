// An MCP server author's sandbox: `elicit-relay sandbox --server …` with a stdio command line and a
// Streamable HTTP URL; the page lists each server's tools and runs them from a JSON arguments box.
import { spawn } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitForStdout } from '../system/child.js';
import {
  type Browser,
  type SandboxProcess,
  launchChromium,
  openAs,
  screenshots,
  startSandboxProcess,
} from './harness.js';

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
  let http: { port: number; stop: () => boolean };
  let sandbox: SandboxProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    http = await startHttpFixture();
    const url = `http://127.0.0.1:${http.port}/mcp`;
    sandbox = await startSandboxProcess({
      args: [
        'sandbox',
        '--server',
        `node --import tsx ${FIXTURE}`,
        '--server',
        url,
        '--server',
        `remote=${url}`,
      ],
    });
    page = await openAs(browser, sandbox.url, 'U0ADA', 'Ada Lovelace');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
    http?.stop();
  });
  afterEach(() => {
    expect(browser.offHost).toEqual([]);
  });

  const tool = (name: string) => page.getByRole('article', { name, exact: true });

  it("lists each added server, named from its file, its host or the name given, with its tools' descriptions", async ({
    task,
  }) => {
    const shot = screenshots('server-authors', task.name);
    const servers = page.getByRole('listitem');
    for (const name of ['forms', 'elicit-server', `127.0.0.1-${http.port}`, 'remote']) {
      await servers.filter({ hasText: name }).first().waitFor();
    }
    await page.getByRole('button', { name: 'elicit-server', exact: true }).click();
    await tool('ask').getByText('Elicits with the given requestedSchema').waitFor();
    await shot(page, 'stdio server tools');
    await page.getByRole('button', { name: 'remote', exact: true }).click();
    await page.getByRole('heading', { name: 'Tools of remote' }).waitFor();
    await tool('echo').waitFor();
    await tool('ask').getByText('Elicits with the given requestedSchema').waitFor();
    await shot(page, 'http server tools');
  });

  it("runs an author's tool from its arguments box, and the person answers its form", async ({ task }) => {
    const shot = screenshots('server-authors', task.name);
    await page.getByRole('button', { name: 'elicit-server', exact: true }).click();
    const schema = {
      type: 'object',
      properties: { ok: { type: 'boolean', title: 'Ship it?' } },
      required: ['ok'],
    };
    await tool('ask')
      .getByRole('textbox', { name: 'Arguments for ask' })
      .fill(JSON.stringify({ message: 'Release 2.0 is ready.', schema }));
    await shot(page, 'arguments');
    await tool('ask').getByRole('button', { name: 'Run ask' }).click();
    const card = page.getByRole('article').filter({ hasText: 'Release 2.0 is ready.' });
    await card.getByRole('button', { name: 'Respond' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('group', { name: 'Ship it?' }).getByLabel('Yes').check();
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('article').filter({ hasText: 'ask on elicit-server finished' }).waitFor();
    const result = page.getByRole('article').filter({ hasText: 'ask on elicit-server finished' });
    expect(await result.locator('.block.section').nth(1).innerText()).toBe(
      JSON.stringify({ action: 'accept', content: { ok: true } }),
    );
    await shot(page, 'answered');
  });

  it("opens a tool's arguments form as Slack would, with errors under their field", async ({ task }) => {
    const shot = screenshots('server-authors', task.name);
    await page.getByRole('button', { name: 'elicit-server', exact: true }).click();
    await tool('book').getByRole('button', { name: "Fill in book's form" }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Books a room').waitFor();
    await dialog.getByLabel('room').fill('blue');
    await dialog.getByLabel('people').fill('3');
    await dialog.getByRole('button', { name: 'Run' }).click();
    await dialog.getByText('Does not match the expected format').waitFor();
    await shot(page, 'field error');
    await dialog.getByLabel('room').fill('Blue');
    await dialog.getByRole('button', { name: 'Run' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('article')
      .filter({ hasText: 'book on elicit-server finished' })
      .getByText('booked Blue for 3')
      .waitFor();
    await shot(page, 'booked');
  });

  it('runs a tool of the HTTP server and refuses arguments that are not JSON', async ({ task }) => {
    const shot = screenshots('server-authors', task.name);
    await page.getByRole('button', { name: 'remote', exact: true }).click();
    const args = tool('echo').getByRole('textbox', { name: 'Arguments for echo' });
    await args.fill('{text: hi}');
    await tool('echo').getByRole('button', { name: 'Run echo' }).click();
    await tool('echo').getByRole('alert').filter({ hasText: 'Not JSON' }).waitFor();
    await shot(page, 'not json');
    await args.fill('{"text": "hello from HTTP"}');
    await tool('echo').getByRole('button', { name: 'Run echo' }).click();
    await page
      .getByRole('article')
      .filter({ hasText: 'echo on remote finished' })
      .getByText('hello from HTTP')
      .waitFor();
    await shot(page, 'echoed');
  });
});
