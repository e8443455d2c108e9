-- Creation calls made once (ADR 0043): a request carrying `Idempotency-Key` claims its key here
-- before its work is done, and its answer is kept with it, so the same key again from the same
-- caller on the same route is answered with that answer and makes nothing new. The answer (it may
-- hold a link's address or a token) is kept sealed under a key derived from the instance secret.
-- A claim without an answer is a request still at work; a failed request gives its key back.
-- Keys are forgotten after a day (the idempotency.prune job).

CREATE TABLE idempotency_keys (
  -- `user:<id>` for a browser's session, `token:<id>` for a script's API token.
  caller text NOT NULL,
  -- The declared route: method and path pattern (`POST /items/:id/links`).
  route text NOT NULL,
  key text NOT NULL,
  -- SHA-256 of the request (its params, query and body): the key of another request is refused.
  request_hash text NOT NULL,
  status integer,
  answer text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (caller, route, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
