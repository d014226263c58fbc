// The token exchange at the company IdP (src/mcp/auth/enterprise.ts) told apart by the IdP's answer: a refusal
// of the ID token (OAuth invalid_grant or invalid_token) ends the person's IdP sign-in (onExchangeRefused); a
// 503, another OAuth error or an IdP that cannot be reached leaves it (onExchangeFailed), and the call fails
// to be made again. A local HTTP server plays the IdP's token endpoint; nothing else is reached.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EnterpriseProvider,
  ExchangeFailedError,
  ExchangeRefusedError,
} from '../../../src/mcp/auth/enterprise.js';
import { memoryStorage } from '../../../src/mcp/index.js';

/** What the IdP's token endpoint answers next: a status and a JSON body. */
let answer: { status: number; body: object } = { status: 503, body: {} };
let idp: Server;
let tokenEndpoint: string;

beforeAll(async () => {
  idp = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body)),
    );
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  tokenEndpoint = `http://127.0.0.1:${(idp.address() as AddressInfo).port}/token`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => idp.close(() => resolve()));
});

/** One exchange at `endpoint`: which hook was told, and the error the SDK's auth() gets. */
async function exchange(endpoint: string): Promise<{ told: string[]; error: unknown }> {
  const told: string[] = [];
  const provider = new EnterpriseProvider(
    {
      clientId: 'relay-at-as',
      idp: { clientId: 'relay-at-idp', tokenEndpoint: endpoint },
      idToken: () => Promise.resolve('id-token'),
      onExchangeRefused: () => Promise.resolve(void told.push('refused')),
      onExchangeFailed: () => void told.push('failed'),
    },
    memoryStorage(),
  );
  provider.saveAuthorizationServerUrl('https://as.example');
  provider.saveResourceUrl('https://mcp.example/mcp');
  const error = await provider.prepareTokenRequest().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { told, error };
}

describe('a token exchange the company IdP does not answer with an ID-JAG', () => {
  it('ends the IdP sign-in only when the IdP refuses the ID token (invalid_grant, invalid_token)', async () => {
    for (const error of ['invalid_grant', 'invalid_token']) {
      answer = { status: 400, body: { error, error_description: 'the ID token is not exchanged' } };
      const outcome = await exchange(tokenEndpoint);
      expect(outcome.told).toEqual(['refused']);
      expect(outcome.error).toBeInstanceOf(ExchangeRefusedError);
    }
  });

  it('keeps the sign-in through a 503, another OAuth error, or an IdP that cannot be reached', async () => {
    const unreachable = await new Promise<string>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(`http://127.0.0.1:${port}/token`));
      });
    });
    const answers = [
      { status: 503, body: {} },
      { status: 400, body: { error: 'temporarily_unavailable' } },
    ];
    for (const next of answers) {
      answer = next;
      const outcome = await exchange(tokenEndpoint);
      expect(outcome.told, JSON.stringify(next)).toEqual(['failed']);
      expect(outcome.error).toBeInstanceOf(ExchangeFailedError);
    }
    const outcome = await exchange(unreachable);
    expect(outcome.told).toEqual(['failed']);
    expect(outcome.error).toBeInstanceOf(ExchangeFailedError);
  });
});
