// What Slack can show: the relay asks these before it stores a question, and a refusal becomes -32602 for
// the server. The form engine's own errors are turned into RelayErrors here, at the surface boundary.
import {
  SchemaError,
  UrlError,
  parseFormSchema,
  secretFields,
  urlFacts,
  type FormSpec,
} from '../../blocks/index.js';
import { RelayError } from '../relay/errors.js';

/** The form this schema renders as; throws RelayError('invalid_schema') when it cannot be rendered. */
export function checkFormSchema(requestedSchema: unknown): FormSpec {
  try {
    return parseFormSchema(requestedSchema);
  } catch (error) {
    if (error instanceof SchemaError) throw new RelayError('invalid_schema', error.message, { cause: error });
    throw error;
  }
}

/** The deployment's policy hook: MCP forbids asking for secrets in form mode; this server's policy refuses them. */
export function refuseSecretFields(spec: FormSpec): void {
  const secret = secretFields(spec);
  if (secret.length > 0) {
    throw new RelayError(
      'invalid_schema',
      `fields ${secret.map((f) => `"${f}"`).join(', ')} look like secrets, which must not be requested in form mode (use URL mode)`,
    );
  }
}

/** Throws RelayError('invalid_url') for a URL-mode link that may not be shown (not http(s), too long, unparsable). */
export function checkUrl(url: string): void {
  try {
    urlFacts(url);
  } catch (error) {
    if (error instanceof UrlError) throw new RelayError('invalid_url', error.message, { cause: error });
    throw error;
  }
}
