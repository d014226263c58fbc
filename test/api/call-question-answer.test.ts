// PRODUCT "Automations contract": once a question has ended, GET /api/v1/questions/{id} answers in `result`
// exactly what an MCP server received. For a call's question (POST /calls) the MCP server is the call's, and its
// holder has the answer before the client reads it: the record keeps the content all the same (the store's
// keepsContent). One real replica on real Redis (own prefix, deleted after), the stand-in and the fixture server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, cardWith, type Api } from '../system/api-support.js';
import { openForm, startHarness, type Harness } from '../system/harness.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { Contract, openApiDoc } from './support.js';

const TOKEN = 'call-answer-token-0123456789';
const SCHEMA = {
  type: 'object',
  properties: { reason: { type: 'string', title: 'Reason' } },
  required: ['reason'],
};

describe("a call's accepted question, read through the API", () => {
  let h: Harness;
  let api: Api;
  let contract: Contract;
  beforeAll(async () => {
    h = await startHarness({ replicas: 1, env: { ELICIT_RELAY_API_TOKEN: TOKEN } });
    api = apiOf(h, TOKEN);
    contract = new Contract(openApiDoc((await api('GET', '/openapi.json', { token: null })).body));
  });
  afterAll(async () => {
    await h.close();
    await deleteUnder(h.prefix);
  });

  it(
    'answers the content its MCP server received, after the call has ended',
    { timeout: 60_000 },
    async () => {
      const message = 'A call question whose answer is read back?';
      const created = await api('POST', '/calls', {
        body: { server: 'fixture', tool: 'ask', arguments: { message, schema: SCHEMA }, as: { user: 'U1' } },
      });
      expect(created.status).toBe(202);
      const callId = String(created.body.id);
      const card = await cardWith(h, message);
      const questionId = questionIdOnCard(card.call.args.blocks);
      const viewId = await openForm(h, 'U1', card);
      const block =
        (h.standin.view(viewId)?.view.blocks as { type: string; block_id: string }[]).find(
          (b) => b.type === 'input',
        )?.block_id ?? '';
      await h.driver.submitView({ userId: 'U1', viewId, values: { [block]: 'ship it' } });
      const call = await api('GET', `/calls/${callId}?wait=30`);
      expect(contract.problems('GET', '/calls/{id}', call)).toEqual([]);
      // What the MCP server received: the fixture's tool echoes its ElicitResult as the call's text result.
      const received = { action: 'accept', content: { reason: 'ship it' } };
      expect(call.body).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: JSON.stringify(received) }] },
        questions: [questionId],
      });
      const question = await api('GET', `/questions/${questionId}`);
      expect(contract.problems('GET', '/questions/{id}', question)).toEqual([]);
      expect(question.body.result).toEqual(received);
    },
  );
});
