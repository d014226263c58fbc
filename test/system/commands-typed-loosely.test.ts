// `/mcp` as people type it on a phone or with a Chinese input method: the subcommand capitalised (`Run`), in
// upper case (`HELP`), in full-width letters (`ｓｅｒｖｅｒｓ`), with full-width spaces between the words. Each
// is read as the subcommand it names; server, tool and arguments stay as typed. Through the stand-in and Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandAnswer } from '../support/command-answers.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { redisUrl } from '../setup/context.js';
import { startHarness, type Harness } from './harness.js';

describe('/mcp typed loosely', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await deleteKeysUnder(redisUrl(), h.prefix);
  });

  const answerText = async (userId: string, text: string): Promise<string> => {
    const request = h.driver.slashCommandRequest({ userId, command: '/mcp', text });
    const { answer } = await commandAnswer((r) => h.driver.send(r), h.standin, request);
    return String(answer.args.text);
  };

  it('reads HELP, Servers and full-width ｔｏｏｌｓ as the subcommands they name', async () => {
    expect(await answerText('U1', 'HELP')).toMatch(/^\*Usage\*\n/);
    expect(await answerText('U1', ' Servers ')).toMatch(/`fixture` (connected|idle)/);
    expect(await answerText('U1', 'ｔｏｏｌｓ\u3000fixture')).toContain('Tools of');
  });

  it('runs a tool typed as `RUN` with full-width spaces, its arguments as typed', async () => {
    const args = JSON.stringify({ text: JSON.stringify({ said: 'ＲＵＮ Run' }) });
    expect(await answerText('U2', `RUN\u3000fixture\u3000echo\u3000${args}`)).toMatch(
      /^Running `echo` on `fixture`/,
    );
    expect(await h.toolResult('U2')).toEqual({ said: 'ＲＵＮ Run' });
  });

  it('still names an unknown subcommand as typed', async () => {
    expect(await answerText('U1', 'Launch fixture')).toContain('`Launch`');
  });
});
