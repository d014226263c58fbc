// Compiled ajv validators, one per schema text, in one ajv instance that is dropped whole past a bound. ajv keeps
// every schema it compiles for the instance's life: in its cache (keyed by the schema object, so a schema built
// anew per question or per submission is compiled and kept anew) and in the code scope its validators share,
// which removeSchema does not clear. Compiling per call kept ~6 KB per `/mcp run` submission for good; only a
// new instance frees them.
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';

/** Distinct schemas kept compiled per instance (~6 KB each); past it the instance starts over, empty. */
export const SCHEMAS_KEPT = 200;

export class CompiledSchemas {
  private ajv: Ajv;
  private readonly byText = new Map<string, ValidateFunction>();
  /**
   * What compiling each schema text that failed threw, thrown again: a schema that cannot compile may take ajv
   * seconds to refuse (thousands of chained $defs took ~1.3 s), and `/mcp run` asks of one schema more than once.
   */
  private readonly failedByText = new Map<string, unknown>();

  /** `newAjv` makes an instance with its options and formats: once now, then each time it starts over. */
  constructor(private readonly newAjv: () => Ajv) {
    this.ajv = newAjv();
  }

  /**
   * The validator of `schema`, compiled once per text; throws as ajv.compile does, and throws the same again for
   * that text without compiling (ajv then keeps nothing of it).
   */
  validatorFor(schema: object): ValidateFunction {
    const text = JSON.stringify(schema);
    const kept = this.byText.get(text);
    if (kept !== undefined) return kept;
    if (this.failedByText.has(text)) throw this.failedByText.get(text);
    // A bound, not an LRU: ajv cannot forget one schema, so the whole instance goes (a miss only compiles).
    if (this.byText.size + this.failedByText.size >= SCHEMAS_KEPT) this.startOver();
    let validate: ValidateFunction;
    try {
      validate = this.ajv.compile(schema);
    } catch (error) {
      // ajv cached the schema before its compile failed: an instance that gave up on it keeps nothing.
      this.ajv.removeSchema(schema);
      this.failedByText.set(text, error);
      throw error;
    }
    this.byText.set(text, validate);
    return validate;
  }

  /**
   * How `schema` breaks the instance's meta-schema, ajv's errors in its order; empty when it is a schema. Compiles
   * nothing and keeps nothing: the meta-schema's own validator is the instance's, compiled once.
   */
  metaSchemaErrors(schema: object): ErrorObject[] {
    return this.ajv.validateSchema(schema) === true ? [] : [...(this.ajv.errors ?? [])];
  }

  private startOver(): void {
    this.byText.clear();
    this.failedByText.clear();
    this.ajv = this.newAjv();
  }
}
