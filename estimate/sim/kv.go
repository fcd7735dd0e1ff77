package sim

import "math"

// KVCost is what a sequence costs of one rank's KV pool at each length n:
// Fixed + Σ Terms[i].Bytes × ceil(min(n, Cap) / Block) bytes (Cap 0: no
// cap), of a pool of KVTokensPerRank × TokenBytes bytes. It has the shape
// of memory.SeqCost, which derives it from the KV layout (state pages,
// sliding windows, packed caches) and which callers convert to it:
// sim.KVCost(report.SeqCost()).
type KVCost struct {
	Fixed      int64
	Terms      []KVTerm
	TokenBytes int64
	// Reserve is taken off the pool for the prompt chunks in flight
	// (memory.SeqCost.Reserve: a windowed group's running count).
	Reserve int64
}

// KVTerm is one cache group's part of KVCost (memory.KVTerm: both alias
// the same struct).
type KVTerm = struct {
	Bytes int64
	Block int
	Cap   int
}

// active says the cost describes a layout (the zero KVCost does not).
func (c KVCost) active() bool { return c.TokenBytes > 0 && (c.Fixed > 0 || len(c.Terms) > 0) }

// kvModel is what a running sequence holds of a rank's KV pool, in the
// pool's units (bytes with Config.KV, else blocks): a fixed part plus,
// per cache group, a page for every block of tokens up to the group's
// cap — memory.SeqCost, the same terms the capacity section counts, so
// that the simulation admits as many sequences as it says fit.
type kvModel struct {
	fixed int
	terms []kvTerm
	// capacity is the pool (math.MaxInt: no limit).
	capacity int
}

type kvTerm struct{ bytes, block, cap int }

// newKVModel is cfg's KV model: Config.KV's terms against KVTokensPerRank
// × its TokenBytes when set, else whole BlockSize-token blocks against
// KVTokensPerRank ÷ BlockSize of them (every group full attention).
func newKVModel(cfg Config) kvModel {
	bs := max(1, cfg.BlockSize)
	m := kvModel{capacity: math.MaxInt}
	if !cfg.KV.active() {
		m.terms = []kvTerm{{bytes: 1, block: bs}}
		if cfg.KVTokensPerRank > 0 {
			m.capacity = cfg.KVTokensPerRank / bs
		}
		return m
	}
	m.fixed = int(cfg.KV.Fixed)
	for _, t := range cfg.KV.Terms {
		if t.Bytes > 0 {
			m.terms = append(m.terms, kvTerm{bytes: int(t.Bytes), block: max(1, t.Block), cap: max(0, t.Cap)})
		}
	}
	if cfg.KVTokensPerRank > 0 {
		m.capacity = int(max(min(int64(cfg.KVTokensPerRank)*cfg.KV.TokenBytes, math.MaxInt/4)-cfg.KV.Reserve, 0))
	}
	return m
}

// units is what a sequence holding n tokens occupies (memory.SeqCost.Bytes).
func (m *kvModel) units(n int) int {
	u := m.fixed
	for i := range m.terms {
		t := &m.terms[i]
		k := n
		if t.cap > 0 {
			k = min(k, t.cap)
		}
		u += t.bytes * ((k + t.block - 1) / t.block)
	}
	return u
}

// upto is the most tokens a sequence holding n tokens can hold without
// taking more of the pool: the next block boundary of a group still
// growing (one whose cap lies beyond that boundary grows no more).
func (m *kvModel) upto(n int) int {
	u := math.MaxInt
	for i := range m.terms {
		t := &m.terms[i]
		if b := (n + t.block - 1) / t.block * t.block; t.cap <= 0 || b < t.cap {
			u = min(u, b)
		}
	}
	return u
}

// MaxRunning is how many sequences of n tokens one rank's KV pool holds
// as the simulation counts them (0 without a KV limit): with Config.KV,
// memory.Report.SequencesFit's figure (with the report's SeqCost).
func MaxRunning(cfg Config, n int) int {
	m := newKVModel(cfg)
	if m.capacity == math.MaxInt {
		return 0
	}
	return m.capacity / max(1, m.units(max(n, 1)))
}
