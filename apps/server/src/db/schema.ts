import type { ColumnType, Generated, Selectable } from 'kysely';

/** Row types of the tables in migrations/; the SQL files are the source of truth. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type BigIntColumn = ColumnType<number, number | bigint | undefined, number | bigint>;
type NullableBigInt = ColumnType<number | null, number | null | undefined, number | null>;

export interface UsersTable {
  id: string;
  issuer: string;
  subject: string;
  email: string;
  email_verified: Generated<boolean>;
  name: string;
  avatar_url: string | null;
  status: Generated<'active' | 'deactivated'>;
  is_instance_admin: Generated<boolean>;
  /** Mail about notifications left unread (ADR 0034). */
  notify_by_email: Generated<boolean>;
  last_seen_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  user_agent: string | null;
  ip: string | null;
  last_used_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  id_token_sealed: string | null;
  refresh_token_sealed: string | null;
  /** The provider's session it was signed in through (the ID token's `sid`), for back-channel logout (ADR 0068). */
  provider_sid: string | null;
  created_at: Timestamp;
}

/** Logout tokens acted on, kept by `jti` until too old to be taken anyway (ADR 0068). */
export interface LogoutTokensTable {
  jti: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  scopes: string[];
  expires_at: Timestamp;
  last_used_at: NullableTimestamp;
  /** When its use was last written to the activity record (at most once an hour). */
  use_recorded_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface AuthRequestsTable {
  state_hash: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface WorkspacesTable {
  id: string;
  slug: string;
  name: string;
  quota_bytes: BigIntColumn | null;
  used_bytes: BigIntColumn;
  settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  root_item_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ItemsTable {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  kind: 'folder' | 'file' | 'document';
  name: string;
  owner_id: string;
  state: Generated<'active' | 'trashed'>;
  trashed_at: NullableTimestamp;
  trashed_by: string | null;
  size_bytes: BigIntColumn;
  mime_type: string | null;
  current_version_id: string | null;
  version: Generated<number>;
  updated_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'member' | 'guest';
  home_item_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InvitationsTable {
  id: string;
  workspace_id: string;
  email: string | null;
  role: 'admin' | 'member' | 'guest';
  token_hash: string;
  expires_at: Timestamp;
  max_uses: number | null;
  uses: Generated<number>;
  state: Generated<'pending' | 'accepted' | 'revoked' | 'expired'>;
  created_by: string | null;
  accepted_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface GroupsTable {
  id: string;
  workspace_id: string;
  name: string;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface GroupMembersTable {
  group_id: string;
  workspace_id: string;
  user_id: string;
  source: Generated<'manual' | 'idp'>;
  added_by: string | null;
  created_at: Generated<Date>;
}

export interface ActivityEventsTable {
  id: Generated<number>;
  workspace_id: string;
  actor_kind: 'user' | 'token' | 'link' | 'system';
  actor_user_id: string | null;
  actor_token_id: string | null;
  actor_link_id: string | null;
  action: string;
  item_id: string | null;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  ip: string | null;
  user_agent: string | null;
  client_id: string | null;
  created_at: Generated<Date>;
}

export interface ShareLinksTable {
  id: string;
  workspace_id: string;
  item_id: string;
  kind: 'view' | 'file_request';
  token_hash: string;
  token_sealed: string;
  password_hash: string | null;
  expires_at: NullableTimestamp;
  download_allowed: boolean;
  revoked_at: NullableTimestamp;
  views: Generated<number>;
  downloads: Generated<number>;
  uploads: Generated<number>;
  max_bytes: BigIntColumn | null;
  uploaded_bytes: Generated<BigIntColumn>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ShareLinkFailuresTable {
  link_id: string;
  ip: string;
  at: Generated<Date>;
}

export interface ItemGrantsTable {
  id: string;
  item_id: string;
  principal_type: 'user' | 'group' | 'workspace';
  principal_id: string;
  role: 'viewer' | 'commenter' | 'editor' | 'manager';
  expires_at: NullableTimestamp;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FileVersionsTable {
  id: string;
  item_id: string;
  number: number;
  blob_key: string;
  size_bytes: BigIntColumn;
  sha256: string;
  mime_type: string;
  author_id: string | null;
  state: Generated<'uploading' | 'ready' | 'pruned'>;
  pinned: Generated<boolean>;
  /** A person's name for it; a named version is pinned (kept for ever). */
  name: Generated<string | null>;
  created_at: Timestamp;
  /** When the file was last changed, as the client that sent it says (WebDAV's X-OC-Mtime); null when none said. */
  modified_at: NullableTimestamp;
  /** Its SHA-1 and MD5 as clients compare files by them (`SHA1:<hex> MD5:<hex>`), for a version sent through WebDAV; null otherwise. */
  checksums: string | null;
}

/** What an uploader answers to reuse a blob: SHA-256 of the nonce and then these byte ranges of the file (ends inclusive). */
export interface DedupChallenge {
  nonce: string;
  ranges: { start: number; end: number }[];
}

export type UploadState = 'created' | 'uploading' | 'completed' | 'aborted' | 'expired' | 'failed';

export interface UploadsTable {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  item_id: string | null;
  name: string;
  on_conflict: 'fail' | 'keep_both' | 'replace';
  size_bytes: BigIntColumn;
  mime_type: string;
  sha256: string | null;
  part_size: BigIntColumn;
  part_count: number;
  blob_key: string;
  storage_upload_id: string;
  state: UploadState;
  failure: string | null;
  result_item_id: string | null;
  author_id: string;
  /** The file-request link it came through (its visitor uploads; `author_id` is the link's maker), and from which address. */
  link_id: Generated<string | null>;
  link_ip: Generated<string | null>;
  /** The blob of a ready version with the same SHA-256 and size in the workspace, offered for reuse once the uploader proves it holds the bytes. */
  dedup_blob_key: Generated<string | null>;
  dedup_challenge: ColumnType<DedupChallenge | null, string | null | undefined, string | null>;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StarsTable {
  user_id: string;
  item_id: string;
  created_at: Timestamp;
}

export interface ItemVisitsTable {
  user_id: string;
  item_id: string;
  visited_at: Timestamp;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: ColumnType<Record<string, unknown>, string | undefined, string>;
  singleton: string | null;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_until: NullableTimestamp;
  last_error: string | null;
  /** When the last attempt failed (null until one has). */
  last_attempt_at: NullableTimestamp;
  created_at: Timestamp;
}

/** A run of a backup (ADR 0057): one `running` at a time across instances; its heartbeat says it is alive. */
export interface BackupsTable {
  id: string;
  state: Generated<'running' | 'done' | 'failed'>;
  trigger: 'command' | 'schedule';
  location: string;
  name: string;
  started_at: Generated<Date>;
  heartbeat_at: Generated<Date>;
  finished_at: NullableTimestamp;
  blob_count: number | null;
  blob_bytes: NullableBigInt;
  copied_count: number | null;
  copied_bytes: NullableBigInt;
  database_bytes: NullableBigInt;
  error: string | null;
}

/** One administrator's action on the instance (ADR 0060). */
export interface InstanceAuditTable {
  id: string;
  actor_user_id: string | null;
  action: string;
  target_kind: 'user' | 'workspace' | 'job';
  target_id: string;
  target_label: string;
  data: Generated<unknown>;
  ip: string | null;
  user_agent: string | null;
  created_at: Generated<Date>;
}

/** What `cabinet restore-item` brought back from which backup (ADR 0063). */
export interface RestoredItemsTable {
  backup_id: string;
  source_id: string;
  item_id: string;
  restored_at: Generated<Date>;
}

export interface DocumentContentsTable {
  item_id: string;
  state: Uint8Array;
  text: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  updated_by: string | null;
  /** The people the document mentions as of this save (their ids). */
  mentions: Generated<string[]>;
}

export interface DocumentRevisionsTable {
  id: string;
  item_id: string;
  state: Uint8Array;
  text: Generated<string>;
  author_ids: Generated<string[]>;
  label: string | null;
  restored_from: string | null;
  created_at: Timestamp;
}

export interface CommentsTable {
  id: string;
  item_id: string;
  thread_id: string;
  anchor: { start: unknown; end: unknown } | null;
  quote: string | null;
  author_id: string | null;
  body: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  resolved_at: NullableTimestamp;
  resolved_by: string | null;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  workspace_id: string;
  kind: 'shared' | 'mentioned' | 'replied' | 'invited' | 'commented' | 'uploaded';
  item_id: string | null;
  actor_id: string | null;
  thread_id: string | null;
  comment_id: string | null;
  /** The invitation an `invited` notification opens. */
  invitation_id: string | null;
  /** The file request an `uploaded` notification is about. */
  link_id: string | null;
  event_id: BigIntColumn;
  created_at: Timestamp;
  read_at: NullableTimestamp;
  mailed_at: NullableTimestamp;
}

/** How far access that expired by the clock has been announced (migration 0026). */
export interface AccessExpiryProgressTable {
  id: Generated<boolean>;
  announced_until: Date;
}

export interface NotificationProgressTable {
  id: Generated<boolean>;
  last_event_id: BigIntColumn;
}

/** One item's search entry (ADR 0036); the tsvector columns are written and read through SQL only. */
export interface SearchEntriesTable {
  item_id: string;
  workspace_id: string;
  name: string;
  body: Generated<string>;
  acl: Generated<string[]>;
  path: Generated<string[]>;
  text_state: Generated<'none' | 'pending' | 'ready' | 'truncated' | 'unsupported' | 'failed'>;
  text_error: string | null;
  text_version_id: string | null;
  indexed_at: NullableTimestamp;
  access_at: NullableTimestamp;
}

export interface SearchTasksTable {
  item_id: string;
  kind: 'text' | 'access';
  queued_at: Generated<Date>;
  generation: Generated<number>;
  locked_until: NullableTimestamp;
  attempts: Generated<number>;
}

export type PreviewKind = 'thumb-256' | 'thumb-1024';
export type PreviewState = 'pending' | 'ready' | 'failed' | 'unsupported' | 'evicted';

/** A preview of some bytes (ADR 0040), shared by every version holding them. */
export interface PreviewsTable {
  sha256: string;
  kind: PreviewKind;
  state: Generated<PreviewState>;
  error: string | null;
  blob_key: string | null;
  size_bytes: BigIntColumn;
  width: number | null;
  height: number | null;
  placeholder: string | null;
  attempts: Generated<number>;
  run_after: Generated<Date>;
  locked_until: NullableTimestamp;
  last_used_at: Generated<Date>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A creation call's key and, once it has one, its answer, sealed (ADR 0043). */
export interface IdempotencyKeysTable {
  caller: string;
  route: string;
  key: string;
  request_hash: string;
  status: number | null;
  answer: string | null;
  created_at: Timestamp;
}

/** A WebDAV dead property (migration 0031): the element a client set, as `XmlElement` (modules/dav/xml-write.ts). */
export interface DavPropertiesTable {
  item_id: string;
  ns: string;
  local: string;
  value: ColumnType<unknown, string, string>;
}

/** A WebDAV write lock (migration 0031). */
export interface DavLocksTable {
  token: string;
  item_id: string;
  user_id: string;
  scope: 'exclusive' | 'shared';
  /** Depth infinity: the lock covers everything below the folder too. */
  deep: boolean;
  /** The path it was taken on. */
  href: string;
  /** A lock on a side file of the holder's in the folder `item_id`: its name (dav_side_files). */
  side_name: Generated<string | null>;
  owner: ColumnType<unknown, string | null, string | null>;
  /** The client that took it, from its user agent ("Finder"), for the browser's "Locked by …". */
  client: string | null;
  timeout_seconds: number;
  expires_at: Timestamp;
  created_at: Generated<Timestamp>;
}

/** A Finder side file (`._name`, `.DS_Store`) kept for the person who wrote it (migration 0031). */
export interface DavSideFilesTable {
  user_id: string;
  folder_id: string;
  name: string;
  bytes: Uint8Array;
  modified_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  auth_requests: AuthRequestsTable;
  logout_tokens: LogoutTokensTable;
  workspaces: WorkspacesTable;
  items: ItemsTable;
  memberships: MembershipsTable;
  item_grants: ItemGrantsTable;
  file_versions: FileVersionsTable;
  uploads: UploadsTable;
  stars: StarsTable;
  item_visits: ItemVisitsTable;
  jobs: JobsTable;
  document_contents: DocumentContentsTable;
  document_revisions: DocumentRevisionsTable;
  comments: CommentsTable;
  activity_events: ActivityEventsTable;
  invitations: InvitationsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  share_links: ShareLinksTable;
  share_link_failures: ShareLinkFailuresTable;
  notifications: NotificationsTable;
  notification_progress: NotificationProgressTable;
  access_expiry_progress: AccessExpiryProgressTable;
  search_entries: SearchEntriesTable;
  search_tasks: SearchTasksTable;
  previews: PreviewsTable;
  idempotency_keys: IdempotencyKeysTable;
  backups: BackupsTable;
  instance_audit: InstanceAuditTable;
  restored_items: RestoredItemsTable;
  dav_properties: DavPropertiesTable;
  dav_locks: DavLocksTable;
  dav_side_files: DavSideFilesTable;
}

export type UserRow = Selectable<UsersTable>;
/** What every request reads of the person calling, with their session or token (users.repo.ts `ACTOR_USER_COLUMNS`). */
export type ActorUser = Pick<UserRow, 'id' | 'email' | 'email_verified' | 'name' | 'avatar_url' | 'status' | 'is_instance_admin' | 'created_at'>;
export type SessionRow = Selectable<SessionsTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type WorkspaceRow = Selectable<WorkspacesTable>;
export type ItemRow = Selectable<ItemsTable>;
export type FileVersionRow = Selectable<FileVersionsTable>;
export type UploadRow = Selectable<UploadsTable>;
export type JobRow = Selectable<JobsTable>;
