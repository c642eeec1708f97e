/** The part of oidc-provider 9 (which ships no types) the test OpenID provider uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface ProviderContext {
    oidc: {
      result?: { consent?: { grantId?: string } };
      session: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      client: { clientId: string };
      provider: Provider;
    };
    host: string;
    type: string;
    body: string;
  }

  export class Provider {
    constructor(issuer: string, configuration?: object);
    readonly issuer: string;
    readonly Grant: {
      new (properties: { clientId: string; accountId: string | undefined }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: object,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }

  export default Provider;
}
