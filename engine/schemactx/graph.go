package schemactx

// The foreign-key graph: which tables join which, the paths that connect
// a table to those already chosen, and the order that puts referenced
// tables first.

import (
	"sort"
	"strings"

	"querent/engine"
)

// graph is the foreign-key graph of the user's tables, by index.
type graph struct {
	adj  [][]int // undirected neighbours, ascending, no self loops
	refs [][]int // tables i references (directed), ascending, no self loops
}

func buildGraph(tables []*engine.Table) *graph {
	byName := make(map[string]int, len(tables))
	for i, t := range tables {
		k := strings.ToLower(t.Name)
		if _, ok := byName[k]; !ok {
			byName[k] = i
		}
	}
	n := len(tables)
	g := &graph{adj: make([][]int, n), refs: make([][]int, n)}
	adjSet := make([]map[int]bool, n)
	refSet := make([]map[int]bool, n)
	for i := range adjSet {
		adjSet[i] = map[int]bool{}
		refSet[i] = map[int]bool{}
	}
	for i, t := range tables {
		for _, fk := range t.ForeignKeys {
			tn, _ := splitRef(fk.References)
			j, ok := byName[strings.ToLower(tn)]
			if !ok || j == i {
				continue
			}
			refSet[i][j] = true
			adjSet[i][j] = true
			adjSet[j][i] = true
		}
	}
	for i := range tables {
		g.adj[i] = sortedKeys(adjSet[i])
		g.refs[i] = sortedKeys(refSet[i])
	}
	return g
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// pathsTo returns the tables, not yet chosen, on a shortest path from table
// from to each chosen table it is connected to (breadth-first, neighbours in
// schema order, so the paths are deterministic).
func (g *graph) pathsTo(from int, chosen []int, isChosen []bool) []int {
	n := len(g.adj)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -2
	}
	parent[from] = -1
	queue := []int{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range g.adj[u] {
			if parent[v] == -2 {
				parent[v] = u
				queue = append(queue, v)
			}
		}
	}
	var out []int
	seen := map[int]bool{from: true}
	for _, c := range chosen {
		if parent[c] == -2 {
			continue // not connected
		}
		for v := parent[c]; v >= 0 && v != from; v = parent[v] {
			if !isChosen[v] && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	sort.Ints(out)
	return out
}

// topoOrder orders the tables sel so that referenced tables come before
// the tables referencing them; ties and cycles are broken by key (lowest
// first).
func topoOrder(sel []int, g *graph, key func(int) int) []int {
	in := map[int]bool{}
	for _, i := range sel {
		in[i] = true
	}
	pending := map[int]int{} // unplaced referenced tables per table
	for _, i := range sel {
		for _, j := range g.refs[i] {
			if in[j] {
				pending[i]++
			}
		}
	}
	rest := append([]int(nil), sel...)
	sort.Slice(rest, func(a, b int) bool { return key(rest[a]) < key(rest[b]) })
	out := make([]int, 0, len(sel))
	placed := map[int]bool{}
	for len(rest) > 0 {
		pick := 0 // a cycle: the lowest key goes first
		for k, i := range rest {
			if pending[i] == 0 {
				pick = k
				break
			}
		}
		i := rest[pick]
		rest = append(rest[:pick], rest[pick+1:]...)
		out = append(out, i)
		placed[i] = true
		for _, j := range rest {
			for _, r := range g.refs[j] {
				if r == i {
					pending[j]--
				}
			}
		}
	}
	return out
}
