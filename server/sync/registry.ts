// Which apps this server can connect: app shortname → Connector. The install route refuses an app with no entry
// here (NOT_IMPLEMENTED) and the sync engine looks connectors up by the connection's app name.
import { installPayloadOf, type Connector } from '../../connectors/sdk';
import { customApiConnector } from '../../connectors/custom-api';
import { gcalConnector } from '../../connectors/gcal';
import { gmailConnector } from '../../connectors/gmail';
import { gdriveConnector } from '../../connectors/gdrive';
import { gsitesConnector } from '../../connectors/gsites';
import { gworkspaceDirectoryConnector } from '../../connectors/gworkspace-directory';
import { slackConnector } from '../../connectors/slack';
import { teamsConnector } from '../../connectors/msteams';
import { outlookConnector } from '../../connectors/outlook';
import { onedriveConnector } from '../../connectors/onedrive';
import { sharepointConnector } from '../../connectors/sharepoint';
import { notionConnector } from '../../connectors/notion';
import { websiteConnector } from '../../connectors/website';

/** Credentials and config are the connector's own types; the engine only passes them through. */
export type RegisteredConnector = Connector<unknown, unknown>;

const connectors = new Map<string, RegisteredConnector>();

/**
 * Adds a connector. The shipped ones are registered below; tests register the SDK's example connector (and
 * fakes of their own) through this, in the process that runs the sync.
 */
export function registerConnector<Credentials, Config>(connector: Connector<Credentials, Config>): void {
  // The engine hands each connector only what its own schemas parsed, so erasing the types here is safe.
  connectors.set(connector.shortname, connector as unknown as RegisteredConnector);
}

export function getConnector(appName: string): RegisteredConnector | undefined {
  return connectors.get(appName);
}

/** Whether the app's connector can make an org (or individual) connection: it declares that kind's payload. */
export function connectableAs(appName: string, isOrg: boolean): boolean {
  const connector = connectors.get(appName);
  return connector !== undefined && installPayloadOf(connector, isOrg) !== undefined;
}

export function registeredAppNames(): string[] {
  return [...connectors.keys()];
}

registerConnector(websiteConnector);
registerConnector(customApiConnector);
registerConnector(gsitesConnector);
registerConnector(gmailConnector);
registerConnector(gcalConnector);
registerConnector(gdriveConnector);
registerConnector(gworkspaceDirectoryConnector);
registerConnector(slackConnector);
registerConnector(outlookConnector);
registerConnector(teamsConnector);
registerConnector(sharepointConnector);
registerConnector(onedriveConnector);
registerConnector(notionConnector);
