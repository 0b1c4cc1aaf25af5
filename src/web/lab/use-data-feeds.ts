import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import type { DataFeedEntry } from './types';

/** Until the server has said: the default feed alone, which every server serves. */
const DEFAULT_FEEDS: readonly DataFeedEntry[] = [{ id: 'delayed_sip', name: 'Delayed SIP', description: '' }];

/**
 * The feeds this server can serve (`GET /api/data-feeds`), loaded once per page: without market-data keys only the
 * delayed one, so the form never offers a feed that would be refused whatever the user does.
 */
export function useDataFeeds(): readonly DataFeedEntry[] {
  const [feeds, setFeeds] = useState<readonly DataFeedEntry[]>(DEFAULT_FEEDS);
  useEffect(() => {
    let current = true;
    // On failure the default stays: a run still reports real problems beside the feed.
    api.get<DataFeedEntry[]>('/api/data-feeds').then((found) => current && setFeeds(found), () => undefined);
    return () => void (current = false);
  }, []);
  return feeds;
}
