import { describe, expect, it } from 'vitest';
import { loadConfig, type ConfigError } from '../src/config/index.js';
import { configErrorOf } from './support/config.js';

const serverWith = (slack: string) =>
  loadConfig({
    env: {},
    readFile: (path) =>
      path === './elicit-relay.yml' ? `mcpServers:\n  a: { command: x, slack: ${slack} }` : undefined,
  }).servers[0];

const errorOf = (slack: string): ConfigError => configErrorOf(() => serverWith(slack));

describe('the per-server slack policy', () => {
  it('is absent unless written, so the defaults (DM, the requester answers) apply', () => {
    expect(serverWith('{}')?.slack).toEqual({
      route: 'dm',
      answerers: { requester: true, users: [], usergroups: [], channel: false },
      showAnswers: true,
      review: 'auto',
      onClose: 'cancel',
    });
    const plain = loadConfig({
      env: {},
      readFile: () => 'mcpServers:\n  a: { command: x }',
    }).servers[0];
    expect(plain?.slack).toBeUndefined();
  });

  it('reads an approvals channel with listed approvers, groups, review, keep-on-close and reminders', () => {
    const slack = serverWith(
      '{ route: channel, channel: C0APPROVE, answerers: { requester: false, users: [U1A, W2B], usergroups: [S0OPS], channel: true }, showAnswers: false, review: true, onClose: keep, reminders: ["50%", "5m", 90000] }',
    )?.slack;
    expect(slack).toEqual({
      route: 'channel',
      channel: 'C0APPROVE',
      answerers: { requester: false, users: ['U1A', 'W2B'], usergroups: ['S0OPS'], channel: true },
      showAnswers: false,
      review: 'always',
      onClose: 'keep',
      reminders: [{ atFraction: 0.5 }, { beforeMs: 300_000 }, { beforeMs: 90_000 }],
    });
  });

  it.each([
    ['{ route: email }', 'mcpServers.a.slack.route'],
    ['{ route: channel }', 'mcpServers.a.slack.channel'],
    ['{ route: channel, channel: general }', 'mcpServers.a.slack.channel'],
    ['{ channel: C0APPROVE }', 'mcpServers.a.slack.channel'],
    ['{ answerers: { users: [bob] } }', 'mcpServers.a.slack.answerers.users'],
    ['{ answerers: { usergroups: [U1A] } }', 'mcpServers.a.slack.answerers.usergroups'],
    ['{ answerers: { channel: true } }', 'mcpServers.a.slack.answerers.channel'],
    ['{ answerers: { requester: false } }', 'mcpServers.a.slack.answerers'],
    ['{ review: sometimes }', 'mcpServers.a.slack.review'],
    ['{ onClose: ignore }', 'mcpServers.a.slack.onClose'],
    ['{ reminders: ["150%"] }', 'mcpServers.a.slack.reminders[0]'],
    ['{ reminders: "5m" }', 'mcpServers.a.slack.reminders'],
    ['{ showAnswer: false }', 'mcpServers.a.slack.showAnswer'],
  ])('refuses %s naming %s and the fix', (slack, key) => {
    const error = errorOf(slack);
    expect(error.message.startsWith(`${key}: `)).toBe(true);
    expect(error.message.length).toBeGreaterThan(key.length + 20);
  });
});
