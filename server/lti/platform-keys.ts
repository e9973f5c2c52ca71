// A platform's public keys, fetched from its key-set URL and cached per platform. A token signed with a
// key id the cache does not know makes one refetch (the platform rotated its keys), at most once per
// REFETCH_COOLDOWN_MS per platform so that tokens with made-up key ids cannot make us hammer it.
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../config.ts';
import { PlatformRequestError, platformRequest } from './platform-requests.ts';

const REFETCH_COOLDOWN_MS = 5_000;

interface Cached {
  url: string;
  keys: ReturnType<typeof createLocalJWKSet>;
  refetchedAt: number;
}

export class PlatformKeys {
  private readonly cache = new Map<string, Cached>();
  constructor(private readonly config: Pick<Config, 'LTI_ALLOW_PRIVATE'>) {}

  private async fetch(url: string): Promise<ReturnType<typeof createLocalJWKSet>> {
    const answer = await platformRequest(this.config, url, { headers: { accept: 'application/json' } });
    const set = answer.json as JSONWebKeySet | null;
    if (answer.status !== 200 || !set || !Array.isArray(set.keys))
      throw new PlatformRequestError("The platform's key set could not be read");
    return createLocalJWKSet(set);
  }

  /** The key-lookup function for jwtVerify, for this platform. */
  keyFor(platform: { id: string; keySetUrl: string }): JWTVerifyGetKey {
    return async (header, token) => {
      let cached = this.cache.get(platform.id);
      if (!cached || cached.url !== platform.keySetUrl) {
        cached = { url: platform.keySetUrl, keys: await this.fetch(platform.keySetUrl), refetchedAt: 0 };
        this.cache.set(platform.id, cached);
      }
      try {
        return await cached.keys(header, token);
      } catch (err) {
        if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
        if (Date.now() - cached.refetchedAt < REFETCH_COOLDOWN_MS) throw err;
        const fresh = {
          url: platform.keySetUrl,
          keys: await this.fetch(platform.keySetUrl),
          refetchedAt: Date.now(),
        };
        this.cache.set(platform.id, fresh);
        return fresh.keys(header, token);
      }
    };
  }

  forget(platformId: string): void {
    this.cache.delete(platformId);
  }
}
