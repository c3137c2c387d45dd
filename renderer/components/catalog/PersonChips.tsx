import type { Ref } from '../../../shared/models.ts';
import { useNavigation } from '../../router.ts';

/** People as chips that open the person in the detail panel (cast, directors, search results). */
export function PersonChips({ people, label }: { people: Ref[]; label: string }) {
  const nav = useNavigation();
  return (
    <ul className="chips" aria-label={label}>
      {people.map((person) => (
        <li key={person.ref}>
          <button type="button" className="chip" onClick={() => nav.openPerson(person.ref)}>
            {person.name}
          </button>
        </li>
      ))}
    </ul>
  );
}
