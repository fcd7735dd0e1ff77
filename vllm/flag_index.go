package vllm

import "sync"

// flagIndex maps a long flag name (and "no-NAME" for booleans) to its
// entries' places in flagTable, ascending: lookupFlag runs for every flag
// of every generated command and of every candidate `vlaunch plan`
// resolves, and scanning the whole table each time was a tenth of plan's
// time on large clusters.
type flagIndex struct {
	size   int // len(flagTable) when built
	byName map[string][]int
}

var (
	flagIndexMu  sync.Mutex
	flagIndexNow *flagIndex
)

// indexedFlags returns the index of the current table. Tables are extended
// by init functions, so an index built before the last of them ran is
// rebuilt when the table has grown.
func indexedFlags() *flagIndex {
	flagIndexMu.Lock()
	defer flagIndexMu.Unlock()
	if flagIndexNow == nil || flagIndexNow.size != len(flagTable) {
		idx := &flagIndex{size: len(flagTable), byName: map[string][]int{}}
		for i := range flagTable {
			f := &flagTable[i]
			idx.byName[f.Name] = append(idx.byName[f.Name], i)
			if f.Kind == Bool {
				idx.byName["no-"+f.Name] = append(idx.byName["no-"+f.Name], i)
			}
		}
		flagIndexNow = idx
	}
	return flagIndexNow
}
