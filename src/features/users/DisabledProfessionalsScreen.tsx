import { UsersTable } from './UsersTable';

/** Same status as the sidebar's DISABLED badge, so the list total and the badge agree. */
export default function DisabledProfessionalsScreen() {
  return <UsersTable id="professionals-disabled" userRole="PROFESSIONAL" status="DISABLED" />;
}
