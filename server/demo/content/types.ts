/** One demo document as written: Markdown with headings, its source, readers and age. */
export interface DemoDocument {
  /** Unique within its source; also the last part of its address. */
  id: string;
  source: 'notion' | 'confluence' | 'gdrive' | 'slack' | 'verified_answers';
  title: string;
  objectType: 'Articles' | 'Files' | 'Messages' | 'Answers';
  fileType: string;
  /** The author's demo address (admin@, ben@, chloe@ or dev@acme.test). */
  author: string;
  /** Principals: 'org', 'user:<email>' or 'group:scout:<name>'. */
  acl: readonly string[];
  /** Age of the last edit, in days before the seed ran; created `createdDaysAgo` days before that. */
  modifiedDaysAgo: number;
  createdDaysAgo: number;
  body: string;
}
