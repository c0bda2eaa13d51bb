import { createContext, useContext, useState, type ReactNode } from 'react';
import { ReferenceSource, type Reference } from '../../../common/api/messages';
import { isOpenableDocumentUrl } from '../../../common/document-url';
import { PreviewPanel, type PreviewDocument } from './PreviewPanel';

function documentOf(reference: Reference): PreviewDocument {
  return {
    objectId: reference.id,
    title: reference.title,
    source: reference.source,
    url: reference.url,
    author: reference.author.name,
    passage: reference.snippet,
    passageKind: 'cited',
  };
}

const ReferencePreviewContext = createContext<((reference: Reference) => void) | null>(null);

type Props = {
  /** The name a source is shown with (an app's display name). */
  sourceName(source: string): string;
  /** Whether the preview may fetch the document's text: a reader of the org, not one through a public link. */
  withDocumentText: boolean;
  children: ReactNode;
};

/** One preview panel for everything inside that cites references: an answer's [n] and its reference chips. */
export function ReferencePreviewProvider({ sourceName, withDocumentText, children }: Props) {
  const [previewed, setPreviewed] = useState<Reference | null>(null);
  return (
    <ReferencePreviewContext.Provider value={setPreviewed}>
      {children}
      <PreviewPanel
        document={previewed && documentOf(previewed)}
        sourceName={previewed ? sourceName(previewed.source) : ''}
        withDocumentText={withDocumentText}
        onClose={() => setPreviewed(null)}
      />
    </ReferencePreviewContext.Provider>
  );
}

/**
 * How a reference opens: a document of the org in the preview (its address may be a placeholder, as the demo's
 * are), a web page where it is. `preview` is null for a web page or outside a provider; `href` is the address
 * only when a browser can open it (common/document-url.ts), so no reference is a dead link.
 */
export function useReferenceOpener(reference: Reference): {
  preview: (() => void) | null;
  href: string | undefined;
} {
  const open = useContext(ReferencePreviewContext);
  const previewable = open !== null && reference.source !== ReferenceSource.web;
  return {
    preview: previewable ? () => open(reference) : null,
    href: isOpenableDocumentUrl(reference.url) ? reference.url : undefined,
  };
}
