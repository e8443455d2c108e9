// What the load bench and its people's worker (load-people.ts) share: the team's world, the people, the actions.

export interface LoadPerson {
  token: string;
  /** Their "My files" in the team's workspace, where they upload. */
  homeId: string;
}

export interface LoadWorld {
  baseUrl: string;
  workspaceId: string;
  /** Folders of the workspace every member sees, and the person's own home. */
  folderIds: string[];
  documentIds: string[];
  /** Files to view and download: pictures (with a thumbnail), text, and a few of 8 MiB. */
  fileIds: string[];
  /** Words the documents and names are made of: what people search for. */
  words: string[];
}

export interface LoadPeople {
  world: LoadWorld;
  people: LoadPerson[];
  /** Each person acts until then (a Date.now() time). */
  untilMs: number;
  /** The pause between two actions of one person, drawn evenly between these (ms). */
  thinkMs: [number, number];
  /** Instead of people acting at random: the first person does each action this many times, one after another. */
  eachActionTimes?: number;
}

/** One action as it went: when it started (ms since the epoch), how long it took, and why it failed if it did. */
export interface ActionResult {
  action: Action;
  startedAt: number;
  ms: number;
  error?: string;
}

/** What people do, and how often, out of 100 actions. */
export const ACTIONS = {
  browse: 35,
  'open a document': 14,
  search: 15,
  'open the viewer': 12,
  download: 10,
  'upload small files': 12,
  'upload a large file': 2,
  // Typing is timed per change, inside 'open a document' (which types five paragraphs).
  type: 0,
} as const;
export type Action = keyof typeof ACTIONS;
