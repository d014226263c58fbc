// LOG_FORMAT's default follows the terminal, and readable lines redact what JSON lines redact.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, logFormat } from '../src/config/index.js';
import { createLogger } from '../src/logger.js';

describe('log format', () => {
  it('is pretty on a terminal and JSON otherwise unless LOG_FORMAT says', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({ LOG_FORMAT: '' }, false)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(() => logFormat({ LOG_FORMAT: 'JSON' }, false)).toThrow(ConfigError);
  });

  it('redacts secrets and answers in readable lines too', () => {
    let out = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        out += chunk.toString();
        done();
      },
    });
    const logger = createLogger('info', sink, 'pretty');
    logger.info({ botToken: 'xoxb-secret', content: { pin: '1234' }, questionId: 'q1' }, 'answered');
    expect(out).toMatch(/INFO: answered\n/);
    expect(out).toContain('questionId: "q1"');
    expect(out).not.toContain('xoxb-secret');
    expect(out).not.toContain('1234');
  });
});
