import { z } from 'zod';
import { FILE_PERMISSIONS, PermissionScope, ResourceType } from './permissions';
import {
  classifyIdentifier,
  MOBILE_PATTERN,
  PASSWORD_PATTERN,
  SMS_CODE_PATTERN,
  SmsPurpose,
} from './security-values';

export * from './security-values';

/**
 * Schemas of the security API (SPEC §7 Security API). Custom messages are keys of
 * VALIDATION_MESSAGES so the server can localise them.
 */

export const loginRequestSchema = z
  .object({
    /** Phone number or e-mail address; its format decides which. */
    userName: z.string().trim().max(254).optional(),
    mobile: z.string().trim().regex(MOBILE_PATTERN, { error: 'identifier' }).optional(),
    email: z.email({ error: 'identifier' }).max(254).optional(),
    password: z.string().min(1, { error: 'required' }).max(128).optional(),
    /** SMS sign-in: the code sent to `mobile` (or a mobile `userName`) for the purpose `signIn`. */
    messageCode: z.string().trim().regex(SMS_CODE_PATTERN, { error: 'smsCode' }).optional(),
    /** Keep the session for 7 days instead of one working day. */
    remember: z.boolean().optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.userName && !body.mobile && !body.email) {
      ctx.addIssue({ code: 'custom', path: ['userName'], message: 'required' });
    } else if (body.userName && !classifyIdentifier(body.userName)) {
      ctx.addIssue({ code: 'custom', path: ['userName'], message: 'identifier' });
    }
    if (body.password === undefined && body.messageCode === undefined) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'required' });
    }
    if (body.messageCode !== undefined && body.email) {
      ctx.addIssue({ code: 'custom', path: ['mobile'], message: 'identifier' });
    }
  });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResultSchema = z.object({
  token: z.string(),
  /** ISO 8601 instant after which the token stops working. */
  expiresAt: z.string(),
  passwordExpireFlag: z.boolean(),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

export const resourceEntrySchema = z.object({
  resourceType: z.enum(ResourceType),
  resourceId: z.number().int(),
});

const scopeSchema = z.enum(PermissionScope);
/** One scope per file permission. Free of side effects, so a bundle without the schema drops it. */
/* @__NO_SIDE_EFFECTS__ */
function scopePerPermission() {
  return Object.fromEntries(FILE_PERMISSIONS.map((p) => [p, scopeSchema])) as Record<
    (typeof FILE_PERMISSIONS)[number],
    typeof scopeSchema
  >;
}
export const filePermissionsSchema = z.object(scopePerPermission());
export type FilePermissions = z.infer<typeof filePermissionsSchema>;

export const userInfoSchema = z.object({
  id: z.number().int(),
  username: z.string().nullable(),
  name: z.string(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  deptId: z.number().int().nullable(),
  deptname: z.string().nullable(),
  avatar: z.string().nullable(),
  /** Successful sign-ins so far, this one included. */
  loginNum: z.number().int(),
  /** True when the password must be changed before going on (set by someone else, or too old). */
  passwordExpireFlag: z.boolean(),
  resourcesList: z.array(resourceEntrySchema),
  filePermissions: filePermissionsSchema,
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const changePasswordRequestSchema = z
  .object({
    password: z.string().min(1, { error: 'required' }).max(128),
    newPassword: z.string().regex(PASSWORD_PATTERN, { error: 'passwordRules' }),
    reEnterPassword: z.string().min(1, { error: 'required' }),
  })
  .superRefine((body, ctx) => {
    if (body.newPassword !== body.reEnterPassword) {
      ctx.addIssue({ code: 'custom', path: ['reEnterPassword'], message: 'passwordMismatch' });
    } else if (body.newPassword === body.password) {
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: 'passwordSame' });
    }
  });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  filePermissions: filePermissionsSchema,
  functionCodes: z.array(z.number().int()),
  /** The administrator role made at first start: it cannot be deleted or lose permissions. */
  isSystem: z.boolean(),
  /** Live users holding the role directly. */
  userCount: z.number().int(),
});
export type Role = z.infer<typeof roleSchema>;
export const rolesResultSchema = z.object({ roleList: z.array(roleSchema) });

export const mobileSchema = z.string().regex(MOBILE_PATTERN, { error: 'identifier' });

/** Asks for a sign-in or password-reset code by SMS; the answer never says whether the number has an account. */
export const sendSignInCodeRequestSchema = z.object({
  mobile: mobileSchema,
  purpose: z.enum([SmsPurpose.signIn, SmsPurpose.resetPassword]),
});
export type SendSignInCodeRequest = z.infer<typeof sendSignInCodeRequestSchema>;

/** A code was sent (or, for an unknown number, seemed to be): a new one may be asked for after this long. */
export const codeSentSchema = z.object({ resendAfterSeconds: z.number().int() });
export type CodeSent = z.infer<typeof codeSentSchema>;

/** Asks for a code to the caller's new mobile number. */
export const sendMobileChangeCodeRequestSchema = z.object({ mobile: mobileSchema });

/** Asks for a password-reset link by e-mail; answered alike whether or not the address has an account. */
export const emailResetPasswordRequestSchema = z.object({ email: z.email({ error: 'email' }).max(254) });

const newPasswordFields = {
  password: z.string().regex(PASSWORD_PATTERN, { error: 'passwordRules' }),
  reEnterPassword: z.string().min(1, { error: 'required' }),
};

/**
 * Sets a new password while signed out: with the single-use token of an e-mailed link, or with the
 * mobile number and the code sent to it for `resetPassword`. Every session of the account ends.
 */
export const loginResetPasswordRequestSchema = z
  .union([
    z.object({ token: z.string().min(16).max(128), ...newPasswordFields }),
    z.object({
      mobile: mobileSchema,
      messageCode: z.string().trim().regex(SMS_CODE_PATTERN, { error: 'smsCode' }),
      ...newPasswordFields,
    }),
  ])
  .superRefine((body, ctx) => {
    if (body.password !== body.reEnterPassword) {
      ctx.addIssue({ code: 'custom', path: ['reEnterPassword'], message: 'passwordMismatch' });
    }
  });
export type LoginResetPasswordRequest = z.infer<typeof loginResetPasswordRequestSchema>;

/** Changes the caller's own mobile number to one a code was sent to (purpose `changeMobile`). */
export const changeOwnMobileRequestSchema = z.object({
  mobile: mobileSchema,
  messageCode: z.string().trim().regex(SMS_CODE_PATTERN, { error: 'smsCode' }),
});
export type ChangeOwnMobileRequest = z.infer<typeof changeOwnMobileRequestSchema>;

/** Asks to change the caller's e-mail address: a link to confirm it is mailed to the new address. */
export const changeOwnEmailRequestSchema = z.object({ email: z.email({ error: 'email' }).max(254) });

/** Confirms a change of e-mail address with the token of the mailed link (no sign-in needed). */
export const confirmEmailRequestSchema = z.object({ token: z.string().min(16).max(128) });
