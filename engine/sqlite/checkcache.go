package sqlite

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"querent/engine/files"
)

// CheckCache remembers the files that passed PRAGMA quick_check, so that a
// file is checked again only when it changes: the command line opens the
// file anew for every command, and a check reads the whole file (about
// 300 MB/s). The key names the file's path, size, modification time and
// SQLite's own change counter.
type CheckCache interface {
	Passed(key string) bool
	Remember(key string)
}

// checkKey identifies one state of a file for the CheckCache.
func checkKey(abs string, st fs.FileInfo, head []byte) string {
	var counter []byte
	if len(head) >= 100 {
		counter = append(counter, head[24:28]...) // file change counter
		counter = append(counter, head[92:96]...) // version-valid-for
	}
	return fmt.Sprintf("%s|%d|%d|%x", abs, st.Size(), st.ModTime().UnixNano(), counter)
}

// FileCheckCache is a CheckCache kept in a small JSON file in Querent's data
// folder (files.DataDir), written atomically. Failing to read or write it
// only means checking again.
type FileCheckCache struct {
	Path string
	mu   sync.Mutex
}

// maxCheckEntries bounds the cache file; the oldest entries go first.
const maxCheckEntries = 500

func (c *FileCheckCache) load() map[string]time.Time {
	m := map[string]time.Time{}
	b, err := os.ReadFile(c.Path)
	if err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

// Passed reports whether the file state key passed a check before.
func (c *FileCheckCache) Passed(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.load()[key]
	return ok
}

// Remember records that the file state key passed a check.
func (c *FileCheckCache) Remember(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.load()
	m[key] = time.Now().UTC()
	if len(m) > maxCheckEntries {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return m[keys[i]].Before(m[keys[j]]) })
		for _, k := range keys[:len(m)-maxCheckEntries] {
			delete(m, k)
		}
	}
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return
	}
	_ = writeFileAtomic(c.Path, b)
}

// writeFileAtomic writes b to path (creating its folder) so that a reader
// never sees half a file.
func writeFileAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return files.WriteFileAtomic(path, b, 0o600)
}
