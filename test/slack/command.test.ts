import { describe, expect, it } from 'vitest';
import { parseMcpCommand } from '../../src/slack/command.js';

describe('parseMcpCommand', () => {
  it('reads help, servers and tools', () => {
    expect(parseMcpCommand('')).toEqual({ kind: 'help' });
    expect(parseMcpCommand(' servers ')).toEqual({ kind: 'servers' });
    expect(parseMcpCommand('tools gh')).toEqual({ kind: 'tools', server: 'gh' });
    expect(parseMcpCommand('tools')).toEqual({ kind: 'invalid', problem: 'tools_needs_server' });
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
