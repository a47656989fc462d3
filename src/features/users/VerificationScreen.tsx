import { UsersTable } from './UsersTable';

/** Same status as the sidebar's EMAIL_VERIFIED badge, so the list total and the badge agree. */
export default function VerificationScreen() {
  return <UsersTable id="professionals-verification" userRole="PROFESSIONAL" status="EMAIL_VERIFIED" />;
}
