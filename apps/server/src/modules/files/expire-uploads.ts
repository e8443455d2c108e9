import { inTransaction, type Db } from '../../db/client.ts';
import { claimStaleUploads } from './files.repo.ts';
import { endUpload } from './upload-common.ts';

/** The expiry job: uploads idle past their expiry end as `expired`, and their bytes go. */
export async function expireStaleUploads(db: Db): Promise<number> {
  return inTransaction(db, async (tx) => {
    const stale = await claimStaleUploads(tx, new Date(), 500);
    for (const upload of stale) await endUpload(tx, upload, { state: 'expired' });
    return stale.length;
  });
}
