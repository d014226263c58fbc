// The corpus of requests whose rendered Slack JSON is pinned in __golden__/<name>.json.
import { endedCard, requestCard } from './card.js';
import { formModal } from './modal.js';
import { parseFormSchema } from './schema.js';

const hostile = 'Deploy <!channel>? Ask <@U123> in <#C1>, see <https://evil.example|your bank> & reply';
const modal = (schema: unknown, message: string, server = 'everything') =>
  formModal(parseFormSchema(schema), { questionId: 'q-123', server, message });

/** Every field kind, enum variant and default, plus a 150-value enum and a long CJK/emoji title. */
const everyKind = {
  type: 'object',
  properties: {
    name: {
      type: 'string',
      title: 'Full name',
      description: 'As on your badge',
      minLength: 2,
      maxLength: 60,
      default: 'Ada',
    },
    bio: { type: 'string', title: 'Bio', maxLength: 1000 },
    email: { type: 'string', format: 'email', title: 'Email', default: 'ada@example.com' },
    homepage: { type: 'string', format: 'uri', title: 'Homepage' },
    birthday: { type: 'string', format: 'date', title: 'Birthday', default: '1990-04-28' },
    meeting: { type: 'string', format: 'date-time', title: 'Meeting', default: '2026-12-02T10:00:00Z' },
    age: { type: 'integer', title: 'Age', minimum: 18, maximum: 150, default: 36 },
    score: { type: 'number', title: 'Score', minimum: 0, maximum: 9.5 },
    subscribe: { type: 'boolean', title: 'Subscribe', default: false },
    size: { type: 'string', title: 'Size', enum: ['s', 'm', 'l'], default: 'm' },
    color: { type: 'string', title: 'Color', enum: ['#f00', '#0f0'], enumNames: ['Red', 'Green'] },
    plan: {
      type: 'string',
      title: 'Plan',
      oneOf: ['free', 'team', 'business', 'enterprise', 'edu', 'nonprofit'].map((p) => ({
        const: p,
        title: p.toUpperCase(),
      })),
      default: 'team',
    },
    region: {
      type: 'string',
      title: 'Region',
      enum: Array.from({ length: 150 }, (_, i) => `region-${i + 1}`),
    },
    tags: {
      type: 'array',
      title: 'Tags',
      items: { type: 'string', enum: ['a', 'b', 'c'] },
      maxItems: 2,
      default: ['b'],
    },
    teams: {
      type: 'array',
      title: 'Teams',
      items: {
        anyOf: ['web', 'api', 'ops', 'data', 'ml', 'sec'].map((t) => ({ const: t, title: `Team ${t}` })),
      },
      minItems: 1,
      maxItems: 3,
      default: ['api', 'ops'],
    },
    note: { type: 'string', title: `${'很长的标题🙂'.repeat(60)}` },
  },
  required: ['name', 'email', 'age', 'plan'],
};

/** The spec's own examples (2025-06-18). */
const specContact = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Your full name' },
    email: { type: 'string', format: 'email', description: 'Your email address' },
    age: { type: 'number', minimum: 18, description: 'Your age' },
  },
  required: ['name', 'email'],
};
const specGithub = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

export const goldenFixtures: Record<string, () => unknown> = {
  'request-card': () =>
    requestCard({ questionId: 'q-123', server: 'github', message: hostile, deadline: 1796205600000 }),
  'ended-card-timed-out': () =>
    endedCard({ server: 'github', message: hostile, state: 'cancelled', reason: 'timed_out' }),
  'ended-card-answered': () =>
    endedCard({
      server: 'github',
      message: 'Pick a plan',
      state: 'accepted',
      reason: 'answered',
      byUserId: 'U1',
    }),
  'modal-every-kind': () => modal(everyKind, hostile),
  'modal-spec-contact': () => modal(specContact, 'Please provide your contact information'),
  'modal-spec-github': () => modal(specGithub, '请输入你的GitHub用户名', 'github-助手'),
};
