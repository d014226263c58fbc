// The monitoring profile of docker-compose.yml, read (no Docker engine here): Prometheus and Grafana run only
// with `--profile monitoring`, every file they mount exists, and the files point at each other and at the bot.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { alertRules, dashboard, readRepoFile, repoFile } from '../support/ops-files.js';

interface Service {
  image?: string;
  profiles?: string[];
  volumes?: string[];
  environment?: Record<string, string>;
}

const compose = parse(readRepoFile('docker-compose.yml')) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};

/** A service's mounts: host path (`./…`) or named volume → path in the container. */
function mounts(service: string): Map<string, string> {
  const volumes = compose.services[service]?.volumes ?? [];
  return new Map(volumes.map((v) => v.split(':')).map(([from = '', to = '']) => [to, from]));
}

const yamlFile = <T>(path: string): T => parse(readRepoFile(path)) as T;

describe('docker compose --profile monitoring', () => {
  it('adds Prometheus and Grafana only under the monitoring profile; Redis and the bot run without it', () => {
    const { services } = compose;
    expect(services.prometheus?.profiles).toEqual(['monitoring']);
    expect(services.grafana?.profiles).toEqual(['monitoring']);
    expect(services.redis?.profiles).toBeUndefined();
    expect(services.bot?.profiles).toBeUndefined();
  });

  it('mounts files that exist and named volumes that are declared', () => {
    for (const service of ['prometheus', 'grafana']) {
      for (const from of mounts(service).values()) {
        if (from.startsWith('./')) expect(existsSync(repoFile(from.slice(2))), from).toBe(true);
        else expect(compose.volumes, from).toHaveProperty(from);
      }
    }
  });

  it('has Prometheus scrape the bot on its PORT and load the mounted alert rules', () => {
    const config = yamlFile<{
      rule_files: string[];
      scrape_configs: { metrics_path: string; dns_sd_configs: { names: string[]; port: number }[] }[];
    }>('ops/prometheus/prometheus.yml');
    const mounted = mounts('prometheus');
    expect(mounted.get('/etc/prometheus/prometheus.yml')).toBe('./ops/prometheus/prometheus.yml');
    for (const rules of config.rule_files) expect(mounted.get(rules)).toBe('./ops/prometheus/alerts.yml');
    const [job] = config.scrape_configs;
    expect(job?.metrics_path).toBe('/metrics');
    const [target] = job?.dns_sd_configs ?? [];
    expect(target?.names).toEqual(['bot']);
    expect(String(target?.port)).toBe(String(compose.services.bot?.environment?.PORT));
  });

  it('provisions Grafana with the Prometheus service as the datasource the dashboard names', () => {
    const mounted = mounts('grafana');
    expect(mounted.get('/etc/grafana/provisioning')).toBe('./ops/grafana/provisioning');
    const sources = yamlFile<{ datasources: { uid: string; url: string }[] }>(
      'ops/grafana/provisioning/datasources/prometheus.yml',
    ).datasources;
    expect(sources.map((s) => new URL(s.url).host)).toEqual(['prometheus:9090']);
    const providers = yamlFile<{ providers: { options: { path: string } }[] }>(
      'ops/grafana/provisioning/dashboards/elicit-relay.yml',
    ).providers;
    expect(providers.map((p) => mounted.get(p.options.path))).toEqual(['./ops/grafana/dashboards']);
    const uids = new Set(dashboard().panels.map((panel) => panel.datasource.uid));
    expect([...uids]).toEqual(sources.map((s) => s.uid));
  });

  it('has alert rules for expiring questions, stalled timeouts, rate limiting, the outbox, a down MCP server and Redis', () => {
    const rules = alertRules();
    for (const rule of rules) {
      expect(rule.labels?.severity, rule.alert).toMatch(/^(warning|critical)$/);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
    }
    const reads = (series: string): string[] =>
      rules.filter((r) => r.expr.includes(series)).map((r) => r.alert);
    expect(reads('reason="timed_out"')).toEqual(['ElicitRelayQuestionsExpiring']);
    expect(reads('elicit_relay_timeouts_overdue_seconds')).toEqual(['ElicitRelayTimeoutsStalled']);
    expect(reads('error="ratelimited"')).toEqual(['ElicitRelaySlackRateLimited']);
    expect(reads('elicit_relay_outbox_')).toEqual(['ElicitRelayOutboxBacklog']);
    expect(reads('elicit_relay_mcp_server_connected')).toEqual(['ElicitRelayMcpServerDown']);
    expect(reads('elicit_relay_redis_up')).toEqual(['ElicitRelayRedisUnavailable']);
  });
});
