// `/mcp run <server> <tool> {JSON}` checks the arguments typed inline against the tool's inputSchema, by the
// validator its arguments form uses, before the call starts: arguments that break it are answered privately
// through the command's response_url, in the person's language, naming each failing argument by its JSON Pointer
// and what it expects, with the way to the form; the tool is not called. Arguments that pass go as typed (no
// defaults, no coercion), and so do those of a tool whose schema the bot cannot check. Before, every inline
// argument went to the server unchecked ("Running…", then the server's own failure, or a run with wrong input).
// The Slack part driven through Bolt, its MCP side a recording tool runner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';
import { SignInError, type ToolCall } from '../../src/mcp/index.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

const BOT_TOKEN = 'xoxb-run-inline-args';
const CHINESE_READER = 'U0ZHINLINE';
const NOT_SIGNED_IN = 'U0NOSIGNIN';
/** How long a test waits for Slack's stand-in to see the call it expects, in ms. */
const WAIT_MS = 10_000;

const TOOLS = [
  {
    name: 'create',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2 },
        count: { type: 'integer', minimum: 1, default: 5 },
        color: { type: 'string', enum: ['red', 'green'] },
        target: {
          type: 'object',
          properties: { ids: { type: 'array', items: { type: 'integer' }, maxItems: 3 } },
          additionalProperties: false,
        },
      },
      required: ['name'],
    },
  },
  // Draft 4's boolean exclusive bound (OpenAPI 3.0's): read as the bound it means.
  {
    name: 'legacy',
    inputSchema: {
      type: 'object',
      properties: { ratio: { type: 'number', minimum: 0, exclusiveMinimum: true } },
    },
  },
  // A `$ref` ajv cannot resolve: the bot cannot check this schema, so its arguments go as typed, as before.
  {
    name: 'opaque',
    inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } },
  },
  // Breaks draft-07 (`minimum` a string): the form refuses to run it, and so does the inline command.
  {
    name: 'broken',
    inputSchema: { type: 'object', properties: { count: { type: 'integer', minimum: '1' } } },
  },
];

/** One server, `fixture`, listing TOOLS; every call is recorded, arguments as received. */
function recordingTools(calls: ToolCall[]): ToolRunner {
  return {
    serverNames: () => ['fixture'],
    status: () => [],
    // A person who never signed in: the listing, in their session, waited for a sign-in that did not happen.
    listTools: (server, person) =>
      person.userId === NOT_SIGNED_IN
        ? Promise.reject(new SignInError('sign_in_timeout', server, `no sign-in to ${server} within 600 s`))
        : Promise.resolve(TOOLS),
    refusedTools: () => Promise.resolve([]),
    callTool: (call) => {
      calls.push(call);
      return Promise.resolve({ isError: false, text: `ran ${call.tool}` });
    },
    warm: () => undefined,
  };
}

describe('/mcp run with inline arguments the tool’s inputSchema refuses', () => {
  let standin: SlackStandin;
  let part: RunningSlackPart;
  const calls: ToolCall[] = [];

  beforeAll(async () => {
    standin = await startSlackStandin({
      botToken: BOT_TOKEN,
      users: { [CHINESE_READER]: { name: 'mei', realName: 'Mei', locale: 'zh-CN' } },
    });
    part = await startSlackPart({ standin, botToken: BOT_TOKEN, tools: recordingTools(calls) });
  });
  afterAll(async () => {
    await part.close();
    await standin.close();
  });

  /** Runs `/mcp <text>` as `userId`; resolves with the private answer to it (through its response_url). */
  async function answerTo(userId: string, text: string): Promise<string> {
    const request = part.driver.slashCommandRequest({ userId, command: '/mcp', text });
    const sent = await part.driver.send(request);
    expect(sent.status).toBe(200);
    // Recorded by path: the answer to this command, not another's.
    const url = 'form' in request ? request.form.response_url : undefined;
    if (url === undefined) throw new Error('a slash command carries a response_url');
    const path = new URL(url).pathname;
    const reply = await standin.waitForCall(
      'response_url',
      (call) => call.args.response_url === path,
      WAIT_MS,
    );
    return String(reply.args.text);
  }

  /** Runs `text` as `userId` and waits for the tool's result in their DM. */
  async function ran(userId: string, text: string, tool: string): Promise<void> {
    await part.driver.slashCommand({ userId, command: '/mcp', text });
    await standin.waitForCall(
      'chat.postMessage',
      (call) =>
        call.ok &&
        call.args.channel === standin.dmChannelOf(userId) &&
        JSON.stringify(call.args).includes(`ran ${tool}`),
      WAIT_MS,
    );
  }

  const callsOf = (userId: string) => calls.filter((call) => call.origin.userId === userId);

  it('answers in English naming each failing argument by its JSON Pointer and what it expects, and calls nothing', async () => {
    const args = '{"count": "x", "color": "blue", "target": {"ids": [1, "b", 3, 4], "extra": true}}';
    const text = await answerTo('U0INLINEEN', `run fixture create ${args}`);
    expect(text, 'the person must be told the tool was not run, and why').toContain(
      '`create` on `fixture` was not run: its arguments do not match the tool’s input schema. Nothing was sent to `fixture`.',
    );
    expect(text).toContain('• `/name`: This field is required');
    expect(text).toContain('• `/count`: Must be a whole number');
    expect(text).toContain('• `/color`: Must be one of: `"red"`, `"green"`');
    expect(text).toContain('• `/target/ids`: Must have at most 3 items');
    expect(text).toContain('• `/target/ids/1`: Must be a whole number');
    expect(text).toContain('• `/target/extra`: Not allowed here: the tool’s schema does not take it');
    expect(text, 'the answer must say how to fix it: the form among the ways').toContain(
      'run `/mcp run fixture create` without arguments to fill them in a form',
    );
    expect(text).not.toContain('Running');
    // A good run afterwards reaches the tool: the refused one never did.
    await ran('U0INLINEEN', 'run fixture create {"name": "ok"}', 'create');
    expect(callsOf('U0INLINEEN').map((call) => call.args)).toEqual([{ name: 'ok' }]);
  });

  it('answers a person whose Slack is in Chinese in Chinese, with the same paths', async () => {
    const text = await answerTo(CHINESE_READER, 'run fixture create {"name": "a", "count": 0}');
    expect(text).toContain(
      '未运行 `fixture` 上的 `create`：参数不符合该工具的输入模式。没有向 `fixture` 发送任何内容。',
    );
    expect(text).toContain('• `/name`：必须至少为 2 个字符');
    expect(text).toContain('• `/count`：必须至少为 1');
    expect(text).toContain('或不带参数运行 `/mcp run fixture create`，在逐项检查的表单中填写。');
    expect(text).not.toMatch(/Running|was not run/);
    expect(callsOf(CHINESE_READER)).toEqual([]);
  });

  it('reads draft 4’s boolean exclusiveMinimum as the bound it means', async () => {
    const text = await answerTo('U0INLINELEGACY', 'run fixture legacy {"ratio": 0}');
    expect(text).toContain('• `/ratio`: Must be more than 0');
    expect(callsOf('U0INLINELEGACY')).toEqual([]);
  });

  it('refuses a tool whose inputSchema is malformed, naming the property, as its form does', async () => {
    const text = await answerTo('U0INLINEBROKEN', 'run fixture broken {"count": 2}');
    expect(text).toContain('`broken` on `fixture` cannot run: its input schema is malformed');
    expect(text).toContain('property "count": "minimum" must be number');
    expect(callsOf('U0INLINEBROKEN')).toEqual([]);
  });

  it('says so, and does not run the tool, when the listing waited for a sign-in that did not happen', async () => {
    const text = await answerTo(NOT_SIGNED_IN, 'run fixture create {"name": "ok"}');
    expect(text).toBe(
      'Could not list the tools of `fixture`: signing in to the server did not complete (`sign_in_timeout`)',
    );
    expect(callsOf(NOT_SIGNED_IN), 'the run would only ask the person to sign in again').toEqual([]);
  });

  it('refuses numbers a double would round, naming each by its JSON Pointer, and sends exact ones as typed', async () => {
    const user = 'U0INLINENUMBERS';
    const text = await answerTo(
      user,
      'run fixture create {"name": "ab", "target": {"ids": [1, 9007199254740993]}}',
    );
    expect(text).toContain(
      '`create` on `fixture` was not run: its arguments hold numbers that cannot be sent exactly as typed. Nothing was sent to `fixture`.',
    );
    expect(text).toContain(
      '• `/target/ids/1`: Too large to send exactly: enter a whole number from -9007199254740991 to 9007199254740991',
    );
    // Whatever the schema says: one the bot cannot check, and one whose bound only the rounded number broke.
    const opaque = await answerTo(
      user,
      'run fixture opaque {"a": {"big": 1e400, "fine": 0.1000000000000000001}}',
    );
    expect(opaque).toContain('• `/a/big`: Too large to send: use a number from -1.7976931348623157e308 to');
    expect(opaque).toContain('• `/a/fine`: Too precise to send exactly: use at most 15 significant digits');
    const zh = await answerTo(CHINESE_READER, 'run fixture legacy {"ratio": 1e-400}');
    expect(zh).toContain('• `/ratio`：数值过于接近 0，无法精确发送');
    expect(zh, 'the number’s problem, not the bound the rounded 0 broke').not.toContain('必须大于 0');
    expect([...callsOf(user), ...callsOf(CHINESE_READER)]).toEqual([]);
    await ran(
      user,
      'run fixture opaque {"a": [1.50, 1e3, -0, 0.30000000000000004, 9007199254740992]}',
      'opaque',
    );
    expect(callsOf(user).map((call) => call.args)).toEqual([
      { a: [1.5, 1000, -0, 0.30000000000000004, 2 ** 53] },
    ]);
  });

  it('sends arguments that pass as typed, no default added, and those of a schema it cannot check as before', async () => {
    // Refused first, so the check is on (before it, this command ran the tool with a string count).
    const refused = await answerTo('U0INLINEPASS', 'run fixture create {"name": "ab", "count": "3"}');
    expect(refused).toContain('• `/count`: Must be a whole number');
    await ran('U0INLINEPASS', 'run fixture create {"name": "ab", "count": 3, "color": "red"}', 'create');
    await ran('U0INLINEPASS', 'run fixture opaque {"a": {"anything": [1, "x"]}}', 'opaque');
    expect(callsOf('U0INLINEPASS').map((call) => [call.tool, call.args])).toEqual([
      ['create', { name: 'ab', count: 3, color: 'red' }],
      ['opaque', { a: { anything: [1, 'x'] } }],
    ]);
  });
});

describe('/mcp run’s “Running…” note for a tool the server did not list', () => {
  let standin: SlackStandin;
  let part: RunningSlackPart;

  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    part = await startSlackPart({ standin, botToken: BOT_TOKEN, tools: recordingTools([]) });
  });
  afterAll(async () => {
    await part.close();
    await standin.close();
  });

  it('shows the typed tool name as code cut to 200 characters, a backtick in it made a quote', async () => {
    // Before, the name went in whole: 5,000 characters of it, and its backtick ended the code span early.
    const tool = `a\`*b*${'x'.repeat(5_000)}`;
    const request = part.driver.slashCommandRequest({
      userId: 'U0RUNNOTE',
      command: '/mcp',
      text: `run fixture ${tool} {}`,
    });
    expect((await part.driver.send(request)).status).toBe(200);
    const reply = await standin.waitForCall(
      'response_url',
      (call) => String(call.args.text).startsWith('Running'),
      WAIT_MS,
    );
    const text = String(reply.args.text);
    expect(text).toMatch(/^Running `a'\*b\*x+…` on `fixture`…$/);
    expect(text.length).toBeLessThan(250);
  });
});
