// `/mcp run` in the audit trail: a tool a person runs from Slack (the command, its arguments form, a Retry)
// is a call like an API call, recorded when it starts and when it ends, naming the server, the tool and who ran
// it. Runs for an API call (`origin.callId`) are left to the API's call runner, which records them itself.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { ToolRunner } from '../relay/sources/mcp.js';
import type { Audit } from './audit.js';
import type { AuditSource } from './types.js';

/** The runner the Slack side uses, recording each of a person's own runs as call.created and call.ended. */
export function auditedToolRuns(
  runner: ToolRunner,
  audit: Pick<Audit, 'callCreated' | 'callEnded'>,
  clock: Pick<Clock, 'now'>,
): ToolRunner {
  return {
    serverNames: () => runner.serverNames(),
    status: () => runner.status(),
    listTools: (server, person) => runner.listTools(server, person),
    refusedTools: (server, person) => runner.refusedTools(server, person),
    warm: (server, person) => runner.warm(server, person),
    callTool: async (input) => {
      if (input.origin.callId !== undefined) return runner.callTool(input);
      const { server, tool } = input;
      const call = {
        id: `run_${randomBytes(15).toString('base64url')}`,
        server,
        tool,
        createdAt: clock.now(),
      };
      const source: AuditSource = { kind: 'mcp', server, tool, user: input.origin.userId };
      void audit.callCreated(call, source);
      let failed = true;
      try {
        const result = await runner.callTool(input);
        failed = result.isError;
        return result;
      } finally {
        const status = failed ? 'failed' : 'completed';
        void audit.callEnded({ ...call, status, endedAt: clock.now() }, source);
      }
    },
  };
}
