// Pure translation between the wire and the relay: requests, results, errors, environment.
import { describe, expect, it } from 'vitest';
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError } from '@modelcontextprotocol/client';
import { parseElicitation, toElicitResult, toRpcError } from '../../src/mcp/elicitation.js';
import { callError, toToolResult } from '../../src/mcp/results.js';
import { childEnv, isLastingFailure } from '../../src/mcp/transport.js';
import { RelayError } from '../../src/relay/errors.js';

const schema = { type: 'object', properties: { name: { type: 'string' } } };

function rejection(params: unknown): ProtocolError {
  try {
    parseElicitation(params);
  } catch (error) {
    if (error instanceof ProtocolError) return error;
  }
  throw new Error('expected a ProtocolError');
}

/** What the Streamable HTTP transport throws for a refused request (SDK 2.x). */
const httpError = (status: number, text: string) =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, text, { status, statusText: text });

describe('parseElicitation', () => {
  it('treats a request without mode as form mode (revision 2025-06-18)', () => {
    expect(parseElicitation({ message: 'm', requestedSchema: schema })).toEqual({
      mode: 'form',
      message: 'm',
      requestedSchema: schema,
    });
  });

  it('keeps url-mode fields and drops the rest', () => {
    const params = {
      mode: 'url',
      message: 'm',
      url: 'https://example.com/a',
      elicitationId: 'e1',
      _meta: {},
    };
    expect(parseElicitation(params)).toEqual({
      mode: 'url',
      message: 'm',
      url: 'https://example.com/a',
      elicitationId: 'e1',
    });
  });

  it('rejects a url request without a valid url with -32602 naming the field', () => {
    const error = rejection({ mode: 'url', message: 'm', url: 'not a url', elicitationId: 'e1' });
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('url');
  });

  it('rejects a schema that is not an object schema with a one-line reason', () => {
    const error = rejection({ message: 'm', requestedSchema: { type: 'array' } });
    expect(error.code).toBe(-32602);
    expect(error.message).not.toContain('\n');
  });

  it('rejects a property with a wrongly typed keyword, naming the property', () => {
    const bad = { type: 'object', properties: { n: { type: 'number', minimum: 'low' } } };
    expect(rejection({ message: 'm', requestedSchema: bad }).message).toContain('property "n"');
  });

  it('rejects params that are not an object', () => {
    expect(rejection(null).code).toBe(-32602);
  });
});

describe('results and errors', () => {
  it('maps outcomes to ElicitResult, content only on accept', () => {
    expect(toElicitResult({ action: 'accept', content: { a: 1 } })).toEqual({
      action: 'accept',
      content: { a: 1 },
    });
    expect(toElicitResult({ action: 'cancel' })).toEqual({ action: 'cancel' });
  });

  it('maps sink failures to -32602 for invalid_schema and a generic -32603 otherwise', () => {
    expect(toRpcError(new RelayError('invalid_schema', 'bad "x"')).code).toBe(-32602);
    const internal = toRpcError(new RelayError('slack_post_failed', 'secret=abc'));
    expect(internal.code).toBe(-32603);
    expect(internal.message).not.toContain('secret');
  });

  it('joins text content and summarises the rest for people, and keeps the whole result as the server sent it', () => {
    const sent = {
      content: [
        { type: 'text', text: 'one' },
        { type: 'image', data: 'xx', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///a', name: 'a' },
        { type: 'text', text: 'two' },
      ],
      structuredContent: { ok: true },
      _meta: { trace: 't-1' },
    };
    const result = toToolResult(structuredClone(sent));
    expect(result).toEqual({
      isError: false,
      text: 'one\n[image]\n[link file:///a]\ntwo',
      structured: { ok: true },
      callResult: sent,
    });
  });

  it('classifies request failures: the SDK timed out or lost the connection, or the server answered an error', () => {
    expect(callError(new SdkError(SdkErrorCode.RequestTimeout, 'x'), 's', 'call').code).toBe('timeout');
    expect(callError(new SdkError(SdkErrorCode.ConnectionClosed, 'x'), 's', 'call').code).toBe(
      'connection_closed',
    );
    expect(callError(new ProtocolError(-32602, 'x'), 's', 'call')).toMatchObject({
      code: 'tool_failed',
      rpcCode: -32602,
    });
  });

  it('classifies transport failures: a forgotten HTTP session, a refused or reset connection', () => {
    expect(callError(httpError(404, 'Session not found'), 's', 'call').code).toBe('session_expired');
    expect(callError(httpError(502, 'Bad gateway'), 's', 'call').code).toBe('connection_closed');
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });
    expect(callError(refused, 's', 'call').code).toBe('connection_closed');
    expect(callError(new TypeError('not a function'), 's', 'call').code).toBe('tool_failed');
  });

  it('reads a plain failure after the session saw its connection close as connection_closed, not the tool failing', () => {
    // The SDK's request funnel rejects with a plain Error("Not connected") once its transport is gone.
    const notSent = new Error('Not connected');
    expect(callError(notSent, 's', 'call', undefined, true).code).toBe('connection_closed');
    expect(callError(notSent, 's', 'call').code).toBe('tool_failed');
    expect(callError(new ProtocolError(-32602, 'x'), 's', 'call', undefined, true).code).toBe('tool_failed');
    const timedOut = { timedOut: true, abortedByCaller: false };
    expect(callError(notSent, 's', 'call', timedOut, true).code).toBe('timeout');
  });

  it("says 'timeout' when the call's own timer expired and 'aborted' when its caller gave up", () => {
    const error = new ProtocolError(-32603, 'AbortError');
    expect(callError(error, 's', 'call', { timedOut: true, abortedByCaller: false }).code).toBe('timeout');
    expect(callError(error, 's', 'call', { timedOut: false, abortedByCaller: true }).code).toBe('aborted');
  });
});

describe('lasting connect failures (no automatic retry)', () => {
  const wrapped = (cause: unknown) => new Error('could not connect', { cause });
  it.each([
    ['a command that does not exist', Object.assign(new Error('spawn x ENOENT'), { code: 'ENOENT' })],
    ['HTTP 401', httpError(401, 'Unauthorized')],
    ['HTTP 404 from the legacy SSE endpoint too', new SseError(404, 'Not Found', {} as never)],
  ])('%s is lasting', (_, cause) => {
    expect(isLastingFailure(wrapped(cause))).toBe(true);
  });
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['HTTP 503', httpError(503, 'Unavailable')],
    ['HTTP 429', httpError(429, 'Too many')],
  ])('%s is worth a retry', (_, cause) => {
    expect(isLastingFailure(wrapped(cause))).toBe(false);
  });
});

describe('childEnv', () => {
  it('inherits only PATH and HOME, with the configured env on top', () => {
    const parent = { PATH: '/bin', HOME: '/home/bot', SLACK_BOT_TOKEN: 'xoxb-secret' };
    expect(childEnv({ API_KEY: 'k', PATH: '/opt/bin' }, parent)).toEqual({
      PATH: '/opt/bin',
      HOME: '/home/bot',
      API_KEY: 'k',
    });
  });
});
