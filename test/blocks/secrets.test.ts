import { describe, expect, it } from 'vitest';
import { requestCard } from '../../blocks/card.js';
import { formModal } from '../../blocks/modal.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { looksSecret, secretFields } from '../../blocks/secrets.js';
import { slackIssues } from './testing.js';

const meta = { questionId: 'q', server: 'srv', message: 'Please answer' };

describe('looksSecret', () => {
  it('spots secrets in names of any case style, titles and descriptions, in English and Chinese', () => {
    const secret = [
      'password',
      'newPassword',
      'db_passwd',
      'passcode',
      'apiKey',
      'OPENAI_API_KEY',
      'accessToken',
      'token',
      'client-secret',
      'card number',
      'cardNo',
      'CVV',
      'ssn',
      'Social Security number',
      'private key',
      'Your PIN code',
      '登录密码',
      '访问令牌',
      '密钥',
      '银行卡号',
    ];
    for (const text of secret) expect(looksSecret(text), text).toBe(true);
  });

  it('leaves ordinary fields alone', () => {
    const plain = [
      'name',
      'email',
      'max_tokens',
      'maxTokens',
      'Did the test pass?',
      'passenger',
      'secretary',
      'Your favorite integer (do not give us your phone number, pin, or other sensitive info)',
      '用户名',
    ];
    for (const text of plain) expect(looksSecret(text), text).toBe(false);
  });
});

describe('secret fields in a form', () => {
  const spec = parseFormSchema({
    type: 'object',
    properties: {
      user: { type: 'string', title: 'User <b>' },
      pw: { type: 'string', title: 'Password <!here>' },
      note: { type: 'string', description: 'Paste your API key' },
      pin: { type: 'string', title: '支付密码' },
    },
  });

  it('marks them on the FieldSpec and lists their names for a deployment policy', () => {
    expect(spec.fields.map((f) => f.secret)).toEqual([undefined, true, true, true]);
    expect(secretFields(spec)).toEqual(['pw', 'note', 'pin']);
    expect(secretFields(parseFormSchema({ type: 'object', properties: { a: { type: 'string' } } }))).toEqual(
      [],
    );
  });

  it('warns near the top of the modal, naming the fields by label, escaped', () => {
    const view = formModal(spec, meta);
    expect(slackIssues(view)).toEqual([]);
    expect(view.blocks[1]).toEqual({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text:
            ':warning: *This form asks for something that looks secret: Password &lt;!here&gt;, note, 支付密码.* ' +
            'MCP servers must not ask for passwords, tokens, keys or card numbers in a form. ' +
            'Leave these empty or decline unless you are sure.',
        },
      ],
    });
  });

  it('keeps a warning naming labels that escaping lengthens (&, <) within a context text’s 3000 characters', () => {
    const properties = Object.fromEntries(
      ['&', '<'].flatMap((char) =>
        Array.from({ length: 5 }, (_, i) => [
          `password_${char}${i}`,
          { type: 'string', title: char.repeat(300) },
        ]),
      ),
    );
    const loud = parseFormSchema({ type: 'object', properties });
    const labels = loud.fields.map((f) => f.label);
    expect(slackIssues(formModal(loud, meta))).toEqual([]);
    expect(slackIssues(requestCard({ ...meta, deadline: 0, secretFields: labels }))).toEqual([]);
  });

  it('shows no warning for a form without secrets', () => {
    const view = formModal(parseFormSchema({ type: 'object', properties: { a: { type: 'string' } } }), meta);
    expect(JSON.stringify(view.blocks)).not.toContain(':warning:');
  });
});
