// Example MCP server "forms": tools that elicit every field kind of MCP 2025-06-18 and 2025-11-25,
// with defaults, multi-select and URL mode. Each tool reports exactly what it received.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askAndReport, runIfMain, SERVER_WAIT_MS, text } from './shared.js';

/** Every 2025-06-18 kind: strings (lengths, formats), numbers, integers, booleans, legacy enumNames. */
const BASICS = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 2, maxLength: 40, default: 'Ada Lovelace' },
    bio: { type: 'string', title: 'Short bio', description: 'A few sentences', maxLength: 500 },
    email: { type: 'string', title: 'Email', format: 'email' },
    homepage: { type: 'string', title: 'Homepage', format: 'uri' },
    birthday: { type: 'string', title: 'Birthday', format: 'date' },
    meeting: { type: 'string', title: 'Meeting at', format: 'date-time' },
    ratio: { type: 'number', title: 'Ratio', minimum: 0, maximum: 1, default: 0.5 },
    seats: { type: 'integer', title: 'Seats', minimum: 1, maximum: 12 },
    newsletter: { type: 'boolean', title: 'Send me the newsletter', default: false },
    pet: {
      type: 'string',
      title: 'Pet (legacy enumNames)',
      enum: ['cat', 'dog', 'fish'],
      enumNames: ['Cat 🐱', 'Dog 🐶', 'Fish 🐟'],
    },
  },
  required: ['name', 'email', 'seats'],
};

const CITIES = ['Berlin', 'Lagos', 'Lima', 'Osaka', 'Oslo', 'Perth', 'Quito', 'Seoul', '北京'];
const REGIONS = Array.from({ length: 120 }, (_, i) => `Region ${i + 1}`);

/** The 2025-11-25 enum variants: untitled/titled single and multi select, with defaults. */
const CHOICES = {
  type: 'object',
  properties: {
    size: { type: 'string', title: 'Size', enum: ['S', 'M', 'L'], default: 'M' },
    plan: {
      type: 'string',
      title: 'Plan',
      oneOf: [
        { const: 'free', title: 'Free' },
        { const: 'team', title: 'Team <b>&</b> friends' },
        { const: 'enterprise', title: 'Enterprise' },
      ],
    },
    city: { type: 'string', title: 'City', enum: CITIES, default: 'Osaka' },
    region: { type: 'string', title: 'Region (type to search)', enum: REGIONS },
    toppings: {
      type: 'array',
      title: 'Toppings',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['cheese', 'olives', 'basil'] },
      default: ['cheese'],
    },
    languages: {
      type: 'array',
      title: 'Languages',
      items: {
        anyOf: [
          { const: 'ts', title: 'TypeScript' },
          { const: 'py', title: 'Python' },
          { const: 'go', title: 'Go' },
          { const: 'rs', title: 'Rust' },
          { const: 'zh', title: '中文' },
          { const: 'hs', title: 'Haskell' },
        ],
      },
      maxItems: 4,
    },
  },
  required: ['plan', 'toppings'],
};

export function createFormsServer(): McpServer {
  const server = new McpServer({ name: 'elicit-relay-example-forms', version: '1.0.0' });
  server.registerTool(
    'basics',
    { description: 'Asks for every 2025-06-18 field kind (text, formats, numbers, boolean, enumNames)' },
    () => askAndReport(server, 'Tell us about *yourself* (every 2025-06-18 field kind).', BASICS),
  );
  server.registerTool(
    'choices',
    { description: 'Asks with every 2025-11-25 select kind (titled, untitled, multi, type-to-search)' },
    () => askAndReport(server, 'Pick a few things (2025-11-25 selects). `<@channel>` stays text.', CHOICES),
  );
  server.registerTool('sign_in', { description: 'URL mode: asks you to open a link' }, async () => {
    try {
      const result = await server.server.elicitInput(
        {
          mode: 'url',
          message: 'Sign in to the example service',
          url: 'https://example.com/sign-in',
          elicitationId: randomUUID(),
        },
        { timeout: SERVER_WAIT_MS },
      );
      return text(JSON.stringify({ action: result.action }));
    } catch (error) {
      return text(error instanceof Error ? error.message : String(error), true);
    }
  });
  return server;
}

await runIfMain(import.meta.url, createFormsServer);
