import type { Platform } from '../../platform';
import { AccessRepository } from '../access/access.repository';
import type { ItemPresenter } from '../items/item-pages';
import { MailRepository } from '../mail/repository';
import type { MailService } from '../mail/service';
import { ReviewRepository } from './repository';
import { ReviewService } from './service';

/** Review of files (issue 43 item 2) over the application's database and mail outbox. */
export function wireReview(
  { db, clock, appUrl, config, jobs }: Platform,
  { presenter, mail }: { presenter: ItemPresenter; mail: MailService },
) {
  const repo = new ReviewRepository(
    db,
    (handle) => new MailRepository(handle),
    (handle, userId, deptId) => new AccessRepository(handle).rolesOfUser(userId, deptId),
  );
  return {
    review: new ReviewService({
      repo,
      mail,
      presenter,
      clock,
      appUrl,
      returnOnNewVersion: config.REVIEW_NEW_VERSION_RETURNS,
      nudgeWebhooks: jobs ? () => jobs.nudgeWebhookDispatch() : undefined,
    }),
  };
}
