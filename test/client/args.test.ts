import { describe, expect, it } from 'vitest';
import { parseClientArgs } from '../../src/client/index.js';
import { ClientUsageError } from '../../src/client/args.js';

const env = { ELICIT_RELAY_URL: 'https://relay.example.com/', ELICIT_RELAY_API_TOKEN: 'tok' };
const files: Record<string, string> = {
  'schema.json': '{"type":"object","properties":{"why":{"type":"string"}}}',
};
const sources = {
  env,
  readFile: (path: string) => {
    const text = files[path];
    if (text === undefined) throw new Error('ENOENT');
    return text;
  },
};
const parse = (...argv: string[]) => parseClientArgs(argv, sources);

function usageError(...argv: string[]): string {
  try {
    parse(...argv);
  } catch (error) {
    if (error instanceof ClientUsageError) return error.message;
    throw error;
  }
  throw new Error('expected a usage error');
}

describe('elicit-relay ask arguments', () => {
  it('take the URL and token from the environment, and an approve-style form by default', () => {
    expect(parse('ask', '--message', 'Deploy v2?', '--to', 'U123')).toEqual({
      command: 'ask',
      message: 'Deploy v2?',
      to: { user: 'U123' },
      requestedSchema: { type: 'object', properties: {} },
      url: 'https://relay.example.com',
      token: 'tok',
    });
  });

  it('read targets: a person, several people, a channel, a user group', () => {
    const to = (value: string) => {
      const command = parse('ask', '--message', 'm', '--to', value);
      return command.command === 'ask' ? command.to : undefined;
    };
    expect(to('U1')).toEqual({ user: 'U1' });
    expect(to('U1,U2')).toEqual({ users: ['U1', 'U2'] });
    expect(to('C9')).toEqual({ channel: 'C9' });
    expect(to('S7')).toEqual({ usergroup: 'S7' });
  });

  it('read --schema inline or from a file, --timeout, and flags given as --name=value', () => {
    expect(
      parse(
        'ask',
        '--message=m',
        '--to=C1',
        '--schema',
        'schema.json',
        '--timeout',
        '30m',
        '--url',
        'http://x:3000',
        '--token',
        't',
      ),
    ).toMatchObject({
      requestedSchema: { properties: { why: { type: 'string' } } },
      timeout: '30m',
      url: 'http://x:3000',
      token: 't',
    });
    expect(
      parse('ask', '--message', 'm', '--to', 'U1', '--schema', '{"type":"object","properties":{}}'),
    ).toMatchObject({
      requestedSchema: { type: 'object', properties: {} },
    });
  });

  it('refuse wrong use, saying what is wrong', () => {
    expect(usageError('ask', '--to', 'U1')).toBe('--message is required');
    expect(usageError('ask', '--message', 'm', '--to', 'bob')).toMatch(
      /^--to must be a user id .*, got "bob"$/,
    );
    expect(usageError('ask', '--message', 'm', '--to', 'U1', '--schema', 'missing.json')).toMatch(
      /cannot read "missing.json"/,
    );
    expect(usageError('ask', '--message', 'm', '--to', 'U1', '--schema', '{nope')).toMatch(
      /^--schema must be valid JSON/,
    );
    expect(usageError('ask', '--message', 'm', '--to', 'U1', '--timeout', 'soon')).toMatch(
      /^--timeout must be a duration string .*, got "soon"$/,
    );
    expect(usageError('ask', '--message', 'm', '--to', 'U1', '--colour', 'red')).toBe(
      'unknown option "--colour": ask takes --message, --to, --schema, --timeout, --team, --url, --token',
    );
    expect(usageError('ask', '--message')).toBe('--message needs a value');
    expect(usageError('ask', '--message', 'a', '--message', 'b', '--to', 'U1')).toBe(
      '--message is given twice',
    );
    expect(usageError('ask', '--message', 'm', '--to', 'U1', '--url', 'ftp://x')).toMatch(
      /^--url must be an http\(s\) URL/,
    );
  });

  it('need a URL and a token from the flags or the environment', () => {
    const bare = { ...sources, env: {} };
    expect(() => parseClientArgs(['ask', '--message', 'm', '--to', 'U1'], bare)).toThrow(/ELICIT_RELAY_URL/);
    const noToken = { ...sources, env: { ELICIT_RELAY_URL: 'http://x' } };
    expect(() => parseClientArgs(['ask', '--message', 'm', '--to', 'U1'], noToken)).toThrow(
      /ELICIT_RELAY_API_TOKEN/,
    );
  });
});

describe('elicit-relay call arguments', () => {
  it('read the server, tool, JSON arguments and the person', () => {
    expect(
      parse('call', '--server', 'deploy', '--tool', 'ship', '--args', '{"env":"prod"}', '--as', 'U1'),
    ).toEqual({
      command: 'call',
      server: 'deploy',
      tool: 'ship',
      arguments: { env: 'prod' },
      as: 'U1',
      url: 'https://relay.example.com',
      token: 'tok',
    });
  });

  it('refuse arguments that are not a JSON object and a person who is not a user id', () => {
    expect(usageError('call', '--server', 's', '--tool', 't', '--args', '[1]', '--as', 'U1')).toBe(
      '--args must be a JSON object, got an array',
    );
    expect(usageError('call', '--server', 's', '--tool', 't', '--as', 'C1')).toBe(
      '--as must be a user id like U… or W…, got "C1"',
    );
    expect(usageError('call', '--server', 's', '--tool', 't')).toBe('--as is required');
  });
});
