package pd

import (
	"math"

	"github.com/vlaunch/vlaunch/published"
)

// ClientSweep is how a source's client ran its rows one after another on
// one deployment, sending prompts an earlier run had sent (RowPromptReuse).
type ClientSweep struct {
	// Concurrencies are the closed loops' sessions in the order the client
	// ran them on each freshly launched deployment.
	Concurrencies []int
	// PromptsPerSession is each run's requests per session (a run of C
	// sessions sends PromptsPerSession × C prompts).
	PromptsPerSession int
	// Why cites the client's rule.
	Why string
}

// ClientSweeps are the sources whose client repeated prompts across the
// runs of one deployment. Anyscale's run_bm.sh runs vllm bench serve at
// --max-concurrency 4, 8, 16, 32, 48, 64 in that order (its default list),
// --num-prompts 5C, against one deployment that every experiment script
// launches fresh and shuts down after the six runs (experiments/
// pack-vs-spread.sh, pd-ratio-sweep.sh, tp-baselines.sh at 04ba8ab4; the
// results' dates run in that order minutes apart), with --dataset-name
// prefix_repetition, prefix 0, suffix 5,000, one prefix, and no --seed.
// vLLM 0.11.0's client (vllm/benchmarks/datasets.py, PrefixRepetitionRandom
// Dataset) seeds random and numpy with --seed (default 0: add_dataset_parser)
// and draws each suffix in turn with np.random.randint, then shuffles: a run
// of N prompts sends the first N of one fixed sequence, so every run sends
// all the prompts of the runs before it again. The engines ran vLLM's
// defaults (launch_gptoss.py's engine_kwargs: max_model_len and the
// connector only), so prefix caching was on; the same authors'
// horizontal_scaling/README.md turns it off for exactly this reason ("even
// with randomly generated requests if the seed is shared across runs").
var ClientSweeps = map[string]ClientSweep{
	"anyscale-ray-serve-pd": {Concurrencies: []int{4, 8, 16, 32, 48, 64}, PromptsPerSession: 5,
		Why: "run_bm.sh: vllm bench serve 0.11.0, prefix_repetition dataset with the default seed, concurrencies 4, 8, 16, 32, 48, 64 with 5 prompts per session on one deployment"},
}

// RowPromptReuse is the share of row r's requests whose prompt the pool
// instance that served it still held in its prefix cache, for a source
// whose client repeats prompts (ClientSweeps; zero otherwise). Prompt i of
// the run (in the client's draw order) was sent by every earlier run of
// more than i prompts; the router spreads requests over a pool's k
// instances without regard to the prompt (Ray Serve's default
// power-of-two-choices by queue length), so a prompt sent r times before
// is cached on the instance that gets it with probability 1 − (1 − 1/k)^r.
// An instance whose KV cache (kvTokens, KVTokensPerRank of one DP rank,
// which one engine of these rows is) holds fewer tokens than the distinct
// requests it served by the run's end keeps that share of them at most (a
// bound on LRU eviction, which no row here reaches). The prefill engine
// caches the prompt it computed; the decode engine the prompt it read and
// the answer it decoded.
func RowPromptReuse(r published.PDRow, preKVTokens, decKVTokens int64) PromptReuse {
	sw, ok := ClientSweeps[r.Source]
	if !ok || RateLoad(r) || !r.Load.Concurrency.Positive() {
		return PromptReuse{}
	}
	c := r.Load.Concurrency.Int()
	n := r.Load.NumPrompts.Int()
	if n <= 0 {
		n = sw.PromptsPerSession * c
	}
	var earlier []int
	for _, x := range sw.Concurrencies {
		if x == c {
			break
		}
		earlier = append(earlier, sw.PromptsPerSession*x)
	}
	if len(earlier) == len(sw.Concurrencies) {
		return PromptReuse{} // not a run of the sweep
	}
	in, out := r.Workload.InputTokens.Int(), r.Workload.OutputTokens.Int()
	return PromptReuse{
		Prefill: poolReuse(earlier, n, r.Prefill.Instances.Int(), preKVTokens, int64(in+1)),
		Decode:  poolReuse(earlier, n, r.Decode.Instances.Int(), decKVTokens, int64(in+out)),
	}
}

// poolReuse is RowPromptReuse for one pool of k instances: the mean over
// the run's n prompts of the chance that the instance serving prompt i
// holds it, earlier the earlier runs' prompt counts, perRequest the
// tokens an instance keeps cached per request it served.
func poolReuse(earlier []int, n, k int, kvTokens, perRequest int64) float64 {
	k = max(1, k)
	miss := 1 - 1/float64(k)
	var hits, distinct float64
	for i := range n {
		seen := 0
		for _, m := range earlier {
			if m > i {
				seen++
			}
		}
		hits += 1 - math.Pow(miss, float64(seen))
		distinct += 1 - math.Pow(miss, float64(seen+1)) // this run's send included
	}
	share := hits / float64(n)
	if need := distinct * float64(perRequest); kvTokens > 0 && need > float64(kvTokens) {
		share *= float64(kvTokens) / need
	}
	return share
}
