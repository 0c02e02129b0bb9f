package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
)

// catalog caches what the server's catalog says of the functions,
// operators, types and relations that statements' trees name, for the
// server check (servercheck.go). PostgreSQL's own objects (OIDs below
// FirstNormalObjectId) are kept for the connection's life; the database's
// own types for a few seconds (a domain may gain a constraint). It
// survives reconnecting: it belongs to the DB.
type catalog struct {
	mu      sync.Mutex
	procs   map[uint32]procFact
	ops     map[uint32]opFact
	types   map[uint32]typeFact
	typesAt map[uint32]time.Time
	rels    map[uint32]relFact
}

// relFact is what the catalog says of a relation.
type relFact struct {
	name, schema, kind string
}

// userTypeTTL is how long the facts of the database's own types are kept.
const userTypeTTL = 5 * time.Second

func newCatalog() *catalog {
	return &catalog{procs: map[uint32]procFact{}, ops: map[uint32]opFact{}, types: map[uint32]typeFact{},
		typesAt: map[uint32]time.Time{}, rels: map[uint32]relFact{}}
}

// missing lists the refs' OIDs the cache lacks, by kind.
func (c *catalog) missing(refs []ref) (procs, ops, types, rels []uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := map[[2]uint32]bool{}
	add := func(list *[]uint32, k refKind, oid uint32) {
		key := [2]uint32{uint32(k), oid}
		if !seen[key] {
			seen[key] = true
			*list = append(*list, oid)
		}
	}
	for _, r := range refs {
		switch r.kind {
		case refFunc:
			if _, ok := c.procs[r.oid]; !ok {
				add(&procs, refFunc, r.oid)
			}
		case refOp:
			if o, ok := c.ops[r.oid]; !ok {
				add(&ops, refOp, r.oid)
			} else if o.code != 0 {
				if _, ok := c.procs[o.code]; !ok {
					add(&procs, refFunc, o.code)
				}
			}
		case refType, refDomain:
			if r.oid < firstNormalObjectID {
				continue
			}
			if _, ok := c.types[r.oid]; !ok || time.Since(c.typesAt[r.oid]) > userTypeTTL {
				add(&types, refType, r.oid)
			}
		case refRel:
			if r.oid < firstNormalObjectID || r.relKind == "f" {
				if _, ok := c.rels[r.oid]; !ok {
					add(&rels, refRel, r.oid)
				}
			}
		}
	}
	return
}

// lookupSQL reads the facts of the given OIDs in one statement: functions,
// operators (with the function that implements each and whether a
// superuser extended one of its families with functions of the database's
// own), types (their support functions, a domain's base and CHECKs) and
// relations. Its rows are all text: kind, oid, and six fields.
func lookupSQL(versionNum int) string {
	subscript := ""
	if versionNum >= 140000 {
		subscript = "t.typsubscript::pg_catalog.oid, "
	}
	return `SELECT 'f', p.oid::text, p.proname::text, n.nspname::text, coalesce(p.prosrc, ''), p.oid::pg_catalog.regprocedure::text, ''
FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace WHERE p.oid = ANY ($1::pg_catalog.oid[])
UNION ALL
SELECT 'o', o.oid::text, o.oprname::text, n.nspname::text, o.oprcode::pg_catalog.oid::text,
  (EXISTS (SELECT 1 FROM pg_catalog.pg_amop a WHERE a.amopopr = o.oid AND (a.amopfamily >= 16384::pg_catalog.oid
     OR EXISTS (SELECT 1 FROM pg_catalog.pg_amproc s WHERE s.amprocfamily = a.amopfamily AND s.amproc::pg_catalog.oid >= 16384::pg_catalog.oid))))::text, ''
FROM pg_catalog.pg_operator o JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace WHERE o.oid = ANY ($2::pg_catalog.oid[])
UNION ALL
SELECT 't', t.oid::text, pg_catalog.format_type(t.oid, NULL), t.typtype::text,
  pg_catalog.concat_ws(',', t.typinput::pg_catalog.oid, t.typoutput::pg_catalog.oid, t.typreceive::pg_catalog.oid, t.typsend::pg_catalog.oid,
    t.typmodin::pg_catalog.oid, t.typmodout::pg_catalog.oid, t.typanalyze::pg_catalog.oid, ` + subscript + `r.rngcanonical::pg_catalog.oid, r.rngsubdiff::pg_catalog.oid),
  t.typbasetype::text,
  coalesce((SELECT pg_catalog.string_agg(c.conbin::text, chr(30)) FROM pg_catalog.pg_constraint c WHERE c.contypid = t.oid AND c.contype = 'c'), '')
FROM pg_catalog.pg_type t LEFT JOIN pg_catalog.pg_range r ON r.rngtypid = t.oid WHERE t.oid = ANY ($3::pg_catalog.oid[])
UNION ALL
SELECT 'r', c.oid::text, c.relname::text, n.nspname::text, c.relkind::text, '', ''
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = ANY ($4::pg_catalog.oid[])`
}

// lookup reads the facts the cache lacks for refs, on conn (in the
// statement's own transaction, so that they describe what it sees).
func (c *catalog) lookup(ctx context.Context, conn *pgconn.PgConn, versionNum int, refs []ref) error {
	procs, ops, types, rels := c.missing(refs)
	if len(procs)+len(ops)+len(types)+len(rels) == 0 {
		return nil
	}
	params := [][]byte{[]byte(oidArray(procs)), []byte(oidArray(ops)), []byte(oidArray(types)), []byte(oidArray(rels))}
	r := conn.ExecParams(ctx, lookupSQL(versionNum), params, nil, nil, nil).Read()
	if r.Err != nil {
		return r.Err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	for _, row := range r.Rows {
		if len(row) != 7 {
			continue
		}
		oid, ok := parseOID(string(row[1]))
		if !ok {
			continue
		}
		f := func(i int) string { return string(row[i]) }
		switch f(0) {
		case "f":
			c.procs[oid] = procFact{name: f(2), schema: f(3), src: f(4), signature: f(5)}
		case "o":
			code, _ := parseOID(f(4))
			c.ops[oid] = opFact{name: f(2), schema: f(3), code: code, tainted: f(5) == "true"}
		case "t":
			t := typeFact{name: f(2), typtype: f(3)}
			for _, s := range strings.Split(f(4), ",") {
				if v, ok := parseOID(s); ok && v != 0 {
					t.funcs = append(t.funcs, v)
				}
			}
			t.base, _ = parseOID(f(5))
			if f(6) != "" {
				t.checks = strings.Split(f(6), "\x1e")
			}
			c.types[oid], c.typesAt[oid] = t, now
		case "r":
			c.rels[oid] = relFact{name: f(2), schema: f(3), kind: f(4)}
		}
	}
	// What the catalog does not have (dropped meanwhile) is remembered as
	// unknown, so that the judge refuses it rather than asking again.
	for _, o := range procs {
		if _, ok := c.procs[o]; !ok {
			c.procs[o] = procFact{name: "#" + strconv.FormatUint(uint64(o), 10)}
		}
	}
	for _, o := range ops {
		if _, ok := c.ops[o]; !ok {
			c.ops[o] = opFact{name: "#" + strconv.FormatUint(uint64(o), 10), tainted: true}
		}
	}
	for _, o := range types {
		if _, ok := c.types[o]; !ok {
			c.types[o], c.typesAt[o] = typeFact{name: "#" + strconv.FormatUint(uint64(o), 10), notFound: true}, now
		}
	}
	return nil
}

// maxLookupRounds bounds the rounds of lookups for one statement: an
// operator's function, a domain's base type and its CHECKs' own calls each
// need another.
const maxLookupRounds = 6

// checkReading judges the server's reading of a statement: the walk's
// refs resolved with the catalog (looked up on conn when the cache lacks
// them). query and a are the statement as written; prefix is the number
// of characters Querent's wrapper put before it in the text the server
// parsed. It returns a refusal (an *engine.Error) or nil.
func (d *DB) checkReading(ctx context.Context, conn *pgconn.PgConn, query string, a *analysis, prefix int, rd *reading) error {
	pos := func(loc int) int {
		if loc < 0 || a == nil {
			return -1
		}
		c := loc - prefix
		if c < 0 || c > len([]rune(a.sql)) {
			return -1
		}
		return a.start + charToByte(a.sql, c)
	}
	if len(rd.violations) > 0 {
		v := rd.violations[0]
		return engine.QueryErrorf(engine.CodeRefused, query, pos(v.loc),
			"PostgreSQL reads this query with a construct Querent's check does not know (%s), so Querent cannot tell what it runs and does not run it", v.msg).WithHint(
			"write the query with common SQL (SELECT … FROM … JOIN … WHERE … GROUP BY …) and PostgreSQL's built-in functions")
	}
	refs := append([]ref(nil), rd.refs...)
	// Resolve: operators need their functions, types their base types and
	// their domains' CHECKs (whose own calls are refs too).
	var extra []ref
	for round := 0; ; round++ {
		all := append(append([]ref(nil), refs...), extra...)
		if err := d.catalog.lookup(ctx, conn, d.server.versionNum, all); err != nil {
			return err
		}
		more := d.catalog.derived(all)
		if len(more) == len(extra) {
			break
		}
		if round >= maxLookupRounds {
			return engine.QueryErrorf(engine.CodeRefused, query, -1, "the types this query uses are nested too deeply for Querent to check").WithHint(
				"cast the values to PostgreSQL's built-in types")
		}
		extra = more
	}
	sortRefs(refs)
	c := d.catalog
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range refs {
		if err := c.judge(query, pos(r.loc), r, 0); err != nil {
			return err
		}
	}
	return nil
}

// derived lists the refs that the facts of refs add: operators' functions,
// domains' base types, and what domains' CHECK constraints call.
func (c *catalog) derived(refs []ref) []ref {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []ref
	seen := map[[2]uint32]bool{}
	var visit func(r ref, depth int)
	visit = func(r ref, depth int) {
		key := [2]uint32{uint32(r.kind), r.oid}
		if seen[key] || depth > maxLookupRounds {
			return
		}
		seen[key] = true
		switch r.kind {
		case refOp:
			if o, ok := c.ops[r.oid]; ok && o.code != 0 {
				out = append(out, ref{kind: refFunc, oid: o.code, loc: r.loc, via: "operator"})
			}
		case refType, refDomain:
			t, ok := c.types[r.oid]
			if !ok {
				return
			}
			for _, f := range t.funcs {
				out = append(out, ref{kind: refFunc, oid: f, loc: r.loc, via: "type"})
			}
			if t.base >= firstNormalObjectID {
				b := ref{kind: r.kind, oid: t.base, loc: r.loc, via: "domain"}
				out = append(out, b)
				visit(b, depth+1)
			}
			if r.kind == refDomain {
				for _, chk := range t.checks {
					if v, err := parseDump(chk); err == nil {
						sub := &reading{}
						sub.walk(v, false, 0)
						for _, s := range sub.refs {
							s.loc = r.loc
							out = append(out, s)
							visit(s, depth+1)
						}
					}
				}
			}
		}
	}
	for _, r := range refs {
		visit(r, 0)
	}
	return out
}

// judge applies the rules to one resolved ref (the cache's lock held).
func (c *catalog) judge(query string, pos int, r ref, depth int) *engine.Error {
	if depth > maxLookupRounds {
		return engine.QueryErrorf(engine.CodeRefused, query, pos, "the types this query uses are nested too deeply for Querent to check").WithHint(
			"cast the values to PostgreSQL's built-in types")
	}
	switch r.kind {
	case refFunc:
		return judgeFunc(query, pos, r.oid, c.procs[r.oid], r.via)
	case refOp:
		o := c.ops[r.oid]
		if r.oid >= firstNormalObjectID {
			return engine.QueryErrorf(engine.CodeRefused, query, pos,
				"PostgreSQL reads part of this query as the operator %s, this database's own (or an extension's), not one of PostgreSQL's built-in operators, and Querent does not run those: it cannot know what they do", opShown(o)).WithHint(
				"compare values of PostgreSQL's built-in types with its built-in operators: cast the columns (col::text, col::numeric) so that PostgreSQL's own operators are chosen")
		}
		if o.tainted {
			return engine.QueryErrorf(engine.CodeRefused, query, pos,
				"the operator %s belongs to an operator family that this database extended with functions of its own (a superuser's change), which sorting, grouping or hashing would call", opShown(o)).WithHint(
				"ask the database's administrator about the operator classes added to this database; Querent does not run their functions")
		}
		if o.code != 0 {
			if err := judgeFunc(query, pos, o.code, c.procs[o.code], "operator"); err != nil {
				return err
			}
		}
	case refType, refDomain:
		t := c.types[r.oid]
		if t.notFound {
			return engine.QueryErrorf(engine.CodeRefused, query, pos, "the query uses a type that is no longer in the catalog").WithHint("run the query again")
		}
		for _, f := range t.funcs {
			if f >= firstNormalObjectID {
				return engine.QueryErrorf(engine.CodeRefused, query, pos,
					"the type %s has input, output or support functions of this database's own, which Querent does not call", t.name).WithHint(
					"cast its values to a built-in type such as text or numeric in the query, or leave the column out")
			}
		}
		if t.base >= firstNormalObjectID {
			if err := c.judge(query, pos, ref{kind: r.kind, oid: t.base, loc: r.loc, via: "domain"}, depth+1); err != nil {
				return err
			}
		}
		if r.kind == refDomain {
			for _, chk := range t.checks {
				v, err := parseDump(chk)
				if err != nil {
					return engine.QueryErrorf(engine.CodeRefused, query, pos, "the query converts a value to the domain %s, whose CHECK constraint Querent cannot read", t.name).WithHint(
						"leave the cast to %s out, or cast to its base type", t.name)
				}
				sub := &reading{}
				sub.walk(v, false, 0)
				if len(sub.violations) > 0 {
					return engine.QueryErrorf(engine.CodeRefused, query, pos, "the query converts a value to the domain %s, whose CHECK constraint uses a construct Querent does not know (%s)", t.name, sub.violations[0].msg).WithHint(
						"leave the cast to %s out, or cast to its base type", t.name)
				}
				for _, s := range sub.refs {
					if err := c.judge(query, pos, s, depth+1); err != nil {
						return engine.QueryErrorf(engine.CodeRefused, query, pos, "the query converts a value to the domain %s, whose CHECK constraint is not allowed: %s", t.name, err.Message).WithHint(
							"leave the cast to %s out, or cast to its base type", t.name)
					}
				}
			}
		}
	case refTSM:
		if r.oid >= firstNormalObjectID {
			return engine.QueryErrorf(engine.CodeRefused, query, pos, "the TABLESAMPLE method is this database's own, not PostgreSQL's built-in SYSTEM or BERNOULLI").WithHint(
				"use TABLESAMPLE BERNOULLI (10) for a 10%% sample of the rows, or ORDER BY random() LIMIT n")
		}
	case refRel:
		rel := c.rels[r.oid]
		if r.relKind == "f" {
			name := rel.name
			if rel.schema != "" && rel.schema != "public" {
				name = rel.schema + "." + rel.name
			}
			return engine.QueryErrorf(engine.CodeRefused, query, pos,
				"%s is a foreign table: reading it runs its foreign-data wrapper, code outside PostgreSQL's own that Querent cannot check (it may reach other servers or files)", nameOr(name, "the query reads a table that")).WithHint(
				"query the tables stored in this database; ask its administrator for a copy of the foreign data in a local table")
		}
		if r.oid < firstNormalObjectID && rel.schema == "pg_catalog" {
			if what, view := secretRelation(rel.name); what != "" && (view || r.via != "view") {
				return engine.QueryErrorf(engine.CodeRefused, query, pos, "%s is not readable through Querent: it holds %s", rel.name, what).WithHint(
					"query the data; for the roles, pg_roles shows them without their passwords")
			}
		}
	}
	return nil
}

func nameOr(name, fallback string) string {
	if name == "" {
		return fallback
	}
	return name
}

// noticeTree is the LOG message with the rewritten tree.
const noticeTree = "rewritten parse tree:"

// captureTree returns the tree of the last "rewritten parse tree" notice
// among notices, or an error when there is none or it cannot be read.
func captureTree(notices []*pgconn.Notice) (*reading, error) {
	var detail string
	found := 0
	for _, n := range notices {
		if n.Message == noticeTree {
			detail = n.Detail
			found++
		}
	}
	if found != 1 {
		return nil, fmt.Errorf("%w: %d trees", errDumpUnreadable, found)
	}
	s, err := unfoldDump(detail)
	if err != nil {
		return nil, err
	}
	v, err := parseDump(s)
	if err != nil {
		return nil, err
	}
	return readTree(v)
}
