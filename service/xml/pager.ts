import type { Paging } from '../model/paging.ts';
import { textEl, type XmlElement } from './node.ts';

/** The pager every paged list carries (CONTRACT.md §2). */
export function pagerElements(total: number, paging: Paging): XmlElement[] {
  return [
    textEl('number_of_results', total),
    textEl('start_index', paging.start),
    textEl('results_per_page', paging.max),
  ];
}
