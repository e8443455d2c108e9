-- Links that confirm an account's email address. A link remembers the sign-in it was sent from, so
-- following it in that browser also finishes signing in.
CREATE TABLE idp_email_verifications (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
  interaction_uid text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX idp_email_verifications_account_idx ON idp_email_verifications (account_id);
