// The connector SDK: what a connector (connectors/<app>/) and the sync engine import. Test helpers live in
// ./testing and ./fake-server and are imported from there by tests only.
export * from './types';
export * from './errors';
export { defineConnector, type ConnectorDefinition } from './define-connector';
export {
  createConnectorContext,
  createConnectionLimiter,
  vendorLimiterKey,
  type ConnectorContextInput,
} from './context';
export {
  DEFAULT_RETRY_POLICY,
  DEFAULT_TIMEOUT_MS,
  defaultAuthFailureClassifier,
  type AuthFailure,
  type AuthFailureClassifier,
  type AuthFailureVerdict,
  type HttpClient,
  type HttpClientSettings,
  type HttpDispatcher,
  type HttpResponse,
  type Query,
  type RequestOptions,
  type RetryPolicy,
} from './http';
export * from './pagination';
export * from './outbound-guard';
export { LimiterPool, RequestLimiter, type RateLimit, type RequestLimits } from './limits';
export { systemClock, type Clock } from './clock';
export { silentLogger, type ConnectorLogger } from './logger';
export { callVendor, unwrapConnectorError, vendorFetch, type VendorFetch } from './vendor-fetch';
export { attachmentBlocks, readAttachment, type AttachmentText } from './attachments';
