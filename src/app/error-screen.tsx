// The error layout: 'Page Not Found' for 404, 'Internal Server Error' for everything else (spec §2, §8).
import { Home, TriangleAlert } from 'lucide-react';
import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { HttpStatusError } from './http-status-error.ts';
import { usePageTitle } from './title.ts';

export function statusOf(error: unknown): number {
  if (error instanceof HttpStatusError) return error.status;
  return 500;
}

interface ErrorPageProps {
  status: number;
  /** Replaces the sentence under the title. */
  description?: string;
  /** Replaces the "Go to Lantern" link (a page whose way out is something else, such as a reset). */
  children?: ReactNode;
}

export function ErrorPage({ status, description, children }: ErrorPageProps) {
  const title = status === 404 ? 'Page Not Found' : 'Internal Server Error';
  usePageTitle(title);
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-3 bg-app px-6 text-center">
      <div className="flex size-12 items-center justify-center rounded-2xl border border-line bg-surface text-accent shadow-xs">
        <TriangleAlert className="size-6" aria-hidden />
      </div>
      <p className="font-mono text-sm text-muted">{status}</p>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="max-w-sm text-sm text-muted">
        {description ??
          (status === 404
            ? 'This page does not exist, or you do not have access to it.'
            : 'Something went wrong on our side. Your drafts and unsent messages are kept on this device.')}
      </p>
      {children ?? (
        <Button asChild className="mt-2">
          {/* A full page load: after a fatal error the router's own state may be what broke. */}
          <a href="/">
            <Home aria-hidden />
            Go to Lantern
          </a>
        </Button>
      )}
    </main>
  );
}

/**
 * Every error a screen throws while rendering lands here and shows the error page in its place; moving
 * to another address tries the screens again.
 */
export function RouteErrors({ children }: { children: ReactNode }) {
  return <RouteErrorBoundary pathname={useLocation().pathname}>{children}</RouteErrorBoundary>;
}

interface BoundaryProps {
  pathname: string;
  children: ReactNode;
}

class RouteErrorBoundary extends Component<BoundaryProps, { error: unknown; pathname: string | null }> {
  override state = { error: null as unknown, pathname: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; pathname: string | null }) {
    // The address the error happened at; another one clears it.
    if (state.error === null) return { pathname: props.pathname };
    if (state.pathname !== props.pathname) return { error: null, pathname: props.pathname };
    return null;
  }

  override componentDidCatch(error: unknown): void {
    if (statusOf(error) !== 404) console.error(error);
  }

  override render() {
    if (this.state.error !== null) return <ErrorPage status={statusOf(this.state.error)} />;
    return this.props.children;
  }
}
