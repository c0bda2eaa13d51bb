/** A LIKE pattern that finds `text` anywhere, with the pattern characters in it taken literally. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
