// Which 2025 URL-mode question a link belongs to is kept in memory only while something may still need it: the
// question while it is pending, and once it ended accepted (the person opened the link) for a while, in case the
// server reports the step done (notifications/elicitation/complete); a question that ended otherwise is forgotten
// at once, and the accepted ones are capped in number.
import { describe, expect, it } from 'vitest';
import type { RoundLinkStore } from '../../src/relay/round-links.js';
import type { Question } from '../../src/relay/types.js';
import { COMPLETE_WAIT_MS, URL_QUESTIONS_MAX, UrlQuestions } from '../../src/relay/url-questions.js';
import { handClock } from '../mcp/support.js';

/** Round links are a 2026 matter: none of these tests reaches them. */
const noRoundLinks: RoundLinkStore = {
  note: () => Promise.reject(new Error('no round links here')),
  latest: () => Promise.reject(new Error('no round links here')),
  settle: () => Promise.reject(new Error('no round links here')),
};

function urlQuestions() {
  const time = handClock();
  const urls = new UrlQuestions({ get: () => Promise.resolve(undefined) }, noRoundLinks, time.clock);
  return { urls, time };
}

/** A pending 2025 URL-mode question of the server 'fixture' for link `elicitationId`. */
function urlQuestion(elicitationId: string, id = `q-${elicitationId}`): Question {
  return {
    id,
    state: 'pending',
    holder: 'holder-a',
    createdAt: 0,
    deadline: 60_000,
    server: 'fixture',
    userId: 'U1',
    origin: { userId: 'U1' },
    message: 'Connect your account',
    requestedSchema: null,
    timeoutMs: 60_000,
    url: { url: 'https://example.com/connect', elicitationId },
  };
}

describe('UrlQuestions', () => {
  it('forgets a question that ended declined or cancelled at once', async () => {
    const { urls } = urlQuestions();
    const declined = urlQuestion('el-1');
    const cancelled = urlQuestion('el-2');
    await urls.remember(declined);
    await urls.remember(cancelled);
    expect(urls.held).toBe(2);

    urls.ended(declined, { action: 'decline' });
    urls.ended(cancelled, undefined);
    expect(urls.held).toBe(0);
    expect(urls.take('fixture', 'el-1')).toBeUndefined();
  });

  it('keeps an accepted question for a late complete, and releases it once COMPLETE_WAIT_MS passed', async () => {
    const { urls, time } = urlQuestions();
    const early = urlQuestion('el-1');
    const late = urlQuestion('el-2');
    await urls.remember(early);
    await urls.remember(late);
    urls.ended(early, { action: 'accept', content: {} });
    urls.ended(late, { action: 'accept', content: {} });
    expect(urls.take('fixture', 'el-1')).toBe(early.id);
    expect(urls.held).toBe(1);

    time.advance(COMPLETE_WAIT_MS);
    expect(urls.held).toBe(0);
    expect(urls.take('fixture', 'el-2')).toBeUndefined();
  });

  it('keeps the pending question of a link asked again when an earlier question of that link ends', async () => {
    const { urls } = urlQuestions();
    const first = urlQuestion('el-1', 'q-first');
    const again = urlQuestion('el-1', 'q-again');
    await urls.remember(first);
    await urls.remember(again);
    urls.ended(first, { action: 'decline' });
    expect(urls.take('fixture', 'el-1')).toBe('q-again');
  });

  it('keeps at most URL_QUESTIONS_MAX accepted questions, forgetting the oldest first', async () => {
    const { urls } = urlQuestions();
    for (let n = 0; n <= URL_QUESTIONS_MAX; n += 1) {
      const question = urlQuestion(`el-${n}`);
      await urls.remember(question);
      urls.ended(question, { action: 'accept', content: {} });
    }
    expect(urls.held).toBe(URL_QUESTIONS_MAX);
    expect(urls.take('fixture', 'el-0')).toBeUndefined();
    expect(urls.take('fixture', `el-${URL_QUESTIONS_MAX}`)).toBe(`q-el-${URL_QUESTIONS_MAX}`);
  });
});
