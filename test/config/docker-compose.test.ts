// docker-compose.yml keeps README's promises: `docker compose up -d redis` gives `npm start` a Redis at
// 127.0.0.1:6379 (its default REDIS_URL), and the bot gets every variable of .env, so the secrets the config
// file names with ${VAR} reach it. (test/ops/manifest.test.ts checks Redis's persistence and the bot's modes.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Service {
  ports?: string[];
  env_file?: (string | { path: string; required?: boolean })[];
  environment?: Record<string, string>;
}

const compose = parse(readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8')) as {
  services: Record<string, Service>;
};

describe('docker-compose.yml', () => {
  it("publishes Redis on the host's loopback interface only, where npm start looks for it", () => {
    expect(compose.services.redis?.ports).toEqual(['127.0.0.1:6379:6379']);
  });

  it('passes .env to the bot, when there is one, under its explicit settings', () => {
    const bot = compose.services.bot;
    expect(bot?.env_file).toEqual([{ path: '.env', required: false }]);
    // Inside Compose's network the bot reaches Redis by its service name, whatever .env says for npm start.
    expect(bot?.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(bot?.environment?.ELICIT_RELAY_CONFIG).toBe('/config/elicit-relay.yml');
  });
});
