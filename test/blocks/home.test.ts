import { describe, expect, it } from 'vitest';
import { HOME_PENDING_MAX, homeView, type HomeAnswer, type HomeQuestion } from '../../blocks/home.js';
import { DECLINE_ACTION, RESPOND_ACTION, URL_CONSENT_ACTION } from '../../blocks/ids.js';
import { slackIssues } from './testing.js';

const question = (i: number, extra: Partial<HomeQuestion> = {}): HomeQuestion => ({
  id: `q-${i}`,
  server: 'github',
  message: `Question number ${i}`,
  deadline: 1796205600000 + i * 60_000,
  ...extra,
});

const answer = (extra: Partial<HomeAnswer> = {}): HomeAnswer => ({
  server: 'github',
  message: 'Which repository?',
  state: 'accepted',
  reason: 'answered',
  at: 1796200000000,
  mode: 'form',
  ...extra,
});

type Block = {
  type: string;
  block_id?: string;
  elements?: Record<string, unknown>[];
  text?: { text: string };
};
const blocksOf = (view: { blocks: object[] }) => view.blocks as Block[];
const buttons = (view: { blocks: object[] }) =>
  blocksOf(view)
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements ?? []);

describe('homeView', () => {
  it('lists pending questions in the given order, each with the card’s Respond and Decline', () => {
    const view = homeView({ pending: [question(1), question(2)], recent: [] });
    expect(buttons(view).map((b) => [b.action_id, b.value])).toEqual([
      [RESPOND_ACTION, 'q-1'],
      [DECLINE_ACTION, 'q-1'],
      [RESPOND_ACTION, 'q-2'],
      [DECLINE_ACTION, 'q-2'],
    ]);
    const text = JSON.stringify(view);
    expect(text.indexOf('Question number 1')).toBeLessThan(text.indexOf('Question number 2'));
    expect(text).toContain(`<!date^${1796205600 + 60}^`);
    expect(slackIssues(view)).toEqual([]);
  });

  it('offers a URL-mode question’s link as the consent button, with its normalized href', () => {
    const view = homeView({
      pending: [question(1, { url: { url: 'https://example.com/a b' } })],
      recent: [],
    });
    expect(buttons(view)[0]).toMatchObject({
      action_id: URL_CONSENT_ACTION,
      value: 'q-1',
      url: 'https://example.com/a%20b',
    });
  });

  it('stays within 100 blocks however many questions wait, and says how many are not shown', () => {
    const pending = Array.from({ length: 200 }, (_, i) => question(i, { message: 'x'.repeat(5000) }));
    const recent = Array.from({ length: 30 }, () => answer({ message: 'y'.repeat(5000) }));
    const view = homeView({ pending, recent });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(buttons(view)).toHaveLength(HOME_PENDING_MAX * 2);
    expect(JSON.stringify(view)).toContain(`and ${200 - HOME_PENDING_MAX} more`);
    expect(slackIssues(view)).toEqual([]);
  });

  it('shows each recent answer’s outcome, server and time as a Slack date', () => {
    const view = homeView({
      pending: [],
      recent: [
        answer(),
        answer({ state: 'cancelled', reason: 'timed_out', at: 1796100000000 }),
        answer({ mode: 'url' }),
      ],
    });
    const lines = blocksOf(view)
      .filter((b) => b.type === 'context')
      .map((b) => JSON.stringify(b.elements));
    expect(lines.slice(-3)).toEqual([
      expect.stringContaining('Answered'),
      expect.stringContaining('Expired'),
      expect.stringContaining('Link opened'),
    ]);
    expect(lines.at(-2)).toContain('<!date^1796100000^');
    expect(JSON.stringify(view)).toContain('Nothing is waiting for you.');
  });

  it('keeps server text inert: no mentions, no forged links', () => {
    const hostile = 'Deploy <!channel>? see <https://evil.example|your bank>';
    const view = homeView({
      pending: [question(1, { server: '<!here>', message: hostile })],
      recent: [answer({ message: hostile })],
    });
    const text = JSON.stringify(view);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<!here>');
    expect(text).not.toContain('<https://evil');
  });

  it('speaks Chinese to a zh-CN person', () => {
    const view = homeView({ pending: [question(1)], recent: [answer()], locale: 'zh-CN' });
    expect(JSON.stringify(view)).toContain('等待你回答的问题');
    expect(JSON.stringify(buttons(view))).toMatch(/[\u4e00-\u9fff]/);
  });
});
