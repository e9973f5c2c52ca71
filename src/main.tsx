// Entry of the tab: opens the store and worker, then renders the router inside the root error boundary.
// A store that cannot open shows its own error page with "Reset local data" (store-failure.tsx).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { RootErrorBoundary } from './app/error-boundary.tsx';
import { startErrorReportingAfterFirstPaint } from './app/error-reporting.ts';
import { reportRefreshFailure } from './app/refresh-failure.ts';
import { installReloadGuard } from './app/reload-guard.ts';
import { AppRoutes } from './app/router.tsx';
import { markStoreFailed, StoreFailureGate } from './app/store-failure.tsx';
import { startClient } from './data/client.ts';
import './styles.css';
// The bundled colour emoji font, for devices without one (scripts/emoji-font.ts renames and localises it).
import '@fontsource/noto-color-emoji/400.css';

installReloadGuard();
const storeFailed = (error: unknown) => {
  console.error('The local store could not be opened', error);
  // The LTI launch works without the store: inside a course frame whose browser keeps storage from
  // Lantern, it offers the launch in a window of its own (src/screens/lti-launch.tsx).
  if (!location.pathname.startsWith('/lti/')) markStoreFailed();
};
void startClient({
  onRefreshFailure: (message) => void reportRefreshFailure(message),
  onStoreFailure: storeFailed,
}).catch(storeFailed);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <RootErrorBoundary>
      <StoreFailureGate>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </StoreFailureGate>
    </RootErrorBoundary>
  </StrictMode>,
);
startErrorReportingAfterFirstPaint();
