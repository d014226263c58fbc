// Request schemas several tests ask with.

/** A required non-negative integer and an optional two-option choice. */
export const AGE_COLOR = {
  type: 'object',
  properties: {
    age: { type: 'integer', minimum: 0, title: 'Age' },
    color: { type: 'string', enum: ['red', 'green'], title: 'Color' },
  },
  required: ['age'],
};
