// `/mcp run` in the audit trail (auditedToolRuns): a person's own run is one call.created and one call.ended
// naming the server, the tool and who ran it, whatever the run's end; an API call's run is left to the API.
import { describe, expect, it } from 'vitest';
import { auditedToolRuns, type AuditedCall, type AuditSource } from '../../src/audit/index.js';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';

type Recorded = { what: string; call: AuditedCall & { status?: string }; source: AuditSource };

function recording(callTool: ToolRunner['callTool']) {
  const events: Recorded[] = [];
  const audit = {
    callCreated: (call: AuditedCall, source: AuditSource) => {
      events.push({ what: 'created', call, source });
      return Promise.resolve();
    },
    callEnded: (call: AuditedCall & { status: string }, source: AuditSource) => {
      events.push({ what: 'ended', call, source });
      return Promise.resolve();
    },
  };
  let now = 1_000;
  const warmed: string[] = [];
  const runner: ToolRunner = {
    serverNames: () => ['fixture'],
    status: () => [],
    listTools: () => Promise.resolve([]),
    refusedTools: () => Promise.resolve([]),
    warm: (server, person) => void warmed.push(`${server} ${person.userId}`),
    callTool,
  };
  return { events, warmed, runs: auditedToolRuns(runner, audit, { now: () => (now += 10) }) };
}

const run = { server: 'fixture', tool: 'deploy', args: { env: 'prod' }, origin: { userId: 'U1' } };
const source = { kind: 'mcp', server: 'fixture', tool: 'deploy', user: 'U1' };

describe('auditedToolRuns', () => {
  it('records a completed run: created then ended, one call id, the server, the tool and who ran it', async () => {
    const { events, runs } = recording(() => Promise.resolve({ isError: false, text: 'ok' }));
    expect(await runs.callTool(run)).toEqual({ isError: false, text: 'ok' });
    const id = events[0]?.call.id;
    expect(id).toMatch(/^run_[A-Za-z0-9_-]{20}$/);
    expect(events).toEqual([
      { what: 'created', call: { id, server: 'fixture', tool: 'deploy', createdAt: 1_010 }, source },
      {
        what: 'ended',
        call: {
          id,
          server: 'fixture',
          tool: 'deploy',
          createdAt: 1_010,
          status: 'completed',
          endedAt: 1_020,
        },
        source,
      },
    ]);
  });

  it('passes a warm-up on to the runner without recording a run', () => {
    const { events, warmed, runs } = recording(() => Promise.resolve({ isError: false, text: 'ok' }));
    runs.warm('fixture', { userId: 'U1' });
    expect(warmed).toEqual(['fixture U1']);
    expect(events).toEqual([]);
  });

  it('records a run that reported an error, or threw, as failed; the throw still reaches the caller', async () => {
    const reported = recording(() => Promise.resolve({ isError: true, text: 'disk full' }));
    await reported.runs.callTool(run);
    expect(reported.events.map((e) => [e.what, e.call.status])).toEqual([
      ['created', undefined],
      ['ended', 'failed'],
    ]);
    const thrown = recording(() => Promise.reject(new Error('boom')));
    await expect(thrown.runs.callTool(run)).rejects.toThrow('boom');
    expect(thrown.events.map((e) => [e.what, e.call.status])).toEqual([
      ['created', undefined],
      ['ended', 'failed'],
    ]);
  });

  it('leaves the run of an API call (origin.callId) to the API, which records it itself', async () => {
    const { events, runs } = recording(() => Promise.resolve({ isError: false, text: 'ok' }));
    await runs.callTool({ ...run, origin: { userId: 'U1', callId: 'call_1' } });
    expect(events).toEqual([]);
  });
});
