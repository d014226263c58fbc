// What the system tests of the Automations API's questions share: three replicas on real Redis with the Slack
// stand-in, three API clients (the default, `other`, and `narrow`: only C0APPROVE, one question a minute), a
// channel, two user groups and twenty people to ask; and asking as the default client.
import { apiOf, cardWith, type Api, type Reply, type RequestOptions } from './api-support.js';
import { startHarness, type Harness } from './harness.js';

export const TOKEN = 'api-token-default-0123456789';
export const OTHER = 'api-token-other-0123456789';
export const NARROW = 'api-token-narrow-0123456789';
/** People enough for several multi-person DMs (Slack's conversations.open takes at most 8 besides the bot). */
export const TWENTY = Array.from({ length: 20 }, (_, n) => `U0MANY${n + 10}`);
export const TEN = Array.from({ length: 10 }, (_, n) => `U0GROUP${n + 10}`);
const SCHEMA = {
  type: 'object',
  properties: { reason: { type: 'string', title: 'Reason' } },
  required: ['reason'],
};

/** Asks U1 "Deploy to prod?" (a required Reason) as the default client; `extra` overrides the body's fields. */
export type Ask = (extra?: Record<string, unknown>, opts?: RequestOptions) => Promise<Reply>;
/** The card of question `id`, once posted. */
export type CardOf = (id: string) => ReturnType<typeof cardWith>;

export interface QuestionsRig {
  h: Harness;
  /** The API as the default client. */
  api: Api;
  ask: Ask;
  cardOf: CardOf;
}

export async function startQuestionsRig(): Promise<QuestionsRig> {
  const h = await startHarness({
    replicas: 3,
    env: { ELICIT_RELAY_API_TOKEN: TOKEN, OTHER_TOKEN: OTHER, ELICIT_RELAY_WEBHOOK_HOSTS: 'hooks.example' },
    config: {
      api: {
        clients: {
          other: { token: '${OTHER_TOKEN}' },
          narrow: { token: NARROW, targets: ['C0APPROVE'], ratePerMinute: 1 },
        },
      },
    },
    workspace: {
      channels: { C0APPROVE: ['U1', 'U2', 'U0STANDINBOT'] },
      usergroups: { S0ONCALL: ['U4', 'U5'], S0TEN: TEN },
    },
  });
  const api = apiOf(h, TOKEN);
  const ask: Ask = (extra = {}, opts = {}) =>
    api('POST', '/questions', {
      ...opts,
      body: { message: 'Deploy to prod?', requestedSchema: SCHEMA, to: { user: 'U1' }, ...extra },
    });
  return { h, api, ask, cardOf: (id) => cardWith(h, id) };
}
