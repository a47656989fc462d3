import { UsersTable } from '../users/UsersTable';

export default function ProfessionalsScreen() {
  return <UsersTable id="professionals" userRole="PROFESSIONAL" />;
}
