// A stored question for tests that hand one to the code under test without a store (decide, answering, the
// audience, record parsing, the history checker…): every required field with a plain value, the test's own on top.
import type { Question } from '../../src/relay/types.js';

/**
 * A pending form question 'Q1' from server 'srv' to U1 (who asked it), an empty object schema, created at 0 with a
 * 60 s deadline, held by 'h'; `extra` replaces any of these and adds the rest.
 */
export function question(extra: Partial<Question> = {}): Question {
  return {
    id: 'Q1',
    server: 'srv',
    userId: 'U1',
    origin: { userId: 'U1' },
    message: 'Tell me',
    requestedSchema: { type: 'object', properties: {} },
    timeoutMs: 60_000,
    state: 'pending',
    holder: 'h',
    createdAt: 0,
    deadline: 60_000,
    ...extra,
  };
}
