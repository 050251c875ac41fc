import fs from 'node:fs';

/** The private registries of scripts/test-env-registries.sh (basic auth over HTTP; TLS + basic auth). */
export interface PrivateRegistries {
  /** 127.0.0.1:port of the basic-auth registry (plain HTTP). */
  basic: string;
  /** 127.0.0.1:port of the TLS registry (its certificate is signed by `ca`). */
  tls: string;
  /** The CA certificate (PEM) of the TLS registry. */
  ca: string;
  user: string;
  password: string;
  /** `basic/private/busybox:latest`, pushed by the harness. */
  image: string;
  tlsImage: string;
}

export function privateRegistries(): PrivateRegistries {
  const env = process.env;
  const keys = ['REGISTRY', 'TLS_REGISTRY', 'CA', 'USER', 'PASSWORD', 'IMAGE', 'TLS_IMAGE'].map(
    (k) => `BERTH_TEST_PRIVATE_${k}`,
  );
  const missing = keys.filter((k) => !env[k]);
  if (missing.length)
    throw new Error(`private registries not configured (${missing.join(', ')} unset): run scripts/test-env.sh`);
  return {
    basic: env.BERTH_TEST_PRIVATE_REGISTRY!,
    tls: env.BERTH_TEST_PRIVATE_TLS_REGISTRY!,
    ca: fs.readFileSync(env.BERTH_TEST_PRIVATE_CA!, 'utf8'),
    user: env.BERTH_TEST_PRIVATE_USER!,
    password: env.BERTH_TEST_PRIVATE_PASSWORD!,
    image: env.BERTH_TEST_PRIVATE_IMAGE!,
    tlsImage: env.BERTH_TEST_PRIVATE_TLS_IMAGE!,
  };
}
