// Attacks on route dm's fan-out to the answerers' DMs (audience.ts): a requester who is also an answerer, through
// a user group and by name, and an answerer listed by name and in two groups. Each person gets one card.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SLACK_POLICY } from '../../src/config/index.js';
import { answererDms, placeOfQuestion } from '../../src/slack/audience.js';
import { question } from '../support/question.js';

describe("a form question routed to the requester's DM", () => {
  it('gives the requester one card and each other answerer one, however often they are named', () => {
    const asked = question({
      userId: 'U1',
      origin: { userId: 'U1' },
      answerers: {
        users: ['U1', 'U2', 'U2'],
        groups: [
          { id: 'S1', members: ['U3', 'U1', 'U2'] },
          { id: 'S2', members: ['U3', 'U4'] },
        ],
      },
    });
    expect(placeOfQuestion(DEFAULT_SLACK_POLICY, asked)).toEqual({
      mpims: [['U1'], ['U2'], ['U3'], ['U4']],
    });
    expect(answererDms(DEFAULT_SLACK_POLICY, asked)).toEqual({ sent: ['U2', 'U3', 'U4'], notSent: [] });
  });
});
