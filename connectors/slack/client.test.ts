import { WebAPIPlatformError, WebAPIRequestError } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import {
  FatalSourceError,
  InvalidCredentialsError,
  NotFoundError,
  PermissionMismatchError,
  RateLimitedError,
  TransientError,
} from '../sdk';
import { connectorMessages } from '../../common/strings';
import { translateSlackError } from './client';

const platform = (error: string) =>
  translateSlackError('conversations.history', new WebAPIPlatformError({ ok: false, error }));

describe('translateSlackError', () => {
  it('reads Slack’s error codes as the engine’s kinds of failure', () => {
    for (const code of ['invalid_auth', 'token_expired', 'token_revoked', 'account_inactive'])
      expect(platform(code), code).toBeInstanceOf(InvalidCredentialsError);
    expect(platform('missing_scope')).toEqual(
      new PermissionMismatchError(connectorMessages.SLACK_MISSING_SCOPE),
    );
    expect(platform('channel_not_found')).toBeInstanceOf(NotFoundError);
    expect(platform('not_in_channel')).toBeInstanceOf(NotFoundError);
    expect(platform('internal_error')).toBeInstanceOf(TransientError);
    expect(platform('invalid_cursor')).toBeInstanceOf(FatalSourceError);
  });

  it('hands back the HTTP client’s own error from inside WebClient’s wrapper', () => {
    const limited = new RateLimitedError(30_000);
    expect(translateSlackError('users.list', new WebAPIRequestError(limited))).toBe(limited);
  });
});
