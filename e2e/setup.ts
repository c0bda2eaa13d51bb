// Runs before each browser test file: the file's shared Chromium (browser.ts) is closed once the file's own hooks
// have run, since `afterAll` hooks run in reverse order of registration.
import { afterAll } from 'vitest';
import { closeSharedBrowser } from './browser';

afterAll(() => closeSharedBrowser());
