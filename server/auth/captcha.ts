import { z } from 'zod';
import { auth } from '../../common/strings';
import type { Config } from '../config';
import { badRequest } from '../errors';

/** The action the sign-up page names when it asks for a token (spec §5: "a captcha token (action 'login')"). */
export const CAPTCHA_ACTION = 'login';
/** reCAPTCHA v3 scores from 0 (a bot) to 1 (a person); below this a sign-up is refused. */
const MIN_SCORE = 0.5;
const VERIFY_TIMEOUT_MS = 5000;

/** The siteverify answer shared by reCAPTCHA, hCaptcha and Turnstile; action and score only some send. */
const verifyAnswerSchema = z.object({
  success: z.boolean(),
  action: z.string().optional(),
  score: z.number().optional(),
});

/**
 * Checks a CAPTCHA token when the server is configured for it (CAPTCHA_SECRET), else does nothing. Fails closed:
 * a missing token, a refusal, or a verifier that cannot be reached all answer 400 'CAPTCHA verification failed.'
 */
export async function checkCaptcha(
  captcha: Config['captcha'],
  token: string | undefined,
  remoteIp: string,
  log: { warn(obj: object, msg: string): void },
): Promise<void> {
  if (!captcha) return;
  if (!token) throw badRequest(auth.CAPTCHA_FAILED);
  let answer: z.infer<typeof verifyAnswerSchema>;
  try {
    const response = await fetch(captcha.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: captcha.secret, response: token, remoteip: remoteIp }),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    answer = verifyAnswerSchema.parse(await response.json());
  } catch (err) {
    log.warn({ err }, 'CAPTCHA verifier unreachable or answered nonsense');
    throw badRequest(auth.CAPTCHA_FAILED);
  }
  const passed =
    answer.success &&
    (answer.action === undefined || answer.action === CAPTCHA_ACTION) &&
    (answer.score === undefined || answer.score >= MIN_SCORE);
  if (!passed) throw badRequest(auth.CAPTCHA_FAILED);
}
