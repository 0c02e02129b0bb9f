package postgres

import (
	"sort"
	"strings"
)

// The function policy. A read-only transaction already stops every write to
// the database, so what the allowlist is for is what a read-only
// transaction does not stop: session advisory locks that outlive it, sleeps,
// settings changed for the rest of the session, a second connection that is
// not read-only (dblink), server files, other sessions, SQL run from a
// string that no parser saw. And it must not refuse what analysts write
// (a peer's over-strict list drove its users to turn protection off):
//
//   - allowed: every built-in function that has an immutable or stable form
//     (functions_gen.go, read from PostgreSQL's catalog: aggregates,
//     ordered-set aggregates, window functions, string, regex, date, time,
//     interval, math, JSON, jsonb, array, full-text, network, geometry and
//     catalog introspection functions), plus the few volatile ones below
//     that only read (random(), clock_timestamp(), sizes of relations…) and
//     the functions of newer PostgreSQL versions that are the same kind;
//   - refused: the deniedFunctions below, with the reason shown to the user,
//     every other volatile built-in, and every function that is not a
//     built-in (the database's own functions and extensions' functions:
//     Querent cannot know what they do).

// wordSet makes a set of the whitespace-separated words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// readOnlyVolatile are volatile built-ins that only read or compute: random
// numbers, the clock, the sizes of relations, the server's state.
var readOnlyVolatile = wordSet(`
random random_normal clock_timestamp timeofday gen_random_uuid uuidv4 uuidv7
pg_database_size pg_relation_size pg_table_size pg_indexes_size pg_total_relation_size pg_tablespace_size
pg_is_in_recovery pg_jit_available pg_last_xact_replay_timestamp pg_last_committed_xact
pg_partition_ancestors pg_partition_tree pg_blocking_pids pg_safe_snapshot_blocking_pids pg_lock_status
pg_notification_queue_usage pg_get_backend_memory_contexts pg_get_shmem_allocations pg_get_multixact_members
pg_prepared_xact pg_is_wal_replay_paused pg_get_wal_replay_pause_state pg_current_wal_lsn
pg_current_wal_insert_lsn pg_current_wal_flush_lsn pg_last_wal_receive_lsn pg_last_wal_replay_lsn
pg_sequence_last_value pg_xact_commit_timestamp pg_xact_commit_timestamp_origin pg_xact_status txid_status
pg_stat_have_stats pg_show_replication_origin_status pg_get_wal_resource_managers pg_stat_get_recovery_prefetch
current_query pg_collation_actual_version pg_database_collation_actual_version
pg_stat_get_xact_blocks_fetched pg_stat_get_xact_blocks_hit pg_stat_get_xact_function_calls
pg_stat_get_xact_function_self_time pg_stat_get_xact_function_total_time pg_stat_get_xact_numscans
pg_stat_get_xact_tuples_deleted pg_stat_get_xact_tuples_fetched pg_stat_get_xact_tuples_hot_updated
pg_stat_get_xact_tuples_inserted pg_stat_get_xact_tuples_returned pg_stat_get_xact_tuples_updated
`)

// newerFunctions are built-ins of PostgreSQL 16 to 18 of the same kind as
// the allowed ones, so that a newer server's analysts are not refused
// (an older server reports them as unknown itself).
var newerFunctions = wordSet(`
any_value array_sample array_shuffle date_add date_subtract pg_input_is_valid pg_input_error_info
to_bin to_oct erf erfc system_user pg_basetype to_regtypemod uuid_extract_timestamp uuid_extract_version
array_reverse array_sort casefold crc32 crc32c gamma lgamma pg_get_acl pg_get_loaded_modules
`)

// deniedFunctions are refused with their reason, whatever their volatility.
// Families (a prefix ending in '*') are matched on the name's start.
var deniedFunctions = map[string]string{
	"set_config":                     "it changes the session's settings (current_setting() reads them)",
	"pg_advisory_*":                  "it takes an advisory lock, and a session lock outlives the transaction and blocks other sessions",
	"pg_try_advisory_*":              "it takes an advisory lock, and a session lock outlives the transaction and blocks other sessions",
	"pg_sleep*":                      "it makes the server wait, which no analysis needs",
	"nextval":                        "it advances a sequence, a change no transaction rolls back",
	"setval":                         "it changes a sequence",
	"currval":                        "it reads the session's own sequence state, not the data",
	"lastval":                        "it reads the session's own sequence state, not the data",
	"dblink*":                        "it opens a second connection to a database, outside Querent's read-only transaction",
	"lo_*":                           "it reads or writes large objects or the server's files",
	"loread":                         "it reads large objects through a descriptor",
	"lowrite":                        "it writes large objects",
	"pg_read_file*":                  "it reads the server's own files",
	"pg_read_binary_file":            "it reads the server's own files",
	"pg_ls_*":                        "it lists the server's own folders",
	"pg_stat_file":                   "it reads the server's own files",
	"pg_current_logfile":             "it reads the server's own files",
	"pg_hba_file_rules":              "it reads the server's own files",
	"pg_ident_file_mappings":         "it reads the server's own files",
	"pg_show_all_file_settings":      "it reads the server's own files",
	"pg_control_*":                   "it reads the server's own files",
	"pg_terminate_backend":           "it ends another session",
	"pg_cancel_backend":              "it cancels another session's query",
	"pg_reload_conf":                 "it makes the server reload its configuration",
	"pg_rotate_logfile*":             "it acts on the server's log files",
	"pg_log_backend_memory_contexts": "it writes to the server's log",
	"pg_notify":                      "it sends a notification to other sessions",
	"txid_current":                   "it assigns a transaction ID, which only writing transactions need",
	"pg_current_xact_id":             "it assigns a transaction ID, which only writing transactions need",
	"query_to_xml*":                  "it runs SQL given as text, which Querent's checks never see",
	"query_to_xmlschema":             "it runs SQL given as text, which Querent's checks never see",
	"cursor_to_xml*":                 "it reads from a cursor, which Querent's checks never see",
	"table_to_xml*":                  "it runs queries of its own over whole tables",
	"schema_to_xml*":                 "it runs queries of its own over whole schemas",
	"database_to_xml*":               "it runs queries of its own over the whole database",
	"ts_stat":                        "it runs SQL given as text, which Querent's checks never see",
	"ts_rewrite":                     "one of its forms runs SQL given as text, which Querent's checks never see",
	"setseed":                        "it changes the session's random seed",
	"pg_stat_reset*":                 "it resets the server's statistics",
	"pg_stat_clear_snapshot":         "it changes the session's statistics snapshot",
	"pg_stat_force_next_flush":       "it acts on the server's statistics",
	"pg_switch_wal":                  "it acts on the server's write-ahead log",
	"pg_create_restore_point":        "it writes to the server's write-ahead log",
	"pg_logical_emit_message":        "it writes to the server's write-ahead log",
	"pg_backup_*":                    "it starts or stops a backup of the server",
	"pg_promote":                     "it changes the server's recovery state",
	"pg_wal_replay_*":                "it changes the server's recovery state",
	"pg_export_snapshot":             "it exports a snapshot for other sessions",
	"pg_import_system_collations":    "it creates collations",
	"pg_*replication_slot*":          "it changes the server's replication state",
	"pg_logical_slot_*":              "it reads or consumes replication changes",
	"pg_replication_origin_*":        "it changes the server's replication state",
	"brin_*":                         "it writes to an index",
	"gin_clean_pending_list":         "it writes to an index",
	"binary_upgrade_*":               "it is for pg_upgrade only",
	"pg_nextoid":                     "it consumes object IDs",
	"pg_extension_config_dump":       "it changes an extension's configuration",
	"pg_stop_making_pinned_objects":  "it is for initdb only",
}

// funcVerdict is the policy's answer for one function name.
type funcVerdict int

const (
	funcAllowed funcVerdict = iota
	funcDenied              // a built-in the policy refuses: reason says why
	funcUnknown             // not a built-in: the database's own, an extension's, or none
)

// checkFunction applies the policy to a function named name (lowercase,
// without schema).
func checkFunction(name string) (funcVerdict, string) {
	if reason, ok := deniedReason(name); ok {
		return funcDenied, reason
	}
	if builtinStableFunctions[name] || readOnlyVolatile[name] || newerFunctions[name] {
		return funcAllowed, ""
	}
	if builtinVolatile[name] {
		return funcDenied, "it is a volatile built-in that acts on the server or the session rather than reading data"
	}
	return funcUnknown, ""
}

func deniedReason(name string) (string, bool) {
	if r, ok := deniedFunctions[name]; ok {
		return r, true
	}
	for k, r := range deniedFunctions {
		if !strings.Contains(k, "*") {
			continue
		}
		if matchFamily(k, name) {
			return r, true
		}
	}
	return "", false
}

// matchFamily matches a pattern with '*' wildcards (any run of characters).
func matchFamily(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	rest := name[len(parts[0]):]
	for i, p := range parts[1:] {
		last := i == len(parts)-2
		if last {
			return strings.HasSuffix(rest, p)
		}
		j := strings.Index(rest, p)
		if j < 0 {
			return false
		}
		rest = rest[j+len(p):]
	}
	return true
}

// allowedFunctionNames lists the allowed names, sorted, for "did you mean"
// hints.
func allowedFunctionNames() []string {
	var out []string
	for _, set := range []map[string]bool{builtinStableFunctions, readOnlyVolatile} {
		for n := range set {
			if _, denied := deniedReason(n); !denied {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// allowedTableSamples are the TABLESAMPLE methods built into PostgreSQL.
var allowedTableSamples = wordSet("system bernoulli")

// otherDialects tells a model how to write, in PostgreSQL, functions it
// knows from other databases.
var otherDialects = map[string]string{
	"strftime":          "use to_char(ts, 'YYYY-MM') for text, or date_trunc('month', ts) and EXTRACT(YEAR FROM ts) for dates and numbers",
	"datetime":          "use a timestamp: ts::timestamp, now(), or to_timestamp(text, 'YYYY-MM-DD HH24:MI:SS')",
	"julianday":         "subtract dates (d1 - d2 gives days) or use EXTRACT(EPOCH FROM t1 - t2) / 86400",
	"date_format":       "use to_char(ts, 'YYYY-MM-DD')",
	"datediff":          "subtract dates: d1::date - d2::date gives the days between them; age(t1, t2) gives an interval",
	"dateadd":           "add an interval: ts + INTERVAL '3 days'",
	"date_part":         "use EXTRACT(YEAR FROM ts), or date_part('year', ts)",
	"year":              "use EXTRACT(YEAR FROM ts)",
	"month":             "use EXTRACT(MONTH FROM ts)",
	"day":               "use EXTRACT(DAY FROM ts)",
	"getdate":           "use now() or CURRENT_TIMESTAMP",
	"sysdate":           "use now() or CURRENT_TIMESTAMP",
	"curdate":           "use CURRENT_DATE",
	"ifnull":            "use coalesce(x, y)",
	"isnull":            "use coalesce(x, y), or x IS NULL",
	"nvl":               "use coalesce(x, y)",
	"iif":               "use CASE WHEN cond THEN a ELSE b END",
	"if":                "use CASE WHEN cond THEN a ELSE b END",
	"group_concat":      "use string_agg(x, ', '), or string_agg(x, ', ' ORDER BY x)",
	"listagg":           "use string_agg(x, ', ')",
	"instr":             "use strpos(text, part) or position(part IN text)",
	"locate":            "use strpos(text, part) or position(part IN text)",
	"charindex":         "use strpos(text, part) or position(part IN text)",
	"len":               "use length(text)",
	"ucase":             "use upper(text)",
	"lcase":             "use lower(text)",
	"substr":            "use substr(text, start, count) or substring(text FROM start FOR count)",
	"median":            "use percentile_cont(0.5) WITHIN GROUP (ORDER BY x)",
	"printf":            "use format('%s: %s', a, b) or to_char(number, 'FM999,990.00')",
	"total":             "use coalesce(sum(x), 0)",
	"json_extract":      "use the -> and ->> operators (data->>'key') or jsonb_path_query",
	"json_group_array":  "use json_agg(x)",
	"json_group_object": "use json_object_agg(key, value)",
	"rand":              "use random()",
	"regexp_like":       "use text ~ 'pattern' (or ~* to ignore case), or regexp_like in PostgreSQL 15+",
	"str_to_date":       "use to_date(text, 'YYYY-MM-DD') or to_timestamp(text, 'YYYY-MM-DD HH24:MI:SS')",
	"unix_timestamp":    "use EXTRACT(EPOCH FROM ts)",
	"from_unixtime":     "use to_timestamp(seconds)",
	"last_day":          "use (date_trunc('month', d) + INTERVAL '1 month - 1 day')::date",
	"weekday":           "use EXTRACT(DOW FROM d) (0 is Sunday) or EXTRACT(ISODOW FROM d) (1 is Monday)",
	"dayofweek":         "use EXTRACT(DOW FROM d) (0 is Sunday) or EXTRACT(ISODOW FROM d) (1 is Monday)",
	"quarter":           "use EXTRACT(QUARTER FROM d)",
	"week":              "use EXTRACT(WEEK FROM d)",
	"hour":              "use EXTRACT(HOUR FROM ts)",
	"minute":            "use EXTRACT(MINUTE FROM ts)",
	"truncate":          "use trunc(x, n)",
	"space":             "use repeat(' ', n)",
	"stdev":             "use stddev(x) or stddev_samp(x)",
	"var":               "use variance(x)",
}
