/**
 * The tree of items and the one policy deciding who may do what with them (ADR 0024): what the
 * modules built on items (files, documents, comments, sharing, team, the live stream) use.
 */
export { itemsRoutes } from './items.routes.ts';
export {
  accessWithRole,
  findAccesses,
  judgeAccess,
  mayBreakLock,
  maySeeGrants,
  mayShareNow,
  requireDocument,
  requireItem,
  requireItems,
  type ItemAccess,
} from './items.policy.ts';
export {
  deleteEmptyHome,
  blobInUse,
  findActiveSibling,
  findPlace,
  findPlaces,
  handOverHome,
  handOverTrash,
  hasChildren,
  insertTree,
  lockItem,
  PREVIEW_JOIN,
  upsertVisit,
  type PreviewColumns,
} from './items.repo.ts';
export {
  createFolderThroughLink,
  createItem,
  deleteBlobIfUnused,
  getItem,
  itemsOnPath,
  type ItemOnPath,
  listChildren,
  trashItem,
  updateItem,
  copyItem,
  MAX_DEPTH,
  presentItem,
  presentPreview,
  purgeExpiredTrash,
  suggestFreeName,
  visibleItems,
  type ItemContents,
} from './items.service.ts';
