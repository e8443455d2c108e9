-- Passkeys (WebAuthn): an account's public keys, each kept with its counter, and the challenges handed out for
-- adding one or signing in with one, each taken once.
CREATE TABLE idp_passkeys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
  -- The credential's id as the browser names it (base64url).
  credential_id text NOT NULL UNIQUE,
  -- The COSE public key (base64url).
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  -- Whether the key can be copied to the person's other devices (a synced passkey) or stays on one.
  multi_device boolean NOT NULL,
  backed_up boolean NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX idp_passkeys_account_idx ON idp_passkeys (account_id);

-- `key` is what the challenge was made for: adding a passkey to an account, or one sign-in (interaction).
CREATE TABLE idp_passkey_challenges (
  key text PRIMARY KEY,
  challenge text NOT NULL,
  expires_at timestamptz NOT NULL
);
-- Each new challenge clears those past their time.
CREATE INDEX idp_passkey_challenges_expires_idx ON idp_passkey_challenges (expires_at);
