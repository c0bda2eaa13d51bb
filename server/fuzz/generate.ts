// Request payloads generated from a route's zod schema (through its JSON Schema, z.toJSONSchema), for the fuzzer:
// a valid value, then one leaf of it bent toward a boundary, the wrong type, a NUL, a huge or a deeply nested value.
import { z } from 'zod';

export const FUZZ_KINDS = ['valid', 'boundary', 'invalid', 'nul', 'huge', 'deep', 'dates'] as const;
export type FuzzKind = (typeof FUZZ_KINDS)[number];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = {
  $ref?: string;
  $defs?: Record<string, Schema>;
  type?: string | string[];
  const?: Json;
  enum?: Json[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  prefixItems?: Schema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
};

export function jsonSchemaOf(schema: z.ZodType): Schema {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    cycles: 'ref',
    reused: 'inline',
  }) as Schema;
}

/** Strings tried against a `pattern` until one matches; most of our patterns are ids, names or file types. */
const PATTERN_CANDIDATES = [
  'a',
  'abc',
  'txt',
  '1',
  '42',
  'a-b',
  'A1',
  'ab_12',
  '#336699',
  'en',
  'x.y',
  'a@b.c',
];

class Generator {
  constructor(
    private readonly root: Schema,
    private readonly random: () => number,
    /** Every optional property too, so a bent payload has more places to bend. */
    private readonly complete = false,
  ) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  private int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  resolve(schema: Schema): Schema {
    if (!schema.$ref) return schema;
    const name = schema.$ref.replace(/^#\/\$defs\//, '');
    return this.root.$defs?.[name] ?? {};
  }

  valid(given: Schema, depth = 0): Json {
    const schema = this.resolve(given);
    if (schema.const !== undefined) return schema.const;
    if (schema.enum) return this.pick(schema.enum);
    const options = schema.anyOf ?? schema.oneOf;
    if (options) return this.valid(this.pick(options), depth + 1);
    if (schema.allOf?.[0]) return this.valid(schema.allOf[0], depth + 1);
    const type = Array.isArray(schema.type) ? this.pick(schema.type) : schema.type;
    switch (type) {
      case 'string':
        return this.string(schema);
      case 'integer':
      case 'number': {
        const min = schema.minimum ?? (schema.exclusiveMinimum ?? -1) + 1;
        const max = Math.min(schema.maximum ?? (schema.exclusiveMaximum ?? min + 101) - 1, min + 100);
        return this.int(Math.ceil(min), Math.floor(Math.max(min, max)));
      }
      case 'boolean':
        return this.random() < 0.5;
      case 'null':
        return null;
      case 'array': {
        if (schema.prefixItems) return schema.prefixItems.map((item) => this.valid(item, depth + 1));
        const min = schema.minItems ?? 0;
        const count = depth > 6 ? min : this.int(min, Math.min(schema.maxItems ?? min + 3, min + 3));
        return Array.from({ length: count }, () => this.valid(schema.items ?? {}, depth + 1));
      }
      case 'object': {
        const out: Record<string, Json> = {};
        const required = new Set(schema.required ?? []);
        for (const [key, property] of Object.entries(schema.properties ?? {})) {
          if (required.has(key) || (depth < 6 && (this.complete || this.random() < 0.5)))
            out[key] = this.valid(property, depth + 1);
        }
        if (typeof schema.additionalProperties === 'object' && depth < 6 && this.random() < 0.5)
          out[`key${this.int(0, 9)}`] = this.valid(schema.additionalProperties, depth + 1);
        return out;
      }
      default:
        return this.pick(['text', 1, true, null, { a: 1 }]);
    }
  }

  private string(schema: Schema): string {
    switch (schema.format) {
      case 'email':
        return `person${this.int(0, 99)}@fuzz.test`;
      case 'uuid':
      case 'guid':
        return `00000000-0000-4000-8000-${String(this.int(0, 999_999_999_999)).padStart(12, '0')}`;
      case 'date-time':
        return new Date(Date.UTC(2024, this.int(0, 11), this.int(1, 28), 12)).toISOString();
      case 'date':
        return '2024-05-01';
      case 'uri':
      case 'url':
        return `https://fuzz.example.com/${this.int(0, 99)}`;
    }
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? min + 12;
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern);
      const match = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate));
      if (match) return match;
    }
    const length = this.int(min, Math.max(min, Math.min(max, 40)));
    return 'fuzz'.repeat(Math.ceil(length / 4)).slice(0, length);
  }

  /** A value of the leaf's schema pushed to an edge it declares (longest string, largest number, most items). */
  boundary(given: Schema): Json {
    const schema = this.resolve(given);
    if (schema.type === 'string' && !schema.format && !schema.pattern)
      return 'b'.repeat(Math.min(schema.maxLength ?? 10_000, 200_000));
    if (schema.type === 'integer' || schema.type === 'number')
      return this.pick([
        schema.maximum ?? Number.MAX_SAFE_INTEGER,
        schema.minimum ?? -Number.MAX_SAFE_INTEGER,
        0,
      ]);
    if (schema.type === 'array' && schema.items)
      return Array.from({ length: Math.min(schema.maxItems ?? 500, 500) }, () =>
        this.valid(schema.items!, 5),
      );
    return this.valid(schema, 5);
  }
}

/** Every path to a leaf (or a whole object or array) of `value`, for a mutation to land on. */
function pathsOf(value: Json, path: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(path);
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...path, i], out));
  else if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) pathsOf(child, [...path, key], out);
  return out;
}

const at = (value: Json, path: (string | number)[]): Json =>
  path.reduce<Json>((current, step) => (current as Record<string | number, Json>)[step]!, value);

function setAt(value: Json, path: (string | number)[], replacement: Json): Json {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value))
    return value.map((item, i) => (i === head ? setAt(item, rest, replacement) : item));
  const object = value as Record<string, Json>;
  return { ...object, [head!]: setAt(object[head!]!, rest, replacement) };
}

function schemaAt(generator: Generator, schema: Schema, path: (string | number)[]): Schema {
  let current = generator.resolve(schema);
  for (const step of path) {
    const options = current.anyOf ?? current.oneOf;
    if (options) current = generator.resolve(options.find((o) => generator.resolve(o).type !== 'null') ?? {});
    current =
      typeof step === 'number'
        ? generator.resolve(current.prefixItems?.[step] ?? current.items ?? {})
        : generator.resolve(
            current.properties?.[step] ??
              (typeof current.additionalProperties === 'object' ? current.additionalProperties : {}),
          );
  }
  return current;
}

const nested = (depth: number): Json => {
  let value: Json = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

const OUT_OF_RANGE_DATES: Json[] = [
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59-05:00',
  '1969-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z',
  '999999999999999',
  1e20,
  -1,
  8.64e15,
];

/** One payload for `schema` of the given kind; the same seed gives the same payloads. */
export function generate(schema: Schema, kind: FuzzKind, random: () => number): Json {
  const generator = new Generator(schema, random, kind !== 'valid');
  const valid = generator.valid(schema);
  if (kind === 'valid') return valid;
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const paths = pathsOf(valid);
  // Out-of-range dates go where a date or a number is expected, when the payload has such a place.
  const datePaths = paths.filter((at) => {
    const leaf = schemaAt(generator, schema, at);
    return leaf.format === 'date-time' || leaf.type === 'integer' || leaf.type === 'number' || leaf.anyOf;
  });
  // NULs go into a string the payload already has, when it has one: that is where the store sees them.
  const stringPaths = paths.filter((path) => typeof at(valid, path) === 'string');
  const targeted = kind === 'dates' ? datePaths : kind === 'nul' ? stringPaths : paths;
  const path = pick(targeted.length > 0 ? targeted : paths);
  switch (kind) {
    case 'boundary':
      return setAt(valid, path, generator.boundary(schemaAt(generator, schema, path)));
    case 'invalid':
      return random() < 0.2 && valid && typeof valid === 'object' && !Array.isArray(valid)
        ? { ...valid, unexpected_field: 'x' }
        : setAt(valid, path, pick([42, -1.5, 'text', true, null, [], {}, '', 1e308, -1e308]));
    case 'nul': {
      const text = typeof valid === 'string' ? valid : String(at(valid, path) ?? '');
      return setAt(valid, path, `${text}${pick(['\u0000', '\u0000b', '\u0007', '\u001b[0m'])}`);
    }
    case 'huge':
      return setAt(valid, path, pick(['h'.repeat(2_000_000), Array.from({ length: 50_000 }, (_, i) => i)]));
    case 'deep':
      return setAt(valid, path, nested(pick([64, 3000])));
    case 'dates':
      return setAt(valid, path, pick(OUT_OF_RANGE_DATES));
  }
}
