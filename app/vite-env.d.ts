/// <reference types="vite/client" />

// Build-time settings an operator may pass as VITE_* environment variables.
interface ImportMetaEnv {
  readonly VITE_UNINSTALL_URL?: string;
  readonly VITE_DEMO_URL?: string;
  readonly VITE_STATUS_PAGE_URL?: string;
  readonly VITE_CONTACT_US_URL?: string;
  readonly VITE_HELP_CENTER_URL?: string;
  readonly VITE_SLACK_COMMUNITY_URL?: string;
  readonly VITE_EARN_500_URL?: string;
}
