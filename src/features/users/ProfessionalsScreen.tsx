import { UsersTable } from './UsersTable';

export default function ProfessionalsScreen() {
  return <UsersTable id="professionals" userRole="PROFESSIONAL" />;
}
