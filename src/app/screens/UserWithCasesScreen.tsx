import { UserCasesSection } from '../../features/cases/UserCasesSection';
import UserScreen, { type UserCasesSlot } from '../../features/users/UserScreen';

// The users feature draws a person; their cases belong to the cases feature. Features never import each
// other (docs/decisions/0062), so the shell joins the two: it gives the user view its cases section.
const casesSlot: UserCasesSlot = (user) => <UserCasesSection userId={user.id} role={user.role} />;

/** `/customers/:id` and `/professionals/:id`. */
export default function UserWithCasesScreen() {
  return <UserScreen casesSlot={casesSlot} />;
}
