/**
 * The contract's calls as the web app makes them: method and path at run time, what is sent and
 * what comes back typed from the contract's schema table. Import `endpoints` from here, never from
 * '@dam/contract': that table brings zod and every schema into the bundle (issue 10 item 7).
 */
export { endpointRoutes as endpoints } from '@dam/contract';
