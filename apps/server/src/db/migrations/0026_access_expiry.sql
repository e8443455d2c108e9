-- Access that ends by the clock (a grant, a session or an API token reaching its expiry) is
-- announced as the triggers of 0009 announce access taken away: a recurring job sends the same
-- `access` notice for everything that expired since its last pass (ADR 0050). The collaboration
-- socket then looks again at the connections it may concern, instead of every connection looking
-- every few seconds in case something expired.

-- How far the job has looked: expiries up to this time have been announced.
CREATE TABLE access_expiry_progress (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  announced_until timestamptz NOT NULL
);
INSERT INTO access_expiry_progress (announced_until) VALUES (now());

CREATE INDEX item_grants_expiry_idx ON item_grants (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX sessions_expiry_idx ON sessions (expires_at);
CREATE INDEX api_tokens_expiry_idx ON api_tokens (expires_at);
