// The errors a connector (or the SDK's HTTP client on its behalf) raises. The sync engine and the install route
// branch on the class, never on message text:
//   InvalidCredentialsError  → install fails with 'Incorrect {credential name}. Please try again.'; a running
//                              connection moves to ErrorReconnect (only the user can fix it).
//   InvalidUrlError          → an InvalidCredentialsError whose message is the spec's website failure, 'Failed to
//                              install {app}, please verify the provided URL'; the install route shows it as is.
//   PermissionMismatchError  → install fails with 'Failed to install {app}: {message}' (APP_PERMISSION_MISMATCH);
//                              a running connection moves to ErrorReconnect.
//   TransientError           → retry later with back-off; RateLimitedError says exactly when.
//   FatalSourceError         → retrying will not help (contract drift, a workspace that no longer exists): stop.
//   HttpStatusError          → an answer the client does not classify (400, 409, 422…); NotFoundError for 404/410,
//                              which connectors usually catch to skip an item deleted mid-sync.
//   ResponseTooLargeError    → a body past the request's maxBodyBytes; the connector skips the item.
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

/**
 * The URL given at install does not lead to what the app needs: the website app's start page is unreachable, not
 * HTML, refused by the address guard or by robots.txt. It is an invalid credential in every other respect (the
 * user's entry is what is wrong, and a running connection moves to ErrorReconnect), but the spec words its failure
 * differently: 'Failed to install {app}, please verify the provided URL', which is this error's message.
 */
export class InvalidUrlError extends InvalidCredentialsError {
  /** Why, for the log (never shown to the user): 'robots.txt disallows it', 'answered 404'… */
  readonly detail: string | undefined;

  constructor(
    appName: string,
    credentialName?: CredentialName,
    options?: { cause?: unknown; detail?: string },
  ) {
    super(credentialName, options);
    this.message = apps.failedToInstallUrl(appName);
    this.detail = options?.detail;
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

/** A body longer than the request's `maxBodyBytes`: reading stopped there, and a retry would read the same. */
export class ResponseTooLargeError extends ConnectorError {
  readonly code = ErrorCode.UPSTREAM_FAILED;

  constructor(
    readonly method: string,
    /** The path only, as for HttpStatusError. */
    readonly path: string,
    readonly limit: number,
  ) {
    super(`${method} ${path} answered more than ${limit} bytes`);
  }
}
