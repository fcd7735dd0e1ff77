package sim

import "sync"

// Memo keeps the values of identical runs within one caller's scope (a
// plan run's P/D candidates share pools: several candidates with one
// decode pool simulate it at the same load). A run is a pure function of
// its key, so handing the first run's value to a later caller changes no
// figure. The zero Memo is not usable; a nil *Memo memoises nothing.
type Memo struct {
	mu    sync.Mutex
	cells map[any]*memoCell
}

// memoCell is one key's value, computed once.
type memoCell struct {
	once sync.Once
	v    any
}

// NewMemo is an empty Memo.
func NewMemo() *Memo { return &Memo{cells: map[any]*memoCell{}} }

// Do returns f's value for key (a comparable value naming everything f's
// result depends on), calling f once per key: a caller asking for a key
// another is computing waits for that value. On a nil Memo it calls f.
func (m *Memo) Do(key any, f func() any) any {
	if m == nil {
		return f()
	}
	m.mu.Lock()
	c, ok := m.cells[key]
	if !ok {
		c = &memoCell{}
		m.cells[key] = c
	}
	m.mu.Unlock()
	c.once.Do(func() { c.v = f() })
	return c.v
}
