// A distributed app's listeners get their workspace's Web API client, and Bolt keeps none per bot token. Bolt 5.1
// makes a client for each bot token it is authorized with and keeps it for the app's life (App.js WebClientPool):
// with Slack's token rotation a workspace's token changes about every 10 h, so every refresh left a ~27 KB client
// behind (~190 MB a month at 100 workspaces). Each request here comes after a reinstall gave the workspace a new
// bot token; the test holds only WeakRefs to the clients its listener was given, and every client of an older
// token must be collected.
import type { BlockButtonAction, SlackActionMiddlewareArgs, AllMiddlewareArgs } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackApp, type SlackApp } from '../../src/slack/app.js';
import { Outbox, SlackState } from '../../src/slack/index.js';
import { InteractionRoutes } from '../../src/slack/listeners/routes.js';
import type { SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { collectGarbage } from '../support/collected.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { installRotating, startRotatingStandin } from '../support/rotating-install.js';
import { captureLogs } from './log-capture.js';

const OAUTH = {
  clientId: '1111.5555',
  clientSecret: 'listener-clients-secret',
  stateSecret: 'state-secret-of-sixteen-plus',
};
const TEAM = 'T0LISTEN';
const ACTION = 'listener-clients-probe';
/** Reinstalls, each giving the workspace a new bot token, with one request after each. */
const ROTATIONS = 8;
const prefix = uniquePrefix();

let standin: SlackStandin;
let outbox: Outbox;
let state: SlackState;
let slack: SlackApp;
/** What the probe's listener was given, per request: only a WeakRef to the client, and its token. */
const given: { client: WeakRef<object>; token: string | undefined }[] = [];
/** The client Bolt itself passed its middleware, per request. */
const bolts: WeakRef<object>[] = [];

type Click = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/** A button click in TEAM as Slack sends it, handed to Bolt as its receiver does. */
async function click(): Promise<void> {
  const body = {
    type: 'block_actions',
    team: { id: TEAM, domain: 'listen' },
    user: { id: 'U0CLICKER', username: 'clicker', name: 'clicker', team_id: TEAM },
    api_app_id: 'A0LISTEN',
    token: 'verification',
    trigger_id: '1.2.3',
    actions: [
      {
        type: 'button',
        action_id: ACTION,
        block_id: 'b',
        action_ts: '1.1',
        text: { type: 'plain_text', text: 'Go' },
      },
    ],
    is_enterprise_install: false,
    enterprise: null,
  };
  await slack.app.processEvent({ body, ack: () => Promise.resolve() });
}

beforeAll(async () => {
  standin = await startRotatingStandin(OAUTH, TEAM);
  outbox = await Outbox.open({ url: redisUrl(), prefix });
  state = await SlackState.open({ url: redisUrl(), prefix, holderId: 'listener-clients' });
  slack = createSlackApp({
    slack: {
      mode: 'http',
      signingSecret: 'listener-clients',
      auth: 'oauth',
      oauth: OAUTH,
      apiUrl: standin.apiUrl,
    },
    logger: captureLogs().logger,
    isLive: () => true,
    readiness: () => Promise.resolve({ ok: true }),
    outbox,
    state,
  });
  slack.app.use(async ({ client, next }) => {
    bolts.push(new WeakRef(client));
    await next();
  });
  const routes = new InteractionRoutes();
  routes.action(ACTION, async ({ ack, client }: Click) => {
    await ack();
    given.push({ client: new WeakRef(client), token: client.token });
  });
  routes.mount(slack.app);
  await slack.app.init();
});
afterAll(async () => {
  await outbox.close();
  await state.close();
  await standin.close();
  await deleteUnder(prefix);
});

describe('the Web API client a listener is given in a distributed app', () => {
  const tokens: (string | undefined)[] = [];
  beforeAll(async () => {
    for (let n = 0; n < ROTATIONS; n += 1) {
      const installed = await installRotating(standin, state.installations, {
        app: OAUTH,
        teamId: TEAM,
        now: Date.now,
      });
      tokens.push(installed.bot?.token);
      await click();
    }
    await collectGarbage();
  });

  it('is the workspace’s current one, and the clients of its earlier bot tokens are let go', () => {
    expect(given.map((g) => g.token)).toEqual(tokens);
    expect(new Set(tokens).size).toBe(ROTATIONS);
    const kept = given.slice(0, -1).filter((g) => g.client.deref() !== undefined);
    expect(kept).toEqual([]);
  });

  it('leaves Bolt no client of its own per bot token', () => {
    expect(bolts).toHaveLength(ROTATIONS);
    const alive = new Set(bolts.map((ref) => ref.deref()).filter((client) => client !== undefined));
    expect(alive.size).toBeLessThanOrEqual(1);
  });

  it('is the one the calls outside listeners use for that workspace', async () => {
    await click();
    const outside = await slack.clients.for(TEAM);
    expect(given.at(-1)?.client.deref()).toBe(outside);
  });
});
