-- OpenID Connect back-channel logout (ADR 0068): the provider's session (the ID token's `sid`) each of Cabinet's
-- sessions was signed in through, so that ending it at the provider ends exactly those sessions.
ALTER TABLE sessions ADD COLUMN provider_sid text;
CREATE INDEX sessions_provider_sid_idx ON sessions (provider_sid) WHERE provider_sid IS NOT NULL;

-- Logout tokens already acted on, by their `jti`, until they are too old to be taken anyway: a token sent twice is
-- refused. Rows past `expires_at` are deleted as new ones arrive, so the table holds at most a few minutes' worth.
CREATE TABLE logout_tokens (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX logout_tokens_expiry_idx ON logout_tokens (expires_at);
