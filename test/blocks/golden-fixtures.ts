// The corpus of requests whose rendered Slack JSON is pinned in __golden__/<name>.json.
import { endedCard, requestCard } from '../../blocks/card.js';
import { homeView } from '../../blocks/home.js';
import { reviewModal } from '../../blocks/review.js';
import { answerLines } from '../../blocks/summary.js';
import { formModal } from '../../blocks/modal.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { urlCard } from '../../blocks/url-card.js';

const hostile = 'Deploy <!channel>? Ask <@U123> in <#C1>, see <https://evil.example|your bank> & reply';
const modal = (
  schema: unknown,
  message: string,
  server = 'everything',
  extra: Partial<Parameters<typeof formModal>[1]> = {},
) => formModal(parseFormSchema(schema), { questionId: 'q-123', server, message, ...extra });

/**
 * Three form requests of one 2026 round answered in one form (src/mcp/round-form.ts builds such a schema): a
 * section per request, the third with a message too long for its header, so it is shown in full below it.
 */
const sectioned = {
  type: 'object',
  properties: {
    '1.name': { type: 'string', title: 'Name' },
    '2.age': { type: 'integer', title: 'Age', minimum: 0 },
    '3.colour': { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'] },
    '3.note': { type: 'string', title: 'note' },
  },
  required: ['1.name', '2.age', '3.colour'],
  'x-elicit-relay-sections': [
    { message: 'Name?', properties: ['1.name'] },
    { message: 'Age?', properties: ['2.age'] },
    {
      message: `Colour? ${'The card is printed in the colour you pick, so pick one you like. '.repeat(3)}\nA note is optional.`,
      properties: ['3.colour', '3.note'],
    },
  ],
};

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

/** `trigger-elicitation-request` of @modelcontextprotocol/server-everything, as captured (shared notes §5). */
const serverEverything = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string', description: 'Your full, legal name' },
    check: { title: 'Boolean', type: 'boolean', description: 'Agree to the terms and conditions' },
    firstLine: {
      title: 'String with default',
      type: 'string',
      description: 'Favorite first line of a story',
      default: 'It was a dark and stormy night.',
    },
    email: {
      title: 'String with email format',
      type: 'string',
      format: 'email',
      description: 'Your email address (will be verified, and never shared with anyone else)',
    },
    homepage: {
      type: 'string',
      format: 'uri',
      title: 'String with uri format',
      description: 'Portfolio / personal website',
    },
    birthdate: {
      title: 'String with date format',
      type: 'string',
      format: 'date',
      description: 'Your date of birth',
    },
    integer: {
      title: 'Integer',
      type: 'integer',
      description: 'Your favorite integer (do not give us your phone number, pin, or other sensitive info)',
      minimum: 1,
      maximum: 100,
      default: 42,
    },
    number: {
      title: 'Number in range 1-1000',
      type: 'number',
      description: 'Favorite number (there are no wrong answers)',
      minimum: 0,
      maximum: 1000,
      default: 3.14,
    },
    untitledSingleSelectEnum: {
      type: 'string',
      title: 'Untitled Single Select Enum',
      description: 'Choose your favorite friend',
      enum: ['Monica', 'Rachel', 'Joey', 'Chandler', 'Ross', 'Phoebe'],
      default: 'Monica',
    },
    untitledMultipleSelectEnum: {
      type: 'array',
      title: 'Untitled Multiple Select Enum',
      description: 'Choose your favorite instruments',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin', 'Drums', 'Bass'] },
      default: ['Guitar'],
    },
    titledSingleSelectEnum: {
      type: 'string',
      title: 'Titled Single Select Enum',
      description: 'Choose your favorite hero',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Green Lantern' },
        { const: 'hero-3', title: 'Wonder Woman' },
      ],
      default: 'hero-1',
    },
    titledMultipleSelectEnum: {
      type: 'array',
      title: 'Titled Multiple Select Enum',
      description: 'Choose your favorite types of fish',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
          { const: 'fish-3', title: 'Trout' },
        ],
      },
      default: ['fish-1'],
    },
    legacyTitledEnum: {
      type: 'string',
      title: 'Legacy Titled Single Select Enum',
      description: 'Choose your favorite type of pet',
      enum: ['pet-1', 'pet-2', 'pet-3', 'pet-4', 'pet-5'],
      enumNames: ['Cats', 'Dogs', 'Birds', 'Fish', 'Reptiles'],
      default: 'pet-1',
    },
  },
  required: ['name'],
};

/** The SDK example server's `register_user` (it asks for a password in form mode, which the spec forbids). */
const registerUser = {
  type: 'object',
  properties: {
    username: { type: 'string', title: 'Username', minLength: 3, maxLength: 20 },
    email: { type: 'string', title: 'Email', format: 'email' },
    password: { type: 'string', title: 'Password', minLength: 8 },
    newsletter: { type: 'boolean', title: 'Newsletter', default: false },
  },
  required: ['username', 'email', 'password'],
};

/** 30 properties: two pages (20 + 10), every tenth one required. */
const thirty = {
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: 30 }, (_, i) => [
      `field${i + 1}`,
      i % 3 === 0
        ? { type: 'integer', title: `Count ${i + 1}`, minimum: 0 }
        : { type: 'string', title: `Answer ${i + 1}`, maxLength: 80 },
    ]),
  ),
  required: ['field1', 'field11', 'field21'],
};

/** A card's context: the server's own name and version, and who ran the tool. */
/** A 2026 URL request of the fixture's url_steps, as its cards show it (English, Chinese). */
const STEPS_LINK = {
  questionId: 'q-124',
  server: 'everything',
  message: 'Link your account',
  url: 'https://example.com/link?flow=steps',
  deadline: 1796205600000,
};
const STEPS_LINK_ZH = {
  ...STEPS_LINK,
  server: 'github-助手',
  message: '请关联你的账号',
  locale: 'zh-CN' as const,
};

const about = { serverInfo: { name: 'github-mcp', version: '1.4.2', title: 'GitHub' }, requester: 'U1' };
const approval = {
  type: 'object',
  properties: {
    env: { type: 'string', title: 'Environment', oneOf: [{ const: 'prod', title: 'Production' }] },
    approve: { type: 'boolean', title: 'Approve' },
    token: { type: 'string', title: 'API token' },
  },
};
const ended = (
  state: 'accepted' | 'declined' | 'cancelled',
  reason: Parameters<typeof endedCard>[0]['reason'],
  extra: Partial<Parameters<typeof endedCard>[0]> = {},
) =>
  endedCard({ server: 'deploy', message: 'Ship v2?', state, reason, at: 1796205600000, ...about, ...extra });

export const goldenFixtures: Record<string, () => unknown> = {
  'request-card-about-secret': () =>
    requestCard({
      questionId: 'q-123',
      server: 'github',
      message: 'Register the deploy key',
      deadline: 1796205600000,
      secretFields: ['API token'],
      ...about,
    }),
  'request-card-automation-zh-CN': () =>
    requestCard({
      questionId: 'q-123',
      server: 'deploy',
      message: '发布 v2？',
      deadline: 1796205600000,
      serverInfo: { name: 'deploy-mcp', version: '0.9.0' },
      requester: 'nightly-pipeline',
      locale: 'zh-CN',
    }),
  'ended-card-answered-summary': () =>
    ended('accepted', 'answered', {
      byUserId: 'U2',
      answer: answerLines(parseFormSchema(approval), { env: 'prod', approve: true, token: 'sk-1' }),
    }),
  'ended-card-answered-hidden': () => ended('accepted', 'answered', { byUserId: 'U2', answer: 'hidden' }),
  'ended-card-declined-by': () => ended('declined', 'declined', { byUserId: 'U2' }),
  'ended-card-closed-by': () => ended('cancelled', 'closed', { byUserId: 'U1' }),
  'ended-card-expired': () => ended('cancelled', 'timed_out'),
  'ended-card-withdrawn': () => ended('cancelled', 'withdrawn'),
  'ended-card-call-ended': () => ended('cancelled', 'call_ended'),
  'ended-card-holder-lost': () => ended('cancelled', 'holder_lost'),
  'ended-card-delivery-failed': () => ended('cancelled', 'delivery_failed'),
  'modal-review': () =>
    reviewModal(parseFormSchema(approval), {
      questionId: 'q-123',
      server: 'deploy',
      content: { env: 'prod', approve: true, token: 'sk-1' },
    }),
  'modal-zh-CN-review': () =>
    reviewModal(parseFormSchema(approval), {
      questionId: 'q-123',
      server: 'deploy',
      content: { approve: false },
      locale: 'zh-CN',
    }),
  'ended-card-zh-CN-answered-summary': () =>
    ended('accepted', 'answered', {
      byUserId: 'U2',
      locale: 'zh-CN',
      answer: answerLines(parseFormSchema(approval), { env: 'prod', approve: false }, 'zh-CN'),
    }),
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
  'modal-sections': () => modal(sectioned, '1. Name?\n2. Age?\n3. Colour?', 'modern'),
  'modal-spec-contact': () => modal(specContact, 'Please provide your contact information'),
  'modal-spec-github': () => modal(specGithub, '请输入你的GitHub用户名', 'github-助手'),
  'modal-server-everything': () => modal(serverEverything, 'Please provide inputs for the following fields:'),
  'modal-secret-warning': () => modal(registerUser, 'Create your account', 'sdk-example'),
  'modal-zh-CN-spec-contact': () =>
    modal(specContact, '请提供你的联系方式', 'everything', { locale: 'zh-CN' }),
  'modal-zh-CN-secret-warning': () => modal(registerUser, '创建账户', 'sdk-example', { locale: 'zh-CN' }),
  'modal-30-properties-page-1': () => modal(thirty, 'Long form', 'everything', { page: 0 }),
  'modal-30-properties-page-2': () =>
    modal(thirty, 'Long form', 'everything', { page: 1, answers: { field21: 'kept', field22: 5 } }),
  'request-card-zh-CN': () =>
    requestCard({
      questionId: 'q-123',
      server: 'github-助手',
      message: '请输入你的GitHub用户名',
      deadline: 1796205600000,
      locale: 'zh-CN',
    }),
  'ended-card-zh-CN-declined': () =>
    endedCard({
      server: 'github',
      message: '请输入你的GitHub用户名',
      state: 'declined',
      reason: 'declined',
      byUserId: 'U2',
      locale: 'zh-CN',
    }),
  'url-card': () =>
    urlCard({
      questionId: 'q-123',
      server: 'everything',
      message: 'Please open the link to complete this action.',
      url: 'https://example.com/oauth/start?x=1&y=<b>',
      deadline: 1796205600000,
    }),
  'url-card-warnings': () =>
    urlCard({
      questionId: 'q-123',
      server: 'everything',
      message: hostile,
      url: 'http://paypal.com@xn--pypal-4ve.com/login',
      deadline: 1796205600000,
    }),
  'url-card-zh-CN': () =>
    urlCard({
      questionId: 'q-123',
      server: 'github-助手',
      message: '请打开链接完成授权',
      url: 'https://例子.测试/授权',
      deadline: 1796205600000,
      locale: 'zh-CN',
    }),
  'url-card-round': () =>
    urlCard({
      ...STEPS_LINK,
      roundLink: true,
    }),
  'url-card-round-zh-CN': () =>
    urlCard({
      ...STEPS_LINK_ZH,
      roundLink: true,
    }),
  'url-card-again': () =>
    urlCard({
      ...STEPS_LINK,
      again: true,
    }),
  'url-card-again-zh-CN': () =>
    urlCard({
      ...STEPS_LINK_ZH,
      again: true,
    }),
  'ended-card-url-opened': () =>
    endedCard({
      server: 'everything',
      message: 'Please open the link to complete this action.',
      state: 'accepted',
      reason: 'answered',
      byUserId: 'U1',
      mode: 'url',
    }),
  'ended-card-url-cancelled': () =>
    endedCard({
      server: 'everything',
      message: 'Link your account',
      state: 'cancelled',
      reason: 'closed',
      byUserId: 'U1',
      mode: 'url',
      locale: 'zh-CN',
    }),
  'home-inbox': () =>
    homeView({
      pending: [
        { id: 'q-1', server: 'github', message: 'Which repository?', deadline: 1796205600000 },
        {
          id: 'q-2',
          server: 'everything',
          message: 'Please open the link to sign in.',
          deadline: 1796209200000,
          url: { url: 'https://example.com/oauth/start' },
        },
      ],
      recent: [
        {
          server: 'github',
          message: hostile,
          state: 'accepted',
          reason: 'answered',
          at: 1796200000000,
          mode: 'form',
        },
        {
          server: 'deploy',
          message: 'Ship it?',
          state: 'declined',
          reason: 'declined',
          at: 1796190000000,
          mode: 'form',
        },
      ],
    }),
  'home-zh-CN-empty': () => homeView({ pending: [], recent: [], locale: 'zh-CN' }),
};
