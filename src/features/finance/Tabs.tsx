import { type KeyboardEvent, useRef } from 'react';
import { Link, useLocation } from 'wouter';

export interface TabsProps {
  label: string;
  /** The screen's path; each tab is `?tab=<id>` on it, so Back and links keep the tab. */
  base: string;
  tabs: ReadonlyArray<{ id: string; label: string }>;
  current: string;
}

/** A screen's sections as links in a tab list: ←/→ move between them, Enter opens. */
export function Tabs({ label, base, tabs, current }: TabsProps) {
  const [, navigate] = useLocation();
  const listRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const at = tabs.findIndex((tab) => tab.id === current);
    const next = tabs[(at + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    if (!next) return;
    navigate(`${base}?tab=${next.id}`);
    requestAnimationFrame(() =>
      listRef.current?.querySelector<HTMLElement>(`[data-tab="${next.id}"]`)?.focus(),
    );
  };
  return (
    <div ref={listRef} role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <Link
          key={tab.id}
          href={`${base}?tab=${tab.id}`}
          role="tab"
          data-tab={tab.id}
          aria-selected={tab.id === current}
          tabIndex={tab.id === current ? 0 : -1}
        >
          {tab.label}
        </Link>
      ))}
    </div>
  );
}
