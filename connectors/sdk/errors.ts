// The errors a connector (or the SDK's HTTP client on its behalf) raises. The sync engine and the install route
// branch on the class, never on message text:
//   InvalidCredentialsError  → install fails with 'Incorrect {credential name}. Please try again.'; a running
//                              connection moves to ErrorReconnect (only the user can fix it).
//   PermissionMismatchError  → install fails with 'Failed to install {app}: {message}' (APP_PERMISSION_MISMATCH);
//                              a running connection moves to ErrorReconnect.
//   TransientError           → retry later with back-off; RateLimitedError says exactly when.
//   FatalSourceError         → retrying will not help (contract drift, a workspace that no longer exists): stop.
//   HttpStatusError          → an answer the client does not classify (400, 409, 422…); NotFoundError for 404/410,
//                              which connectors usually catch to skip an item deleted mid-sync.
// Messages never carry credentials, headers or query strings: they end up in logs and job rows.
import { ErrorCode } from '../../common/errors';
import { CREDENTIAL_NAMES, apps } from '../../common/strings';

export type CredentialName = (typeof CREDENTIAL_NAMES)[keyof typeof CREDENTIAL_NAMES];

export abstract class ConnectorError extends Error {
  abstract readonly code: ErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class InvalidCredentialsError extends ConnectorError {
  readonly code = ErrorCode.INVALID_CREDENTIALS;

  /** The message is the spec's own sentence, ready for the connect dialog's toast. */
  constructor(
    readonly credentialName: CredentialName = CREDENTIAL_NAMES.apiKey,
    options?: { cause?: unknown },
  ) {
    super(apps.incorrectCredential(credentialName), options);
  }
}

export class PermissionMismatchError extends ConnectorError {
  readonly code = ErrorCode.APP_PERMISSION_MISMATCH;

  /** `message` completes 'Failed to install {app}: {message}', e.g. 'The account must be a Workspace Admin.' */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class TransientError extends ConnectorError {
  readonly code: ErrorCode = ErrorCode.UPSTREAM_FAILED;
}

export class RateLimitedError extends TransientError {
  override readonly code = ErrorCode.RATE_LIMITED;

  /** `retryAfterMs`: how long the source asked us to stay away; the engine reschedules rather than spin. */
  constructor(
    readonly retryAfterMs: number,
    message = `rate limited by the source for ${Math.ceil(retryAfterMs / 1000)} s`,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class FatalSourceError extends ConnectorError {
  readonly code = ErrorCode.UPSTREAM_FAILED;
}

/** Longest response excerpt kept on an error: enough for a vendor's error code, not a document. */
const BODY_EXCERPT_CHARS = 300;

export class HttpStatusError extends ConnectorError {
  readonly code = ErrorCode.UPSTREAM_FAILED;
  /** The start of the response body, for the vendor's own error code ('invalid_cursor', 'not_in_channel'). */
  readonly bodyExcerpt: string;

  constructor(
    readonly status: number,
    readonly method: string,
    /** The path only: query strings are left out because some vendors take keys there. */
    readonly path: string,
    body: string,
  ) {
    super(`${method} ${path} answered ${status}`);
    this.bodyExcerpt = body.slice(0, BODY_EXCERPT_CHARS);
  }
}

export class NotFoundError extends HttpStatusError {}
