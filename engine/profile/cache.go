package profile

import (
	"context"
	"sync"

	"querent/engine"
)

// Cache keeps profiles and suggestions per database identity (the file's
// sha256 or quick identity, engine.Fingerprinter), so that opening the same
// file again re-uses them; a changed file has another identity and is
// profiled again. A database without an identity is profiled each time.
// Safe for concurrent use.
type Cache struct {
	mu       sync.Mutex
	profiles map[string]*Database
	suggest  map[string][]Suggestion
}

// maxCached bounds the databases a Cache remembers.
const maxCached = 32

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{profiles: map[string]*Database{}, suggest: map[string][]Suggestion{}}
}

// identity is db's cache key, "" when it has none.
func identity(ctx context.Context, db engine.Database, opts Options) string {
	f, ok := db.(engine.Fingerprinter)
	if !ok {
		return ""
	}
	id, err := f.SHA256(ctx)
	if err != nil || id == "" {
		return ""
	}
	return id + "|" + opts.Table
}

// Profile is Profile, re-used while db's identity is the same.
func (c *Cache) Profile(ctx context.Context, db engine.Database, opts Options) (*Database, error) {
	id := identity(ctx, db, opts)
	c.mu.Lock()
	p := c.profiles[id]
	c.mu.Unlock()
	if id != "" && p != nil {
		return p, nil
	}
	p, err := Profile(ctx, db, opts)
	if err != nil {
		return nil, err
	}
	if id != "" && len(p.Skipped) == 0 {
		c.mu.Lock()
		if len(c.profiles) >= maxCached {
			clear(c.profiles)
			clear(c.suggest)
		}
		c.profiles[id] = p
		c.mu.Unlock()
	}
	return p, nil
}

// Suggest is Suggest, re-used while db's identity and the language are
// the same.
func (c *Cache) Suggest(ctx context.Context, db engine.Database, p *Database, language string) ([]Suggestion, error) {
	id := identity(ctx, db, Options{})
	if id != "" {
		id += "|" + language
		c.mu.Lock()
		s, ok := c.suggest[id]
		c.mu.Unlock()
		if ok {
			return s, nil
		}
	}
	s, err := Suggest(ctx, db, p, language, 0)
	if err != nil {
		return nil, err
	}
	if id != "" {
		c.mu.Lock()
		c.suggest[id] = s
		c.mu.Unlock()
	}
	return s, nil
}
