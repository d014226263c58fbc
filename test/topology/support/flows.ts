// The system suite's core flows, run against whatever topology `redisEnv` describes: two in-process replicas
// (the system harness) plus, for the holder-killed flow, a third replica as a child process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackDriver } from '../../../src/standin/index.js';
import type { RedisConfig } from '../../../src/config/index.js';
import { QuestionStore, SWEEP_EVERY_MS } from '../../../src/store/index.js';
import { fixtureCommand } from '../../setup/compiled.js';
import { loadRedisConfig } from '../../support/config.js';
import { questionIdOnCard } from '../../support/slack-text.js';
import { freePort, runCli, waitUntilReady, type CliRun } from '../../system/child.js';
import { BOT_TOKEN, SIGNING_SECRET, openForm, startHarness, type Harness } from '../../system/harness.js';
import { CHILD_START_MS, KILLED_LEASE_MS } from '../../system/child-replicas.js';

export const SCHEMA = {
  type: 'object',
  properties: { reason: { type: 'string', title: 'Reason' } },
  required: ['reason'],
};

/** Longest wait for the doomed replica's card: a new MCP session's start-up, slow on a busy machine. */
const CARD_WAIT_MS = 30_000;

/**
 * Longest the holder-killed flow may take once its replica is up: the card, its lease (KILLED_LEASE_MS) lapsing,
 * a survivor's sweep.
 */
export const HOLDER_KILLED_MS = KILLED_LEASE_MS + SWEEP_EVERY_MS + CARD_WAIT_MS + 20_000;

/** The RedisSetting the bot reads from `redisEnv`, with `prefix`. */
export function redisSetting(redisEnv: Record<string, string>, prefix: string): RedisConfig {
  return loadRedisConfig({ ...redisEnv, REDIS_PREFIX: prefix });
}

/**
 * Two replicas on the topology, with a `quick` server whose questions time out after 2 s. Each replica's MCP
 * servers are connected before it returns (listing their tools waits for that), so the first flow does not
 * pay their start-up within its 15 s wait for a card.
 */
export async function startOn(redisEnv: Record<string, string>): Promise<Harness> {
  const h = await startHarness({ redisEnv, replicas: 2, moreFixtures: { quick: { timeout: '2s' } } });
  const lists = h.replicas.flatMap((r) => ['fixture', 'quick'].map((server) => r.listTools(server, 'UWARM')));
  await Promise.all(lists);
  return h;
}

/** Opens the form on replica `via` and submits it there; the holder (replica 0) relays the answer. */
export async function accept(h: Harness, userId: string, via = 0): Promise<void> {
  const driver = h.drivers[via];
  if (!driver) throw new Error(`no replica ${via}`);
  const card = await h.ask(userId, SCHEMA);
  const viewId = await openForm(h, userId, card);
  const block = (h.standin.view(viewId)?.view.blocks as { type: string; block_id: string }[]).find(
    (b) => b.type === 'input',
  )?.block_id;
  const submit = await driver.submitView({ userId, viewId, values: { [block ?? '']: 'ship it' } });
  expect(submit.body).toBe('');
  expect(await h.toolResult(userId)).toEqual({ action: 'accept', content: { reason: 'ship it' } });
}

export async function decline(h: Harness, userId: string): Promise<void> {
  const card = await h.ask(userId, SCHEMA);
  await h.driver.clickButton({ userId, ...card, actionId: 'elicit_decline' });
  expect(await h.toolResult(userId)).toEqual({ action: 'decline' });
  await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts);
}

export async function timeout(h: Harness, userId: string): Promise<void> {
  const card = await h.run(userId, 'ask', { message: 'Anyone?', schema: SCHEMA }, 'quick');
  expect(await h.toolResult(userId)).toEqual({ action: 'cancel' });
  const update = await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts);
  expect(JSON.stringify(update.args.blocks)).toMatch(/expired|timed out|No answer/i);
}

/**
 * A replica of `h`'s deployment on the topology, as a child process with the lease KILLED_LEASE_MS, once it logged
 * that it is ready.
 */
async function startDoomed(h: Harness, redisEnv: Record<string, string>): Promise<Doomed> {
  const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-topology-'));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { fixture: fixtureCommand() } }));
  const port = await freePort();
  const run = runCli(
    {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: h.standin.apiUrl,
      REDIS_PREFIX: h.prefix,
      PORT: String(port),
      ELICIT_RELAY_CONFIG: config,
      ELICIT_RELAY_REPLICA_LEASE: `${KILLED_LEASE_MS}ms`,
      ...redisEnv,
    },
    [],
    'compiled',
  );
  const doomed = { run, port };
  try {
    await waitUntilReady(run);
  } catch (error) {
    await stopDoomed(doomed);
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return doomed;
}

interface Doomed {
  run: CliRun;
  port: number;
}

async function stopDoomed(doomed: Doomed | undefined): Promise<void> {
  doomed?.run.child.kill('SIGKILL');
  await doomed?.run.done;
}

/**
 * The replica `doomed` holding the MCP session is SIGKILLed with a question pending: a survivor in `h` sees its
 * lease lapse and ends the question as holder_lost, updating the card once.
 */
async function holderKilled(
  h: Harness,
  doomed: Doomed,
  redisEnv: Record<string, string>,
  userId: string,
): Promise<void> {
  let ts: unknown;
  try {
    ts = await askAndKill(h, doomed.run, doomed.port, redisEnv, userId);
  } finally {
    // Also when a step above failed, so no holder outlives the test.
    await stopDoomed(doomed);
  }
  const updated = await h.standin.waitForCall(
    'chat.update',
    (c) => c.ok && c.args.ts === ts,
    HOLDER_KILLED_MS,
  );
  expect(JSON.stringify(updated.args.blocks)).toContain('connection to the server was lost');
  expect(h.standin.calls.filter((c) => c.method === 'chat.update' && c.args.ts === ts)).toHaveLength(1);
}

/**
 * The killed-holder flow on `h()` over `redisEnv()`, as `userId`. Its replica starts in the block's own hook,
 * not in the test: a start-up slowed by the machine's load is no part of the sweep's bound.
 */
export function describeHolderKilled(
  h: () => Harness,
  redisEnv: () => Record<string, string>,
  userId: string,
): void {
  describe('with a replica that will be killed', () => {
    let doomed: Doomed | undefined;
    beforeAll(async () => {
      doomed = await startDoomed(h(), redisEnv());
    }, CHILD_START_MS);
    afterAll(() => stopDoomed(doomed));

    it(
      'sweeps the question of a killed holder as holder_lost',
      { timeout: HOLDER_KILLED_MS + 10_000 },
      () => {
        if (!doomed) throw new Error('the doomed replica did not start');
        return holderKilled(h(), doomed, redisEnv(), userId);
      },
    );
  });
}

/** Asks through the `doomed` replica and SIGKILLs it once the card is recorded; returns the card's ts. */
async function askAndKill(
  h: Harness,
  doomed: CliRun,
  port: number,
  redisEnv: Record<string, string>,
  userId: string,
): Promise<unknown> {
  const driver = new SlackDriver({
    eventsUrl: `http://127.0.0.1:${port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    standin: h.standin,
  });
  const ask = { message: 'Still there?', schema: SCHEMA };
  await driver.slashCommand({ userId, command: '/mcp', text: `run fixture ask ${JSON.stringify(ask)}` });
  const channel = h.standin.dmChannelOf(userId);
  // The card's ts is stored with the question once the post succeeded; the holder dies after that.
  await h.standin.waitForCall(
    'chat.postMessage',
    (c) => c.ok && c.args.channel === channel && JSON.stringify(c.args.blocks).includes('elicit_respond'),
    CARD_WAIT_MS,
  );
  const card = h.standin.messagesIn(channel).find((m) => JSON.stringify(m.blocks).includes('elicit_respond'));
  const store = await QuestionStore.open({ ...redisSetting(redisEnv, h.prefix), holderId: 'inspector' });
  try {
    // Killed once the card is recorded with the question (nothing announces that step, so look for it).
    const id = questionIdOnCard(card?.blocks);
    while (!(await store.get(id))?.card) await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    await store.close();
  }
  doomed.child.kill('SIGKILL');
  return card?.ts;
}

/**
 * The flows every topology must carry, on one harness over `redisEnv()` (read when the block starts, so a
 * topology started in an outer beforeAll serves it): accept, decline, timeout, an answer handled by another
 * replica, and a killed holder's question swept.
 */
export function describeCoreFlows(redisEnv: () => Record<string, string>): void {
  describe('the core flows', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startOn(redisEnv());
    }, 60_000);
    afterAll(() => h?.close());

    it('relays an accepted form', () => accept(h, 'U1'));
    it('relays a decline and updates the card', () => decline(h, 'U2'));
    it('times a question out', () => timeout(h, 'U3'));
    it('delivers an answer handled by another replica to the holder', () => accept(h, 'U4', 1));
    describeHolderKilled(() => h, redisEnv, 'U5');
  });
}
