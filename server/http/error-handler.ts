import type { FastifyError, FastifyInstance } from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorCode } from '../../common/errors';
import { ApiError } from '../errors';

const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';

/** Fastify's own client errors (bad body, wrong content type, too large) keep their status under our codes. */
const CLIENT_ERROR_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'BAD_REQUEST',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'BAD_REQUEST',
  429: 'RATE_LIMITED',
};

/** The error model of spec shell-and-account §7.7: a 4xx carries `{ code, message }`; never a stack trace. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ code: error.code, message: error.message });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ code: 'INTERNAL', message: INTERNAL_MESSAGE });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code: ErrorCode =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        error instanceof SyntaxError ||
        error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'INVALID_JSON'
          : (CLIENT_ERROR_CODES[status] ?? 'BAD_REQUEST');
      const message = code === 'INVALID_JSON' ? 'The request body is not valid JSON.' : error.message;
      return reply.status(status).send({ code, message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: INTERNAL_MESSAGE });
  });
}
