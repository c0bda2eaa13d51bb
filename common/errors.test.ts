import { describe, it, expect } from 'vitest';
import {
  ERROR_CODES,
  ERROR_HTTP_STATUS,
  NOT_FOUND_BODY,
  errorBodySchema,
  notFoundBodySchema,
  parseErrorBody,
} from './errors';

describe('errors', () => {
  it('gives every code a 4xx or 5xx status', () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_HTTP_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(ERROR_HTTP_STATUS[code]).toBeLessThan(600);
    }
    expect(ERROR_HTTP_STATUS.APP_PERMISSION_MISMATCH).toBe(400);
  });

  it('sends a 404 body that satisfies both the spec body and the error body', () => {
    expect(NOT_FOUND_BODY.message).toBe('404 NOT found');
    expect(notFoundBodySchema.parse(NOT_FOUND_BODY)).toEqual({ message: '404 NOT found' });
    expect(NOT_FOUND_BODY).toEqual({ message: '404 NOT found' });
  });

  it('validates and leniently reads error bodies', () => {
    expect(errorBodySchema.safeParse({ code: 'NOPE', message: 'x' }).success).toBe(false);
    expect(parseErrorBody({ code: 'NOPE', message: 'x' })).toEqual({ code: null, message: 'x' });
    expect(parseErrorBody({ code: 'CONFLICT', message: 'x' })).toEqual({ code: 'CONFLICT', message: 'x' });
    expect(parseErrorBody('oops')).toBeNull();
  });
});
