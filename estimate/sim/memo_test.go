package sim

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestMemoOncePerKey: concurrent callers of one key get the first call's
// value and f runs once per key; a nil Memo runs f every time.
func TestMemoOncePerKey(t *testing.T) {
	m := NewMemo()
	var calls atomic.Int32
	var wg sync.WaitGroup
	got := make([]int, 8)
	for i := range got {
		wg.Go(func() {
			got[i] = m.Do(i%2, func() any { return 10*int(calls.Add(1)) + i%2 }).(int)
		})
	}
	wg.Wait()
	if n := calls.Load(); n != 2 {
		t.Fatalf("f ran %d times for 2 keys, want 2", n)
	}
	for i, v := range got {
		if v%10 != i%2 || v != got[i%2] {
			t.Errorf("caller %d got %d, want key %d's one value %d", i, v, i%2, got[i%2])
		}
	}
	var none *Memo
	a := none.Do(1, func() any { return int(calls.Add(1)) }).(int)
	b := none.Do(1, func() any { return int(calls.Add(1)) }).(int)
	if a == b {
		t.Errorf("nil Memo shared a value (%d): it memoises nothing", a)
	}
}
