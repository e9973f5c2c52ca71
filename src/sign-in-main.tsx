// Entry of the standalone sign-in page (signin.html, served for a page load of /signin): the sign-in
// form alone, without the router, the store or the worker, so a first visit paints and takes an address
// at once on a slow phone. The form is already in the HTML (rendered at build time from
// src/sign-in-page.tsx); this script hydrates it. The session code loads as the person types; once
// signed in, the page goes on to the app. Inside the app, /signin is the same screen under the auth
// layout (decision 0036).
import { hydrateRoot } from 'react-dom/client';
import { safeRedirect } from './app/safe-redirect.ts';
import { applyTheme } from './app/theme.ts';
import { seemsSignedIn } from './data/session-marker.ts';
import { SignInPage } from './sign-in-page.tsx';
import './styles.css';

// The theme chosen on this device (the form's markup is already painted: it follows at once).
applyTheme();

/** Spec §2: a signed-in person on an auth page goes to the redirect value, or to /. */
const goOn = () => location.replace(safeRedirect(new URLSearchParams(location.search).get('redirect')));

const root = document.getElementById('root');
if (!root) throw new Error('signin.html has no #root element');

if (seemsSignedIn()) goOn();
else hydrateRoot(root, <SignInPage onSignedIn={goOn} />);

// Error reporting as in the app (decision 0040), imported only once the page has loaded so neither it nor the
// schema it reads the configuration with is part of the first paint.
window.addEventListener(
  'load',
  () => void import('./app/error-reporting.ts').then((m) => m.startErrorReportingAfterFirstPaint()),
  { once: true },
);
