import { UserCasesSection } from '../../features/cases/UserCasesSection';
import { DoctorPayouts } from '../../features/finance/DoctorPayouts';
import UserScreen, { type UserCasesSlot } from '../../features/users/UserScreen';

// The users feature draws a person; their cases belong to the cases feature and a doctor's payouts to
// the finance feature. Features never import each other (docs/decisions/0062), so the shell joins them:
// it gives the user view its cases section and, for a doctor, the payouts panel.
const casesSlot: UserCasesSlot = (user) => (
  <>
    <UserCasesSection userId={user.id} role={user.role} />
    {user.role === 'PROFESSIONAL' ? <DoctorPayouts professionalId={user.id} /> : null}
  </>
);

/** `/customers/:id` and `/professionals/:id`. */
export default function UserWithCasesScreen() {
  return <UserScreen casesSlot={casesSlot} />;
}
