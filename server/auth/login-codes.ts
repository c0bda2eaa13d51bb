import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { LOGIN_CODE_GROUP_LENGTH, LOGIN_CODE_GROUPS } from '../../common/limits';
import { auth } from '../../common/strings';
import type { ServerContext } from '../context';
import { loginCodes, type LoginCodePurpose } from '../db/schema';
import type { Db } from '../db/store';
import { loginCodeMail } from '../email/templates';
import { ApiError } from '../errors';
import { digestSecret } from './digest';

/** 32 characters without the look-alikes I/1 and O/0, so a code read off a phone is typed right. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const LOGIN_CODE_TTL_MS = 15 * 60_000;
/** Wrong codes tried against an email's live code before that code is void. */
export const LOGIN_CODE_MAX_ATTEMPTS = 5;

/** 'ABCDE-FGHIJ-KLMNP-QRSTU': 20 characters of 5 bits each (100 bits), from the system's CSPRNG. */
export function generateLoginCode(): string {
  const length = LOGIN_CODE_GROUPS * LOGIN_CODE_GROUP_LENGTH;
  // 256 is a multiple of 32, so masking a byte picks every character with the same chance.
  const chars = Array.from(randomBytes(length), (byte) => ALPHABET[byte & 31]).join('');
  const groups: string[] = [];
  for (let at = 0; at < length; at += LOGIN_CODE_GROUP_LENGTH) {
    groups.push(chars.slice(at, at + LOGIN_CODE_GROUP_LENGTH));
  }
  return groups.join('-');
}

/** The form a code is digested in: no dashes or spaces, upper case (the API schema does the same to input). */
export function normaliseLoginCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/** A new code for the email; earlier codes of that email stop working. Only its digest is stored. */
export async function issueLoginCode(
  db: Db,
  tokenKey: Uint8Array,
  email: string,
  purpose: LoginCodePurpose,
  now = new Date(),
): Promise<string> {
  const code = generateLoginCode();
  await db.transaction(async (tx) => {
    await tx.delete(loginCodes).where(eq(loginCodes.email, email));
    await tx.insert(loginCodes).values({
      email,
      purpose,
      codeHash: digestSecret(tokenKey, 'login-code', normaliseLoginCode(code)),
      expiresAt: new Date(now.getTime() + LOGIN_CODE_TTL_MS),
    });
  });
  return code;
}

/**
 * Spends a live code (unused, unexpired, under the attempt limit) in one statement, so two requests racing with
 * the same code cannot both sign in. A wrong code counts against the email's live code when the email is known;
 * without it a wrong code cannot be pinned on anyone, and the per-address rate limit and the code's 100 bits
 * are what stop guessing.
 */
export async function consumeLoginCode(
  db: Db,
  tokenKey: Uint8Array,
  normalisedCode: string,
  email: string | undefined,
  now = new Date(),
): Promise<{ email: string; purpose: LoginCodePurpose } | null> {
  const live = and(
    isNull(loginCodes.usedAt),
    gt(loginCodes.expiresAt, now),
    lt(loginCodes.attempts, LOGIN_CODE_MAX_ATTEMPTS),
  );
  const codeHash = digestSecret(tokenKey, 'login-code', normalisedCode);
  const [spent] = await db
    .update(loginCodes)
    .set({ usedAt: now })
    .where(and(eq(loginCodes.codeHash, codeHash), live, email ? eq(loginCodes.email, email) : undefined))
    .returning({ email: loginCodes.email, purpose: loginCodes.purpose });
  if (spent) return spent;
  if (email) {
    await db
      .update(loginCodes)
      .set({ attempts: sql`${loginCodes.attempts} + 1` })
      .where(and(eq(loginCodes.email, email), live));
  }
  return null;
}

/**
 * Issues a code and mails it. Waits for the mail server, so a failure is reported (502, spec §8 'Failed to send
 * confirmation email') instead of leaving someone waiting for a mail that never comes.
 */
export async function sendLoginCode(
  ctx: Pick<ServerContext, 'store' | 'tokenKey' | 'mailer' | 'config'>,
  email: string,
  purpose: LoginCodePurpose,
  log: FastifyBaseLogger,
): Promise<void> {
  const code = await issueLoginCode(ctx.store.db, ctx.tokenKey, email, purpose);
  try {
    await ctx.mailer.send(loginCodeMail({ to: email, code, publicUrl: ctx.config.publicUrl, purpose }));
  } catch (err) {
    log.error({ err, mailTo: email }, 'login code mail not sent');
    throw new ApiError(502, 'UPSTREAM_FAILED', auth.CODE_REQUEST_FAILED);
  }
}
