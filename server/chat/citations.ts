/**
 * Citations. The model cites the prompt's numbered sources as [n]; the answer keeps only the sources it cited, in
 * the order it first cited them, so the text is renumbered as it streams: the first source cited becomes [1], the
 * second [2], and so on. Renumbering happens on the stream itself, so the CHUNKs the client shows, the saved text
 * and the references always agree. Markers naming no source are dropped.
 */

const CITATION = /([ \t]?)\[(\s*\d{1,3}\s*(?:,\s*\d{1,3}\s*)*)\]/g;
/** An unfinished marker at the end of a piece: held back until the next piece completes (or disproves) it. */
const OPEN_TAIL = /\[[\d,\s]{0,16}$/;

export class CitationRenumberer {
  private readonly numbering = new Map<number, number>();
  private readonly order: number[] = [];
  private held = '';

  /** `sourceCount` sources exist, numbered from 1. */
  constructor(private readonly sourceCount: number) {}

  /** Text to emit now for a streamed piece. */
  push(piece: string): string {
    const text = this.held + piece;
    const tail = OPEN_TAIL.exec(text);
    const ready = tail ? text.slice(0, tail.index) : text;
    this.held = tail ? tail[0] : '';
    return this.rewrite(ready);
  }

  /** The rest at the end of the stream. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return this.rewrite(rest);
  }

  /** The cited sources' original numbers (1-based), in citation order: reference k is source cited()[k-1]. */
  cited(): readonly number[] {
    return this.order;
  }

  private rewrite(text: string): string {
    return text.replace(CITATION, (_match, space: string, list: string) => {
      const markers = list
        .split(',')
        .map((value) => Number(value.trim()))
        .filter((n) => Number.isInteger(n) && n >= 1 && n <= this.sourceCount)
        .map((n) => `[${this.renumber(n)}]`)
        .join('');
      // a dropped marker takes the space before it along, so no double space is left
      return markers ? space + markers : '';
    });
  }

  private renumber(original: number): number {
    let assigned = this.numbering.get(original);
    if (assigned === undefined) {
      this.order.push(original);
      assigned = this.order.length;
      this.numbering.set(original, assigned);
    }
    return assigned;
  }
}

/** Removes citation markers, for earlier answers given to the model as history (their numbers meant other sources). */
export function stripCitations(text: string): string {
  return text.replace(CITATION, '');
}
