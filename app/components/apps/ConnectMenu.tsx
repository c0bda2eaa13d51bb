import { Box, Button, Menu, Tooltip } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { addsThroughMenu, connectMenuLabels } from '../../../common/connect-forms';
import { apps as appStrings } from '../../../common/strings';
import { appsCopy } from '../../strings';
import { useAppActions } from './AppActions';
import { definitionOf, type AppEntry, type ConnectOption } from './apps-view';

/**
 * The Connect (or, once connected, Add) button of an app (spec §2): a menu of 'Org connection' and 'Individual
 * connection', each disabled with its reason or leading to the upgrade prompt. Apps whose org connection is
 * managed rather than signed in to (websites, HRIS, custom API, Google Sites) open their dialog straight away.
 */
export function ConnectMenu({
  entry,
  options,
}: {
  entry: AppEntry;
  options: { org: ConnectOption; individual: ConnectOption };
}) {
  const actions = useAppActions();
  const app = definitionOf(entry);
  const labels = connectMenuLabels(app);
  const label = entry.connections.length > 0 ? appStrings.ADD : appStrings.CONNECT;
  const kinds = [
    { isOrg: true, option: options.org, label: labels.org },
    { isOrg: false, option: options.individual, label: labels.individual },
  ].filter((kind) => kind.option.state !== 'hidden');
  const usable = kinds.filter((kind) => kind.option.state !== 'disabled');

  if (!addsThroughMenu(app) || kinds.length === 1 || usable.length === 0) {
    const kind = usable[0];
    const reason = kinds.find((k) => k.option.state === 'disabled')?.option;
    return (
      <Tooltip
        label={reason?.state === 'disabled' ? reason.reason : ''}
        disabled={kind !== undefined || reason?.state !== 'disabled'}
        withinPortal
      >
        <Box component="span" display="inline-block">
          <Button
            size="sm"
            disabled={!kind}
            onClick={() => kind && actions.connect(entry, kind.isOrg, kind.option)}
            data-testid="connect-button"
          >
            {label}
          </Button>
        </Box>
      </Tooltip>
    );
  }

  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <Button
          size="sm"
          rightSection={<IconChevronDown size={14} />}
          aria-label={`${label}: ${appsCopy.CONNECT_MENU_LABEL}`}
          data-testid="connect-button"
        >
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {kinds.map((kind) =>
          kind.option.state === 'disabled' ? (
            <Tooltip key={kind.label} label={kind.option.reason} position="left" withinPortal>
              <Box>
                <Menu.Item disabled>{kind.label}</Menu.Item>
              </Box>
            </Tooltip>
          ) : (
            <Menu.Item
              key={kind.label}
              onClick={() => actions.connect(entry, kind.isOrg, kind.option)}
              data-testid={kind.isOrg ? 'connect-org' : 'connect-individual'}
            >
              {kind.label}
            </Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
