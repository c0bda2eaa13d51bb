import { Anchor, Tooltip, Typography } from '@mantine/core';
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import type { Reference } from '../../../common/api/messages';
import { citationNumber, remarkCitations } from '../../chat/citations';
import classes from './chat.module.css';

type Props = { text: string; references: readonly Reference[]; streaming?: boolean };

/**
 * An answer's markdown (GFM), sanitised: raw HTML is never rendered. Each [n] links to the n-th reference; a
 * number with no reference yet (still streaming, or dropped) shows as plain text.
 */
export function AnswerMarkdown({ text, references, streaming }: Props) {
  const components: Components = {
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
}
