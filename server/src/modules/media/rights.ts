import type { Clock } from '../../lib/clock';
import type { MediaBearer } from '../../storage/storage';
import { sessionlessAuth } from '../access/access';
import type { AccessRepository } from '../access/access.repository';
import { canDownload, canSee } from '../items/policy';
import type { SecurityRepository } from '../security/repository';
import { ExpiringCache } from './expiring-cache';
import type { MediaItemFacts, MediaObject, MediaPerson, MediaRightsRepository } from './rights.repository';

/**
 * How long an answer about rights is reused in one process: a role, a file's department or a
 * share's contents changed this long ago may still be honoured once.
 */
export const MEDIA_RIGHTS_CACHE_MS = 5_000;
/**
 * How long whether a token's bearer is alive (session, access record, share link), and the
 * department of the person behind it, is reused in one process: a sign-out, a turned-off record,
 * a stopped link or a move takes effect within this, plus the browser's max-age. Without it every
 * revalidation of every thumbnail of a page (a 304) cost a database read.
 */
export const MEDIA_BEARER_CACHE_MS = 2_000;
/** Bounds of the caches: bearers, distinct (user, department) pairs, storage keys and share links. */
const BEARER_ENTRIES = 10_000;
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
 * `canDownload` for a download link; a share link's visitor rules for its links). Whether the
 * bearer is alive, with the department of its person, is reused MEDIA_BEARER_CACHE_MS; roles, the
 * object's item and a link's offer MEDIA_RIGHTS_CACHE_MS.
 */
export class MediaRights {
  /** The person behind a live session (`session:<id>`) or access record (`access:<id>`); null when gone. */
  private readonly people = new ExpiringCache<string, MediaPerson | null>(
    MEDIA_BEARER_CACHE_MS,
    BEARER_ENTRIES,
  );
  /** Whether a share link is live, by its id. */
  private readonly liveLinks = new ExpiringCache<number, boolean>(MEDIA_BEARER_CACHE_MS, BEARER_ENTRIES);
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
      const live = await this.liveLinks.get(bearer.shareId, now.getTime(), () =>
        this.deps.shares.linkLive(bearer.shareId),
      );
      if (!live) return 'bearer-gone';
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

  /** The signed-in user or the access record's user, with their department; none when gone. */
  private personOf(
    bearer: { sessionId: number } | { accessId: number },
    now: Date,
  ): Promise<MediaPerson | null> {
    const load =
      'accessId' in bearer
        ? () => this.deps.repo.personOfAccess(bearer.accessId)
        : () => this.deps.sessions.findLiveSession({ sessionId: bearer.sessionId }, now);
    const key = 'accessId' in bearer ? `access:${bearer.accessId}` : `session:${bearer.sessionId}`;
    // Only what the check needs is kept (a session row carries more).
    return this.people.get(key, now.getTime(), async () => {
      const found = await load();
      return found ? { user_id: found.user_id, dept_id: found.dept_id, dept_path: found.dept_path } : null;
    });
  }
}
