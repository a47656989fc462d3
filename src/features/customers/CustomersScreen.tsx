import { UsersTable } from '../users/UsersTable';

export default function CustomersScreen() {
  return <UsersTable id="customers" userRole="CUSTOMER" />;
}
