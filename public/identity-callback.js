// The last page of a provider sign-in popup (served by server/http/identity.ts under a strict opener
// policy): hands the provider's answer to the Lantern window that started the sign-in, over a same-origin
// BroadcastChannel (never window.opener, which the browser cuts), then closes. The main window matches the
// answer to its sign-in by `state` and finishes it with the secret only it holds.
const meta = document.querySelector('meta[name="lantern-signin-result"]');
let result = {};
try {
  result = JSON.parse(meta?.getAttribute('content') ?? '{}');
} catch {
  result = { error: 'invalid_response' };
}
// The code must not stay in this window's address or history.
history.replaceState(null, '', location.pathname);
const channel = new BroadcastChannel('lantern-identity');
channel.postMessage({ type: 'result', ...result });
// Give the message a moment to leave before the window goes (closing a popup we opened is allowed).
setTimeout(() => {
  channel.close();
  window.close();
  const status = document.getElementById('status');
  if (status) status.textContent = 'You can close this window now.';
}, 150);
