package resolve

import (
	"slices"
	"sync"
)

// placeMemo keeps recent placements. `vlaunch plan` resolves and checks
// thousands of candidates that share a few hundred layouts on the same
// nodes, and a placement costs O(nodes) (10,000 nodes is a valid spec):
// most of plan's time on a large cluster went to placing the same layout
// again. A Placement's slices are shared between the callers that get
// it: they only read them.
var placeMemo = &placements{m: map[placeKey][]placed{}}

// placementsMax bounds the memo; it is emptied when full. Plan and the
// auto search ask for one layout's placement many times in a row (their
// candidates come layout by layout), so a few entries catch the repeats;
// each holds a slot per node, and 512 of them on 10,000 nodes kept 120 MB
// alive (plan's peak RSS ~530 MB under GOMEMLIMIT=500MiB, #15's bound).
const placementsMax = 16

type placements struct {
	mu sync.Mutex
	m  map[placeKey][]placed
	n  int
}

// placeKey is the layout and a hash of the nodes' GPU counts; entries
// under one key keep the counts to tell collisions apart.
type placeKey struct {
	l    Layout
	hash uint64
}

type placed struct {
	nodeGPUs []int
	p        Placement
	err      error
}

func (c *placements) of(l Layout, nodeGPUs []int) (Placement, error) {
	k := placeKey{l, hashInts(nodeGPUs)}
	c.mu.Lock()
	for _, e := range c.m[k] {
		if slices.Equal(e.nodeGPUs, nodeGPUs) {
			c.mu.Unlock()
			return e.p, e.err
		}
	}
	c.mu.Unlock()
	p, err := placeFresh(l, nodeGPUs)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n >= placementsMax {
		clear(c.m)
		c.n = 0
	}
	c.m[k] = append(c.m[k], placed{slices.Clone(nodeGPUs), p, err})
	c.n++
	return p, err
}

// hashInts is FNV-1a over the values.
func hashInts(xs []int) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range xs {
		h ^= uint64(x)
		h *= 1099511628211
	}
	return h
}
