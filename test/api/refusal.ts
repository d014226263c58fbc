// What an API check says of a request: ApiError's code and message, or 'accepted'. Shared by the schema tests.
import { ApiError } from '../../src/api/errors.js';

export function refusal(check: () => unknown): string {
  try {
    check();
  } catch (error) {
    if (error instanceof ApiError) return `${error.code} ${error.message}`;
    throw error;
  }
  return 'accepted';
}
