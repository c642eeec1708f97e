/** Whether the signed-in user must choose a new password before anything else (SPEC §4). */
export function mustChangePassword(user: { passwordExpireFlag: boolean; loginNum: number } | undefined) {
  return Boolean(user && (user.passwordExpireFlag || user.loginNum === 0));
}
