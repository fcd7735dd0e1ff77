package preflight

import (
	"fmt"
	"regexp"
	"strconv"
)

// shardNameRE is the name Hugging Face's sharded save gives each shard,
// which carries the shard count: "model-00001-of-00004.safetensors"
// (huggingface_hub's SAFETENSORS_WEIGHTS_FILE_PATTERN
// "model{suffix}.safetensors" formatted with suffix "-{i:05d}-of-{n:05d}",
// split_torch_state_dict_into_shards in serialization/_base.py).
var shardNameRE = regexp.MustCompile(`^(.*)-([0-9]{5})-of-([0-9]{5})\.safetensors$`)

// maxNamedShards bounds the shards a name may claim (a name is user data;
// the largest public checkpoints have a few hundred shards).
const maxNamedShards = 100000

// applyShardNames fills Missing from the shard names alone, for a
// directory without an index: every shard "PREFIX-i-of-N" for i in 1..N
// that is not on disk, for each PREFIX and N seen. Expected is the count
// the names claim.
func (s *shardSet) applyShardNames(have map[string]bool) {
	type series struct {
		prefix string
		n      int
	}
	seen := map[series]bool{}
	for name := range have {
		m := shardNameRE.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[3])
		if n < 1 || n > maxNamedShards {
			continue
		}
		seen[series{m[1], n}] = true
	}
	for sr := range seen {
		s.Expected += sr.n
		for i := 1; i <= sr.n; i++ {
			f := fmt.Sprintf("%s-%05d-of-%05d.safetensors", sr.prefix, i, sr.n)
			if !have[f] {
				s.Missing = append(s.Missing, f)
			}
		}
	}
	sortStrings(s.Missing)
	s.FromNames = len(seen) > 0
}

// missingText says which shards are missing and how vlaunch knows.
func (s shardSet) missingText() string {
	if s.FromNames {
		return fmt.Sprintf("%d of %d shards are missing (no index; the shard names give the count): %s", len(s.Missing), s.Expected, shortList(s.Missing, 5))
	}
	return fmt.Sprintf("%d of %d shards model.safetensors.index.json lists are missing: %s", len(s.Missing), s.Expected, shortList(s.Missing, 5))
}
