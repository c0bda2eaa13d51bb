import { Anchor, Tooltip, Typography, UnstyledButton } from '@mantine/core';
import { memo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import type { Reference } from '../../../common/api/messages';
import { citationNumber, remarkCitations } from '../../chat/citations';
import { useReferenceOpener } from '../../components/preview/ReferencePreview';
import classes from './chat.module.css';

type Props = { text: string; references: readonly Reference[]; streaming?: boolean };

/** An answer's [n]: opens the n-th reference as its chip does (useReferenceOpener). */
function Citation({ reference, n }: { reference: Reference; n: number }) {
  const { preview, href } = useReferenceOpener(reference);
  const label = `${n}: ${reference.title}`;
  return (
    <Tooltip label={reference.title} withinPortal>
      {preview ? (
        <UnstyledButton
          className={classes.citation}
          onClick={preview}
          data-testid="citation"
          aria-label={label}
        >
          {n}
        </UnstyledButton>
      ) : (
        <a
          className={classes.citation}
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="citation"
          aria-label={label}
        >
          {n}
        </a>
      )}
    </Tooltip>
  );
}

/**
 * An answer's markdown (GFM), sanitised: raw HTML is never rendered, so neither is an <img>, srcset or style of
 * it. Each [n] opens the n-th reference; a number with no reference yet (still streaming, or dropped) shows as
 * plain text. A markdown image shows as a link to it, never loaded: any document a reader may see can put one in
 * an answer, and a remote image would be fetched by every reader's browser unasked, a beacon and the way a
 * prompt-injected model sends what it read to an address of the attacker's choosing. A link needs a click.
 * Memoised: every streamed frame re-renders the conversation, and only the answer it changed is parsed again.
 */
export const AnswerMarkdown = memo(function AnswerMarkdown({ text, references, streaming }: Props) {
  const components: Components = {
    img({ src, alt }) {
      const href = typeof src === 'string' && src !== '' ? src : undefined;
      if (!href) return alt ?? null;
      return (
        <Anchor href={href} target="_blank" rel="noopener noreferrer">
          {alt || href}
        </Anchor>
      );
    },
    a({ href, children }) {
      const n = citationNumber(href);
      if (n === null) {
        return (
          <Anchor href={href} target="_blank" rel="noopener noreferrer">
            {children}
          </Anchor>
        );
      }
      const reference = references[n - 1];
      if (!reference) return <span className={classes.citationPending}>[{n}]</span>;
      return <Citation reference={reference} n={n} />;
    },
  };
  return (
    <Typography className={classes.markdown} data-streaming={streaming || undefined}>
      <Markdown
        remarkPlugins={[remarkGfm, remarkCitations]}
        rehypePlugins={[rehypeSanitize]}
        components={components}
      >
        {text}
      </Markdown>
    </Typography>
  );
});
