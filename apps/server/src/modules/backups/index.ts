/**
 * Backups of the whole installation while it runs, their checking, restores (whole or one item), a workspace's export
 * as plain files, and checking and moving storage (ADR 0057).
 */
export { BackupFolderError } from './backup-folder.ts';
export { BackupRefused, createBackup, megabytes, problemsSummary, pruneBackups, type BackupIo, type BackupResult } from './backup.service.ts';
export { recentBackups, runningBackup } from './backups.repo.ts';
export { restoreBackup } from './restore.service.ts';
export { restoreItemFromBackup, type ItemRestore } from './restore-item.ts';
export { exportWorkspace, ExportRefused, type WorkspaceExport } from './export-workspace.ts';
export { verifyBackup, type Verified } from './verify-backup.ts';
export { nextScheduledBackup, startScheduledBackup } from './scheduled-backup.ts';
export { ORPHAN_AGE_MS, StorageRepairRefused, verifyStorage, type StorageReport } from './verify-storage.ts';
export { migrateStorage, StorageMoveRefused, type BucketSettings, type StorageMove } from './migrate-storage.ts';
