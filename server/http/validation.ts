import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { parseRequest } from '../../common/api/input';
import { badRequest } from '../errors';

/**
 * Every route's `body`, `querystring`, `params` and `headers` schema validates through the shared input rules
 * (common/api/input.ts): control characters and deep nesting are refused before zod runs, and the 400 names the
 * first offending path without echoing the input.
 */
export const requestValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const parsed = parseRequest(schema, data, httpPart ?? 'request');
    return parsed.success
      ? { value: parsed.data }
      : { error: badRequest(parsed.message, 'VALIDATION_FAILED') };
  };
