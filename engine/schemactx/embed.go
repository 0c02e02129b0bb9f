package schemactx

// Embeddings: the reranker that scores tables by their similarity to the
// question, and the cache that spares embedding a schema twice.

import (
	"container/list"
	"context"
	"math"
	"sync"

	"querent/engine"
)

// embedCacheSize bounds the embeddings EmbeddingReranker keeps: at 768
// float32 each, about 6 MB.
const embedCacheSize = 2048

// EmbeddingReranker returns a Reranker that embeds the query and the docs
// with m.Embed(model) and scores each doc by cosine similarity. Doc
// embeddings (and queries') are cached by model and text in a bounded LRU
// (2,048 entries, about 6 MB of 768-dimension vectors), so that questions on
// the same schema embed only the question. Create one per model and keep it;
// it is safe for concurrent use.
func EmbeddingReranker(m engine.Model, model string) Reranker {
	cache := &lruCache{max: embedCacheSize, items: map[string]*list.Element{}, order: list.New()}
	return func(ctx context.Context, query string, docs []string) ([]float64, error) {
		texts := append([]string{query}, docs...)
		vecs := make([][]float32, len(texts))
		var missing []string
		var where []int
		for i, t := range texts {
			if v, ok := cache.get(model + "\x00" + t); ok {
				vecs[i] = v
				continue
			}
			missing = append(missing, t)
			where = append(where, i)
		}
		if len(missing) > 0 {
			got, err := m.Embed(ctx, model, missing)
			if err != nil {
				return nil, err
			}
			if len(got) != len(missing) {
				return nil, engine.Errorf(engine.CodeModelError, "the embedding model returned %d vectors for %d texts", len(got), len(missing))
			}
			for k, i := range where {
				vecs[i] = got[k]
				cache.put(model+"\x00"+texts[i], got[k])
			}
		}
		out := make([]float64, len(docs))
		for i := range docs {
			out[i] = cosine(vecs[0], vecs[i+1])
		}
		return out, nil
	}
}

// cosine is the cosine similarity of a and b; 0 when either is zero or
// their lengths differ.
func cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// lruCache is a small least-recently-used map of embeddings.
type lruCache struct {
	mu    sync.Mutex
	max   int
	items map[string]*list.Element
	order *list.List // front: most recent
}

type lruEntry struct {
	key string
	vec []float32
}

func (c *lruCache) get(key string) ([]float32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry).vec, true
}

func (c *lruCache) put(key string, vec []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		e.Value.(*lruEntry).vec = vec
		c.order.MoveToFront(e)
		return
	}
	c.items[key] = c.order.PushFront(&lruEntry{key: key, vec: vec})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*lruEntry).key)
	}
}
