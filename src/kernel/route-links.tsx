import { createContext, useContext, useMemo } from 'react';

/** What a screen needs to link to another one: the shell's route table rows, as far as links go. */
export interface RouteLink {
  id: string;
  path: string;
  titleKey: string;
  /** Letter after `g` that opens the screen. */
  goKey?: string | undefined;
}

const RouteLinksContext = createContext<readonly RouteLink[]>([]);

/**
 * The shell provides its route table (`src/app/routes.ts`) here, so features can link to screens by
 * id — with their titles and `g` letters — without importing the shell (docs/decisions/0062).
 */
export const RouteLinksProvider = RouteLinksContext.Provider;

/** The links with these ids, in this order; an unknown id is a programming error. */
export function useRouteLinks(ids: readonly string[]): RouteLink[] {
  const links = useContext(RouteLinksContext);
  return useMemo(
    () =>
      ids.map((id) => {
        const link = links.find((candidate) => candidate.id === id);
        if (!link) throw new Error(`unknown route ${id}`);
        return link;
      }),
    [links, ids],
  );
}

/** The link with this id, or undefined while the shell has no such screen yet. */
export function useOptionalRouteLink(id: string): RouteLink | undefined {
  const links = useContext(RouteLinksContext);
  return links.find((candidate) => candidate.id === id);
}
