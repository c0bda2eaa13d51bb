import { z } from 'zod';
import { privateAccessFromEnv, type PrivateAccess } from '../connectors/sdk';

/** Everything Scout reads from its environment, parsed once at start so a bad value fails loudly and early. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SCOUT_SECRET_KEY: z.string().optional(),
  /** The address people use to reach Scout; links in emails and OAuth callbacks are built from it. */
  PUBLIC_URL: z.string().url().optional(),
  NODE_ENV: z.string().default('development'),
  /** smtp://user:pass@host:port; without it, mail is written to the log (the embedded default). */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Scout <no-reply@scout.localhost>'),
  /** Google sign-in is offered only when both are set. */
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  /** The OpenID issuer for Google sign-in; tests point it at a local provider. */
  GOOGLE_ISSUER_URL: z.string().url().default('https://accounts.google.com'),
  /** When set, sign-up checks the CAPTCHA token against CAPTCHA_VERIFY_URL (reCAPTCHA/Turnstile siteverify). */
  CAPTCHA_SECRET: z.string().min(1).optional(),
  CAPTCHA_VERIFY_URL: z.string().url().default('https://www.google.com/recaptcha/api/siteverify'),
  /** 'false' stops sign-up from creating new orgs. */
  SELF_SERVE_SIGNUP: z.enum(['true', 'false']).default('true'),
  /** Background jobs one process runs at once: quick ones (uploads, permission syncs, embeddings) and long syncs. */
  SCOUT_QUICK_JOBS: z.coerce.number().int().min(1).max(64).default(2),
  SCOUT_LONG_JOBS: z.coerce.number().int().min(1).max(64).default(2),
  /** '1' connects the vendors' apps to fakes on 127.0.0.1 (server/dev/fake-vendors.ts), for trying them out. */
  SCOUT_FAKE_VENDORS: z.enum(['0', '1']).default('0'),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  secretKey: string | undefined;
  publicUrl: string;
  production: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  google: { clientId: string; clientSecret: string; issuerUrl: string } | null;
  captcha: { secret: string; verifyUrl: string } | null;
  selfServeSignup: boolean;
  /** Hosts a guarded outbound fetch (an org's SSO issuer) may reach at private addresses: SCOUT_ALLOW_PRIVATE_HOSTS. */
  allowPrivateHosts: PrivateAccess;
  /** Worker slots per lane: SCOUT_QUICK_JOBS and SCOUT_LONG_JOBS. */
  workerLanes: { quick: number; long: number };
  /** SCOUT_FAKE_VENDORS=1: the dev mode whose apps reach fakes, never the vendors. */
  fakeVendors: boolean;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    logLevel: e.LOG_LEVEL,
    secretKey: e.SCOUT_SECRET_KEY,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    production: e.NODE_ENV === 'production',
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? {
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
            issuerUrl: e.GOOGLE_ISSUER_URL,
          }
        : null,
    captcha: e.CAPTCHA_SECRET ? { secret: e.CAPTCHA_SECRET, verifyUrl: e.CAPTCHA_VERIFY_URL } : null,
    selfServeSignup: e.SELF_SERVE_SIGNUP === 'true',
    allowPrivateHosts: privateAccessFromEnv(env),
    workerLanes: { quick: e.SCOUT_QUICK_JOBS, long: e.SCOUT_LONG_JOBS },
    fakeVendors: e.SCOUT_FAKE_VENDORS === '1',
  };
}
