import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorCode } from '../../common/errors';
import { input } from '../../common/strings';
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

/** Fastify's own messages can quote the request (a content type, a path): an answer never carries more of it. */
const MAX_CLIENT_MESSAGE_CHARS = 200;

/**
 * The router's refusals (a malformed or over-long path segment) bypass the error handler; by default they quote the
 * whole path back, hundreds of kilobytes of it.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  void reply.status(error.statusCode ?? 400).send({ code: 'BAD_REQUEST', message: input.BAD_ADDRESS });
}

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
      const message =
        code === 'INVALID_JSON'
          ? 'The request body is not valid JSON.'
          : error.message.slice(0, MAX_CLIENT_MESSAGE_CHARS);
      return reply.status(status).send({ code, message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: INTERNAL_MESSAGE });
  });
}
