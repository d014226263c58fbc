import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serverName } from '../../blocks/card.js';
import { homeView } from '../../blocks/home.js';
import {
  CONNECT_ACTION,
  DISCONNECT_ACTION,
  HOME_CONNECTIONS_MAX,
  SIGN_IN_TEXT,
  connectionBlocks,
  signInDone,
  signInPrompt,
} from '../../blocks/sign-in.js';
import { slackIssues } from './testing.js';

const prompt = {
  server: 'tracker',
  scopes: ['mcp', 'admin'],
  reason: 'first' as const,
  authorizationUrl: 'https://auth.example/authorize?state=s1&client_id=c',
};

type Element = { action_id?: string; url?: string; value?: string };
type Block = { type: string; elements?: Element[]; accessory?: Element; text?: { text: string } };
const blocksOf = (message: { blocks: object[] }) => message.blocks as Block[];

describe('the Connect message', () => {
  it('names the server and the scopes and links its Connect button to the authorization page', () => {
    const message = signInPrompt(prompt);
    expect(slackIssues(message)).toEqual([]);
    expect(message.text).toBe('tracker needs you to sign in before the bot can call it as you.');
    expect(JSON.stringify(message.blocks)).toContain('Access asked for: `mcp`, `admin`');
    const button = blocksOf(message).find((b) => b.type === 'actions')?.elements?.[0];
    expect(button).toMatchObject({ action_id: CONNECT_ACTION, url: prompt.authorizationUrl });
  });

  it('says why: expired, revoked, step-up; in Chinese for a Chinese locale', () => {
    expect(signInPrompt({ ...prompt, reason: 'revoked' }).text).toContain('was revoked');
    expect(signInPrompt({ ...prompt, reason: 'expired' }).text).toContain('has expired');
    expect(signInPrompt({ ...prompt, reason: 'step_up' }).text).toContain('needs more access');
    expect(signInPrompt(prompt, 'zh-CN').text).toBe('tracker 需要你先登录，机器人才能以你的身份调用它。');
  });

  it('names the company IdP for an enterprise-managed server, and only then', () => {
    const message = signInPrompt({ ...prompt, scopes: ['openid'], idp: 'https://idp.corp.example' });
    expect(slackIssues(message)).toEqual([]);
    expect(JSON.stringify(message.blocks)).toContain(
      "You sign in to your company's identity provider, https://idp.corp.example, once for every server it manages.",
    );
    expect(JSON.stringify(signInPrompt(prompt).blocks)).not.toContain('identity provider');
    expect(JSON.stringify(signInPrompt({ ...prompt, idp: 'https://i' }, 'zh-CN').blocks)).toContain(
      '身份提供方',
    );
  });

  it('once connected has no button left', () => {
    const done = signInDone('tracker');
    expect(slackIssues(done)).toEqual([]);
    expect(done.text).toContain('Connected to tracker');
    expect(blocksOf(done).some((b) => b.type === 'actions')).toBe(false);
  });
});

describe("the App Home's connections", () => {
  it('lists each connection with its scopes, expiry and a Disconnect button carrying the server', () => {
    const blocks = connectionBlocks([
      { server: 'tracker', scopes: ['mcp'], expiresAt: Date.UTC(2026, 11, 4, 13, 0) },
      { server: 'docs', scopes: [] },
    ]) as Block[];
    const rows = blocks.filter((b) => b.type === 'section');
    expect(rows.map((b) => b.accessory)).toMatchObject([
      { action_id: DISCONNECT_ACTION, value: 'tracker' },
      { action_id: DISCONNECT_ACTION, value: 'docs' },
    ]);
    expect(rows[0]?.text?.text).toContain('<!date^1796389200^');
    expect(rows[1]?.text?.text).toContain('no expiry given');
  });

  it('keeps the fullest Home inside 100 blocks and valid', () => {
    const pending = Array.from({ length: 30 }, (_, i) => ({
      id: `q${i}`,
      server: 's',
      message: 'm',
      deadline: 1796205600000,
    }));
    const recent = Array.from({ length: 12 }, () => ({
      server: 's',
      message: 'm',
      state: 'accepted' as const,
      reason: 'answered' as const,
      at: 1796200000000,
      mode: 'form' as const,
    }));
    const connections = Array.from({ length: 12 }, (_, i) => ({ server: `s${i}`, scopes: ['mcp'] }));
    const view = homeView({ pending, recent, connections });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(slackIssues(view)).toEqual([]);
    const disconnects = (view.blocks as Block[]).filter((b) => b.accessory?.action_id === DISCONNECT_ACTION);
    expect(disconnects).toHaveLength(HOME_CONNECTIONS_MAX - 1);
    expect(JSON.stringify(view.blocks.at(-1))).toContain(
      '…and 5 more: *s7*, *s8*, *s9*, *s10*, *s11*. To forget one, use `/mcp disconnect &lt;server&gt;`.',
    );
    expect(
      JSON.stringify(homeView({ pending, recent, connections, locale: 'zh-CN' }).blocks.at(-1)),
    ).toContain(
      '……还有 5 个连接：*s7*, *s8*, *s9*, *s10*, *s11*。要断开其中一个，请使用 `/mcp disconnect &lt;服务器&gt;`。',
    );
  });

  it('says, in either language, how many connections are not listed and names them, inside 100 blocks', () => {
    const fullestInbox = {
      pending: Array.from({ length: 30 }, (_, i) => ({
        id: `q${i}`,
        server: 's',
        message: 'm',
        deadline: 1,
      })),
      recent: Array.from({ length: 12 }, () => ({
        server: 's',
        message: 'm',
        state: 'accepted' as const,
        reason: 'answered' as const,
        at: 1796200000000,
        mode: 'form' as const,
      })),
    };
    const servers = fc.uniqueArray(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 260 }), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(servers, fc.constantFrom('en' as const, 'zh-CN' as const), (names, locale) => {
        const connections = names.map((server) => ({ server, scopes: ['mcp'] }));
        const view = homeView({ ...fullestInbox, connections, locale });
        expect(view.blocks.length).toBeLessThanOrEqual(100);
        expect(slackIssues(view)).toEqual([]);
        const listed = (view.blocks as Block[]).filter((b) => b.accessory?.action_id === DISCONNECT_ACTION);
        const [, , ...rows] = connectionBlocks(connections, locale) as Block[];
        const unlisted = names.slice(listed.length);
        expect(listed.map((b) => b.accessory?.value)).toEqual(names.slice(0, listed.length));
        if (names.length === 0) {
          expect(rows).toHaveLength(1);
          return;
        }
        expect(rows).toHaveLength(listed.length + (unlisted.length > 0 ? 1 : 0));
        if (unlisted.length === 0) return;
        expect(listed).toHaveLength(HOME_CONNECTIONS_MAX - 1);
        // The line is the template around the names: every unlisted one in order, or the first ones and "…".
        const [before = '', after = ''] = SIGN_IN_TEXT[locale]
          .moreConnections(unlisted.length, '\0')
          .split('\0');
        const text = (rows.at(-1)?.elements?.[0] as { text?: string } | undefined)?.text ?? '';
        expect(text.startsWith(before) && text.endsWith(after)).toBe(true);
        const shown = text.slice(before.length, text.length - after.length).split(', ');
        const bold = unlisted.map((server) => `*${serverName(server)}*`);
        if (shown.at(-1) === '…') expect(shown.slice(0, -1)).toEqual(bold.slice(0, shown.length - 1));
        else expect(shown).toEqual(bold);
      }),
      { numRuns: 200 },
    );
  });

  it('has no connections section when no server needs sign-in', () => {
    const view = homeView({ pending: [], recent: [] });
    expect(JSON.stringify(view)).not.toContain(SIGN_IN_TEXT.en.connectionsHeader);
  });
});

describe('sign-in texts', () => {
  it('English and Chinese have the same keys', () => {
    const keys = (t: object): string[] =>
      Object.entries(t).flatMap(([k, v]: [string, unknown]) =>
        typeof v === 'object' && v !== null ? keys(v).map((n) => `${k}.${n}`) : [k],
      );
    expect(keys(SIGN_IN_TEXT['zh-CN']).sort()).toEqual(keys(SIGN_IN_TEXT.en).sort());
  });
});
