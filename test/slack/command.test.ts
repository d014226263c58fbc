import { describe, expect, it } from 'vitest';
import { parseMcpCommand, unescapeCommandText } from '../../src/slack/command.js';

describe('parseMcpCommand', () => {
  it('reads help, servers and tools', () => {
    expect(parseMcpCommand('')).toEqual({ kind: 'help' });
    expect(parseMcpCommand(' servers ')).toEqual({ kind: 'servers' });
    expect(parseMcpCommand('tools gh')).toEqual({ kind: 'tools', server: 'gh' });
    expect(parseMcpCommand('tools')).toEqual({ kind: 'invalid', problem: 'tools_needs_server' });
  });

  it('reads the subcommand whatever its case or width, the rest as typed', () => {
    expect(parseMcpCommand('HELP')).toEqual({ kind: 'help' });
    expect(parseMcpCommand('Tools GH')).toEqual({ kind: 'tools', server: 'GH' });
    expect(parseMcpCommand('ｒｕｎ\u3000gh\u3000Echo {"Text":"A"}')).toEqual({
      kind: 'run',
      server: 'gh',
      tool: 'Echo',
      args: { Text: 'A' },
    });
    expect(parseMcpCommand('RUNS gh')).toEqual({
      kind: 'invalid',
      problem: 'unknown_subcommand',
      verb: 'RUNS',
    });
  });

  it('reads JSON typed against the tool name as its arguments', () => {
    expect(parseMcpCommand('run gh create{"title":"x"}')).toEqual({
      kind: 'run',
      server: 'gh',
      tool: 'create',
      args: { title: 'x' },
    });
  });

  it('reads run with JSON arguments, curly quotes included, and without any (the form)', () => {
    expect(parseMcpCommand('run gh create {“title”: “x”}')).toEqual({
      kind: 'run',
      server: 'gh',
      tool: 'create',
      args: { title: 'x' },
    });
    expect(parseMcpCommand('run gh create')).toEqual({ kind: 'run', server: 'gh', tool: 'create' });
  });

  it('keeps curly quotes inside JSON strings: the JSON is read as typed first', () => {
    const args = (text: string) => {
      const parsed = parseMcpCommand(`run gh create ${text}`);
      return parsed.kind === 'run' ? parsed.args : parsed;
    };
    expect(args('{"said": "他说“你好”"}')).toEqual({ said: '他说“你好”' });
    expect(args('{"said": "Let’s go, ‘now’"}')).toEqual({ said: 'Let’s go, ‘now’' });
    // Curly delimiters mended, the curly quotes of the text inside kept.
    expect(args('{“said”: “他说“你好”，然后走了”}')).toEqual({ said: '他说“你好”，然后走了' });
    expect(args('{“said”: “Let’s go”, “n”: 1}')).toEqual({ said: 'Let’s go', n: 1 });
    expect(args('{“a”: [“x”, “y”]}')).toEqual({ a: ['x', 'y'] });
    // An escaped straight quote stays in its string.
    expect(args('{“a”: “say \\"hi\\"”}')).toEqual({ a: 'say "hi"' });
    expect(args('{“a”: “x}')).toEqual({ kind: 'invalid', problem: 'bad_json' });
  });

  it('notes the numbers of its JSON arguments a double would round, by JSON Pointer, curly quotes included', () => {
    expect(parseMcpCommand('run gh t {“id”: 9007199254740993, “n”: [1.50, 1e400]}')).toEqual({
      kind: 'run',
      server: 'gh',
      tool: 't',
      args: { id: 9007199254740992, n: [1.5, Infinity] },
      inexactNumbers: [
        { path: '/id', text: '9007199254740993', kind: 'integerRange' },
        { path: '/n/1', text: '1e400', kind: 'tooLarge' },
      ],
    });
    // Numbers whose double is the very number: nothing noted.
    expect(parseMcpCommand('run gh t {"a": [1.50, 1e3, -0, 0.30000000000000004]}')).toEqual({
      kind: 'run',
      server: 'gh',
      tool: 't',
      args: { a: [1.5, 1000, -0, 0.30000000000000004] },
    });
  });

  it('names what is wrong', () => {
    expect(parseMcpCommand('run gh')).toEqual({ kind: 'invalid', problem: 'run_needs_tool' });
    expect(parseMcpCommand('run gh t {x')).toEqual({ kind: 'invalid', problem: 'bad_json' });
    expect(parseMcpCommand('run gh t [1]')).toEqual({ kind: 'invalid', problem: 'not_object' });
    expect(parseMcpCommand('launch')).toEqual({
      kind: 'invalid',
      problem: 'unknown_subcommand',
      verb: 'launch',
    });
  });
});

describe('parseMcpCommand: sign-in', () => {
  it('reads connect and disconnect with their server, and names a missing one', () => {
    expect(parseMcpCommand('connect tracker')).toEqual({ kind: 'connect', server: 'tracker' });
    expect(parseMcpCommand('disconnect tracker')).toEqual({ kind: 'disconnect', server: 'tracker' });
    expect(parseMcpCommand('connect')).toEqual({ kind: 'invalid', problem: 'connect_needs_server' });
  });
});

describe('unescapeCommandText', () => {
  it('decodes the three escapes Slack puts in command text, &amp; last', () => {
    expect(unescapeCommandText('a &lt; b &amp;&amp; c &gt; d')).toBe('a < b && c > d');
    // A typed "&lt;" arrives as "&amp;lt;" and stays "&lt;".
    expect(unescapeCommandText('&amp;lt; &amp;amp;')).toBe('&lt; &amp;');
    // Nothing else is an escape Slack makes.
    expect(unescapeCommandText('&quot; &#39; &nbsp;')).toBe('&quot; &#39; &nbsp;');
  });
});
