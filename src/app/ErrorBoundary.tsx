import { Component, type ReactNode } from 'react';
import { ApiError } from '../api/http';
import { ErrorPage } from '../features/errors/ErrorPage';

interface State {
  error: unknown;
}

/** A route that throws shows the error page with a status instead of a blank screen. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidUpdate(prev: { resetKey: string }) {
    // Navigating away is the user's way out of a broken screen.
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const status = error instanceof ApiError && error.status >= 400 ? error.status : 500;
    return <ErrorPage status={status} />;
  }
}
