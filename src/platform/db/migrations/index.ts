import type { Migration } from 'kysely';
import * as initial from './0001_initial.js';
import * as barsVersion from './0002_bars_version.js';
import * as challengeHashOnly from './0003_challenge_hash_only.js';
import * as outboxLink from './0004_outbox_link.js';
import * as paperMoney from './0005_paper_money.js';
import * as adminBreach from './0006_admin_breach.js';
import * as dataRights from './0007_data_rights.js';
import * as incidentStepsExportTombstones from './0008_incident_steps_export_tombstones.js';
import * as optionStructures from './0009_option_structures.js';
import * as barSources from './0010_bar_sources.js';
import * as orderFillSource from './0011_order_fill_source.js';
import * as optionSettlement from './0012_option_settlement.js';
import * as trailingStop from './0013_trailing_stop.js';
import * as optionsSpec from './0014_options_spec.js';

/** Every migration, in order. Listed statically so the same code runs from `src/` (tsx) and `dist/`. */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_bars_version': barsVersion,
  '0003_challenge_hash_only': challengeHashOnly,
  '0004_outbox_link': outboxLink,
  '0005_paper_money': paperMoney,
  '0006_admin_breach': adminBreach,
  '0007_data_rights': dataRights,
  '0008_incident_steps_export_tombstones': incidentStepsExportTombstones,
  '0009_option_structures': optionStructures,
  '0010_bar_sources': barSources,
  '0011_order_fill_source': orderFillSource,
  '0012_option_settlement': optionSettlement,
  '0013_trailing_stop': trailingStop,
  '0014_options_spec': optionsSpec,
};
