-- The embedded identity provider's own tables: accounts, protocol state, reset links, signing keys.

CREATE TABLE idp_accounts (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL,
  password_hash text NOT NULL,
  email_verified boolean NOT NULL DEFAULT false,
  failed_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX idp_accounts_email_idx ON idp_accounts (lower(email));

-- oidc-provider's models (sessions, grants, codes, interactions…), one row per model instance.
CREATE TABLE idp_payloads (
  kind text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, id)
);
CREATE INDEX idp_payloads_grant_idx ON idp_payloads (grant_id);
CREATE INDEX idp_payloads_uid_idx ON idp_payloads (uid);
CREATE INDEX idp_payloads_expires_idx ON idp_payloads (expires_at);

CREATE TABLE idp_password_resets (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE idp_keys (
  kid text PRIMARY KEY,
  jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
