import { describe, expect, it } from 'vitest';
import { COMMAND_TEXT } from '../../blocks/i18n-commands.js';
import {
  INLINE_CHARS_MAX,
  INLINE_LINES_MAX,
  URL_LINKS_MAX,
  needsSnippet,
  progressMessage,
  resultMessage,
  retryTargetOf,
  runThreadMessage,
  structuredSummary,
  threadUnavailableMessage,
  urlRequiredMessage,
} from '../../blocks/results.js';
import { slackIssues } from './testing.js';

const keysOf = (table: object): string[] => Object.keys(table).sort();

describe('command text tables', () => {
  it('English and Chinese have the same keys, none empty', () => {
    expect(keysOf(COMMAND_TEXT['zh-CN'])).toEqual(keysOf(COMMAND_TEXT.en));
    for (const table of Object.values(COMMAND_TEXT)) {
      for (const value of Object.values(table) as unknown[]) {
        const strings = Array.isArray(value) ? (value as unknown[]) : [value];
        const filled = strings.every((s) => typeof s === 'function' || (typeof s === 'string' && s !== ''));
        expect(strings.length > 0 && filled).toBe(true);
      }
    }
    expect(COMMAND_TEXT['zh-CN'].usage).toHaveLength(COMMAND_TEXT.en.usage.length);
  });

  it('write < and > of their own words as entities, as Slack asks of mrkdwn (only mentions are <…>)', () => {
    const raw: string[] = [];
    for (const table of Object.values(COMMAND_TEXT)) {
      for (const value of Object.values(table) as unknown[]) {
        const strings = Array.isArray(value) ? (value as unknown[]) : [value];
        for (const text of strings) {
          // A function's words, with placeholders that need no escaping.
          const words =
            typeof text === 'function'
              ? String((text as (...a: string[]) => unknown)('x', 'y', 'z'))
              : String(text);
          if (/[<>]/.test(words.replace(/<[@#!][^<>]*>/g, ''))) raw.push(words);
        }
      }
    }
    expect(raw).toEqual([]);
  });
});

describe('needsSnippet', () => {
  it('sends text over 3000 characters or 40 lines as a file, shorter text inline', () => {
    expect(needsSnippet('x'.repeat(INLINE_CHARS_MAX))).toBe(false);
    expect(needsSnippet('x'.repeat(INLINE_CHARS_MAX + 1))).toBe(true);
    expect(needsSnippet(Array(INLINE_LINES_MAX).fill('a').join('\n'))).toBe(false);
    expect(
      needsSnippet(
        Array(INLINE_LINES_MAX + 1)
          .fill('a')
          .join('\n'),
      ),
    ).toBe(true);
  });
});

describe('resultMessage', () => {
  const base = { server: 'gh', tool: 'create_issue', isError: false, text: 'Issue #12 <!channel>' };

  it('shows the text escaped under a headline, valid for Slack', () => {
    const message = resultMessage(base);
    expect(message.text).toBe('create_issue on gh finished');
    expect(JSON.stringify(message.blocks)).toContain('Issue #12 &lt;!channel&gt;');
    expect(slackIssues(message)).toEqual([]);
  });

  it('marks failures as errors with the reason', () => {
    const message = resultMessage({ ...base, isError: true, text: 'rate limited' });
    expect(JSON.stringify(message.blocks[0])).toContain(':warning:');
    expect(message.text).toBe('create_issue on gh failed');
    expect(JSON.stringify(message.blocks)).toContain('rate limited');
  });

  it('says the output is attached, or shortened with a note when the file failed', () => {
    const long = Array(100).fill('line').join('\n');
    expect(JSON.stringify(resultMessage({ ...base, text: long, attached: true }).blocks)).toContain(
      '100 lines',
    );
    const shortened = resultMessage({ ...base, text: 'y'.repeat(20_000), shortened: true });
    expect(slackIssues(shortened)).toEqual([]);
    expect(JSON.stringify(shortened.blocks)).toContain('could not be attached');
  });

  it('summarises structured content instead of repeating its JSON text', () => {
    const structured = { open: 3, labels: ['bug'], owner: { login: 'ada' } };
    const message = resultMessage({ ...base, text: JSON.stringify(structured), structured });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('• *open*: 3');
    expect(text).toContain('• *owner*: {\\"login\\":\\"ada\\"}');
    expect(text).not.toContain('{\\"open\\"');
  });

  it('says there was no output, in Chinese too', () => {
    expect(JSON.stringify(resultMessage({ ...base, text: '' }).blocks)).toContain('(no output)');
    const zh = resultMessage({ ...base, text: '', locale: 'zh-CN' });
    expect(zh.text).toBe('gh 上的 create_issue 已完成');
    expect(JSON.stringify(zh.blocks)).toContain('（无输出）');
  });
});

describe('structuredSummary', () => {
  it('fits one section whatever the size, and shows non-objects as JSON', () => {
    const huge = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, 'v'.repeat(1000)]));
    expect(structuredSummary(huge)?.length).toBeLessThanOrEqual(3000);
    expect(structuredSummary([1, 2])).toBe('[1,2]');
    expect(structuredSummary(undefined)).toBeUndefined();
    expect(structuredSummary({})).toBeUndefined();
  });
});

describe('retryTargetOf', () => {
  it('reads the run’s owner from the button, and a button of an older release as owned by nobody', () => {
    const value = (extra: object) => JSON.stringify({ s: 'gh', t: 'sync', a: { repo: 'a/b' }, ...extra });
    const call = { server: 'gh', tool: 'sync', args: { repo: 'a/b' } };
    expect(retryTargetOf(value({ u: 'U0ADA' }))).toEqual({ ...call, owner: 'U0ADA' });
    expect(retryTargetOf(value({}))).toEqual(call);
    expect(retryTargetOf(value({ u: 7 }))).toEqual(call);
  });
});

describe('resultMessage of a call whose round expired', () => {
  const failed = { server: 'gh', tool: 'deploy', isError: true, text: 'gh no longer accepts the answers' };

  it('says why and carries a Start again button that reruns the same call', () => {
    const restart = { server: 'gh', tool: 'deploy', args: { env: 'prod' }, owner: 'U0ADA' };
    const message = resultMessage({ ...failed, restart });
    const button = message.blocks.at(-1) as { elements: { text: { text: string }; value: string }[] };
    expect(button.elements[0]?.text.text).toBe('Start again');
    expect(retryTargetOf(button.elements[0]?.value)).toEqual(restart);
    expect(JSON.stringify(message.blocks)).toContain('no longer accepts them. Start again to be asked anew.');
    expect(slackIssues(message)).toEqual([]);
  });

  it('says so in Chinese, and says the arguments are too long for a button when they are', () => {
    const restart = { server: 'gh', tool: 'deploy', args: { blob: 'z'.repeat(3000) } };
    const message = resultMessage({ ...failed, restart, locale: 'zh-CN' });
    expect(JSON.stringify(message.blocks)).not.toContain('mcp_retry');
    expect(JSON.stringify(message.blocks)).toContain('重新开始');
    expect(JSON.stringify(message.blocks)).toContain('参数太长');
    expect(slackIssues(message)).toEqual([]);
  });
});

describe('urlRequiredMessage', () => {
  const input = {
    server: 'gh',
    tool: 'sync',
    args: { repo: 'a/b' },
    links: [{ url: 'https://xn--80ak6aa92e.com/login', message: 'Sign in' }],
  };

  it('shows each link with its host and an Open button, then Retry carrying the call', () => {
    const message = urlRequiredMessage(input);
    expect(slackIssues(message)).toEqual([]);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('"url":"https://xn--80ak6aa92e.com/login"');
    expect(text).toContain('`аррӏе.com`');
    const retry = message.blocks.at(-1) as { elements: { value: string }[] };
    expect(retryTargetOf(retry.elements[0]?.value)).toEqual({
      server: 'gh',
      tool: 'sync',
      args: { repo: 'a/b' },
    });
  });

  it('never makes a button of a link that is not http(s), and caps the links shown', () => {
    const links = [
      { url: 'javascript:alert(1)', message: 'x' },
      ...Array.from({ length: 20 }, () => ({ url: 'https://a.example', message: 'y' })),
    ];
    const message = urlRequiredMessage({ ...input, links });
    expect(JSON.stringify(message.blocks)).not.toContain('"url":"javascript');
    expect(message.blocks.filter((b) => JSON.stringify(b).includes('mcp_link_'))).toHaveLength(
      URL_LINKS_MAX - 1,
    );
  });

  it('leaves out Retry, saying why, when the arguments do not fit a button', () => {
    const message = urlRequiredMessage({ ...input, args: { blob: 'z'.repeat(3000) } });
    expect(JSON.stringify(message.blocks)).not.toContain('mcp_retry');
    expect(JSON.stringify(message.blocks)).toContain('too long to retry');
  });

  it('has no Retry for an automation’s call, saying it goes on by itself, valid for Slack in both languages', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      const message = urlRequiredMessage({ ...input, retriesItself: true, locale });
      expect(slackIssues(message)).toEqual([]);
      expect(JSON.stringify(message.blocks)).not.toContain('mcp_retry');
      expect(JSON.stringify(message.blocks.at(-1))).toContain(COMMAND_TEXT[locale].retriesItself);
    }
  });
});

describe('retryTargetOf', () => {
  it('refuses values that are not a call', () => {
    expect(retryTargetOf('{"s":"a","t":"b","a":[]}')).toBeUndefined();
    expect(retryTargetOf('nope')).toBeUndefined();
    expect(retryTargetOf(undefined)).toBeUndefined();
  });
});

describe('progressMessage', () => {
  it('shows the share done and the server’s message, then done or stopped', () => {
    const working = progressMessage({
      server: 's',
      tool: 't',
      progress: { progress: 1, total: 4, message: 'step <1>' },
    });
    expect(JSON.stringify(working.blocks)).toContain('25% · step &lt;1&gt;');
    expect(slackIssues(working)).toEqual([]);
    expect(progressMessage({ server: 's', tool: 't', done: 'finished' }).text).toBe(
      't on s is done; the result follows.',
    );
    expect(progressMessage({ server: 's', tool: 't', done: 'failed', locale: 'zh-CN' }).text).toBe(
      's 上的 t 已停止；原因如下。',
    );
  });
});

describe('runThreadMessage and threadUnavailableMessage', () => {
  it('name who ran what where, in the person’s language, with server text escaped', () => {
    const started = runThreadMessage({ userId: 'U1', server: 'ops', tool: 'deploy <prod>' });
    expect(started.text).toBe(
      '<@U1> ran deploy &lt;prod&gt; on ops. Its questions and result follow in this thread.',
    );
    expect(slackIssues(started)).toEqual([]);
    const zh = runThreadMessage({ userId: 'U1', server: 'ops', tool: 'deploy', locale: 'zh-CN' });
    expect(zh.text).toBe('<@U1> 在 ops 上运行了 deploy。它的问题和结果会在此话题中继续。');
    const refused = threadUnavailableMessage({ channelId: 'C0TEAM', error: 'not_in_channel' });
    expect(refused.text).toContain('I cannot post in <#C0TEAM> (`not_in_channel`)');
    expect(slackIssues(refused)).toEqual([]);
  });
});
