/**
 * Every record key prefix of the worker's store (IndexedDB), in one place. Keys are
 * `<prefix><id>`; the prefixes of runs and their bytes are also part of the history file's
 * format, which is why this module sits in `domain/` and not in the worker.
 */

// Profiles and settings
export const PROFILE_KEY = 'profile:';
/** API keys, apart from the profile records; read by the worker only. */
export const API_KEY_KEY = 'apikey:';
/** A self-hosted proxy profile's Comfy account key (partner nodes), stored like `apikey:`; read by the worker only. */
export const PARTNER_KEY_KEY = 'partnerkey:';
/** Settings of the app, one record each. */
export const SETTING_KEY = 'setting:';
export const ACTIVE_PROFILE_KEY = 'setting:activeProfile';
export const CLIENT_ID_KEY = 'setting:clientId';
export const DEMO_DELETED_KEY = 'setting:demoDeleted';
/** The v2 demo profile was deleted: `npm start` does not create it again. */
export const DEMO_V2_DELETED_KEY = 'setting:demoV2Deleted';

// Workflow runs
export const WORKFLOW_RUN_KEY = 'run:';
/** Cached output bytes: `output:<run id>:<index>`. */
export const WORKFLOW_OUTPUT_KEY = 'output:';
/** Ids of runs not finished yet, so resuming reads a handful of records, not the whole history. */
export const OPEN_RUN_KEY = 'open:';
/** Run id by job id, so a job heard on the socket or seen in the queue is found without a scan. */
export const RUN_BY_PROMPT_KEY = 'prompt:';
export const SAVED_WORKFLOW_KEY = 'workflow:';
/** Node definitions per profile, for offline forms. */
export const OBJECT_INFO_KEY = 'objectinfo:';
/** BLAKE3 of a chosen file by its identity (name, size, mtime). */
export const FILE_HASH_KEY = 'hash:';

// Sweeps: one record per sweep, its cells being ordinary runs that carry its id.
export const SWEEP_KEY = 'sweep:';
/** A small picture of each finished cell's shown output, `sweepthumb:<sweep id>:<cell>`: the grid shows it once the full output is gone. */
export const SWEEP_THUMBNAIL_KEY = 'sweepthumb:';

// Pools: one record per pool of profiles that act as one place to run.
export const POOL_KEY = 'pool:';
/** What the pools last saw of a member's queue, `poolseen:<profile id>` (`pools/rules/member-seen.ts`): a reload keeps it. */
export const POOL_SEEN_KEY = 'poolseen:';
/** The price a pool counted for a run on a paid member, `poolhold:<run id>` (`pools/rules/spend-hold.ts`), until the run ends. */
export const POOL_HOLD_KEY = 'poolhold:';

// Model runs
export const MODEL_RUN_KEY = 'modelrun:';
/** Saved result bytes: `models:bytes:<run id>:<part>`. */
export const MODEL_BYTES_KEY = 'models:bytes:';
export const MODEL_INPUTS_KEY = 'models:inputs:';
export const MODEL_SPEND_KEY = 'models:spend:';
export const MODEL_SCHEMA_KEY = 'models:schema:';
export const MODEL_CATALOG_KEY = 'models:catalog:';
/** What each model's schema says for its catalog tile (kind, title, first sentence), per profile. */
export const MODEL_SUMMARIES_KEY = 'models:summaries:';

// The Runs timeline: `tl:<created at, 13 digits>:<id>`.
export const TIMELINE_KEY = 'tl:';
/** Each run's search text as older versions kept it, `sx:<created at, 13 digits>:<id>`: read where an entry has none, then folded into it. */
export const SEARCH_TEXT_KEY = 'sx:';
/**
 * The search texts of runs a day old and older, a hundred runs to a record, `sc:<created at>:<id>`
 * after the last run it holds (decision 0061): a search after a reload reads these and the day's entries.
 */
export const SEARCH_CHUNK_KEY = 'sc:';

/** A starred run or outputs of it, `star:<run id>` (`star.ts`): their saved bytes are never removed to make room. */
export const STAR_KEY = 'star:';

/** Which stored records belong to the history file. */
export const HISTORY_RECORD_PREFIXES = [WORKFLOW_RUN_KEY, MODEL_RUN_KEY] as const;
/** Which stored byte records belong to it (cached workflow outputs, model results). */
export const HISTORY_BYTES_PREFIXES = [WORKFLOW_OUTPUT_KEY, MODEL_BYTES_KEY] as const;
