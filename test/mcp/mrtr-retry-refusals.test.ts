// A 2026 retry refused with -32602 was always said to be an expired requestState ('round_expired': "start
// again"), whatever the server meant. -32602 is any invalid params; only a refused requestState carries the SDKs'
// `data.reason: 'invalid_request_state'` (the requestState.verify seam's frozen answer). Any other -32602 on a
// retry (here the tool was disabled while people answered) now fails the call as 'tool_failed' with the server's
// own words, cut and quoted as its; a refused state is still 'round_expired' (mrtr.test.ts, its codec's TTL).
import { describe, expect, it } from 'vitest';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { SERVER_WORDS_MAX } from '../../src/mcp/rounds.js';
import { McpClientError } from '../../src/mcp/types.js';
import { CONFIRM, inputRequired, origin, scriptedHub } from './mrtr-scripted.js';

/**
 * A server whose tool `t` asks one question and is then disabled (as an operator would, while people answer), so
 * the retry is refused -32602 "Tool t disabled"; with `words`, the retry is refused -32602 with those instead.
 */
function retiringTool(words?: string) {
  let legs = 0;
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'retiring', version: '1.0.0' }, { capabilities: { tools: {} } });
      const tool = server.registerTool('t', { description: 't' }, () => {
        legs += 1;
        const ask = inputRequired.elicit({ message: 'OK?', requestedSchema: CONFIRM });
        return Promise.resolve(inputRequired({ inputRequests: { confirm: ask }, requestState: 'state-1' }));
      });
      if (legs > 0) tool.disable();
      return server;
    },
    { legacy: 'stateless' },
  );
  const fetch = async (request: Request): Promise<Response> => {
    if (legs === 0 || words === undefined) return handler.fetch(request);
    const sent: unknown = await request.json();
    const id = typeof sent === 'object' && sent !== null && 'id' in sent ? sent.id : null;
    return Response.json({ jsonrpc: '2.0', id, error: { code: -32602, message: words } });
  };
  return { fetch };
}

/** The call's failure, as code, message and JSON-RPC code. */
async function failureOf(handler: { fetch: (r: Request) => Promise<Response> }) {
  const { hub } = scriptedHub(handler, () => ({ action: 'accept', content: { ok: true } }));
  const error = await hub.callTool({ server: 'modern', tool: 't', args: {}, origin }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof McpClientError)) throw new Error(`expected McpClientError, got ${String(error)}`);
  return { code: error.code, message: error.message, rpcCode: error.rpcCode };
}

describe('a 2026 retry refused with -32602 for another reason than its requestState', () => {
  it('fails the call with the server’s own words, not as an expired round', async () => {
    expect(await failureOf(retiringTool())).toEqual({
      code: 'tool_failed',
      message:
        'modern refused the answers to round 1 of t as invalid params (JSON-RPC -32602); ' +
        'in its words: "Tool t disabled"',
      rpcCode: -32602,
    });
  });

  it('cuts a long message and quotes it, so it reads as the server’s', async () => {
    const words = `Unknown answer "x": ${'"quoted" '.repeat(200)}`;
    const { code, message } = await failureOf(retiringTool(words));
    expect(code).toBe('tool_failed');
    const quoted = message.slice(message.indexOf('in its words: ') + 'in its words: '.length);
    const shown: unknown = JSON.parse(quoted);
    expect(typeof shown === 'string' && shown.length).toBe(SERVER_WORDS_MAX);
    expect(typeof shown === 'string' && shown.endsWith('…')).toBe(true);
    expect(words.startsWith(String(shown).slice(0, -1))).toBe(true);
  });
});
