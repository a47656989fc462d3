import { UsersTable } from './UsersTable';

export default function CustomersScreen() {
  return <UsersTable id="customers" userRole="CUSTOMER" />;
}
