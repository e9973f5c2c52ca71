// Root-level boundary for fatal errors outside the router (e.g. while the store opens): shows the error page.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPage, statusOf } from './error-screen.tsx';

interface State {
  error: unknown;
}

export class RootErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Fatal error', error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <ErrorPage status={statusOf(this.state.error)} />;
    return this.props.children;
  }
}
