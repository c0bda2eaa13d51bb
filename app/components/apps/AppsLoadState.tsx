import { Alert, Button, Center, Loader } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { appsCopy } from '../../strings';

/** The loading spinner or the failure with its Retry, while the apps are not there to show. */
export function AppsLoadState({
  query,
}: {
  query: Pick<UseQueryResult, 'isError' | 'refetch' | 'isFetching'>;
}) {
  if (query.isError)
    return (
      <Alert color="red" variant="light" title={appsCopy.LOAD_FAILED} data-testid="apps-load-failed">
        <Button
          size="xs"
          variant="light"
          color="red"
          loading={query.isFetching}
          onClick={() => void query.refetch()}
        >
          {appsCopy.RETRY}
        </Button>
      </Alert>
    );
  return (
    <Center py="xl" data-testid="apps-loading">
      <Loader />
    </Center>
  );
}
