import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { LOGIN_CODE_GROUP_LENGTH, LOGIN_CODE_GROUPS } from '../../common/limits';
import type { ServerContext } from '../context';
import { loginCodes, type LoginCodePurpose } from '../db/schema';
import type { Db } from '../db/store';
import { loginCodeMail } from '../email/templates';
import { digestSecret } from './digest';

/** 32 characters without the look-alikes I/1 and O/0, so a code read off a phone is typed right. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const LOGIN_CODE_TTL_MS = 15 * 60_000;

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

/**
 * A new code for the email. Earlier live codes stay live (each single-use, each expiring on its own): voiding them
 * would let anyone who knows the email cancel the code its owner is about to type. Only the digest is stored.
 */
export async function issueLoginCode(
  db: Db,
  tokenKey: Uint8Array,
  email: string,
  purpose: LoginCodePurpose,
  now = new Date(),
): Promise<string> {
  const code = generateLoginCode();
  await db.transaction(async (tx) => {
    // Spent and expired codes of this email are only clutter.
    await tx
      .delete(loginCodes)
      .where(
        and(eq(loginCodes.email, email), or(isNotNull(loginCodes.usedAt), lte(loginCodes.expiresAt, now))),
      );
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
 * Spends a live code (unused, unexpired) in one statement, so two requests racing with the same code cannot both
 * sign in. A wrong code counts against nobody: counting it against the email would let a stranger void its owner's
 * codes. The code's 100 bits and the per-address rate limit are what stop guessing.
 */
export async function consumeLoginCode(
  db: Db,
  tokenKey: Uint8Array,
  normalisedCode: string,
  email: string | undefined,
  now = new Date(),
): Promise<{ email: string; purpose: LoginCodePurpose } | null> {
  const [spent] = await db
    .update(loginCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(loginCodes.codeHash, digestSecret(tokenKey, 'login-code', normalisedCode)),
        isNull(loginCodes.usedAt),
        gt(loginCodes.expiresAt, now),
        email ? eq(loginCodes.email, email) : undefined,
      ),
    )
    .returning({ email: loginCodes.email, purpose: loginCodes.purpose });
  return spent ?? null;
}

/**
 * Issues a code and mails it off the request path: the answer must not wait for the mail server, or how long it
 * takes would tell a member (mailed) from a stranger (not). A failure is logged; the person can ask again.
 */
export function sendLoginCode(
  ctx: Pick<ServerContext, 'store' | 'tokenKey' | 'mailer' | 'config'>,
  email: string,
  purpose: LoginCodePurpose,
  log: FastifyBaseLogger,
): void {
  const send = async () => {
    const code = await issueLoginCode(ctx.store.db, ctx.tokenKey, email, purpose);
    await ctx.mailer.send(loginCodeMail({ to: email, code, publicUrl: ctx.config.publicUrl, purpose }));
  };
  send().catch((err: unknown) => log.error({ err, mailTo: email }, 'login code mail not sent'));
}
