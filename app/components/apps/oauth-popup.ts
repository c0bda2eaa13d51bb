// The OAuth connect popup (spec apps-and-connections §5, §7; shell-and-account §7.3 `PUT /oauth/{app}`), also the
// Microsoft admin-consent popup of an org connection. The window is opened inside the click, before the call that
// answers its address, because browsers block popups opened after an await; then the page waits for the
// callback's message, or notices the window closing (polled every 250 ms), whichever comes first.
import { OAUTH_RESULT_MESSAGE, oauthResultSchema, type OAuthResult } from '../../../common/api/oauth';
import { POPUP_CLOSED_POLL_MS } from '../../../common/limits';

const POPUP_NAME = 'scout-app-oauth';
const POPUP_FEATURES = 'popup,width=620,height=720';

/** A blank popup for the provider's page, or null when the browser blocked it. */
export function openOAuthPopup(): Window | null {
  return window.open('about:blank', POPUP_NAME, POPUP_FEATURES);
}

/** The callback's result for `app`, or 'closed' when the window went away without one. */
export function awaitOAuthResult(popup: Window, app: string): Promise<OAuthResult | 'closed'> {
  return new Promise((resolve) => {
    let timer = 0;
    const finish = (result: OAuthResult | 'closed') => {
      window.clearInterval(timer);
      window.removeEventListener('message', onMessage);
      resolve(result);
    };
    function onMessage(event: MessageEvent) {
      // Only our own callback page may speak for the connect.
      if (event.origin !== window.location.origin || event.source !== popup) return;
      const parsed = oauthResultSchema.safeParse(event.data);
      if (parsed.success && parsed.data.type === OAUTH_RESULT_MESSAGE && parsed.data.app === app)
        finish(parsed.data);
    }
    window.addEventListener('message', onMessage);
    // The callback page posts its result and closes itself at once, and the browser may run this poll before the
    // message's task: a window seen closed gets one more poll for its message to arrive.
    let seenClosed = false;
    timer = window.setInterval(() => {
      if (!popup.closed) return;
      if (seenClosed) finish('closed');
      seenClosed = true;
    }, POPUP_CLOSED_POLL_MS);
  });
}
