import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Last resort for a rendering failure: say so instead of leaving a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: Error | undefined }> {
  override state: { error: Error | undefined } = { error: undefined };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    // Navigating elsewhere gives the new view a fresh start.
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: undefined });
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="error-state" role="alert">
        <p className="error-state__title">This page could not be shown.</p>
        <p>{this.state.error.message}</p>
        <p>
          <a href="/">Start again</a>
        </p>
      </div>
    );
  }
}
