package files

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// HashCache remembers the sha256 of files by their quick identity
// (Fingerprint) in a small JSON file in Querent's data folder, written
// atomically, so that a process that ends before its hash of a large file
// does can find the sha256 a longer one computed. Failing to read or write
// it only means hashing again.
type HashCache struct {
	Path string
	mu   sync.Mutex
}

// maxHashEntries bounds the cache file; the oldest entries go first.
const maxHashEntries = 500

type hashEntry struct {
	SHA256 string    `json:"sha256"`
	Time   time.Time `json:"time"`
}

func (c *HashCache) load() map[string]hashEntry {
	m := map[string]hashEntry{}
	if b, err := os.ReadFile(c.Path); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

// Lookup returns the sha256 remembered for the quick identity, or "".
func (c *HashCache) Lookup(quick string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.load()[quick].SHA256
}

// Store remembers the sha256 of the file whose quick identity is quick.
func (c *HashCache) Store(quick, sha256 string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.load()
	if m[quick].SHA256 == sha256 {
		return
	}
	m[quick] = hashEntry{SHA256: sha256, Time: time.Now().UTC()}
	if len(m) > maxHashEntries {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return m[keys[i]].Time.Before(m[keys[j]].Time) })
		for _, k := range keys[:len(m)-maxHashEntries] {
			delete(m, k)
		}
	}
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(c.Path), 0o700) == nil {
		_ = WriteFileAtomic(c.Path, b, 0o600)
	}
}
