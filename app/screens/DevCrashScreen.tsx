/**
 * Hidden developer route /__crash: throws while rendering, so the crash screen and its crashCount rule
 * can be seen and tested in a real browser, production builds included.
 */
export function DevCrashScreen(): never {
  throw new Error('Deliberate crash from /__crash');
}
