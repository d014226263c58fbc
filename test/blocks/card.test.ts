import { describe, expect, it } from 'vitest';
import { endedCard, reminderMessage, requestCard } from '../../blocks/card.js';
import { DECLINE_ACTION, RESPOND_ACTION } from '../../blocks/ids.js';
import { slackIssues } from './testing.js';

const hostile = '<!channel> <!here> ping <@U123> in <#C1>, see <http://evil.example|bank> & more';
const escaped =
  '&lt;!channel&gt; &lt;!here&gt; ping &lt;@U123&gt; in &lt;#C1&gt;, see &lt;http://evil.example|bank&gt; &amp; more';
const texts = (blocks: object[]) => JSON.stringify(blocks);

describe('requestCard', () => {
  const card = requestCard({
    questionId: 'q1',
    server: 'git<hub>',
    message: hostile,
    deadline: 1796205600000,
  });

  it('names the server and shows the message, escaped so nothing notifies or links', () => {
    expect(slackIssues(card)).toEqual([]);
    expect(card.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '*git&lt;hub&gt;* needs your input' },
    });
    expect(card.blocks[1]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: escaped } });
    expect(card.text).toBe(`git&lt;hub&gt; needs your input: ${escaped}`);
    expect(texts(card.blocks)).not.toMatch(/<!channel>|<@U123>|<#C1>|<http/);
  });

  it('has Respond (primary) and Decline buttons carrying the question id', () => {
    const actions = card.blocks[3] as unknown as { elements: Record<string, unknown>[] };
    expect(actions.elements.map((e) => [e.action_id, e.value, e.style])).toEqual([
      [RESPOND_ACTION, 'q1', 'primary'],
      [DECLINE_ACTION, 'q1', undefined],
    ]);
  });

  it('shows the deadline as a Slack date token with a UTC fallback', () => {
    expect(card.blocks[2]).toEqual({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: 'Answer by <!date^1796205600^{date_short_pretty} at {time}|2026-12-02 10:00 UTC>',
        },
      ],
    });
  });

  it('splits a long message across sections within the 3000 limit', () => {
    const long = requestCard({ questionId: 'q', server: 's', message: 'ab '.repeat(3000), deadline: 0 });
    expect(slackIssues(long)).toEqual([]);
    expect(long.blocks.filter((b) => (b as { type: string }).type === 'section')).toHaveLength(4);
    expect(long.text.length).toBeLessThan(400);
  });
});

describe('endedCard', () => {
  const ended = (
    state: 'accepted' | 'declined' | 'cancelled',
    reason: Parameters<typeof endedCard>[0]['reason'],
    byUserId?: string,
  ) => endedCard({ server: 'github', message: hostile, state, reason, ...(byUserId && { byUserId }) });
  const status = (card: ReturnType<typeof endedCard>) => JSON.stringify(card.blocks.at(-1));

  it('has no buttons and keeps the escaped message', () => {
    const card = ended('accepted', 'answered', 'U1');
    expect(slackIssues(card)).toEqual([]);
    expect(texts(card.blocks)).not.toMatch(/"actions"|"button"/);
    expect(card.blocks[1]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: escaped } });
  });

  it('says what happened', () => {
    expect(status(ended('accepted', 'answered', 'U1'))).toContain('Answered by <@U1>');
    expect(status(ended('declined', 'declined', 'U2'))).toContain('Declined by <@U2>');
    expect(status(ended('cancelled', 'timed_out'))).toContain('Expired: no answer in time');
    expect(status(ended('cancelled', 'closed'))).toContain('Closed without answering');
    expect(status(ended('cancelled', 'withdrawn'))).toContain('Withdrawn by the server');
    expect(ended('declined', 'declined').text).toBe('github: Declined');
  });

  it('names the automation that withdrew its question, in each language', () => {
    const withdrawn = {
      server: 'api:ci',
      message: 'Ship?',
      state: 'cancelled',
      reason: 'withdrawn',
    } as const;
    const en = endedCard({ ...withdrawn, requester: 'ci' });
    expect(status(en)).toContain('Withdrawn by an automation (ci)');
    expect(status(en)).not.toContain('server');
    expect(status(endedCard({ ...withdrawn, requester: 'ci', locale: 'zh-CN' }))).toContain(
      '已由自动化任务（ci）撤回',
    );
    expect(status(endedCard({ ...withdrawn, requester: 'U1' }))).toContain('Withdrawn by the server');
  });

  it('never turns a malformed user id into markup', () => {
    expect(status(ended('accepted', 'answered', '<!channel>'))).not.toContain('<');
  });
});

describe('reminderMessage', () => {
  it('mentions the person, escapes the server name and speaks their language', () => {
    const en = reminderMessage({ server: '<!channel>', userId: 'U123', deadline: 1_800_000_000_000 });
    expect(en.text).toBe('<@U123> Reminder: &lt;!channel&gt; is still waiting for your answer.');
    expect(slackIssues(en)).toEqual([]);
    const zh = reminderMessage({
      server: 'gh',
      userId: 'U123',
      deadline: 1_800_000_000_000,
      locale: 'zh-CN',
    });
    expect(zh.text).toContain('提醒');
    expect(reminderMessage({ server: 'gh', userId: '<!here>', deadline: 1 }).text).not.toContain('<');
  });

  it('names who may answer beside the deadline when the question names its answerers, in the reader’s language', () => {
    const input = { questionId: 'q', server: 's', message: 'Deploy?', deadline: 0 };
    const who = '<@UAPPX> or members of <!subteam^S0ONCALL>';
    const shown = JSON.stringify(requestCard({ ...input, answerers: who }).blocks);
    expect(shown).toContain(`Only ${who} can answer`);
    expect(
      JSON.stringify(requestCard({ ...input, answerers: '<@UAPPX>', locale: 'zh-CN' }).blocks),
    ).toContain('仅 <@UAPPX> 可以回答');
    expect(JSON.stringify(requestCard(input).blocks)).not.toContain('can answer');
  });
});
