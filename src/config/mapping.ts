// What the config readers take for a YAML/JSON mapping: an object that is not null and not a list.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
