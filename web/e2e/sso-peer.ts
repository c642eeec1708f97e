import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OidcAccount, OidcPeer } from '../../server/test/peers/oidc';
import { PEER_PORTS } from './peer-ports';
import { ADMIN } from './support';

/**
 * The OpenID provider of the single sign-on journey (sso.spec.ts): the test provider of the server
 * tests (server/test/peers/oidc.ts) on the peers' OpenID port (peer-ports.ts), its client
 * registered for the journeys' server. web/e2e/peers.ts starts it beside the server
 * (`startSsoPeer`); the server gets `ssoServerEnv()`. Run alone: `node --import tsx web/e2e/sso-peer.ts`.
 */
export const SSO_PEER_PORT = PEER_PORTS.oidc;
export const SSO_ISSUER = `http://127.0.0.1:${SSO_PEER_PORT}`;
const CLIENT = { clientId: 'dam-e2e', clientSecret: 'e2e-sso-client-secret' };

/** The address the browser opens the journeys' server at (PUBLIC_URL: /oauth and /login are under it). */
export const e2eAppUrl = (): string => `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 18_480)}`;

/** The people at the provider: the administrator's company account (matched by its e-mail). */
export const SSO_ACCOUNTS = {
  admin: {
    sub: 'e2e-admin',
    password: 'Company#2026',
    name: 'E2E Administrator',
    email: ADMIN.email,
    email_verified: true,
  },
} satisfies Record<string, OidcAccount>;

export async function startSsoPeer(appUrl = e2eAppUrl()): Promise<OidcPeer> {
  // Loaded here: the journeys import this module for its accounts only.
  const { startOidcProvider } = await import('../../server/test/peers/oidc');
  return startOidcProvider({
    port: SSO_PEER_PORT,
    redirectUris: [`${appUrl}/oauth`],
    postLogoutRedirectUris: [`${appUrl}/login`],
    accounts: Object.values(SSO_ACCOUNTS),
    ...CLIENT,
  });
}

/** The journeys' server environment for single sign-on against `startSsoPeer`. */
export function ssoServerEnv(appUrl = e2eAppUrl()): Record<string, string> {
  return {
    PUBLIC_URL: appUrl,
    OIDC_ISSUER: SSO_ISSUER,
    OIDC_CLIENT_ID: CLIENT.clientId,
    OIDC_CLIENT_SECRET: CLIENT.clientSecret,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const peer = await startSsoPeer();
  console.log(`OpenID provider for the journeys on ${peer.issuer}`);
  const stop = () => void peer.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
