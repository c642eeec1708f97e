import { z } from 'zod';
import {
  isMailAddress,
  MAIL_ADDRESS_MAX_CHARS,
  MAIL_GROUP_CANDIDATES_PAGE_SIZE_MAX,
  MAIL_GROUP_MAX_ADDRESSES,
  MAIL_GROUP_MAX_USERS,
  MAIL_GROUP_NAME_MAX_CHARS,
  MAIL_GROUP_PAGE_SIZE_MAX,
} from './mail-groups-values';

/**
 * Mail groups (SPEC §2 /mail, §3 Mail group: id, mailGroupName, members, checked; §5 name at most
 * 20 characters; §6 code 1; §7 `GET /user/mail-group-list`). The paths SPEC hides (managing
 * groups, picking members) are recorded in docs/decisions.md, "Mail groups (issue 14)". Custom
 * messages are VALIDATION_MESSAGES keys; times are ISO 8601 strings in UTC.
 */

export * from './mail-groups-values';

const id = z.number().int().positive().max(2_147_483_647);
const queryId = z.coerce.number().int().positive().max(2_147_483_647);

const mailGroupNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'blankName' })
  .max(MAIL_GROUP_NAME_MAX_CHARS, { error: 'tooLong' });

/**
 * External addresses: trimmed, compared and stored in lower case, repeats dropped. A bad one is
 * refused naming it (`externalEmails.2: "x@" is not a valid e-mail address`).
 */
const externalEmailsSchema = z
  .array(z.string().max(MAIL_ADDRESS_MAX_CHARS + 50, { error: 'tooLong' }))
  .max(MAIL_GROUP_MAX_ADDRESSES)
  .superRefine((addresses, ctx) => {
    addresses.forEach((address, index) => {
      if (!isMailAddress(address))
        ctx.addIssue({ code: 'custom', path: [index], message: 'mailAddress', params: { value: address } });
    });
  })
  .transform((addresses) => [...new Set(addresses.map((a) => a.trim().toLowerCase()))]);

/** What a group is made of; an edit sends the whole group (members replace the old ones). */
export const mailGroupInputSchema = z
  .object({
    mailGroupName: mailGroupNameSchema,
    /** Users (ids); repeats dropped. */
    userIdList: z
      .array(id)
      .max(MAIL_GROUP_MAX_USERS)
      .default([])
      .transform((ids) => [...new Set(ids)]),
    /** People without an account, by address. */
    externalEmails: externalEmailsSchema.default([]),
  })
  .superRefine((body, ctx) => {
    if (body.userIdList.length === 0 && body.externalEmails.length === 0)
      ctx.addIssue({ code: 'custom', path: ['userIdList'], message: 'noMembers' });
  });
export type MailGroupInput = z.input<typeof mailGroupInputSchema>;
export const editMailGroupRequestSchema = mailGroupInputSchema.safeExtend({ id });
export type EditMailGroupRequest = z.input<typeof editMailGroupRequestSchema>;
export const mailGroupIdSchema = z.object({ id });
export const mailGroupIdQuerySchema = z.object({ id: queryId });

/** GET manage/mail-group/list (code 1): the groups the caller administers, by name, paged. */
export const mailGroupListQuerySchema = z.object({
  /** The name contains this text (case-insensitive). */
  keyword: z.string().trim().max(MAIL_GROUP_NAME_MAX_CHARS, { error: 'tooLong' }).optional(),
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAIL_GROUP_PAGE_SIZE_MAX).default(20),
});
export type MailGroupListQuery = z.input<typeof mailGroupListQuerySchema>;

/** GET user/mail-group-list (any signed-in user): the groups they may send to, by name. */
export const usableMailGroupsQuerySchema = z.object({
  keyword: z.string().trim().max(MAIL_GROUP_NAME_MAX_CHARS, { error: 'tooLong' }).optional(),
});

/**
 * A group in a list (SPEC §3: id, mailGroupName, members, checked). `members` are the first
 * MAIL_GROUP_PREVIEW_MEMBERS names (users by name, then external addresses); `memberCount` counts
 * live users and external addresses (a deleted user drops out). `checked` is the picker's
 * selection, always false from the server.
 */
export const mailGroupSummarySchema = z.object({
  id: z.number().int(),
  mailGroupName: z.string(),
  members: z.array(z.string()),
  memberCount: z.number().int(),
  checked: z.boolean(),
  /** The department the group belongs to (its maker's), which decides who administers it. */
  deptId: z.number().int().nullable(),
  deptName: z.string().nullable(),
  createdByName: z.string().nullable(),
  updatedAt: z.string(),
});
export type MailGroupSummary = z.infer<typeof mailGroupSummarySchema>;

export const mailGroupPageSchema = z.object({
  list: z.array(mailGroupSummarySchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});
export type MailGroupPage = z.infer<typeof mailGroupPageSchema>;

/** A user of a group; `email` null: they have none and get no mail until they do. */
export const mailGroupMemberSchema = z.object({
  userId: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  deptName: z.string().nullable(),
});
export type MailGroupMember = z.infer<typeof mailGroupMemberSchema>;

/** GET manage/mail-group/detail: the whole group, its live users by name. */
export const mailGroupDetailSchema = z.object({
  id: z.number().int(),
  mailGroupName: z.string(),
  members: z.array(mailGroupMemberSchema),
  externalEmails: z.array(z.string()),
  memberCount: z.number().int(),
  deptId: z.number().int().nullable(),
  deptName: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MailGroupDetail = z.infer<typeof mailGroupDetailSchema>;

/** A department of the member picker (within the caller's reach), parents before children. */
export const mailGroupDepartmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** null for the top of the caller's reach (the root, or their own department). */
  parentId: z.number().int().nullable(),
  /** Live members of this department itself. */
  memberCount: z.number().int(),
});
export type MailGroupDepartment = z.infer<typeof mailGroupDepartmentSchema>;
export const mailGroupDepartmentsSchema = z.object({ departments: z.array(mailGroupDepartmentSchema) });

/** POST manage/mail-group/users (code 1): users the caller may add, by name, paged. */
export const mailGroupCandidatesRequestSchema = z.object({
  deptId: id.optional(),
  /** Also users of the departments below (default true). */
  includeSubDepts: z.boolean().optional(),
  /** Matches name, username, e-mail or phone (case-insensitive substring). */
  keyword: z.string().trim().max(50, { error: 'tooLong' }).optional(),
  pageNo: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(MAIL_GROUP_CANDIDATES_PAGE_SIZE_MAX).default(20),
});
export type MailGroupCandidatesRequest = z.input<typeof mailGroupCandidatesRequestSchema>;
export const mailGroupCandidatesSchema = z.object({
  list: z.array(mailGroupMemberSchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});
export type MailGroupCandidates = z.infer<typeof mailGroupCandidatesSchema>;
