import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { MediaBearer } from '../../storage/storage';
import { sessionlessAuth } from '../access/access';
import { AccessRepository } from '../access/access.repository';
import { canDownload, canSee } from '../items/policy';
import { SecurityRepository } from '../security/repository';
import { ExpiringCache } from './expiring-cache';
import {
  type MediaItemFacts,
  type MediaObject,
  type MediaPerson,
  MediaRightsRepository,
} from './rights.repository';

/**
 * How long an answer about rights is reused in one process: a role, a file's department or a
 * share's contents changed this long ago may still be honoured once. Whether the session,
 * access record or link is alive is never cached (it is one indexed read, as it always was).
 */
export const MEDIA_RIGHTS_CACHE_MS = 5_000;
/** Bounds of the caches: distinct (user, department) pairs, storage keys and share links. */
const ROLE_ENTRIES = 5_000;
const OBJECT_ENTRIES = 20_000;
const SHARE_ENTRIES = 2_000;

/**
 * What a share link offers its visitors now (the shares module's rules: inside the link, live,
 * seen by its owner, not expired, and for a download the owner's download permission).
 */
export type ShareMediaRule = (item: MediaItemFacts, download: boolean) => boolean;

export interface ShareMediaRules {
  /** The link is sharing, not expired, its owner not deleted. */
  linkLive(shareId: number): Promise<boolean>;
  /** What the link offers now; null when it offers nothing. */
  mediaRule(shareId: number): Promise<ShareMediaRule | null>;
}

/** The media endpoint's verdict: send the object, the token's bearer is gone, or the object is not theirs to see. */
export type MediaVerdict = 'serve' | 'bearer-gone' | 'not-visible';

export interface MediaRightsDependencies {
  repo: MediaRightsRepository;
  sessions: Pick<SecurityRepository, 'findLiveSession'>;
  roles: Pick<AccessRepository, 'rolesOfUser'>;
  shares: ShareMediaRules;
  clock: Clock;
}

/**
 * The right behind every media request (issue 38 item 6): the bearer a token was made for must
 * still be alive AND may see that file now, by the rule the API uses (items/policy `canSee`,
 * `canDownload` for a download link; a share link's visitor rules for its links). Roles, the
 * object's item and a link's offer are cached MEDIA_RIGHTS_CACHE_MS; the bearer's department
 * comes with the liveness read, so a move takes effect at once.
 */
export class MediaRights {
  private readonly roles = new ExpiringCache<string, Awaited<ReturnType<AccessRepository['rolesOfUser']>>>(
    MEDIA_RIGHTS_CACHE_MS,
    ROLE_ENTRIES,
  );
  private readonly objects = new ExpiringCache<string, MediaObject>(MEDIA_RIGHTS_CACHE_MS, OBJECT_ENTRIES);
  private readonly offers = new ExpiringCache<number, ShareMediaRule | null>(
    MEDIA_RIGHTS_CACHE_MS,
    SHARE_ENTRIES,
  );

  constructor(private readonly deps: MediaRightsDependencies) {}

  /** May the bearer of a media token have `key` now (`download`: as an attachment, the original)? */
  async check(bearer: MediaBearer, key: string, download: boolean): Promise<MediaVerdict> {
    const now = this.deps.clock.now();
    let may: (item: MediaItemFacts) => boolean;
    if ('shareId' in bearer) {
      if (!(await this.deps.shares.linkLive(bearer.shareId))) return 'bearer-gone';
      const rule = await this.offers.get(bearer.shareId, now.getTime(), () =>
        this.deps.shares.mediaRule(bearer.shareId),
      );
      if (!rule) return 'not-visible';
      may = (item) => rule(item, download);
    } else {
      const person = await this.personOf(bearer, now);
      if (!person) return 'bearer-gone';
      const roles = await this.roles.get(`${person.user_id}:${person.dept_id}`, now.getTime(), () =>
        this.deps.roles.rolesOfUser(person.user_id, person.dept_id),
      );
      const auth = sessionlessAuth(
        { id: person.user_id, deptId: person.dept_id, deptPath: person.dept_path },
        roles,
      );
      may = (item) => (download ? canDownload(auth, item) : canSee(auth, item));
    }
    const object = await this.objects.get(key, now.getTime(), () => this.deps.repo.objectOf(key));
    if (object === null) return 'not-visible';
    // A template's picture belongs to the template, not to a file; its URLs go to signed-in
    // users of the detail-page maker only, and live with their session.
    if (object.kind === 'template-asset') return 'sessionId' in bearer ? 'serve' : 'not-visible';
    return object.items.some(may) ? 'serve' : 'not-visible';
  }

  /** The signed-in user or the access record's user, with their department now; none when gone. */
  private async personOf(
    bearer: { sessionId: number } | { accessId: number },
    now: Date,
  ): Promise<MediaPerson | undefined> {
    if ('accessId' in bearer) return this.deps.repo.personOfAccess(bearer.accessId);
    return this.deps.sessions.findLiveSession({ sessionId: bearer.sessionId }, now);
  }
}

/** The media endpoint's rights over the application's database. */
export function mediaRightsOf(db: Db, shares: ShareMediaRules, clock: Clock): MediaRights {
  return new MediaRights({
    repo: new MediaRightsRepository(db),
    sessions: new SecurityRepository(db),
    roles: new AccessRepository(db),
    shares,
    clock,
  });
}
