// The See-all tile after the first references (spec asking-questions §9): the sources of the references it hides,
// 3 app icons (1 on narrow screens), and their count as 'N+', capped at 9.
import type { Reference } from '../../common/api/messages';
import {
  SEE_ALL_TILE_APP_ICONS,
  SEE_ALL_TILE_APP_ICONS_NARROW,
  SEE_ALL_TILE_COUNT_CAP,
} from '../../common/limits';

export function seeAllTile(
  hidden: readonly Pick<Reference, 'source'>[],
  narrow: boolean,
): { sources: string[]; count: string } {
  const sources = [...new Set(hidden.map((reference) => reference.source))].slice(
    0,
    narrow ? SEE_ALL_TILE_APP_ICONS_NARROW : SEE_ALL_TILE_APP_ICONS,
  );
  return { sources, count: `${Math.min(hidden.length, SEE_ALL_TILE_COUNT_CAP)}+` };
}
