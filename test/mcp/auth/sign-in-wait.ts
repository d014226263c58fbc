// The sign-in wait tests' two sides on the shared auth fixture: the bot's Connect start page and callback route,
// served for one replica's connections on a local HTTP server, and an MCP hub whose calls to the tracker wait for
// the person's sign-in on another (or the same) replica, its Connect messages kept instead of sent.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CALLBACK_PATH,
  McpHub,
  PersonAuth,
  type SignInNeeded,
  type SignInPrompter,
} from '../../../src/mcp/index.js';
import { START_PATH } from '../../../src/slack/sign-in-links.js';
import { signInCallback } from '../../../src/slack/sign-in-callback.js';
import { signInStart } from '../../../src/slack/sign-in-start.js';
import { SERVER, type AuthFixture, type AuthReplica } from './support.js';

/** What the person's browser sees on the bot's callback page. */
export interface Landing {
  status: number;
  /** The page's outcome code (`data-code`), null when it has none. */
  code: string | null;
  /** The outcome's text. */
  text: string;
}

export interface SignInPages {
  /** The pages' origin, e.g. `http://127.0.0.1:PORT`. */
  base: string;
  /** The browser landing on the callback with the query the authorization server redirected with. */
  land: (redirect: URL) => Promise<Landing>;
  close: () => Promise<void>;
}

/** The bot's start page and callback route for `replica`'s connections, on a port of their own. */
export async function startSignInPages({ connections }: AuthReplica): Promise<SignInPages> {
  const logger = { warn: () => {}, error: () => {} };
  const start = signInStart({ connections, ownerOf: () => Promise.resolve({}), logger });
  const callback = signInCallback({ connections, connected: () => Promise.resolve(), logger });
  const http = createServer((req, res) =>
    (req.url?.startsWith(START_PATH) === true ? start : callback)(req, res),
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const land = async (redirect: URL): Promise<Landing> => {
    const response = await fetch(`${base}${CALLBACK_PATH}${redirect.search}`);
    const html = await response.text();
    const code = /data-code="([^"]*)"/.exec(html)?.[1] ?? null;
    const text = /<p id="outcome"[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ?? '';
    return { status: response.status, code, text };
  };
  const close = (): Promise<void> => new Promise<void>((resolve) => http.close(() => resolve()));
  return { base, land, close };
}

export interface WaitingHub {
  hub: McpHub;
  /** The first Connect message a call asked for (within 5 s). */
  firstPrompt: () => Promise<SignInNeeded>;
}

/**
 * A hub for `fixture`'s tracker (every question it asks declined) whose calls wait for a sign-in on `replica`:
 * `prompter` told of each Connect message, the wait `waitMs` (default the bot's, 10 min), at most
 * `maxSessionsPerPerson` sessions a person (default the hub's).
 */
export function trackerHub(
  fixture: AuthFixture,
  replica: AuthReplica,
  options: { prompter: SignInPrompter; waitMs?: number; maxSessionsPerPerson?: number },
): McpHub {
  const { prompter, waitMs, maxSessionsPerPerson } = options;
  return new McpHub({
    servers: [
      {
        name: SERVER,
        transport: { kind: 'http', url: fixture.server.url.href, headers: {} },
        elicitationTimeoutMs: 60_000,
      },
    ],
    sink: { ask: () => Promise.resolve({ action: 'decline' }) },
    ...(maxSessionsPerPerson === undefined ? {} : { maxSessionsPerPerson }),
    auth: new PersonAuth({
      grants: replica.grants,
      wakes: replica.wakes,
      prompter,
      ...(waitMs === undefined ? {} : { waitMs }),
    }),
  });
}

/** A tracker hub whose calls wait up to `waitMs` for a sign-in on `replica`, its Connect messages kept. */
export function waitingHub(fixture: AuthFixture, replica: AuthReplica, waitMs: number): WaitingHub {
  const prompts: SignInNeeded[] = [];
  const prompter = {
    prompt: (need: SignInNeeded) => {
      prompts.push(need);
      return Promise.resolve();
    },
  };
  const hub = trackerHub(fixture, replica, { prompter, waitMs });
  const firstPrompt = async (): Promise<SignInNeeded> => {
    for (let i = 0; i < 200 && prompts.length === 0; i += 1) await new Promise((r) => setTimeout(r, 25));
    const need = prompts[0];
    if (need === undefined) throw new Error('the person was never sent a Connect message');
    return need;
  };
  return { hub, firstPrompt };
}
