// Fault: the replica running an API call is killed (SIGKILL) while the call waits on its person's answer. A
// surviving replica sees the lease (KILLED_LEASE_MS) lapse and ends the call failed, saying why; a long-poll on it wakes then.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWEEP_EVERY_MS } from '../../src/store/index.js';
import { apiOf, cardWith, type Api } from './api-support.js';
import type { CliRun } from './child.js';
import { CHILD_START_MS, KILLED_LEASE_MS, childReplica } from './child-replicas.js';
import { startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-killed-0123456789';

describe('a replica killed while it runs an API call', () => {
  let survivor: Harness;
  let api: Api;
  let replica: { run: CliRun; port: number } | undefined;
  beforeAll(async () => {
    survivor = await startHarness({ env: { ELICIT_RELAY_API_TOKEN: TOKEN } });
    api = apiOf(survivor, TOKEN);
    // Started here, not in the test: its start-up, slow on a loaded machine, is no part of the sweep's bound.
    replica = await childReplica(survivor, { ELICIT_RELAY_API_TOKEN: TOKEN });
  }, CHILD_START_MS);
  afterAll(async () => {
    replica?.run.child.kill('SIGKILL');
    await replica?.run.done;
    await survivor.close();
  });

  it(
    'leaves the call failed by a survivor, with an error saying its replica stopped',
    { timeout: KILLED_LEASE_MS + SWEEP_EVERY_MS + 30_000 },
    async () => {
      if (!replica) throw new Error('the replica to kill did not start');
      const { run: doomed, port } = replica;
      const created = await fetch(`http://127.0.0.1:${port}/api/v1/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          server: 'fixture',
          tool: 'ask',
          arguments: { message: 'Anyone home?', schema: { type: 'object', properties: {} } },
          as: { user: 'U1' },
        }),
      });
      expect(created.status).toBe(202);
      const { id } = (await created.json()) as { id: string };
      // The call is waiting on its person once its card is posted.
      await cardWith(survivor, 'Anyone home?');
      expect((await api('GET', `/calls/${id}`)).body.status).toBe('running');
      doomed.child.kill('SIGKILL');
      await doomed.done;

      const ended = await api('GET', `/calls/${id}?wait=60`);
      expect(ended.body).toMatchObject({ id, status: 'failed', questions: [expect.any(String)] });
      expect(String(ended.body.error)).toMatch(
        /replica running this call .* stopped before the tool answered/,
      );
    },
  );
});
