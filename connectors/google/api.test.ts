import { describe, expect, it } from 'vitest';
import { google as googleStrings } from '../../common/strings';
import type { AuthFailure } from '../sdk';
import { classifyDirectoryFailure, classifyGoogleFailure } from './api';

const failure = (status: 401 | 403, reasons: string[]): AuthFailure => ({
  status,
  method: 'GET',
  path: '/drive/v3/files',
  headers: new Headers(),
  body: JSON.stringify({ error: { code: status, errors: reasons.map((reason) => ({ reason })) } }),
});

describe('Google refusals', () => {
  it('reads Google’s 403 reasons: throttles wait, a missing scope needs a reconnect, the rest concern one file', () => {
    expect(classifyGoogleFailure(failure(401, []))).toEqual({ kind: 'invalidCredentials' });
    expect(classifyGoogleFailure(failure(403, ['userRateLimitExceeded']))).toEqual({ kind: 'rateLimited' });
    expect(classifyGoogleFailure(failure(403, ['rateLimitExceeded']))).toEqual({ kind: 'rateLimited' });
    expect(classifyGoogleFailure(failure(403, ['insufficientPermissions']))).toEqual({
      kind: 'permissionMismatch',
      message: googleStrings.SCOPE_MISSING,
    });
    expect(classifyGoogleFailure(failure(403, ['insufficientFilePermissions']))).toEqual({
      kind: 'httpError',
    });
    expect(classifyGoogleFailure({ ...failure(403, []), body: 'not json' })).toEqual({ kind: 'httpError' });
  });

  it('takes a Directory 403 for an account that is not an administrator, unless it is a throttle', () => {
    expect(classifyDirectoryFailure(failure(403, ['forbidden']))).toEqual({
      kind: 'permissionMismatch',
      message: googleStrings.ADMIN_REQUIRED,
    });
    expect(classifyDirectoryFailure(failure(403, ['userRateLimitExceeded']))).toEqual({
      kind: 'rateLimited',
    });
  });
});
