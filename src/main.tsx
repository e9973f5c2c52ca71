// Entry of the tab: opens the store and worker, then renders the router inside the root error boundary.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { RootErrorBoundary } from './app/error-boundary.tsx';
import { startErrorReportingAfterFirstPaint } from './app/error-reporting.ts';
import { createRouter } from './app/router.tsx';
import { startClient } from './data/client.ts';
import './styles.css';

void startClient().catch((error: unknown) => console.error('The local store could not be opened', error));

const router = createRouter();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <RootErrorBoundary>
      <RouterProvider router={router} />
    </RootErrorBoundary>
  </StrictMode>,
);
startErrorReportingAfterFirstPaint();
