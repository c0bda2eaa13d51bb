import { Component } from 'react';
import type { ReactNode } from 'react';
import { CrashScreen } from './CrashScreen';

interface AppErrorBoundaryProps {
  children: ReactNode;
}

interface AppErrorBoundaryState {
  error: unknown;
  crashed: boolean;
}

/**
 * Last line of defence around the providers and the router. Route render errors normally stop at the
 * router's errorElement; this catches what happens outside it (providers, the notifications layer).
 * React still has no hook for error boundaries, hence the class.
 */
export class AppErrorBoundary extends Component<AppErrorBoundaryProps, AppErrorBoundaryState> {
  override state: AppErrorBoundaryState = { error: null, crashed: false };

  static getDerivedStateFromError(error: unknown): AppErrorBoundaryState {
    return { error, crashed: true };
  }

  override render() {
    return this.state.crashed ? <CrashScreen error={this.state.error} /> : this.props.children;
  }
}
