// The last page of a provider sign-in (served by server/http/identity.ts under a strict opener policy).
// In a popup: hands the provider's answer to the Lantern window that started the sign-in over a same-origin
// BroadcastChannel (never window.opener, which the browser cuts), then closes. The main window matches the
// answer to its sign-in by `state` and finishes it with the secret only it holds. In the app's own tab
// (popups were blocked, and the tab's session storage names this sign-in): back to /signin, which finishes.
const meta = document.querySelector('meta[name="lantern-signin-result"]');
let result = {};
try {
  result = JSON.parse(meta?.getAttribute('content') ?? '{}');
} catch {
  result = { error: 'invalid_response' };
}
// The code must not stay in this window's address or history.
history.replaceState(null, '', location.pathname);

let pending = null;
try {
  pending = JSON.parse(sessionStorage.getItem('lantern-identity-redirect') ?? 'null');
} catch {
  pending = null;
}

if (pending && pending.state === result.state) {
  sessionStorage.setItem('lantern-identity-result', JSON.stringify({ type: 'result', ...result }));
  location.replace('/signin');
} else {
  const channel = new BroadcastChannel('lantern-identity');
  channel.postMessage({ type: 'result', ...result });
  // Give the message a moment to leave before the window goes (closing a popup we opened is allowed).
  setTimeout(() => {
    channel.close();
    window.close();
    const status = document.getElementById('status');
    if (status) status.textContent = 'You can close this window now.';
  }, 150);
}
