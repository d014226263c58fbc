// An Enterprise Grid org that installs the app org-wide gets its forms' view_submission and view_closed with
// `team: null` and the org in `enterprise` (Slack's view payload reference: team is "Null if the app is
// org-installed"). Its people still answer and close their own questions' forms; a person of another org, or a
// question a single workspace's installation asked, is still refused as asked elsewhere.
import type { ViewClosedAction, ViewSubmitAction } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FORM_CALLBACK, formModal, parseFormSchema } from '../../blocks/index.js';
import type { AnswerPolicy } from '../../src/answering/decide.js';
import { systemClock } from '../../src/clock.js';
import type { EndReason, Outcome, Question } from '../../src/relay/types.js';
import { closeForm, submitForm } from '../../src/slack/listeners/views/form.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { uniquePrefix } from '../setup/context.js';
import { answeringWith } from '../support/answering.js';
import { deferred, type Deferred } from '../support/deferred.js';
import { question } from '../support/question.js';
import { startBoltApp, viewSubmission, type RunningBoltApp } from './support.js';

const BOT_TOKEN = 'xoxb-org-installed-forms';
const ORG = 'E0GRIDORG';
const [HOME_TEAM, OTHER_TEAM] = ['T0GRIDONE', 'T0GRIDTWO'];
/** An org's person: one W… id in every workspace of the org. */
const ADA = 'W0ADA';
const NAME = { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] };
const CANCEL_ON_CLOSE: AnswerPolicy = { review: 'never', onClose: 'cancel' };

interface Ended {
  id: string;
  outcome: Outcome;
  reason: EndReason;
}

describe('forms of an org-wide installation (payloads with team: null)', () => {
  let standin: SlackStandin;
  let app: RunningBoltApp;
  const questions = new Map<string, Question>();
  const ended: Ended[] = [];
  /** Settled once the close listener has acted (it acts after its ack). */
  let closeActed: Deferred<void> = deferred();

  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    const appId = standin.identity.appId;
    const ask = (id: string, origin: Partial<Question['origin']>): void => {
      const origins = { userId: ADA, teamId: HOME_TEAM, appId, ...origin };
      questions.set(
        id,
        question({ id, userId: ADA, origin: origins, requestedSchema: NAME, deadline: 1e15 }),
      );
    };
    ask('q-org', { enterpriseId: ORG });
    ask('q-org-closed', { enterpriseId: ORG });
    ask('q-workspace', {});
    const answering = answeringWith(
      {
        store: {
          get: (id) => Promise.resolve(questions.get(id)),
          draft: () => Promise.resolve(undefined),
          saveDraft: () => Promise.resolve(true),
        },
        relay: {
          end: async (id, outcome, reason, options = {}) => {
            ended.push({ id, outcome, reason });
            const stored = questions.get(id) ?? question({ id });
            const result = {
              won: true as const,
              question: { ...stored, state: 'accepted' as const, reason },
            };
            await options.beforeCard?.(result);
            return result;
          },
        },
        clock: systemClock,
      },
      CANCEL_ON_CLOSE,
    );
    app = await startBoltApp({
      standin,
      botToken: BOT_TOKEN,
      signingSecret: 'org-installed-forms-secret',
      prefix: uniquePrefix(),
      holderId: 'org-installed-forms',
      listen: (slack) => {
        const deps = { answering, surface: slack.surface };
        slack.app.view<ViewSubmitAction>(FORM_CALLBACK, (args) => submitForm(args, deps));
        slack.app.view<ViewClosedAction>({ callback_id: FORM_CALLBACK, type: 'view_closed' }, (args) =>
          closeForm(args, deps).finally(() => closeActed.resolve()),
        );
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await standin.close();
  });
  beforeEach(() => {
    ended.length = 0;
    closeActed = deferred();
  });

  /** Question `id`'s form as the bot draws it, with `typed` in its one input. */
  const form = (id: string, typed: string): Record<string, unknown> => {
    const drawn = formModal(parseFormSchema(NAME), { questionId: id, server: 'srv', message: 'Name?' });
    const input = drawn.blocks.find((block) => block.type === 'input');
    const blockId = input?.block_id ?? '';
    const value = { type: 'plain_text_input', value: typed };
    return {
      ...drawn,
      id: `V-${id}`,
      team_id: HOME_TEAM,
      state: { values: { [blockId]: { [blockId]: value } } },
    };
  };
  /** A payload of `type` for `view` as Slack sends it for an org-installed app: no team, the org named. */
  const orgInstalled = (type: string, view: Record<string, unknown>, org = ORG): Record<string, unknown> => ({
    ...viewSubmission(standin, ADA, view),
    type,
    team: null,
    user: { id: ADA, username: 'ada', name: 'ada', team_id: org },
    is_enterprise_install: true,
    enterprise: { id: org, name: 'Grid' },
  });

  it("takes a submit of the org's form that names no workspace, as Slack sends it", async () => {
    const reply = await app.driver.send({ payload: orgInstalled('view_submission', form('q-org', 'Ada')) });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('');
    expect(ended).toEqual([
      { id: 'q-org', outcome: { action: 'accept', content: { name: 'Ada' } }, reason: 'answered' },
    ]);
  });

  it("takes a submit from another workspace of the question's org", async () => {
    const payload = {
      ...orgInstalled('view_submission', form('q-org', 'Ada')),
      team: { id: OTHER_TEAM, domain: 'grid-two', enterprise_id: ORG },
    };
    const reply = await app.driver.send({ payload });
    expect(reply.body).toBe('');
    expect(ended.map((end) => end.reason)).toEqual(['answered']);
  });

  it("cancels on a close of the org's form that names no workspace", async () => {
    const view = form('q-org-closed', '');
    const reply = await app.driver.send({
      payload: { ...orgInstalled('view_closed', view), is_cleared: false },
    });
    expect(reply.status).toBe(200);
    await closeActed.promise;
    expect(ended).toEqual([{ id: 'q-org-closed', outcome: { action: 'cancel' }, reason: 'closed' }]);
  });

  it.each([
    ['from another org', 'q-org', 'E0OTHERORG'],
    ["for a question a workspace's own installation asked", 'q-workspace', ORG],
  ])('refuses a submit naming no workspace %s, saying it was asked elsewhere', async (_, id, org) => {
    const reply = await app.driver.send({
      payload: orgInstalled('view_submission', form(id, 'Mallory'), org),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('asked in another workspace or app');
    expect(ended).toEqual([]);
  });
});
