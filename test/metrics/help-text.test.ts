// The HELP lines Prometheus and Grafana show beside the series: each names the values its labels take as the
// README's Metrics table lists them, so nobody reading a scrape is told an `http_503` is a Slack error code.
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../src/metrics/index.js';

/** The HELP text of `name` in a fresh Metrics' exposition. */
async function helpOf(name: string): Promise<string> {
  const { body } = await new Metrics({ now: () => 0 }).scrape();
  const line = body.split('\n').find((l) => l.startsWith(`# HELP ${name} `));
  if (line === undefined) throw new Error(`no HELP line for ${name}`);
  return line.slice(`# HELP ${name} `.length);
}

describe('HELP text', () => {
  it('names every error value of elicit_relay_slack_api_calls_total', async () => {
    const help = await helpOf('elicit_relay_slack_api_calls_total');
    for (const value of ['none', 'ratelimited', 'http_<status>', 'request_error']) {
      expect(help).toContain(value);
    }
  });
});
