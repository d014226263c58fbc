import { describe, expect, it } from 'vitest';
import { endedCard } from '../../blocks/card.js';
import { DECLINE_ACTION, URL_CONSENT_ACTION } from '../../blocks/ids.js';
import { slackIssues } from './testing.js';
import { UrlError, urlCard, urlCompletedCard, urlFacts } from '../../blocks/url-card.js';

const card = (url: string, message = 'Open it') =>
  urlCard({ questionId: 'q1', server: 'srv', message, url, deadline: 1796205600000 });
const texts = (c: ReturnType<typeof card>) => JSON.stringify(c.blocks);
const urlSection = (c: ReturnType<typeof card>) => (c.blocks[2] as { text: { text: string } }).text.text;
const warnings = (c: ReturnType<typeof card>) => texts(c).match(/:warning:[^"]*/g) ?? [];

function urlError(url: string): UrlError {
  try {
    card(url);
  } catch (error) {
    if (error instanceof UrlError) return error;
    throw error;
  }
  throw new Error('expected a UrlError');
}

describe('urlCard', () => {
  it('shows the full URL as inert code with its host in bold, escaped', () => {
    const c = card('https://example.com/a?x=1&y=<b>|z');
    expect(slackIssues(c)).toEqual([]);
    expect(urlSection(c)).toBe('Site: *example.com*\n`https://example.com/a?x=1&amp;y=%3Cb%3E|z`');
    expect(c.text).toBe('srv asks you to open a link on example.com: Open it');
    expect(warnings(c)).toEqual([]);
  });

  it('has an Open link consent button carrying the URL and the question id, and Decline', () => {
    const actions = card('https://example.com/').blocks.at(-1) as unknown as {
      elements: Record<string, unknown>[];
    };
    expect(actions.elements.map((e) => [e.action_id, e.value, e.url, e.style])).toEqual([
      [URL_CONSENT_ACTION, 'q1', 'https://example.com/', 'primary'],
      [DECLINE_ACTION, 'q1', undefined, undefined],
    ]);
  });

  it('keeps the message escaped so nothing notifies or links', () => {
    const c = card('https://example.com/', '<!channel> see <https://evil.example|bank>');
    expect(texts(c)).not.toMatch(/<!channel>|<https/);
  });

  it('warns about punycode and non-ASCII hosts, naming the Unicode form', () => {
    for (const url of ['https://xn--pypal-4ve.com/', 'https://pаypal.com/']) {
      const c = card(url);
      expect(slackIssues(c)).toEqual([]);
      expect(urlSection(c)).toContain('*xn--pypal-4ve.com*');
      expect(warnings(c)).toEqual([
        ':warning: The site name is internationalized (punycode; shown as pаypal.com) and may imitate another site.',
      ]);
    }
  });

  it('warns about plain HTTP and about a user name in front of the host', () => {
    expect(warnings(card('http://example.com/'))).toHaveLength(1);
    expect(warnings(card('http://example.com/'))[0]).toContain('not HTTPS');
    const tricky = card('https://google.com@evil.example/');
    expect(urlSection(tricky)).toContain('*evil.example*');
    expect(warnings(tricky)[0]).toContain('user name before the site name');
  });

  it('never lets a backtick end the code span', () => {
    const facts = urlFacts('https://example.com/?q=`*bold*`');
    expect(facts.href).toBe('https://example.com/?q=%60*bold*%60');
  });

  it('refuses URLs that cannot be offered as a link', () => {
    expect(urlError('javascript:alert(1)').code).toBe('invalid_url');
    expect(urlError('not a url').message).toMatch(/does not parse/);
    expect(urlError(`https://example.com/${'a'.repeat(3000)}`).message).toMatch(/longer than 3000/);
  });
});

describe('endedCard for URL mode', () => {
  it('says who opened the link', () => {
    const ended = endedCard({
      server: 'srv',
      message: 'Open it',
      state: 'accepted',
      reason: 'answered',
      byUserId: 'U1',
      mode: 'url',
    });
    expect(slackIssues(ended)).toEqual([]);
    expect(ended.text).toBe('srv: Link opened by <@U1>');
  });
});

describe('urlCompletedCard', () => {
  it('says the step is done, in the person’s language, with no buttons left', () => {
    const en = urlCompletedCard({ server: 'git<hub>', message: 'Connect your account' });
    expect(slackIssues(en)).toEqual([]);
    expect(texts(en)).toContain('Done: *git&lt;hub&gt;* says the step behind the link is complete');
    expect(texts(en)).not.toContain(URL_CONSENT_ACTION);
    expect(texts(en)).not.toContain(DECLINE_ACTION);
    const zh = urlCompletedCard({ server: 'github', message: '连接账号', locale: 'zh-CN' });
    expect(texts(zh)).toContain('已完成：*github* 确认链接中的步骤已完成');
  });
});
