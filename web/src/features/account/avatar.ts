/** The default avatar (SPEC §2 "avatar with a default image"): a neutral silhouette. */
export const DEFAULT_AVATAR = `data:image/svg+xml;utf8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#dbe4f3"/><circle cx="32" cy="25" r="12" fill="#8aa0c6"/><path d="M10 60c3-13 12-19 22-19s19 6 22 19z" fill="#8aa0c6"/></svg>',
)}`;
