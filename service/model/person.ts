/** A person of the catalog: cast or director. */
export interface Person {
  id: number;
  name: string;
  bio: string;
}
