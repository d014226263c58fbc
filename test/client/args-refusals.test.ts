// What `elicit-relay ask|call` says about a command line it refuses: the flag (or variable), what it takes and
// what was given, in the API's words where the API has them (src/api/schemas.ts DURATION_WORDS), so a value the
// API would refuse or read otherwise is refused here first, as a usage error (exit 2) that sends nothing.
import { describe, expect, it } from 'vitest';
import { ClientUsageError } from '../../src/client/args.js';
import { EXIT, parseClientArgs, runClient, type ClientIO } from '../../src/client/index.js';

const DURATION =
  'a duration string like "90s", "10m", "2h" or "1h30m", or a whole number of milliseconds (from 1s to 30d)';
const env = { ELICIT_RELAY_URL: 'https://relay.example.com', ELICIT_RELAY_API_TOKEN: 'tok' };
const readFile = (path: string): string => {
  if (path === 'list.json') return '[1]';
  if (path === 'broken.json') return '{"type":';
  throw new Error(`ENOENT: no such file or directory, open '${path}'`);
};

function refusal(argv: string[], environment: Record<string, string | undefined> = env): string {
  try {
    parseClientArgs(argv, { env: environment, readFile });
  } catch (error) {
    if (error instanceof ClientUsageError) return error.message;
    throw error;
  }
  throw new Error(`expected a usage error for ${JSON.stringify(argv)}`);
}

const ask = (...more: string[]) => ['ask', '--message', 'm', '--to', 'U1', ...more];
const call = (...more: string[]) => ['call', '--server', 's', '--tool', 't', '--as', 'U1', ...more];

describe('elicit-relay ask --timeout', () => {
  it.each([
    ['1500.5', 'a fraction of a millisecond (the API would read 1501 ms)'],
    ['1500.5ms', 'a fraction of a millisecond, with its unit'],
    ['500', 'under 1s'],
    ['31d', 'over 30d'],
    ['0', 'zero'],
    ['soon', 'no duration'],
  ])('refuses %s (%s) in the API’s words', (timeout) => {
    expect(refusal(ask('--timeout', timeout))).toBe(`--timeout must be ${DURATION}, got "${timeout}"`);
  });

  it.each(['1500', '1.5s', '90s', '10m', '2h', '30d'])('takes %s as given', (timeout) => {
    expect(parseClientArgs(ask('--timeout', timeout), { env, readFile })).toMatchObject({ timeout });
  });

  it('exits 2 (usage) on a fractional millisecond timeout, saying why and sending nothing', async () => {
    const err: string[] = [];
    let sent = 0;
    const io: ClientIO = {
      env,
      readFile,
      fetch: () => {
        sent += 1;
        return Promise.reject(new TypeError('fetch failed'));
      },
      sleep: () => Promise.resolve(),
      now: () => 0,
      stdout: { write: () => true },
      stderr: { write: (text: string) => err.push(text), isTTY: false },
    };
    expect(await runClient(ask('--timeout', '1500.5'), io)).toBe(EXIT.usage);
    expect(err.join('')).toContain(`elicit-relay: --timeout must be ${DURATION}, got "1500.5"`);
    expect(sent, 'a refused command line must send no request').toBe(0);
  });
});

describe('elicit-relay ask --to', () => {
  const ONE_OF =
    'a user id like U… or W…, several joined by commas (U1,U2), a channel id like C… or G…, or a user group id like S…';
  it.each([
    ['U1,', '--to has an empty entry ("U1,"): each entry of a list must be a user id like U… or W…'],
    [',U1', '--to has an empty entry (",U1"): each entry of a list must be a user id like U… or W…'],
    ['U1,,U2', '--to has an empty entry ("U1,,U2"): each entry of a list must be a user id like U… or W…'],
    ['U1,C2', '--to lists several people, so each must be a user id like U… or W…, got "C2" in "U1,C2"'],
    ['bob', `--to must be ${ONE_OF}, got "bob"`],
    ['   ', '--to must not be blank'],
  ])('refuses "%s", saying what is wrong', (to, message) => {
    expect(refusal(['ask', '--message', 'm', '--to', to])).toBe(message);
  });
});

describe('elicit-relay ask and call: the other flags', () => {
  it.each([
    [['run'], 'the command must be ask or call, got "run"'],
    [
      ask('--colour', 'red'),
      'unknown option "--colour": ask takes --message, --to, --schema, --timeout, --team, --url, --token',
    ],
    [
      ask('extra'),
      'unknown option "extra": ask takes --message, --to, --schema, --timeout, --team, --url, --token',
    ],
    [
      call('--to', 'U1'),
      'unknown option "--to": call takes --server, --tool, --args, --as, --team, --url, --token',
    ],
    [
      ['ask', '--message', '--to', 'U1'],
      '--message needs a value, got the option "--to" (a value that starts with "--" is written --message=<value>)',
    ],
    [['ask', '--message', ' ', '--to', 'U1'], '--message must not be blank'],
    [
      ask('--schema', 'missing.json'),
      '--schema must be a JSON object or a file holding one; cannot read "missing.json" (ENOENT: no such file or directory, open \'missing.json\')',
    ],
    [ask('--schema', 'list.json'), '--schema must be a JSON object, got an array (from "list.json")'],
    [call('--args', '[1]'), '--args must be a JSON object, got an array'],
    [call('--args', '"x"'), '--args must be a JSON object, got "x"'],
    [
      ['call', '--server', 's', '--tool', 't', '--as', 'C1'],
      '--as must be a user id like U… or W…, got "C1"',
    ],
    [ask('--url', 'ftp://x'), '--url must be an http(s) URL like https://relay.example.com, got "ftp://x"'],
    [ask('--url', ''), '--url must be an http(s) URL like https://relay.example.com, got ""'],
    [ask('--token', ' '), '--token must not be blank'],
  ])('%j', (argv, message) => {
    expect(refusal(argv)).toBe(message);
  });

  // JSON.parse's own words (which vary with Node's version) stand in the parentheses.
  it.each([
    [ask('--schema', '{"a":1,}'), /^--schema must be valid JSON \(.+\)$/],
    [ask('--schema', 'broken.json'), /^--schema must be valid JSON \(.+\) \(from "broken\.json"\)$/],
    [call('--args', '{nope'), /^--args must be valid JSON \(.+\)$/],
  ])('%j: says the JSON is not valid, and where it came from', (argv, message) => {
    expect(refusal(argv)).toMatch(message);
  });

  it('names ELICIT_RELAY_URL, not --url, when the variable holds the wrong URL', () => {
    expect(refusal(ask(), { ...env, ELICIT_RELAY_URL: 'relay:3000' })).toBe(
      'ELICIT_RELAY_URL must be an http(s) URL like https://relay.example.com, got "relay:3000"',
    );
  });
});
