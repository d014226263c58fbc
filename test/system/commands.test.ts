// `/mcp` through the Slack stand-in and real Redis: help, servers, tools, and `run` without arguments
// (the arguments form built from the tool's inputSchema, or a JSON field when it cannot be one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordedCall, validateMessage, validateView } from '../../src/standin/index.js';
import { childPids, startedChild } from '../support/child-pids.js';
import { commandAnswer } from '../support/command-answers.js';
import { resultText } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';

describe('/mcp commands', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ servers: { broken: { command: '/nonexistent/mcp-server' } } });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  const command = async (userId: string, text: string) =>
    h.driver.slashCommand({ userId, command: '/mcp', text });
  /** The command is acked empty at once; its private answer comes through its response_url. */
  const answerText = async (userId: string, text: string): Promise<string> => {
    const request = h.driver.slashCommandRequest({ userId, command: '/mcp', text });
    const { ack, answer } = await commandAnswer((r) => h.driver.send(r), h.standin, request);
    expect(ack).toMatchObject({ status: 200, body: '' });
    expect(answer.args.response_type).toBe('ephemeral');
    return String(answer.args.text);
  };
  /** The next private reply through the command's response_url that mentions `marker`. */
  const reply = (marker: string): Promise<RecordedCall> =>
    h.standin.waitForCall('response_url', (c) => JSON.stringify(c.args).includes(marker), 15_000);
  /** The next result message in the person's DM whose text includes `marker`. */
  const result = (userId: string, marker: string): Promise<RecordedCall> =>
    h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === h.standin.dmChannelOf(userId) && String(c.args.text).includes(marker),
      15_000,
    );
  /** The modal on top of the person's stack once `ready` holds for it. */
  const modal = async (userId: string, ready: (json: string) => boolean) => {
    await h.standin.waitForCall(
      'views.update',
      (c) => c.ok && ready(JSON.stringify(h.standin.openViews(userId).at(-1)?.view ?? {})),
      15_000,
    );
    const top = h.standin.openViews(userId).at(-1);
    if (!top) throw new Error('no modal open');
    return top;
  };
  const inputBlock = (view: { view: Record<string, unknown> }, label: string): string => {
    const blocks = view.view.blocks as { type: string; block_id: string; label?: { text: string } }[];
    const found = blocks.find((b) => b.type === 'input' && b.label?.text === label);
    if (!found) throw new Error(`no input labelled ${label}`);
    return found.block_id;
  };

  it('acks help, servers and malformed commands at once and answers them privately', async () => {
    expect(await answerText('U1', 'help')).toContain('/mcp tools &lt;server&gt;');
    expect(await answerText('U1', 'servers')).toMatch(/`fixture` (connected|idle)/);
    expect(await answerText('U1', 'run fixture ask {not json')).toContain('not valid JSON');
    expect(await answerText('U1', 'run nowhere ask {}')).toContain('no MCP server named `nowhere`');
    expect(await answerText('U1', 'tools')).toContain('Name a server');
    expect(await answerText('U1', 'frobnicate')).toContain('Unknown subcommand `frobnicate`');
  });

  it('answers in Chinese to a person whose Slack locale is zh-CN', async () => {
    expect(await answerText('UZH', 'help')).toContain('用法');
    expect(await answerText('UZH', 'run nowhere ask {}')).toContain('没有名为 `nowhere` 的 MCP 服务器');
  });

  it('lists a server’s tools privately: name, title, description and whether each takes arguments', async () => {
    await command('U2', 'tools fixture');
    const listed = await reply('Tools of fixture');
    expect(listed.args.response_type).toBe('ephemeral');
    expect(validateMessage(listed.args)).toEqual([]);
    const text = JSON.stringify(listed.args.blocks);
    expect(text).toContain('`book` _(takes arguments)_\\nBooks a room');
    expect(text).toContain('`pid` _(no arguments)_');
  });

  it('says which server it does not know when asked for its tools', async () => {
    expect(await answerText('U2', 'tools nowhere')).toContain('no MCP server named `nowhere`');
  });

  it('opens the arguments form at once, shows field errors inline, then runs the tool with typed arguments', async () => {
    await command('U3', 'run fixture book');
    const opened = await h.standin.waitForCall(
      'views.open',
      (c) => c.ok && h.standin.openViews('U3').length > 0,
    );
    expect(JSON.stringify(opened.args.view)).toContain('Loading');
    const form = await modal('U3', (json) => json.includes('Room name'));
    expect(validateView(form.view)).toEqual([]);
    const [room, people] = [inputBlock(form, 'room'), inputBlock(form, 'people')];
    const invalid = await h.driver.submitView({
      userId: 'U3',
      viewId: form.id,
      values: { [room]: 'blue', [people]: '2' },
    });
    expect(invalid.json).toMatchObject({
      response_action: 'errors',
      errors: { [room]: expect.any(String) as unknown },
    });
    const valid = await h.driver.submitView({
      userId: 'U3',
      viewId: form.id,
      values: { [room]: 'Blue', [people]: '4' },
    });
    expect(valid.body).toBe('');
    const posted = await result('U3', 'book on fixture finished');
    expect(resultText(posted.args.blocks)).toBe('booked Blue for 4');
  });

  it('asks for JSON arguments when the form engine cannot render the tool’s schema, checked against it', async () => {
    await command('U4', 'run fixture deploy');
    const form = await modal('U4', (json) => json.includes('mcp_run_json'));
    const values = (text: string) => ({ mcp_run_json: text });
    const broken = await h.driver.submitView({ userId: 'U4', viewId: form.id, values: values('{oops') });
    expect(broken.json).toMatchObject({
      response_action: 'errors',
      errors: { mcp_run_json: 'This is not valid JSON.' },
    });
    const wrong = await h.driver.submitView({
      userId: 'U4',
      viewId: form.id,
      values: values('{"target": {"env": "prod"}}'),
    });
    expect(JSON.stringify(wrong.json)).toContain('replicas');
    const good = '{"target": {"env": "prod", "replicas": 3}}';
    expect((await h.driver.submitView({ userId: 'U4', viewId: form.id, values: values(good) })).body).toBe(
      '',
    );
    expect(resultText((await result('U4', 'deploy on fixture finished')).args.blocks)).toBe(
      'deployed prod x3',
    );
  });

  it('checks a form whose schema is too large to carry along against the tool list again', async () => {
    await command('U7', 'run fixture survey');
    const form = await modal('U7', (json) => json.includes('Question 3'));
    const dm = h.standin.dmChannelOf('U7');
    expect(form.view.private_metadata).toBe(`{"s":"fixture","t":"survey","c":"${dm}"}`);
    const q3 = inputBlock(form, 'q3');
    expect((await h.driver.submitView({ userId: 'U7', viewId: form.id, values: { [q3]: 'yes' } })).body).toBe(
      '',
    );
    expect(resultText((await result('U7', 'survey on fixture finished')).args.blocks)).toBe('{"q3":"yes"}');
  });

  it('runs a tool that takes no arguments at once, saying so in the modal', async () => {
    await command('U5', 'run fixture pid');
    const notice = await modal('U5', (json) => json.includes('Running'));
    expect(notice.view.submit ?? null).toBeNull();
    expect(resultText((await result('U5', 'pid on fixture finished')).args.blocks)).toMatch(/^\d+$/);
  });

  it('says why when the server cannot be reached, privately and in the form', async () => {
    await command('U8', 'tools broken');
    const listed = await reply('Could not list the tools of');
    expect(JSON.stringify(listed.args)).toContain('`broken`');
    await command('U8', 'run broken anything');
    const notice = await modal('U8', (json) => json.includes('Could not list the tools of'));
    expect(notice.view.submit ?? null).toBeNull();
  });

  it('tells the person in the modal when the tool does not exist', async () => {
    await command('U6', 'run fixture nosuchtool');
    const notice = await modal('U6', (json) => json.includes('nosuchtool'));
    expect(JSON.stringify(notice.view)).toContain('has no tool named');
  });

  it('opens the person’s MCP session and DM while the run’s “Running…” note is on its way, and runs the tool there', async () => {
    // The server's own (control) session lists its tools: it is open before the count starts.
    expect(await answerText('U9', 'tools fixture')).toContain('Tools of fixture');
    const before = childPids();
    const held = h.standin.holdNext('response_url');
    await command('U9', 'run fixture pid {}');
    await held.arrived;
    const warmed = await startedChild(before);
    // The run's place, the person's DM, is looked up meanwhile too.
    await h.standin.waitForCall('conversations.open', (c) => c.args.users === 'U9', 5_000);
    held.release();
    expect(resultText((await result('U9', 'pid on fixture finished')).args.blocks)).toBe(String(warmed));
  });

  it('opens the person’s MCP session and DM while they fill the arguments form, and runs the tool there', async () => {
    expect(await answerText('U10', 'tools fixture')).toContain('Tools of fixture');
    const before = childPids();
    await command('U10', 'run fixture book');
    const form = await modal('U10', (json) => json.includes('Room name'));
    const warmed = await startedChild(before);
    await h.standin.waitForCall('conversations.open', (c) => c.args.users === 'U10', 5_000);
    const [room, people] = [inputBlock(form, 'room'), inputBlock(form, 'people')];
    await h.driver.submitView({ userId: 'U10', viewId: form.id, values: { [room]: 'Red', [people]: '3' } });
    const posted = await result('U10', 'book on fixture finished');
    expect(resultText(posted.args.blocks)).toBe('booked Red for 3');
    expect(childPids().filter((pid) => !before.includes(pid))).toEqual([warmed]);
  });
});
