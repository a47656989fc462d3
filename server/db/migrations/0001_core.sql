-- Core: users, stored files, sessions, login throttling, audit log, locales, countries.

CREATE TABLE stored_files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  original_name text NOT NULL,
  content_type text NOT NULL,
  size_bytes bigint NOT NULL CHECK (size_bytes >= 0 AND size_bytes <= 41943040),
  sha256 text NOT NULL,
  -- relative to $DATA_DIR/files; never built from user input
  storage_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  role text NOT NULL CHECK (role IN ('ADMIN', 'PROFESSIONAL', 'CUSTOMER')),
  email text NOT NULL,
  password_hash text,
  name text NOT NULL DEFAULT '',
  full_name text,
  gender text CHECK (gender IN ('male', 'female')),
  country text,
  birth_date date,
  locale text NOT NULL DEFAULT 'pt-PT' CHECK (locale IN ('pt-PT', 'en-GB')),
  avatar_file_id uuid REFERENCES stored_files (id),
  email_verified boolean NOT NULL DEFAULT false,
  professional_verified boolean NOT NULL DEFAULT false,
  disabled boolean NOT NULL DEFAULT false,
  status text NOT NULL GENERATED ALWAYS AS (
    CASE
      WHEN disabled THEN 'DISABLED'
      WHEN professional_verified THEN 'PROFESSIONAL_VERIFIED'
      WHEN email_verified THEN 'EMAIL_VERIFIED'
      ELSE 'NEW_USER'
    END
  ) STORED,
  admin_data jsonb,
  id_card_number text,
  college_number text,
  phone_number text,
  phone_country_code text,
  case_price_cents integer CHECK (case_price_cents IS NULL OR case_price_cents = 0 OR case_price_cents BETWEEN 500 AND 3000),
  case_currency text NOT NULL DEFAULT 'EUR',
  subscription_price_cents integer CHECK (subscription_price_cents IS NULL OR subscription_price_cents >= 0),
  subscription_currency text NOT NULL DEFAULT 'EUR',
  current_workplaces text[] NOT NULL DEFAULT '{}',
  specialities text[] NOT NULL DEFAULT '{}',
  share_link_id text UNIQUE CHECK (share_link_id IS NULL OR char_length(share_link_id) BETWEEN 6 AND 24),
  referral_name text,
  tax_number text,
  professional_background text,
  college_card_front_file_id uuid REFERENCES stored_files (id),
  college_card_back_file_id uuid REFERENCES stored_files (id),
  bic_swift text,
  iban text,
  association_link text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_active_at timestamptz
);
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
CREATE INDEX users_role_status_idx ON users (role, status);

CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- sha256 of the bearer token: a leaked table does not leak usable tokens
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE login_attempts (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  succeeded boolean NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_email_time_idx ON login_attempts (email, attempted_at);

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  actor_id uuid REFERENCES users (id),
  action text NOT NULL,
  entity_type text NOT NULL,
  entity_id text NOT NULL,
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id, created_at);

CREATE TABLE locales (
  id text PRIMARY KEY,
  enabled boolean NOT NULL DEFAULT true
);
INSERT INTO locales (id, enabled) VALUES ('pt-PT', true), ('en-GB', true);

CREATE TABLE countries (
  code text PRIMARY KEY CHECK (code ~ '^[A-Z]{2}$'),
  name_pt text NOT NULL,
  name_en text NOT NULL,
  phone_code text NOT NULL
);
INSERT INTO countries (code, name_pt, name_en, phone_code) VALUES
  ('PT', 'Portugal', 'Portugal', '+351'),
  ('BR', 'Brasil', 'Brazil', '+55'),
  ('AO', 'Angola', 'Angola', '+244'),
  ('MZ', 'Moçambique', 'Mozambique', '+258'),
  ('CV', 'Cabo Verde', 'Cape Verde', '+238'),
  ('ES', 'Espanha', 'Spain', '+34'),
  ('FR', 'França', 'France', '+33'),
  ('DE', 'Alemanha', 'Germany', '+49'),
  ('IT', 'Itália', 'Italy', '+39'),
  ('GB', 'Reino Unido', 'United Kingdom', '+44'),
  ('IE', 'Irlanda', 'Ireland', '+353'),
  ('NL', 'Países Baixos', 'Netherlands', '+31'),
  ('BE', 'Bélgica', 'Belgium', '+32'),
  ('LU', 'Luxemburgo', 'Luxembourg', '+352'),
  ('CH', 'Suíça', 'Switzerland', '+41'),
  ('US', 'Estados Unidos', 'United States', '+1');
