// The monitoring files under ops/: the Prometheus alert rules and the Grafana dashboard, as tests read them.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export const repoFile = (path: string): URL => new URL(`../../${path}`, import.meta.url);

export const readRepoFile = (path: string): string => readFileSync(repoFile(path), 'utf8');

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export function alertRules(): AlertRule[] {
  const doc = parse(readRepoFile('ops/prometheus/alerts.yml')) as { groups: { rules: AlertRule[] }[] };
  return doc.groups.flatMap((group) => group.rules);
}

export interface Panel {
  title: string;
  datasource: { uid: string };
  targets: { expr: string }[];
}

export function dashboard(): { uid: string; panels: Panel[] } {
  return JSON.parse(readRepoFile('ops/grafana/dashboards/elicit-relay.json')) as {
    uid: string;
    panels: Panel[];
  };
}

/** Every PromQL expression of the alert rules and the dashboard's panels, with where it is. */
export function opsExpressions(): { where: string; expr: string }[] {
  return [
    ...alertRules().map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
    ...dashboard().panels.flatMap((panel) =>
      panel.targets.map((target) => ({ where: `panel ${panel.title}`, expr: target.expr })),
    ),
  ];
}
