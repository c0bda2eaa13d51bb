import { Anchor, Tooltip, Typography } from '@mantine/core';
import { memo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import type { Reference } from '../../../common/api/messages';
import { citationNumber, remarkCitations } from '../../chat/citations';
import classes from './chat.module.css';

type Props = { text: string; references: readonly Reference[]; streaming?: boolean };

/**
 * An answer's markdown (GFM), sanitised: raw HTML is never rendered, so neither is an <img>, srcset or style of
 * it. Each [n] links to the n-th reference; a number with no reference yet (still streaming, or dropped) shows as
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
      return (
        <Tooltip label={reference.title} withinPortal>
          <a
            className={classes.citation}
            href={reference.url ?? undefined}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="citation"
            aria-label={`${n}: ${reference.title}`}
          >
            {n}
          </a>
        </Tooltip>
      );
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
