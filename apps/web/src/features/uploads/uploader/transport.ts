import {
  uploadsApi,
  type TItem,
  type TUpload,
  type TOnConflict,
  type TCompleteUploadsResponse,
  type TSignedPart,
  type TStartUploadsResponse,
  type TDedupChallenge,
} from '@cabinet/contracts';
import { call } from '../../../lib/api-client.ts';

type TUploadState = TUpload['state'];

/** An upload as the uploader needs it: its parts' plan, and the URLs that came signed with its start. */
export interface StartedUpload {
  id: string;
  size: number;
  state: TUploadState;
  partSize: number;
  partCount: number;
  parts: TSignedPart[];
  /** The workspace holds these bytes already: answer this to complete without sending them. */
  dedup?: TDedupChallenge;
}

/** An upload's plan and the parts the storage already holds (what a resumed upload skips). */
export interface UploadProgress {
  id: string;
  size: number;
  state: TUploadState;
  partSize: number;
  partCount: number;
  parts: { partNumber: number; size: number }[];
}

export interface StartRequest {
  parentId: string;
  name: string;
  size: number;
  mimeType?: string;
  sha256?: string;
  onConflict: TOnConflict;
}

/**
 * Where an upload's calls go: the app's own routes for a signed-in person, or a file request's
 * (ADR 0035) for a link's visitor. The protocol is the same; only the addresses differ, and a
 * visitor is not told of the file made. Batches are for those whose routes take them.
 */
export interface UploadTransport {
  start(workspaceId: string, body: StartRequest): Promise<StartedUpload>;
  status(id: string): Promise<UploadProgress>;
  signParts(id: string, partNumbers: number[]): Promise<TSignedPart[]>;
  complete(id: string, body: { sha256: string; onConflict: TOnConflict; proof?: string }): Promise<{ item?: TItem }>;
  /** Whether the routes reuse bytes the workspace holds (a signed-in person's; never a link visitor's). */
  dedup?: boolean;
  abort(id: string): Promise<void>;
  /**
   * Makes a folder of a folder upload, answering its id: a file request's visitor makes a new one
   * every time (ADR 0035). Without it, folders are made on the app's routes, an existing one filled.
   */
  createFolder?(parentId: string, name: string): Promise<string>;
  batches?: {
    start(workspaceId: string, bodies: StartRequest[]): Promise<TStartUploadsResponse['results']>;
    complete(entries: { id: string; sha256: string; onConflict: TOnConflict }[]): Promise<TCompleteUploadsResponse['results']>;
  };
}

/** A signed-in person's uploads, through the app's routes. */
export const appTransport: UploadTransport = {
  start: (ws, body) => call(uploadsApi.start, { params: { ws }, body }),
  status: (id) => call(uploadsApi.get, { params: { id } }),
  signParts: async (id, partNumbers) => (await call(uploadsApi.signParts, { params: { id }, body: { partNumbers } })).parts,
  complete: (id, body) => call(uploadsApi.complete, { params: { id }, body }),
  abort: (id) => call(uploadsApi.abort, { params: { id } }),
  dedup: true,
  batches: {
    start: async (ws, uploads) => (await call(uploadsApi.startMany, { params: { ws }, body: { uploads } })).results,
    complete: async (uploads) => (await call(uploadsApi.completeMany, { body: { uploads } })).results,
  },
};
