import { v7 as uuidv7 } from 'uuid';

/**
 * A new row id. UUID v7 is time-ordered, so fresh rows land at the right edge of the primary-key
 * B-tree instead of scattering across it, and ids sort roughly by creation time.
 */
export function newId(): string {
  return uuidv7();
}
