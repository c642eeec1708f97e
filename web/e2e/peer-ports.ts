/**
 * Where the journeys' peers (peers.ts) listen: next to the app's port (E2E_PORT, 18480 by
 * default), so two runs on different ports do not collide.
 */
const base = Number(process.env.E2E_PORT ?? 18_480) + 40;
export const PEER_PORTS = { smtp: base, sms: base + 1, oidc: base + 2, control: base + 3, webhook: base + 4 };
/** Where the peers' webhook receiver listens (the e2e server may send there: WEBHOOK_ALLOWED_NETWORKS). */
export const WEBHOOK_RECEIVER_URL = `http://127.0.0.1:${PEER_PORTS.webhook}`;
export const PEERS_URL = `http://127.0.0.1:${PEER_PORTS.control}`;
