// `--team` (or ELICIT_RELAY_TEAM) on `elicit-relay ask` and `call`: a bot installed in several workspaces
// refuses a question without `team` and a call without `as.team` (400 `/team`, `/as/team`), so the command line
// must be able to send them. The HTTP side is scripted through the injected fetch; what is sent is checked
// against the API's own request schemas.
import { describe, expect, it } from 'vitest';
import { validator } from '../../src/api/validate.js';
import { CALL_CREATE, QUESTION_CREATE } from '../../src/api/schemas.js';
import { CLIENT_USAGE, EXIT, runClient, type ClientIO } from '../../src/client/index.js';

const BASE_ENV = { ELICIT_RELAY_URL: 'http://relay:3000', ELICIT_RELAY_API_TOKEN: 'tok' };

/** A client whose first POST is answered `created`, then every GET `ended`; the POST bodies are kept. */
function io(env: Record<string, string>, created: object, ended: object) {
  const posted: unknown[] = [];
  const out: string[] = [];
  const err: string[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      posted.push(JSON.parse(init.body));
      return Promise.resolve(new Response(JSON.stringify(created), { status: 201 }));
    }
    return Promise.resolve(new Response(JSON.stringify(ended), { status: 200 }));
  };
  const client: ClientIO = {
    env: { ...BASE_ENV, ...env },
    readFile: () => '',
    fetch,
    sleep: () => Promise.resolve(),
    now: () => 0,
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => err.push(t), isTTY: false },
  };
  return { client, posted, out, err };
}

const ASK = ['ask', '--message', 'Ship?', '--to', 'C0APPROVALS'];
const CALL = ['call', '--server', 'github', '--tool', 'release', '--as', 'U0ANN'];
const QUESTION = { id: 'q1', status: 'pending' };
const ANSWERED = { id: 'q1', status: 'accepted', result: { action: 'accept' } };
const CALLED = { id: 'c1', status: 'running' };
const COMPLETED = { id: 'c1', status: 'completed', result: { content: [] } };

async function ask(argv: string[], env: Record<string, string> = {}) {
  const run = io(env, QUESTION, ANSWERED);
  const code = await runClient(argv, run.client);
  return { code, ...run };
}

async function call(argv: string[], env: Record<string, string> = {}) {
  const run = io(env, CALLED, COMPLETED);
  const code = await runClient(argv, run.client);
  return { code, ...run };
}

describe('elicit-relay ask --team', () => {
  it("sends the question's workspace as the API's `team`, a body the API's schema accepts", async () => {
    const { code, posted } = await ask([...ASK, '--team', 'T0ACME']);
    expect(code).toBe(EXIT.accepted);
    expect(posted).toEqual([
      {
        message: 'Ship?',
        to: { channel: 'C0APPROVALS' },
        requestedSchema: { type: 'object', properties: {} },
        team: 'T0ACME',
      },
    ]);
    expect(validator(QUESTION_CREATE)(posted[0])).toEqual(posted[0]);
  });

  it('takes ELICIT_RELAY_TEAM when --team is not given, and --team over it', async () => {
    expect((await ask(ASK, { ELICIT_RELAY_TEAM: 'T0ENV' })).posted).toEqual([
      expect.objectContaining({ team: 'T0ENV' }),
    ]);
    expect((await ask([...ASK, '--team=T0FLAG'], { ELICIT_RELAY_TEAM: 'T0ENV' })).posted).toEqual([
      expect.objectContaining({ team: 'T0FLAG' }),
    ]);
  });

  it('sends no `team` when neither is given, or ELICIT_RELAY_TEAM is empty (a bot serving one workspace)', async () => {
    const unset: Record<string, string>[] = [{}, { ELICIT_RELAY_TEAM: '' }];
    for (const env of unset) {
      const { posted } = await ask(ASK, env);
      expect(posted[0]).not.toHaveProperty('team');
    }
  });
});

describe('elicit-relay call --team', () => {
  it("sends the person's workspace as `as.team`, a body the API's schema accepts", async () => {
    const { code, posted } = await call([...CALL, '--team', 'T0ACME']);
    expect(code).toBe(EXIT.accepted);
    expect(posted).toEqual([
      { server: 'github', tool: 'release', arguments: {}, as: { user: 'U0ANN', team: 'T0ACME' } },
    ]);
    expect(validator(CALL_CREATE)(posted[0])).toEqual(posted[0]);
  });

  it('takes ELICIT_RELAY_TEAM when --team is not given', async () => {
    const { posted } = await call(CALL, { ELICIT_RELAY_TEAM: 'T0ENV' });
    expect(posted).toEqual([expect.objectContaining({ as: { user: 'U0ANN', team: 'T0ENV' } })]);
  });
});

describe('a --team the API would refuse', () => {
  it.each([
    [['--team', 'acme'], {}, '--team must be a workspace (team) id like T…, got "acme"'],
    [['--team', 'U0ANN'], {}, '--team must be a workspace (team) id like T…, got "U0ANN"'],
    [['--team='], {}, '--team must not be blank'],
    [
      [],
      { ELICIT_RELAY_TEAM: 't0acme' },
      'ELICIT_RELAY_TEAM must be a workspace (team) id like T…, got "t0acme"',
    ],
  ])('is a usage error (exit 2) naming where it came from: %j %j', async (extra, env, said) => {
    for (const run of [await ask([...ASK, ...extra], env), await call([...CALL, ...extra], env)]) {
      expect(run.code).toBe(EXIT.usage);
      expect(run.err.join('')).toContain(`elicit-relay: ${said}\n`);
      expect(run.posted).toEqual([]);
    }
  });

  it('may be given once only', async () => {
    const { code, err } = await ask([...ASK, '--team', 'T1', '--team', 'T2']);
    expect(code).toBe(EXIT.usage);
    expect(err.join('')).toContain('--team is given twice');
  });
});

describe('the usage text', () => {
  it('shows --team on both commands and its variable', () => {
    expect(CLIENT_USAGE).toMatch(/elicit-relay ask [^\n]*\n[^\n]*\[--team <T…>\]/);
    expect(CLIENT_USAGE).toMatch(/elicit-relay call [^\n]*\[--team <T…>\]/);
    expect(CLIENT_USAGE).toMatch(/--team {6}the Slack workspace[\s\S]*default \$ELICIT_RELAY_TEAM/);
  });
});
