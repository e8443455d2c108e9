-- Two-step sign-in: an authenticator app's secret (sealed), the ten recovery codes (hashed), and the
-- sign-ins waiting for their second step.
CREATE TABLE idp_totp (
  account_id uuid PRIMARY KEY REFERENCES idp_accounts (id) ON DELETE CASCADE,
  secret_sealed text NOT NULL,
  -- Null while being set up: the secret counts once a code made from it has been entered.
  confirmed_at timestamptz,
  -- The time step of the last code taken: a code is taken once, and no older one after it.
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE idp_recovery_codes (
  account_id uuid NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, code_hash)
);

-- A password was right for this sign-in (interaction); the code is still to come, or (`passed_at`) was given
-- while setting up an app, whose recovery codes are shown before the sign-in goes on.
CREATE TABLE idp_second_steps (
  interaction_uid text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  passed_at timestamptz
);
