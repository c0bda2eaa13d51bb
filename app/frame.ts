/** True when this page is embedded, as the browser extension embeds the side panel. */
export function isInFrame(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    // Some browsers throw on window.top across origins; that too means we are framed.
    return true;
  }
}
