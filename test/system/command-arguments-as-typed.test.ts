// `/mcp run <server> <tool> <JSON>` gives the tool the arguments the person typed: Chinese quotation marks and
// typographic apostrophes inside a JSON string are their text (only curly quotes standing where JSON's quotes
// go are mended), and the `&amp;` `&lt;` `&gt;` escapes Slack puts in every command's text are decoded before
// the JSON is read. Driven through the stand-in, whose driver sends the text escaped as Slack does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandAnswer } from '../support/command-answers.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { redisUrl } from '../setup/context.js';
import { startHarness, type Harness } from './harness.js';

describe('/mcp run arguments as typed', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await deleteKeysUnder(redisUrl(), h.prefix);
  });

  /** Runs the fixture's echo with `said` as its JSON text, typed as given; resolves with the command's answer. */
  const runEcho = async (userId: string, said: string): Promise<string> => {
    // The echo answers the text it got; the harness reads a result as JSON, so the text is JSON.
    const typed = `run fixture echo ${JSON.stringify({ text: JSON.stringify({ said }) })}`;
    const request = h.driver.slashCommandRequest({ userId, command: '/mcp', text: typed });
    const { answer } = await commandAnswer((r) => h.driver.send(r), h.standin, request);
    return String(answer.args.text);
  };

  it('passes Chinese quotation marks inside a JSON string argument to the tool unchanged', async () => {
    // “ ” are the ordinary quotation marks of Chinese text; here they sit inside a correctly quoted JSON string.
    const reply = await runEcho('UZH', '他说“你好”，然后走了');
    expect(reply, 'valid JSON whose string holds “ ” must run, not be refused as bad JSON').not.toContain(
      '不是有效的 JSON',
    );
    expect(await h.toolResult('UZH')).toEqual({ said: '他说“你好”，然后走了' });
  });

  it('passes a typographic apostrophe inside a JSON string argument to the tool unchanged', async () => {
    await runEcho('U1', 'Let’s ship it');
    expect(await h.toolResult('U1'), 'a ’ inside a JSON string is the person’s text').toEqual({
      said: 'Let’s ship it',
    });
  });

  it('gives the tool the characters the person typed, not Slack’s &amp; &lt; &gt; escapes', async () => {
    const request = h.driver.slashCommandRequest({ userId: 'U2', command: '/mcp', text: 'a < b && c > d' });
    // The stand-in sends what Slack sends: the text escaped (else this test would prove nothing).
    expect('form' in request ? request.form.text : '').toBe('a &lt; b &amp;&amp; c &gt; d');
    await runEcho('U2', 'a < b && c > d &lt;');
    expect(
      await h.toolResult('U2'),
      'the command text must be unescaped (&amp; last) before its JSON is read',
    ).toEqual({ said: 'a < b && c > d &lt;' });
  });
});
