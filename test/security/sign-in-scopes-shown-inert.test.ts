// The scopes a Connect message and the App Home list come from the server's side (the authorization URL the
// SDK built from its WWW-Authenticate or metadata, the token response's `scope`): untrusted text, shown like
// every other server string, escaped, neutralised and inside Slack's limits.
import { describe, expect, it } from 'vitest';
import { homeView } from '../../blocks/home.js';
import { signInPrompt } from '../../blocks/sign-in.js';
import { slackIssues } from '../blocks/testing.js';

const HOSTILE = ['<!channel>', '<https://evil.example/login|Click here to connect>', '<@U0ADMIN>', 'a&b'];
const prompt = (scopes: string[]) =>
  signInPrompt({
    server: 'tracker',
    scopes,
    reason: 'first',
    authorizationUrl: 'https://auth.example/authorize?state=s1',
  });

/** Every mrkdwn text of the blocks, however deep. */
function mrkdwnTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(mrkdwnTexts);
  if (typeof value !== 'object' || value === null) return [];
  const own = value as { type?: unknown; text?: unknown };
  const here = own.type === 'mrkdwn' && typeof own.text === 'string' ? [own.text] : [];
  return [...here, ...Object.values(value).flatMap(mrkdwnTexts)];
}

describe("a sign-in's scopes as Slack shows them", () => {
  it('keeps mentions and links in the Connect message literal', () => {
    const texts = mrkdwnTexts(prompt(HOSTILE).blocks).join('\n');
    expect(texts).not.toMatch(/<[!@#]|<https?:/);
    expect(texts).toContain('&lt;!channel&gt;');
    expect(texts).toContain('a&amp;b');
  });

  it('removes bidi overrides from the scopes', () => {
    const texts = mrkdwnTexts(prompt(['\u202Eadmin\u202C']).blocks).join('\n');
    expect(texts).not.toContain('\u202E');
    expect(texts).toContain('admin');
  });

  it('keeps a Connect message asking for very many scopes within Block Kit limits', () => {
    const scopes = Array.from({ length: 400 }, (_, i) => `tracker:project-${i}:write`);
    expect(slackIssues(prompt(scopes))).toEqual([]);
  });

  it("keeps the App Home's connections literal and within limits", () => {
    const scopes = [...HOSTILE, ...Array.from({ length: 400 }, (_, i) => `<!here>${i}`)];
    const view = homeView({ pending: [], recent: [], connections: [{ server: 'tracker', scopes }] });
    expect(slackIssues(view)).toEqual([]);
    expect(mrkdwnTexts(view.blocks).join('\n')).not.toMatch(/<[!@#]|<https?:/);
  });
});
