import { describe, expect, it } from 'vitest';
import { answerersText, refusalText } from '../../src/slack/texts.js';

const routed = {
  userId: 'U1',
  answerers: { users: ['U2', 'U3'], groups: [{ id: 'S0OPS', members: ['U9'] }], channel: 'C0DESK' },
};

describe('refusal texts', () => {
  it('name whom a question is for: people, user groups and the channel', () => {
    expect(refusalText({ notFor: routed })).toBe(
      'This question is for <@U2>, <@U3>, members of <!subteam^S0OPS> or people in <#C0DESK>; only they can answer it.',
    );
    expect(refusalText({ notFor: { userId: 'U1' } })).toBe(
      'This question is for <@U1>; only they can answer it.',
    );
  });

  it('speak Chinese to a zh-CN person', () => {
    expect(refusalText({ notFor: routed }, 'zh-CN')).toBe(
      '此问题只能由 <@U2>、<@U3>、<!subteam^S0OPS> 的成员或<#C0DESK> 中的成员 回答。',
    );
    expect(refusalText({ ended: 'accepted' }, 'zh-CN')).toBe('此问题已有人回答。');
    expect(refusalText({ ended: 'cancelled', reason: 'holder_lost' })).toContain('could not be delivered');
    expect(refusalText({ ended: 'cancelled', reason: 'timed_out' })).toContain('expired');
  });

  it('cut a long list of people', () => {
    const many = { userId: 'U1', answerers: { users: Array.from({ length: 12 }, (_, i) => `U${i + 10}`) } };
    const named = Array.from({ length: 10 }, (_, i) => `<@U${i + 10}>`).join(', ');
    expect(answerersText(many)).toBe(`${named} or others`);
  });
});
