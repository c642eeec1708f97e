import { z } from 'zod';
import {
  editMailGroupRequestSchema,
  mailGroupCandidatesRequestSchema,
  mailGroupCandidatesSchema,
  mailGroupDepartmentsSchema,
  mailGroupDetailSchema,
  mailGroupIdQuerySchema,
  mailGroupIdSchema,
  mailGroupInputSchema,
  mailGroupListQuerySchema,
  mailGroupPageSchema,
  mailGroupSummarySchema,
  usableMailGroupsQuerySchema,
} from '../mail-groups';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Mail groups (SPEC §2 /mail, §3 Mail group, §6 code 1, §7 user/mail-group-list). */
export const mailGroupsEndpoints = {
  /** SPEC §7: the groups a signed-in user may send to (the upload dialog's mail notice). */
  mailGroupList: defineEndpoint({
    ...routes.mailGroupList,
    query: usableMailGroupsQuerySchema,
    reply: 'json',
    result: z.array(mailGroupSummarySchema),
  }),
  manageMailGroups: defineEndpoint({
    ...routes.manageMailGroups,
    query: mailGroupListQuerySchema,
    reply: 'json',
    result: mailGroupPageSchema,
  }),
  mailGroupDetail: defineEndpoint({
    ...routes.mailGroupDetail,
    query: mailGroupIdQuerySchema,
    reply: 'json',
    result: mailGroupDetailSchema,
  }),
  createMailGroup: defineEndpoint({
    ...routes.createMailGroup,
    body: mailGroupInputSchema,
    reply: 'json',
    result: mailGroupIdSchema,
  }),
  editMailGroup: defineEndpoint({
    ...routes.editMailGroup,
    body: editMailGroupRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  /** Deleting a group that is already gone (or out of reach) changes nothing and succeeds. */
  deleteMailGroup: defineEndpoint({
    ...routes.deleteMailGroup,
    body: mailGroupIdSchema,
    reply: 'json',
    result: z.null(),
  }),
  mailGroupDepartments: defineEndpoint({
    ...routes.mailGroupDepartments,
    reply: 'json',
    result: mailGroupDepartmentsSchema,
  }),
  mailGroupCandidates: defineEndpoint({
    ...routes.mailGroupCandidates,
    body: mailGroupCandidatesRequestSchema,
    reply: 'json',
    result: mailGroupCandidatesSchema,
  }),
};
