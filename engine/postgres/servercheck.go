package postgres

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"querent/engine"
)

// The guard's second, independent check: what the server itself made of
// the statement. PostgreSQL calls functions through many forms of syntax —
// f(x), attribute notation x.f, operators, casts, domains' CHECKs, views and
// row-level security policies, SQL/JSON constructs that older versions read
// as plain calls — and resolves every name with the catalog, overloads and
// the search path included. Rather than predicting that resolution, the
// guard asks for it: the statement is parsed (never planned, never run) in
// a transaction with debug_print_rewritten on, and the server sends back
// its rewritten parse tree, every function, operator, type and relation by
// its OID. Only then is the statement run, in the same transaction (its
// relations stay locked, so their definitions cannot change in between).
//
// The rules, judged on that tree:
//   - every node is of a kind the guard knows (a new kind is refused, not
//     guessed);
//   - every query in it is a plain SELECT;
//   - every function called (directly, as an operator's code, an
//     aggregate, a window function, a cast) is a built-in (an OID below
//     FirstNormalObjectId) that the function policy allows by its name;
//   - every operator is a built-in whose code is allowed, and none belongs
//     to an operator family that a superuser extended with functions of
//     the database's own;
//   - a type of the database's own has built-in input, output and support
//     functions, and a cast to a domain checks only allowed functions;
//   - no foreign table (its wrapper is code), and none of the relations
//     that hold the server's secrets (password hashes, its configuration
//     files, other servers' credentials).
// The bodies of PostgreSQL's own views (pg_roles, information_schema…) are
// PostgreSQL's: they are trusted, but for the views that read the server's
// secrets, which are refused.

// paramSublink is PARAM_SUBLINK: a sublink's own output inside its test
// expression (x = ANY (SELECT …)), the only parameter a checked statement's
// tree may hold.
const paramSublink = "2"

// firstNormalObjectID is PostgreSQL's FirstNormalObjectId: every object
// that initdb did not create has an OID at or above it.
const firstNormalObjectID = 16384

// nodeKinds are the node types a rewritten SELECT's tree may hold
// (PostgreSQL 12 to 17). A kind outside this list is refused.
var nodeKinds = wordSet(`
QUERY RANGETBLENTRY RANGETBLFUNCTION TABLESAMPLECLAUSE ALIAS FROMEXPR JOINEXPR RANGETBLREF
TARGETENTRY VAR CONST AGGREF GROUPINGFUNC WINDOWFUNC SUBSCRIPTINGREF FUNCEXPR NAMEDARGEXPR
OPEXPR DISTINCTEXPR NULLIFEXPR SCALARARRAYOPEXPR BOOLEXPR SUBLINK FIELDSELECT RELABELTYPE
COERCEVIAIO ARRAYCOERCEEXPR CONVERTROWTYPEEXPR COLLATEEXPR CASEEXPR CASEWHEN CASETESTEXPR
ARRAYEXPR ROWEXPR ROWCOMPAREEXPR COALESCEEXPR MINMAXEXPR SQLVALUEFUNCTION XMLEXPR NULLTEST
BOOLEANTEST COERCETODOMAIN COERCETODOMAINVALUE SORTGROUPCLAUSE GROUPINGSET WINDOWCLAUSE
COMMONTABLEEXPR CTESEARCHCLAUSE CTECYCLECLAUSE SETOPERATIONSTMT TABLEFUNC RTEPERMISSIONINFO
JSONCONSTRUCTOREXPR JSONRETURNING JSONFORMAT JSONVALUEEXPR JSONISPREDICATE JSONEXPR JSONBEHAVIOR
JSONTABLEPATH JSONTABLEPATHSCAN JSONTABLESIBLINGJOIN
`)

// Relations that hold the server's secrets, refused for every role
// (superusers included): the tables wherever they are named but inside
// PostgreSQL's own views (pg_roles reads pg_authid and masks the
// passwords), the views wherever they appear.
var (
	secretTables = map[string]string{
		"pg_authid":       "the roles' password hashes",
		"pg_user_mapping": "the credentials Querent's role uses on other servers",
		"pg_subscription": "the connection strings, passwords included, of the server's subscriptions",
	}
	secretViews = map[string]string{
		"pg_shadow":              "the roles' password hashes",
		"pg_user_mappings":       "the credentials roles use on other servers",
		"pg_file_settings":       "the server's configuration files",
		"pg_hba_file_rules":      "the server's client authentication file (pg_hba.conf)",
		"pg_ident_file_mappings": "the server's user name map file (pg_ident.conf)",
	}
)

// secretRelation says what a relation of pg_catalog named name holds and
// whether it is a view, or "" when it is not one of the secret ones.
func secretRelation(name string) (what string, view bool) {
	if w, ok := secretTables[name]; ok {
		return w, false
	}
	if w, ok := secretViews[name]; ok {
		return w, true
	}
	return "", false
}

// ref is one thing the tree calls or reads, with where the statement says
// it (a character offset in the parsed text, -1 when unknown).
type ref struct {
	kind refKind
	oid  uint32
	loc  int
	// via names the node that made the call: "FUNCEXPR", "SORTGROUPCLAUSE"…
	via string
	// rel is a relation's name and kind, for relation refs.
	relKind string
}

type refKind int

const (
	refFunc   refKind = iota // a function: FUNCEXPR, AGGREF, WINDOWFUNC, an operator's code
	refOp                    // an operator
	refType                  // a type of the database's own, anywhere
	refDomain                // a type a value is coerced to (a domain's CHECK runs)
	refRel                   // a relation read
	refTSM                   // a TABLESAMPLE method's handler
)

// treeViolation is a rule the tree breaks without needing the catalog.
type treeViolation struct {
	loc int
	msg string
}

// reading is what the walk collected from one tree.
type reading struct {
	refs       []ref
	violations []treeViolation
}

// readTree walks the server's rewritten tree (a list of queries).
func readTree(root *dumpValue) (*reading, error) {
	r := &reading{}
	if root == nil || !root.isList || len(root.list) != 1 || root.list[0].node == nil || root.list[0].node.typ != "QUERY" {
		return nil, errDumpUnreadable
	}
	r.walk(root, false, 0)
	return r, nil
}

// loc reads a node's :location.
func nodeLoc(n *dumpNode) int {
	if s := n.scalar("location"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			return v
		}
	}
	return -1
}

func parseOID(s string) (uint32, bool) {
	v, err := strconv.ParseUint(s, 10, 32)
	return uint32(v), err == nil
}

// walk visits v; trusted is true inside the body of one of PostgreSQL's own
// views, whose functions are PostgreSQL's.
func (r *reading) walk(v *dumpValue, trusted bool, depth int) {
	if v == nil || depth > dumpMaxDepth {
		return
	}
	if v.isList {
		for _, e := range v.list {
			r.walk(e, trusted, depth+1)
		}
		return
	}
	if v.node != nil {
		r.node(v.node, trusted, depth+1)
	}
}

func (r *reading) add(kind refKind, oidText string, loc int, via string) {
	oid, ok := parseOID(oidText)
	if !ok {
		if oidText != "" {
			r.violations = append(r.violations, treeViolation{loc: loc, msg: "unreadable " + via})
		}
		return
	}
	if oid == 0 {
		return
	}
	r.refs = append(r.refs, ref{kind: kind, oid: oid, loc: loc, via: via})
}

func (r *reading) node(n *dumpNode, trusted bool, depth int) {
	if !nodeKinds[n.typ] && !(n.typ == "PARAM" && n.scalar("paramkind") == paramSublink) {
		r.violations = append(r.violations, treeViolation{loc: nodeLoc(n), msg: "node " + n.typ})
		return
	}
	loc := nodeLoc(n)
	switch n.typ {
	case "QUERY":
		if ct := n.scalar("commandType"); ct != "1" {
			r.violations = append(r.violations, treeViolation{loc: -1, msg: "a query that is not a SELECT (commandType " + ct + ")"})
		}
		for _, f := range []string{"hasModifyingCTE", "hasForUpdate"} {
			if n.scalar(f) == "true" {
				r.violations = append(r.violations, treeViolation{loc: -1, msg: f})
			}
		}
		if v := n.field("rowMarks"); v != nil && (v.isList || v.node != nil) {
			r.violations = append(r.violations, treeViolation{loc: -1, msg: "row locks"})
		}
		if v := n.field("utilityStmt"); v != nil && (v.node != nil || v.isList || (len(v.tokens) == 1 && v.tokens[0] != "<>")) {
			r.violations = append(r.violations, treeViolation{loc: -1, msg: "a utility statement"})
		}
	case "RANGETBLENTRY":
		if r.rangeTableEntry(n, trusted, depth) {
			return
		}
	}
	if !trusted {
		switch n.typ {
		case "FUNCEXPR":
			r.add(refFunc, n.scalar("funcid"), loc, n.typ)
		case "AGGREF":
			r.add(refFunc, n.scalar("aggfnoid"), loc, n.typ)
		case "WINDOWFUNC":
			r.add(refFunc, n.scalar("winfnoid"), loc, n.typ)
		case "OPEXPR", "DISTINCTEXPR", "NULLIFEXPR":
			r.add(refOp, n.scalar("opno"), loc, n.typ)
			r.add(refFunc, n.scalar("opfuncid"), loc, n.typ)
		case "SCALARARRAYOPEXPR":
			r.add(refOp, n.scalar("opno"), loc, n.typ)
			for _, f := range []string{"opfuncid", "hashfuncid", "negfuncid"} {
				r.add(refFunc, n.scalar(f), loc, n.typ)
			}
		case "ROWCOMPAREEXPR":
			if v := n.field("opnos"); v != nil {
				for _, t := range oidList(v) {
					r.add(refOp, t, loc, n.typ)
				}
			}
		case "SORTGROUPCLAUSE":
			r.add(refOp, n.scalar("eqop"), loc, n.typ)
			r.add(refOp, n.scalar("sortop"), loc, n.typ)
		case "COERCETODOMAIN", "COERCEVIAIO":
			r.add(refDomain, n.scalar("resulttype"), loc, n.typ)
		case "TABLESAMPLECLAUSE":
			r.add(refTSM, n.scalar("tsmhandler"), loc, n.typ)
		}
		// Every type the tree names: one of the database's own needs its
		// functions checked (its output runs when the rows are sent).
		for _, f := range n.fields {
			if !strings.Contains(strings.ToLower(f.name), "type") {
				continue
			}
			for _, t := range oidList(f.value) {
				if oid, ok := parseOID(t); ok && oid >= firstNormalObjectID {
					r.refs = append(r.refs, ref{kind: refType, oid: oid, loc: loc, via: n.typ})
				}
			}
		}
	}
	for _, f := range n.fields {
		r.walk(f.value, trusted, depth)
	}
}

// oidList reads a scalar OID or an OID list "(o 23 25)".
func oidList(v *dumpValue) []string {
	if v == nil {
		return nil
	}
	if len(v.tokens) == 1 {
		return v.tokens
	}
	if v.isList && len(v.list) > 0 && len(v.list[0].tokens) == 1 && v.list[0].tokens[0] == "o" {
		var out []string
		for _, e := range v.list[1:] {
			if len(e.tokens) == 1 {
				out = append(out, e.tokens[0])
			}
		}
		return out
	}
	return nil
}

// rangeTableEntry records what a range table entry reads and walks a
// view's body as trusted when the view is PostgreSQL's own. It reports
// whether it walked the entry's fields itself.
func (r *reading) rangeTableEntry(n *dumpNode, trusted bool, depth int) bool {
	loc := -1
	switch n.scalar("rtekind") {
	case "0": // a relation
		if relid, ok := parseOID(n.scalar("relid")); ok && relid != 0 && !trusted {
			r.refs = append(r.refs, ref{kind: refRel, oid: relid, loc: loc, via: "RANGETBLENTRY", relKind: n.scalar("relkind")})
		}
	case "1": // a subquery, or a view's body after rewriting
		view := uint32(0)
		if n.scalar("relkind") == "v" {
			// PostgreSQL 16 and later keep the view on its entry.
			view, _ = parseOID(n.scalar("relid"))
		} else if sub := n.field("subquery"); sub != nil && sub.node != nil {
			// PostgreSQL 15 and earlier: the view's body holds the view
			// itself as its first entry (OLD), never read from.
			if rt := sub.node.field("rtable"); rt != nil && rt.isList && len(rt.list) > 0 && rt.list[0].node != nil {
				first := rt.list[0].node
				if first.typ == "RANGETBLENTRY" && first.scalar("rtekind") == "0" && first.scalar("relkind") == "v" && first.scalar("inFromCl") == "false" {
					view, _ = parseOID(first.scalar("relid"))
				}
			}
		}
		if view != 0 {
			r.refs = append(r.refs, ref{kind: refRel, oid: view, loc: loc, via: "view", relKind: "v"})
			if view < firstNormalObjectID {
				for _, f := range n.fields {
					r.walk(f.value, true, depth)
				}
				return true
			}
		}
	}
	return false
}

// procFact is what the catalog says of a function.
type procFact struct {
	name, schema, src string
	// signature is regprocedure's text (public.lower(integer)), for messages.
	signature string
}

// opFact is what the catalog says of an operator.
type opFact struct {
	name, schema string
	code         uint32
	// tainted: it belongs to an operator family extended with support
	// functions that are not built-ins (hashing, sorting with them).
	tainted bool
}

// typeFact is what the catalog says of a type of the database's own.
type typeFact struct {
	name     string // format_type
	typtype  string // b base, c composite, d domain, e enum, p pseudo, r range, m multirange
	funcs    []uint32
	base     uint32   // a domain's base type
	checks   []string // a domain's CHECK constraints, as node dumps
	notFound bool
}

// judgeFunc applies the function policy to a resolved function.
func judgeFunc(query string, pos int, oid uint32, f procFact, via string) *engine.Error {
	shown := f.signature
	if shown == "" {
		shown = f.name + "()"
	}
	if oid >= firstNormalObjectID {
		what := "a function"
		switch via {
		case "OPEXPR", "DISTINCTEXPR", "NULLIFEXPR", "SCALARARRAYOPEXPR":
			what = "an operator's function"
		case "AGGREF":
			what = "an aggregate"
		case "WINDOWFUNC":
			what = "a window function"
		}
		e := engine.QueryErrorf(engine.CodeRefused, query, pos,
			"PostgreSQL reads part of this query as a call of %s, %s of this database's own (or an extension's), not one of PostgreSQL's built-in functions, and Querent does not call those: it cannot know what they do", shown, what)
		if _, builtin := builtinStableFunctions[f.name]; builtin {
			return e.WithHint("the database has its own %s beside the built-in one, and PostgreSQL chose it for these argument types: cast the arguments to the built-in's types (for example %s(col::text)) so that PostgreSQL's own is chosen", f.name, f.name)
		}
		return e.WithHint("write the query with PostgreSQL's built-in functions (aggregates, window, string, date, math, JSON and array functions); note that x.f and (x).f call f(x) when f is not a column")
	}
	verdict, reason := checkFunction(f.name)
	if verdict == funcAllowed {
		// A built-in renamed by a superuser keeps its C symbol.
		if r, denied := deniedReason(strings.ToLower(f.src)); denied && f.src != "" {
			verdict, reason = funcDenied, r
		}
	}
	switch verdict {
	case funcAllowed:
		return nil
	case funcDenied:
		return engine.QueryErrorf(engine.CodeRefused, query, pos, "the function %s is not allowed: %s", shown, reason).WithHint("%s", deniedHint(f.name)+
			"; note that x.f and (x).f call f(x) when f is not a column")
	}
	return engine.QueryErrorf(engine.CodeRefused, query, pos,
		"the function %s is not allowed: it is one of PostgreSQL's internal functions, which queries do not call", shown).WithHint(
		"write the query with PostgreSQL's built-in functions that read data (aggregates, window, string, date, math, JSON and array functions)")
}

// sortRefs orders refs by where the statement names them (unknown last).
func sortRefs(refs []ref) {
	sort.SliceStable(refs, func(i, j int) bool {
		a, b := refs[i].loc, refs[j].loc
		if a < 0 {
			return false
		}
		if b < 0 {
			return true
		}
		return a < b
	})
}

// oidArray writes OIDs as a PostgreSQL array literal for a parameter.
func oidArray(oids []uint32) string {
	parts := make([]string, len(oids))
	for i, o := range oids {
		parts[i] = strconv.FormatUint(uint64(o), 10)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func opShown(o opFact) string {
	if o.schema != "" && o.schema != "pg_catalog" {
		return fmt.Sprintf("OPERATOR(%s.%s)", o.schema, o.name)
	}
	return o.name
}
