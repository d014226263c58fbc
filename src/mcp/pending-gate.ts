// A server's `maxPending` policy: at most that many of its elicitations waiting for a person at once on
// this hub (the replica that holds the server's sessions). The check runs before the sink, so a server
// that floods gets an answer at once and Slack never sees the excess.
import { RelayError } from '../relay/errors.js';
import type { ElicitationSink } from './types.js';

/** The sink for one server's sessions; `max` undefined = no limit (the sink itself). */
export function gateSink(sink: ElicitationSink, server: string, max: number | undefined): ElicitationSink {
  if (max === undefined) return sink;
  let waiting = 0;
  return {
    ask: async (request, ctx) => {
      if (waiting >= max) {
        // 'rate_limited' reaches the server as -32600 with this message (elicitation.ts toRpcError).
        throw new RelayError(
          'rate_limited',
          `too many questions from ${server} are waiting for an answer (maxPending ${max}); try again once one has ` +
            `ended, or raise mcpServers.${server}.elicitation.maxPending`,
        );
      }
      waiting += 1;
      try {
        return await sink.ask(request, ctx);
      } finally {
        waiting -= 1;
      }
    },
    ...(sink.complete === undefined ? {} : { complete: sink.complete.bind(sink) }),
    ...(sink.linksSettled === undefined ? {} : { linksSettled: sink.linksSettled.bind(sink) }),
  };
}
