package postgres

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
)

// Values come from PostgreSQL in its text format (what psql shows), and
// become the engine's values: integers (int2, int4, int8, oid) as int64,
// float4 and float8 as float64, numeric as int64 or float64 when it has at
// most 15 significant digits (it reads back the same) and as its exact text
// otherwise,
// boolean as the text "true" or "false", bytea as bytes, NULL as nil, and
// everything else — dates, timestamps, intervals, JSON, arrays, UUIDs — as
// the exact text PostgreSQL writes, never reparsed.

// Type OIDs of PostgreSQL's built-in types (pg_type.oid, fixed).
const (
	oidBool        = 16
	oidBytea       = 17
	oidInt8        = 20
	oidInt2        = 21
	oidInt4        = 23
	oidText        = 25
	oidOID         = 26
	oidFloat4      = 700
	oidFloat8      = 701
	oidBPChar      = 1042
	oidVarchar     = 1043
	oidTime        = 1083
	oidTimestamp   = 1114
	oidTimestamptz = 1184
	oidInterval    = 1186
	oidTimetz      = 1266
	oidBit         = 1560
	oidVarbit      = 1562
	oidNumeric     = 1700
)

// builtinTypeNames are format_type()'s names of the common built-in types.
var builtinTypeNames = map[uint32]string{
	16: "boolean", 17: "bytea", 18: `"char"`, 19: "name", 20: "bigint", 21: "smallint", 23: "integer", 24: "regproc",
	25: "text", 26: "oid", 27: "tid", 28: "xid", 29: "cid", 114: "json", 142: "xml", 600: "point", 601: "lseg",
	602: "path", 603: "box", 604: "polygon", 628: "line", 650: "cidr", 700: "real", 701: "double precision",
	705: "unknown", 718: "circle", 774: "macaddr8", 790: "money", 829: "macaddr", 869: "inet", 1033: "aclitem",
	1042: "character", 1043: "character varying", 1082: "date", 1083: "time without time zone",
	1114: "timestamp without time zone", 1184: "timestamp with time zone", 1186: "interval",
	1266: "time with time zone", 1560: "bit", 1562: "bit varying", 1700: "numeric", 2205: "regclass",
	2206: "regtype", 2249: "record", 2950: "uuid", 3220: "pg_lsn", 3614: "tsvector", 3615: "tsquery",
	3802: "jsonb", 4072: "jsonpath", 4089: "regnamespace", 4096: "regrole", 3904: "int4range",
	3906: "numrange", 3908: "tsrange", 3910: "tstzrange", 3912: "daterange", 3926: "int8range", 5069: "xid8",
	1000: "boolean[]", 1001: "bytea[]", 1005: "smallint[]", 1007: "integer[]", 1009: "text[]", 1014: "character[]",
	1015: "character varying[]", 1016: "bigint[]", 1021: "real[]", 1022: "double precision[]", 1028: "oid[]",
	1182: "date[]", 1115: "timestamp without time zone[]", 1185: "timestamp with time zone[]", 1187: "interval[]",
	1231: "numeric[]", 2951: "uuid[]", 3807: "jsonb[]", 199: "json[]", 1041: "inet[]", 1003: "name[]",
}

type typeKey struct {
	oid uint32
	mod int32
}

// typeNameLocal names a type without the server when it can: the common
// built-ins, with their modifiers (varchar(120), numeric(10,2)).
func typeNameLocal(oid uint32, mod int32) (string, bool) {
	name, ok := builtinTypeNames[oid]
	if !ok {
		return "", false
	}
	if mod < 0 {
		return name, true
	}
	switch oid {
	case oidVarchar, oidBPChar:
		if mod >= 4 {
			return fmt.Sprintf("%s(%d)", name, mod-4), true
		}
	case oidNumeric:
		if mod >= 4 {
			p, s := ((mod-4)>>16)&0xffff, (mod-4)&0xffff
			if s <= p {
				return fmt.Sprintf("numeric(%d,%d)", p, s), true
			}
		}
	case oidTimestamp, oidTimestamptz, oidTime, oidTimetz:
		if mod <= 6 {
			parts := strings.SplitN(name, " ", 2)
			return fmt.Sprintf("%s(%d) %s", parts[0], mod, parts[1]), true
		}
	case oidBit, oidVarbit:
		return fmt.Sprintf("%s(%d)", name, mod), true
	}
	return "", false
}

// typeNamesLocked names the result columns' types, asking the server
// (format_type) for those it has not named before.
func (d *DB) typeNamesLocked(ctx context.Context, fields []pgconn.FieldDescription) []string {
	out := make([]string, len(fields))
	var missing []typeKey
	for i, f := range fields {
		k := typeKey{f.DataTypeOID, f.TypeModifier}
		if n, ok := d.types[k]; ok {
			out[i] = n
		} else if n, ok := typeNameLocal(k.oid, k.mod); ok {
			d.types[k] = n
			out[i] = n
		} else {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		var oids, mods []string
		for _, k := range missing {
			oids = append(oids, strconv.FormatUint(uint64(k.oid), 10))
			mods = append(mods, strconv.FormatInt(int64(k.mod), 10))
		}
		rows, err := d.queryLocked(ctx, `SELECT o, m, pg_catalog.format_type(o, CASE WHEN m < 0 THEN NULL ELSE m END)
			FROM unnest($1::oid[], $2::int4[]) AS t(o, m)`, "{"+strings.Join(oids, ",")+"}", "{"+strings.Join(mods, ",")+"}")
		if err == nil {
			for _, r := range rows {
				o, _ := strconv.ParseUint(r[0], 10, 32)
				m, _ := strconv.ParseInt(r[1], 10, 32)
				d.types[typeKey{uint32(o), int32(m)}] = r[2]
			}
		}
		for i, f := range fields {
			if out[i] == "" {
				out[i] = d.types[typeKey{f.DataTypeOID, f.TypeModifier}]
				if out[i] == "" {
					out[i] = fmt.Sprintf("oid %d", f.DataTypeOID)
				}
			}
		}
	}
	return out
}

// columnsOf makes the result's columns: unique names in the query's order
// (name, name_2…), PostgreSQL's type names, and the declared type where the
// column comes straight from a table.
func (d *DB) columnsOf(ctx context.Context, fields []pgconn.FieldDescription) []engine.Column {
	types := d.typeNamesLocked(ctx, fields)
	origins := d.originsLocked(ctx, fields)
	cols := make([]engine.Column, len(fields))
	for i, f := range fields {
		cols[i] = engine.Column{Name: f.Name, Type: types[i], Origin: origins[i]}
		if f.TableOID != 0 {
			cols[i].DeclType = types[i]
		}
	}
	engine.UniqueNames(cols)
	return cols
}

// originsLocked names the table column each result column comes from
// ("table.column", the table as the schema names it: with its schema when
// it is not on the search path), from the server's own description of the
// result (the relation's oid and the column's number), for the marks of
// sensitive columns; "" for a computed column. It asks the server only
// when the connection has marked columns, and once per relation.
func (d *DB) originsLocked(ctx context.Context, fields []pgconn.FieldDescription) []string {
	out := make([]string, len(fields))
	if !d.HasMarks() {
		return out
	}
	if d.attnames == nil {
		d.attnames = map[uint32]map[uint16]string{}
	}
	var missing []string
	seen := map[uint32]bool{}
	for _, f := range fields {
		if f.TableOID != 0 && d.attnames[f.TableOID] == nil && !seen[f.TableOID] {
			seen[f.TableOID] = true
			missing = append(missing, strconv.FormatUint(uint64(f.TableOID), 10))
		}
	}
	if len(missing) > 0 {
		rows, err := d.queryLocked(ctx, `SELECT a.attrelid, a.attnum, CASE WHEN pg_catalog.pg_table_is_visible(c.oid) THEN c.relname::text
			ELSE n.nspname || '.' || c.relname END, a.attname
			FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
			WHERE a.attrelid = ANY ($1::oid[]) AND a.attnum > 0`, "{"+strings.Join(missing, ",")+"}")
		if err == nil {
			for _, r := range rows {
				o, _ := strconv.ParseUint(r[0], 10, 32)
				n, _ := strconv.ParseUint(r[1], 10, 16)
				if d.attnames[uint32(o)] == nil {
					d.attnames[uint32(o)] = map[uint16]string{}
				}
				d.attnames[uint32(o)][uint16(n)] = r[2] + "." + r[3]
			}
		}
	}
	for i, f := range fields {
		// A relation Querent could not look up leaves "": taken as
		// computed, which a statement reading a marked column makes
		// sensitive.
		if f.TableOID != 0 {
			out[i] = d.attnames[f.TableOID][f.TableAttributeNumber]
		}
	}
	return out
}

// decode turns one value of PostgreSQL's text format into an engine value.
func decode(oid uint32, b []byte) engine.Value {
	if b == nil {
		return nil
	}
	switch oid {
	case oidInt2, oidInt4, oidInt8, oidOID:
		if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return n
		}
	case oidFloat4, oidFloat8:
		if f, err := strconv.ParseFloat(string(b), 64); err == nil {
			return f
		}
	case oidNumeric:
		return decodeNumeric(string(b))
	case oidBool:
		if len(b) == 1 && b[0] == 't' {
			return "true"
		}
		if len(b) == 1 && b[0] == 'f' {
			return "false"
		}
	case oidBytea:
		s := string(b)
		if strings.HasPrefix(s, `\x`) {
			if out, err := hex.DecodeString(s[2:]); err == nil {
				return out
			}
		}
	}
	return string(b)
}

// decodeNumeric keeps a numeric as a float when the float reads back as the
// same number (at most 15 significant digits), else as its exact text.
func decodeNumeric(s string) engine.Value {
	digits := 0
	lead := true
	for _, c := range s {
		switch {
		case c >= '1' && c <= '9':
			lead = false
			digits++
		case c == '0':
			if !lead {
				digits++
			}
		case c == '.', c == '-', c == '+':
		default:
			return s // NaN, Infinity, exponents: as written
		}
	}
	// Trailing zeros after the point are not significant.
	if i := strings.IndexByte(s, '.'); i >= 0 {
		for j := len(s) - 1; j > i && s[j] == '0'; j-- {
			digits--
		}
	}
	if digits > 15 {
		return s
	}
	if !strings.Contains(s, ".") {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return s
	}
	return f
}

// valueBytes is the memory a decoded value takes, for the result caps.
func valueBytes(b []byte) int64 { return int64(len(b)) + 16 }
