import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  NavLink,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPin, IconSearch } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  SEARCH_DEFAULT_PAGE_SIZE,
  SEARCH_FILE_TYPES,
  SEARCH_MODIFIED_RANGES,
  SEARCH_SORT_VALUES,
  type HighlightSpan,
  type SearchHit,
  type SearchObjectType,
} from '../../common/api/search';
import { getApp } from '../../common/catalogue';
import { searchApi } from '../api/search';
import { PreviewPanel, type PreviewDocument } from '../components/preview/PreviewPanel';
import { searchCopy } from '../strings';
import { readSearchAddress, searchRequestOf, writeSearchAddress, type SearchAddress } from './search/address';

/** Spec §3 Search state and §4.12: the load states the list moves through. */
type LoadState = 'Loading' | 'LoadingMore' | 'Loaded';

const appName = (source: string) =>
  getApp(source)?.displayName ?? source.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** Markdown's markers (headings, emphasis) read as noise in a one-line snippet. */
const plain = (text: string) => text.replace(/(^|\s)#{1,6}(?=\s)/g, '$1').replace(/\*\*|__/g, '');

/** The snippet with its query words as <mark> elements: text only, never HTML from the server. */
export function HighlightedText({ text, spans }: { text: string; spans: readonly HighlightSpan[] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  const ordered = [...spans].sort((a, b) => a.start - b.start);
  for (const span of ordered) {
    const start = Math.max(span.start, at);
    const end = Math.min(span.end, text.length);
    if (end <= start) continue;
    if (start > at) parts.push(plain(text.slice(at, start)));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) parts.push(plain(text.slice(at)));
  return <>{parts}</>;
}

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** A result in the preview panel: its snippet, and its text around the best match for the search typed. */
function previewOf(hit: SearchHit, q: string): PreviewDocument {
  return {
    objectId: hit.objectID,
    title: hit.name || hit.objectID,
    source: hit.source,
    url: hit.webview_link,
    author: hit.metadata.author,
    passage: plain(hit.content),
    passageKind: 'match',
    centreOn: q,
  };
}

function ResultCard({
  hit,
  onKeyDown,
  onOpen,
}: {
  hit: SearchHit;
  onKeyDown: (event: KeyboardEvent) => void;
  onOpen: (hit: SearchHit) => void;
}) {
  const modified = hit.metadata.modified_time
    ? new Date(hit.metadata.modified_time).toLocaleDateString()
    : null;
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      tabIndex={0}
      role="listitem"
      data-testid="search-result"
      data-object-id={hit.objectID}
      onKeyDown={onKeyDown}
      onDoubleClick={() => onOpen(hit)}
      className="search-result"
      style={{ outlineOffset: 2 }}
    >
      <Group gap="xs" mb={4} wrap="nowrap">
        {hit.pins && (
          <Badge size="xs" color="yellow" leftSection={<IconPin size={10} />}>
            {searchCopy.PINNED}
          </Badge>
        )}
        <Badge size="xs" variant="light" data-testid="result-source">
          {appName(hit.source)}
        </Badge>
        {hit.metadata.object_type && (
          <Text size="xs" c="dimmed">
            {searchCopy.objectType[hit.metadata.object_type as SearchObjectType] ?? hit.metadata.object_type}
          </Text>
        )}
      </Group>
      <Anchor
        component="button"
        type="button"
        fw={600}
        tabIndex={-1}
        onClick={() => onOpen(hit)}
        data-testid="result-title"
      >
        {hit.name || hit.objectID}
      </Anchor>
      {hit.file_path && hit.file_path !== hit.name && (
        <Text size="xs" c="dimmed">
          {hit.file_path}
        </Text>
      )}
      <Text size="sm" mt={4} data-testid="result-snippet">
        <HighlightedText text={hit.content} spans={hit.highlights} />
      </Text>
      <Text size="xs" c="dimmed" mt={4}>
        {[hit.metadata.author, modified].filter(Boolean).join(' · ')}
      </Text>
    </Paper>
  );
}

function Facet({
  label,
  testId,
  allLabel,
  counts,
  selected,
  allValue,
  nameOf,
  onSelect,
}: {
  label: string;
  testId: string;
  allLabel: string;
  counts: Record<string, number>;
  selected: string;
  allValue: string;
  nameOf: (value: string) => string;
  onSelect: (value: string) => void;
}) {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return (
    <Box data-testid={testId}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
        {label}
      </Text>
      <NavLink
        label={allLabel}
        active={selected === allValue}
        rightSection={<Text size="xs">{total}</Text>}
        onClick={() => onSelect(allValue)}
        data-testid={`${testId}-${allValue}`}
      />
      {entries.map(([value, count]) => (
        <NavLink
          key={value}
          label={nameOf(value)}
          active={selected === value}
          rightSection={
            <Text size="xs" data-testid="facet-count">
              {count}
            </Text>
          }
          onClick={() => onSelect(value)}
          data-testid={`${testId}-${value}`}
        />
      ))}
    </Box>
  );
}

/** The search results screen: query box, facets, filters in the address, infinite results, keyboard. */
export function SearchScreen() {
  const [params, setParams] = useSearchParams();
  const state = readSearchAddress(params);
  const [draft, setDraft] = useState(state.q);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useRef<HTMLDivElement>(null);

  // the box follows the address when it changes from outside (back button, a did-you-mean link)
  const [shownQ, setShownQ] = useState(state.q);
  if (shownQ !== state.q) {
    setShownQ(state.q);
    setDraft(state.q);
  }

  const update = (patch: Partial<SearchAddress>) =>
    setParams(writeSearchAddress(params, { ...state, ...patch }));
  const request = searchRequestOf(state);
  const hasQuery = state.q.trim() !== '';
  const results = useInfiniteQuery({
    queryKey: ['search', request],
    queryFn: ({ pageParam, signal }) =>
      searchApi.search({ ...request, page: pageParam, page_size: SEARCH_DEFAULT_PAGE_SIZE }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.has_more ? pages.length : undefined),
    enabled: hasQuery,
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = results;
  const loadState: LoadState =
    hasQuery && results.isPending ? 'Loading' : isFetchingNextPage ? 'LoadingMore' : 'Loaded';

  // '/' focuses the search box, unless the person is typing somewhere
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target))
        return;
      event.preventDefault();
      inputRef.current?.focus();
      inputRef.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // infinite scroll: the sentinel under the list asks for the next page when it comes into view
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const first = results.data?.pages[0];
  const pinned = first?.pins ?? [];
  // pinned results first, each document once (a later page can repeat one when the index changed meanwhile)
  const seen = new Set<string>();
  const hits = [...pinned, ...(results.data?.pages.flatMap((page) => page.hits) ?? [])].filter((hit) => {
    if (seen.has(hit.objectID)) return false;
    seen.add(hit.objectID);
    return true;
  });
  const people = new Set<string>(state.person === 'everyone' ? [] : [state.person]);
  for (const hit of hits) for (const owner of hit.owners) if (owner.email) people.add(owner.email);

  // a result opens in the preview panel (its 'Open in <app>' leads on when its address is real), recorded as a visit
  const [previewed, setPreviewed] = useState<SearchHit | null>(null);
  const open = (hit: SearchHit) => {
    void searchApi.recordVisit(hit.source, hit.objectID).catch(() => undefined);
    setPreviewed(hit);
  };

  const items = () => [
    ...(listRef.current?.querySelectorAll<HTMLElement>('[data-testid="search-result"]') ?? []),
  ];
  const moveFocus = (event: KeyboardEvent, index: number) => {
    const all = items();
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = Math.min(Math.max(index + (event.key === 'ArrowDown' ? 1 : -1), -1), all.length - 1);
      if (next < 0) inputRef.current?.focus();
      else all[next]?.focus();
      if (next >= all.length - 2 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    } else if (event.key === 'Enter' && index >= 0) {
      event.preventDefault();
      const hit = hits[index];
      if (hit) open(hit);
    }
  };

  const submit = () => update({ q: draft.trim() });
  const select = (
    label: string,
    testId: string,
    value: string,
    data: { value: string; label: string }[],
    key: keyof SearchAddress,
  ) => (
    <Select
      label={label}
      size="xs"
      w={170}
      data={data}
      value={value}
      allowDeselect={false}
      data-testid={testId}
      onChange={(next) => next && update({ [key]: next })}
      comboboxProps={{ withinPortal: true }}
    />
  );

  return (
    <Stack p="xl" gap="md" maw={1100} data-testid="search-screen" data-load-state={loadState}>
      <Title order={2}>{searchCopy.TITLE}</Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextInput
          ref={inputRef}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' && items().length > 0) {
              event.preventDefault();
              items()[0]?.focus();
            }
          }}
          placeholder={searchCopy.PLACEHOLDER}
          leftSection={<IconSearch size={16} />}
          size="md"
          aria-label={searchCopy.TITLE}
          data-testid="search-input"
          autoFocus={!hasQuery}
        />
      </form>
      <Group gap="sm" align="flex-end" data-testid="search-filters">
        {select(
          searchCopy.MODIFIED,
          'filter-modified',
          state.modified,
          SEARCH_MODIFIED_RANGES.map((value) => ({ value, label: searchCopy.modified[value] })),
          'modified',
        )}
        {select(
          searchCopy.PERSON,
          'filter-person',
          state.person,
          [
            { value: 'everyone', label: searchCopy.EVERYONE },
            ...[...people].sort().map((email) => ({ value: email, label: email })),
          ],
          'person',
        )}
        {select(
          searchCopy.FILE_TYPE,
          'filter-filetype',
          state.filetype,
          SEARCH_FILE_TYPES.map((value) => ({ value, label: searchCopy.fileType[value] })),
          'filetype',
        )}
        {select(
          searchCopy.SORT,
          'filter-sort',
          state.sort,
          SEARCH_SORT_VALUES.map((value) => ({ value, label: searchCopy.sort[value] })),
          'sort',
        )}
      </Group>

      {!hasQuery ? (
        <Text c="dimmed" data-testid="search-empty-prompt">
          {searchCopy.EMPTY_PROMPT}
        </Text>
      ) : results.isError ? (
        <Alert color="red" title={searchCopy.ERROR} data-testid="search-error">
          <Button size="xs" variant="light" onClick={() => void results.refetch()}>
            {searchCopy.RETRY}
          </Button>
        </Alert>
      ) : (
        <Group align="flex-start" gap="xl" wrap="nowrap">
          <Stack w={220} gap="md" style={{ flexShrink: 0 }}>
            {first && (
              <>
                <Facet
                  label={searchCopy.APPS}
                  testId="facet-app"
                  allLabel={searchCopy.ALL_APPS}
                  counts={first.hitCounts.byApp}
                  selected={state.app}
                  allValue="all_apps"
                  nameOf={appName}
                  onSelect={(app) => update({ app })}
                />
                <Facet
                  label={searchCopy.TYPES}
                  testId="facet-type"
                  allLabel={searchCopy.ALL_TYPES}
                  counts={first.hitCounts.byType}
                  selected={state.filter}
                  allValue="all"
                  nameOf={(value) => searchCopy.objectType[value as SearchObjectType] ?? value}
                  onSelect={(filter) => update({ filter: filter as SearchObjectType })}
                />
              </>
            )}
          </Stack>
          <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
            {first?.query_spell_corrected && (
              <Text size="sm" data-testid="did-you-mean">
                {searchCopy.DID_YOU_MEAN}{' '}
                <Anchor
                  component="button"
                  onClick={() => update({ q: first.query_spell_corrected ?? state.q })}
                  fw={600}
                >
                  {first.query_spell_corrected}
                </Anchor>
                ?
              </Text>
            )}
            {loadState === 'Loading' ? (
              <Group justify="center" p="xl">
                <Loader size="sm" />
              </Group>
            ) : hits.length === 0 ? (
              <Text c="dimmed" data-testid="search-no-results">
                {searchCopy.noResults(state.q)}
              </Text>
            ) : (
              <Stack gap="sm" role="list" ref={listRef} data-testid="search-results">
                {hits.map((hit, index) => (
                  <ResultCard
                    key={hit.objectID}
                    hit={hit}
                    onKeyDown={(event) => moveFocus(event, index)}
                    onOpen={open}
                  />
                ))}
              </Stack>
            )}
            <div ref={sentinelRef} style={{ height: 1 }} />
            <PreviewPanel
              document={previewed && previewOf(previewed, state.q)}
              sourceName={previewed ? appName(previewed.source) : ''}
              withDocumentText
              onClose={() => setPreviewed(null)}
            />
            {loadState === 'LoadingMore' && (
              <Group justify="center" data-testid="search-loading-more">
                <Loader size="xs" />
                <Text size="sm">{searchCopy.LOADING_MORE}</Text>
              </Group>
            )}
            {loadState === 'Loaded' && hits.length > 0 && !hasNextPage && (
              <Text size="xs" c="dimmed" ta="center">
                {searchCopy.END_OF_RESULTS}
              </Text>
            )}
          </Stack>
        </Group>
      )}
    </Stack>
  );
}
