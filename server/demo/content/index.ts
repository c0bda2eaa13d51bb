import { engineering } from './engineering';
import { handbook, handbookExtras } from './handbook';
import { meetings } from './meetings';
import { support } from './support';
import type { DemoDocument } from './types';

export type { DemoDocument } from './types';

/** The demo workspace's documents: Acme's handbook, policies, engineering notes, meetings and support. */
export const DEMO_DOCUMENTS: readonly DemoDocument[] = [
  ...handbook,
  ...handbookExtras,
  ...engineering,
  ...meetings,
  ...support,
];

/** Who is in the demo groups the documents' ACLs name. */
export const DEMO_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'group:scout:leadership': ['admin@acme.test', 'chloe@acme.test'],
  'group:scout:engineering': ['ben@acme.test', 'dev@acme.test'],
};
