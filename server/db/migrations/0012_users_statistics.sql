-- Role and status are strongly correlated (most customers are EMAIL_VERIFIED, few professionals are), so
-- the planner's independent estimates were off by 4x for "role + status"; those estimates are the
-- `total` the users list answers above 10,000 matches (docs/decisions/0040).
CREATE STATISTICS users_role_status_stats (mcv) ON role, status FROM users;
CREATE STATISTICS users_role_country_stats (mcv) ON role, country FROM users;
