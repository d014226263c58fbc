// A Redis node that accepts connections but never answers (a hung or paused server, a proxy whose backend is
// down) must stop start-up with a message naming the setting, as a node that refuses connections does, and a
// SIGTERM meanwhile must stop the process: the README promises both ("a wrong value stops the bot with a message
// naming it"; "On SIGTERM a replica stops inside Kubernetes' default 30 s grace, also while Redis is down or hung").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin } from '../support/child-exit.js';
import { startBot, startSilentNode, type SilentNode } from './support/start-up.js';

/** The bot gives up on a first connection after 3 s; probing each node is bounded by 2 s more. */
const REFUSAL_WITHIN_MS = 20_000;

describe(
  'start-up against a Redis node that accepts connections but never answers',
  { timeout: 60_000 },
  () => {
    let silent: SilentNode;
    beforeAll(async () => {
      silent = await startSilentNode();
    });
    afterAll(() => silent.close());

    it('stops with exit code 1 naming REDIS_CLUSTER_NODES when the only seed never answers', async () => {
      const run = startBot({ REDIS_CLUSTER_NODES: `127.0.0.1:${silent.port}` });
      const exit = await exitWithin(run, REFUSAL_WITHIN_MS);
      expect(exit).toMatchObject({ code: 1 });
      expect(exit.stderr).toMatch(/REDIS_CLUSTER_NODES/);
    });

    it('stops with exit code 1 naming REDIS_SENTINELS when the only sentinel never answers', async () => {
      const run = startBot({
        REDIS_SENTINELS: `127.0.0.1:${silent.port}`,
        REDIS_SENTINEL_MASTER: 'mymaster',
      });
      const exit = await exitWithin(run, REFUSAL_WITHIN_MS);
      expect(exit).toMatchObject({ code: 1 });
      expect(exit.stderr).toMatch(/REDIS_SENTINELS/);
    });

    it('stops with exit code 1 naming REDIS_URL when the URL selects a database and its Redis never answers', async () => {
      const run = startBot({ REDIS_URL: `redis://127.0.0.1:${silent.port}/1` });
      const exit = await exitWithin(run, REFUSAL_WITHIN_MS);
      expect(exit).toMatchObject({ code: 1 });
      expect(exit.stderr).toMatch(/REDIS_URL/);
    });

    it('exits within 30 s of a SIGTERM that comes while start-up waits on such a node', async () => {
      const run = startBot({ REDIS_CLUSTER_NODES: `127.0.0.1:${silent.port}` });
      // The first connection comes from start() itself, after the SIGTERM handler is installed.
      await silent.nextConnection();
      run.child.kill('SIGTERM');
      const exit = await exitWithin(run, 30_000);
      expect(exit).not.toHaveProperty('hung');
    });
  },
);
