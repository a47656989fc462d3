-- Cases, their messages (TEXT/CALL/VOICE) with attachments, reviews, and subscription payments.

CREATE TABLE subscription_payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES users (id),
  professional_id uuid NOT NULL REFERENCES users (id),
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'EUR' CHECK (currency = 'EUR'),
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL CHECK (period_end > period_start),
  paid_at timestamptz NOT NULL,
  provider_payment_id text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscription_payments_professional_idx ON subscription_payments (professional_id, paid_at);
CREATE INDEX subscription_payments_customer_idx ON subscription_payments (customer_id, paid_at);

CREATE TABLE cases (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES users (id),
  professional_id uuid NOT NULL REFERENCES users (id),
  status text NOT NULL CHECK (status IN (
    'CREATED', 'FREE', 'ACCEPTED', 'WAITING_PAYMENT', 'PAID', 'CLOSED_BY_PROFESSIONAL', 'CLOSED_REJECTED',
    'CLOSED_NOT_ANSWERED', 'CLOSED_NOT_PAID', 'CLOSED_LIFETIME', 'CLOSED_BY_ADMIN', 'CLOSED_EXPIRED'
  )),
  -- derived so the flag and the status can never disagree
  closed boolean NOT NULL GENERATED ALWAYS AS (status LIKE 'CLOSED\_%') STORED,
  type text NOT NULL CHECK (type IN ('SINGLE_CASE', 'SUBSCRIPTION')),
  subscription_payment_id uuid REFERENCES subscription_payments (id),
  start_date timestamptz,
  end_date timestamptz CHECK (end_date IS NULL OR start_date IS NULL OR end_date >= start_date),
  closed_at timestamptz,
  price_cents integer NOT NULL CHECK (price_cents >= 0),
  currency text NOT NULL DEFAULT 'EUR' CHECK (currency = 'EUR'),
  professional_summary text,
  notification_status smallint NOT NULL DEFAULT 0 CHECK (notification_status BETWEEN 0 AND 3),
  total_messages integer NOT NULL DEFAULT 0 CHECK (total_messages >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (customer_id <> professional_id),
  CHECK (type = 'SUBSCRIPTION' OR subscription_payment_id IS NULL)
);
CREATE INDEX cases_created_idx ON cases (created_at, id);
CREATE INDEX cases_professional_idx ON cases (professional_id, created_at, id);
CREATE INDEX cases_customer_idx ON cases (customer_id, created_at, id);
CREATE INDEX cases_status_idx ON cases (status, created_at, id);
CREATE INDEX cases_type_idx ON cases (type, created_at, id);
CREATE INDEX cases_closed_at_idx ON cases (closed_at) WHERE closed_at IS NOT NULL;
CREATE INDEX cases_subscription_payment_idx ON cases (subscription_payment_id) WHERE subscription_payment_id IS NOT NULL;

CREATE TABLE case_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  case_id uuid NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  sender_id uuid NOT NULL REFERENCES users (id),
  type text NOT NULL CHECK (type IN ('TEXT', 'CALL', 'VOICE')),
  text text,
  call_duration_seconds integer CHECK (call_duration_seconds IS NULL OR call_duration_seconds >= 0),
  voice_file_id uuid REFERENCES stored_files (id),
  voice_duration_ms integer CHECK (voice_duration_ms IS NULL OR voice_duration_ms > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (type <> 'TEXT' OR text IS NOT NULL),
  CHECK (type <> 'CALL' OR call_duration_seconds IS NOT NULL),
  CHECK (type <> 'VOICE' OR (voice_file_id IS NOT NULL AND voice_duration_ms IS NOT NULL))
);
CREATE INDEX case_messages_case_idx ON case_messages (case_id, created_at, id);

CREATE TABLE case_message_attachments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  message_id uuid NOT NULL REFERENCES case_messages (id) ON DELETE CASCADE,
  file_id uuid NOT NULL REFERENCES stored_files (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_message_attachments_message_idx ON case_message_attachments (message_id);

CREATE TABLE case_reviews (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  case_id uuid NOT NULL UNIQUE REFERENCES cases (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL REFERENCES users (id),
  rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  comment text,
  created_at timestamptz NOT NULL DEFAULT now()
);
