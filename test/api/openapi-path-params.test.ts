// OpenAPI 3.1 (Parameter Object, `required`): a path parameter's `required` MUST be true; a client generator or
// validator reading the served document refuses it otherwise (or makes {id} optional).
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { API_PREFIX } from '../../src/api/router.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}

describe('the OpenAPI document', () => {
  it('marks every path parameter required, as OpenAPI 3.1 demands', () => {
    const doc = openApiDocument(API_PREFIX) as { paths: Record<string, Record<string, unknown>> };
    const pathParams: { path: string; method: string; parameter: Parameter }[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const parameters = (operation as { parameters?: Parameter[] }).parameters ?? [];
        for (const parameter of parameters)
          if (parameter.in === 'path') pathParams.push({ path, method, parameter });
      }
    }
    expect(pathParams.length).toBeGreaterThan(0);
    const notRequired = pathParams.filter((p) => p.parameter.required !== true);
    expect(notRequired.map((p) => `${p.method.toUpperCase()} ${p.path} {${p.parameter.name}}`)).toEqual([]);
  });
});
