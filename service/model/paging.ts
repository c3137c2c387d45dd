/** One page of a list: `start_index` (0-based) and `max_results`. */
export interface Paging {
  start: number;
  max: number;
}
