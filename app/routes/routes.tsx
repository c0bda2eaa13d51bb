import { Suspense, lazy } from 'react';
import { Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import { LoadingSplash } from '../components/LoadingSplash';
import { MainShell } from '../components/MainShell';
import { RouteErrorScreen } from '../components/RouteErrorScreen';
import { AnswersScreen } from '../screens/AnswersScreen';
import { AppsScreen } from '../screens/AppsScreen';
import { BotsScreen } from '../screens/BotsScreen';
import { BrowserExtensionScreen } from '../screens/BrowserExtensionScreen';
import { ChatScreen } from '../screens/ChatScreen';
import { DevCrashScreen } from '../screens/DevCrashScreen';
import { FilesScreen } from '../screens/FilesScreen';
import { HomeScreen } from '../screens/HomeScreen';
import { IntegrationsScreen } from '../screens/IntegrationsScreen';
import { LoginScreen } from '../screens/LoginScreen';
import { MyAiControlsScreen } from '../screens/MyAiControlsScreen';
import { MySettingsScreen } from '../screens/MySettingsScreen';
import { NotificationPreferencesScreen } from '../screens/NotificationPreferencesScreen';
import { PublicTopicScreen } from '../screens/PublicTopicScreen';
import { SearchScreen } from '../screens/SearchScreen';
import { SidePanelScreen } from '../screens/SidePanelScreen';
import { SignupScreen } from '../screens/SignupScreen';
import { TopicScreen } from '../screens/TopicScreen';
import { UninstallScreen } from '../screens/UninstallScreen';
import { WorkflowsScreen } from '../screens/WorkflowsScreen';
import { AiControlsScreen } from '../screens/admin/AiControlsScreen';
import { AnalyticsScreen } from '../screens/admin/AnalyticsScreen';
import { ApiKeysScreen } from '../screens/admin/ApiKeysScreen';
import { AppearanceScreen } from '../screens/admin/AppearanceScreen';
import { BillingScreen } from '../screens/admin/BillingScreen';
import { DirectorySyncScreen } from '../screens/admin/DirectorySyncScreen';
import { MembersScreen } from '../screens/admin/MembersScreen';
import { SsoScreen } from '../screens/admin/SsoScreen';
import { RedirectKeepingQuery } from './RedirectKeepingQuery';
import { RequireAdmin } from './guards/RequireAdmin';
import { RequireFlag } from './guards/RequireFlag';
import { RequireFrame } from './guards/RequireFrame';
import { RequireSignedIn } from './guards/RequireSignedIn';
import { RequireSignedOut } from './guards/RequireSignedOut';
import { RequireWorkspaceSetup } from './guards/RequireWorkspaceSetup';
import type { RouteHandle } from './handle';

// Spec §2.2: workspace setup is "loaded on demand"; most people see it once, so it stays out of the
// main bundle.
const WorkspaceSetupScreen = lazy(() =>
  import('../screens/WorkspaceSetupScreen').then((module) => ({ default: module.WorkspaceSetupScreen })),
);

const publicTopicHandle: RouteHandle = { signedOutElement: <PublicTopicScreen /> };

/** Screens inside the sidebar frame. Guards are pathless layout routes, so each address is written whole. */
const shellRoutes: RouteObject[] = [
  { index: true, element: <HomeScreen /> },
  { path: 'chat', element: <ChatScreen /> },
  { path: 'search', element: <SearchScreen /> },
  { path: 'dash-ai', element: <RedirectKeepingQuery to="/chat" /> },
  { path: 'dashchat', element: <RedirectKeepingQuery to="/chat" /> },
  { path: 'topic/:id/:msgId?', element: <TopicScreen />, handle: publicTopicHandle },
  {
    element: <RequireFlag flag="answers" />,
    children: [{ path: 'answers/:id?', element: <AnswersScreen /> }],
  },
  { path: 'workflows', element: <WorkflowsScreen /> },
  { path: 'bots', element: <BotsScreen /> },
  { path: 'files', element: <FilesScreen /> },
  { path: 'uninstall', element: <UninstallScreen /> },
  // Spec §2.2: /apps/* goes to the apps v2 area, whose landing page is the org's apps.
  { path: 'apps', element: <Navigate to="/apps/org" replace /> },
  { path: 'apps/:type/:app?', element: <AppsScreen /> },
  { path: 'apps/*', element: <Navigate to="/apps/org" replace /> },
  { path: 'integrations', element: <IntegrationsScreen /> },
  { path: 'browser-extension', element: <BrowserExtensionScreen /> },
  { path: 'my-settings', element: <MySettingsScreen /> },
  { path: 'my-ai-controls', element: <MyAiControlsScreen /> },
  { path: 'notification-preferences', element: <NotificationPreferencesScreen /> },
  { path: 'admin/hris', element: <Navigate to="/apps/org/finch" replace /> },
  { path: 'admin/browser-extension', element: <Navigate to="/my-settings" replace /> },
  {
    element: <RequireAdmin />,
    children: [
      { path: 'admin/appearance', element: <AppearanceScreen /> },
      { path: 'admin/members/:path?', element: <MembersScreen /> },
      { path: 'admin/directory-sync', element: <DirectorySyncScreen /> },
      { path: 'admin/billing', element: <BillingScreen /> },
      { path: 'admin/ai-controls', element: <AiControlsScreen /> },
      { path: 'admin/sso', element: <SsoScreen /> },
      { path: 'admin/api-keys', element: <ApiKeysScreen /> },
      {
        element: <RequireFlag flag="adminAnalytics" />,
        children: [{ path: 'admin/analytics', element: <AnalyticsScreen /> }],
      },
    ],
  },
  { path: '*', element: <RedirectKeepingQuery to="/" /> },
];

/** The whole route table of the SPA (spec shell-and-account §2.1–2.2). */
export const routes: RouteObject[] = [
  {
    path: '/',
    errorElement: <RouteErrorScreen />,
    children: [
      { path: '__crash', element: <DevCrashScreen /> },
      {
        element: <RequireSignedOut />,
        children: [
          { path: 'login', element: <LoginScreen /> },
          { path: 'signup', element: <SignupScreen /> },
        ],
      },
      {
        // Everything else needs a signed-in user; signed out, it leads to /login (or a public twin).
        element: <RequireSignedIn />,
        children: [
          {
            path: 'workspace-setup',
            element: (
              <Suspense fallback={<LoadingSplash />}>
                <WorkspaceSetupScreen />
              </Suspense>
            ),
          },
          {
            element: <RequireWorkspaceSetup />,
            children: [
              // Full-bleed: the extension shows the side panel in its own narrow frame, without our sidebar.
              { element: <RequireFrame />, children: [{ path: 'side-panel', element: <SidePanelScreen /> }] },
              { element: <MainShell />, children: shellRoutes },
            ],
          },
        ],
      },
    ],
  },
];
